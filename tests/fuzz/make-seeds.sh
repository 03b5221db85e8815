#!/bin/sh
# make-seeds.sh BUILD-DIR [OUT-DIR]: (re)write the seed corpora of
# fuzz_parsers and fuzz_tree (OUT-DIR/parsers, OUT-DIR/tree; OUT-DIR is
# corpus/ by default) from the golden trees and from rendered synthetic
# machines of several kernels.  BUILD-DIR is a build of this tree (it has
# tests/fuzz/fuzz_seeds and uprocfs).  Every tree must load: the suite runs
# this into a temporary directory (test fuzz_seeds).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
seeds=$1/tests/fuzz/fuzz_seeds
uprocfs=$1/uprocfs
tmp=$(mktemp -d /tmp/uprocfs-seeds.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
out=${2:-$here/corpus}
mkdir -p "$out/parsers" "$out/tree"
for t in "$top"/tests/golden/linux-6.18-*; do
	"$seeds" "$t" "$out/parsers" "$out/tree"
done
for spec in cpus=2,tasks=6,seed=1 cpus=4,tasks=10,threads=3,seed=2 cpus=2,tasks=5,seed=3,kernel=3.10 \
	cpus=3,tasks=5,seed=4,kernel=4.18 cpus=2,tasks=5,seed=5,kernel=5.4; do
	"$uprocfs" render --tree "$tmp/$spec" --machine "synth:$spec"
	"$seeds" "$tmp/$spec" "$out/parsers" "$out/tree"
done
echo "parsers: $(ls "$out/parsers" | wc -l) seeds, tree: $(ls "$out/tree" | wc -l) seeds"
