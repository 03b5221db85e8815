#!/bin/sh
# layers.sh - the model and the PSI engine sit below the loader and the
# renderers: nothing in src/machine or src/psi includes load.h or procfs.h.
# (The loader builds models and the renderers print them, so an include the
# other way round would make the layers depend on each other.)
#
# TAP.  usage: layers.sh SOURCE-ROOT
set -u

root=$1
. "$(dirname "$0")/tap.sh"

for dir in src/machine src/psi; do
	for hdr in load.h procfs.h; do
		hits=$(grep -ln "#include \"uprocfs/$hdr\"" "$root/$dir"/*.c "$root/$dir"/*.h 2>/dev/null)
		ok "$([ -z "$hits" ] && echo 0 || echo 1)" "$dir includes no $hdr"
		[ -z "$hits" ] || diag "includes it: $hits"
	done
done
tap_done
