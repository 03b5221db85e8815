#!/bin/sh
# layers.sh - the model and the PSI engine sit below the loader and the
# renderers: nothing in src/machine or src/psi includes load.h or procfs.h.
# (The loader builds models and the renderers print them, so an include the
# other way round would make the layers depend on each other.)
#
# TAP.  usage: layers.sh SOURCE-ROOT
set -u

root=$1
n=0
failed=0

for dir in src/machine src/psi; do
	for hdr in load.h procfs.h; do
		n=$((n + 1))
		hits=$(grep -ln "#include \"uprocfs/$hdr\"" "$root/$dir"/*.c "$root/$dir"/*.h 2>/dev/null)
		if [ -z "$hits" ]; then
			echo "ok $n - $dir includes no $hdr"
		else
			echo "not ok $n - $dir includes no $hdr"
			printf '%s\n' "$hits" | sed 's/^/# includes it: /'
			failed=1
		fi
	done
done
echo "1..$n"
exit $failed
