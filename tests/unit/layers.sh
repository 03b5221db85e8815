#!/bin/sh
# layers.sh - the layers point down only (docs/architecture.md): for each
# directory under src/, the headers of layers above it that it must not
# include.  The engine and utilities know nothing of /proc; the model and
# its producers know neither text direction; the renderers print without
# the table, the loader or the transports; the loader parses without them;
# the table sits below the sources, the sources below FUSE.
#
# TAP.  usage: layers.sh SOURCE-ROOT
set -u

root=$1
. "$(dirname "$0")/tap.sh"

# directory|headers it must not include (a grep -E pattern of include paths)
rules='
src/util|uprocfs/|\.\./
src/seq|uprocfs/(machine|load|procfs|pfs_ctx|source|pfs_fuse|psi|sim)\.h
src/machine|uprocfs/(load|procfs|pfs_ctx|source|pfs_fuse)\.h|procfs/|table/|source/|fuse/|synth/
src/psi|uprocfs/(load|procfs|pfs_ctx|source|pfs_fuse|sim)\.h|procfs/|table/|source/|fuse/
src/synth|uprocfs/(load|procfs|pfs_ctx|source|pfs_fuse)\.h|procfs/|table/|source/|fuse/
src/procfs|uprocfs/(load|procfs|source|pfs_fuse|psi|sim)\.h|table/|source/|fuse/|load/|synth/
src/load|uprocfs/(procfs|pfs_ctx|source|pfs_fuse|psi|sim)\.h|procfs/|table/|source/|fuse/|synth/
src/table|uprocfs/(source|pfs_fuse|psi|sim)\.h|source/|fuse/|synth/
src/source|uprocfs/(pfs_fuse|sim)\.h|fuse/|synth/
'

echo "$rules" | while IFS='|' read -r dir forbidden; do
	[ -n "$dir" ] || continue
	hits=$(grep -HnE "#include \"([^\"]*/)?($forbidden)" "$root/$dir"/*.c "$root/$dir"/*.h 2>/dev/null)
	if [ -z "$hits" ]; then
		echo "ok - $dir includes no header of a layer above it"
	else
		echo "not ok - $dir includes a header of a layer above it"
		printf '%s\n' "$hits" | sed "s|$root/||; s/^/# /"
	fi
done > "${TMPDIR:-/tmp}/layers.$$"
while read -r line; do
	case "$line" in
	"ok - "*) ok 0 "${line#ok - }" ;;
	"not ok - "*) ok 1 "${line#not ok - }" ;;
	"# "*) diag "${line#\# }" ;;
	esac
done < "${TMPDIR:-/tmp}/layers.$$"
rm -f "${TMPDIR:-/tmp}/layers.$$"
tap_done
