#!/bin/sh
# make-seeds.sh BUILD-DIR: (re)write the seed corpora of fuzz_parsers and
# fuzz_tree (corpus/parsers, corpus/tree) from the golden trees and from
# rendered synthetic machines of several kernels.  BUILD-DIR is a fuzz build
# (-Dfuzz=true: it has tests/fuzz/fuzz_seeds) beside a normal one in build/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
seeds=$1/tests/fuzz/fuzz_seeds
uprocfs=${UPROCFS:-$top/build/uprocfs}
tmp=$(mktemp -d /tmp/uprocfs-seeds.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$here/corpus/parsers" "$here/corpus/tree"
for t in "$top"/tests/golden/linux-6.18-*; do
	"$seeds" "$t" "$here/corpus/parsers" "$here/corpus/tree"
done
for spec in cpus=2,tasks=6,seed=1 cpus=4,tasks=10,threads=3,seed=2 cpus=2,tasks=5,seed=3,kernel=3.10 \
	cpus=3,tasks=5,seed=4,kernel=4.18 cpus=2,tasks=5,seed=5,kernel=5.4; do
	"$uprocfs" render --tree "$tmp/$spec" --machine "synth:$spec"
	"$seeds" "$tmp/$spec" "$here/corpus/parsers" "$here/corpus/tree"
done
echo "parsers: $(ls "$here/corpus/parsers" | wc -l) seeds, tree: $(ls "$here/corpus/tree" | wc -l) seeds"
