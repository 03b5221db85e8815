#!/bin/sh
# run-fuzz.sh TARGET CORPUS-DIR SECONDS: replay the target's regression
# inputs (tests/fuzz/regress/NAME/, every past finding), then fuzz it for
# SECONDS over its seed corpus (read only: new inputs go to a temporary
# directory).  A finding fails the run and leaves its input in
# tests/fuzz/findings/, to be added to regress/ with its fix.
set -u
target=$1
corpus=$2
seconds=$3
work=$(mktemp -d /tmp/uprocfs-fuzz.XXXXXX)
findings=$(dirname "$0")/findings
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$findings"
[ -d "$corpus" ] || corpus=""
regress=$(dirname "$0")/regress/$(basename "$target" | sed 's/^fuzz_//')
if [ -d "$regress" ] && [ -n "$(ls "$regress")" ]; then
	if ! "$target" "$regress"/* > "$work.log" 2>&1; then
		tail -40 "$work.log"
		rm -f "$work.log"
		exit 1
	fi
	echo "regressions: $(ls "$regress" | wc -l) inputs replayed"
fi
"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$findings/$(basename "$target")-" "$work" $corpus 2> "$work.log"
status=$?
grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$work.log"
if [ $status != 0 ]; then
	tail -40 "$work.log"
	rm -f "$work.log"
	exit 1
fi
rm -f "$work.log"
