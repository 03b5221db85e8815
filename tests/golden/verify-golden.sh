#!/bin/sh
# TAP: every golden tree (captured with `uprocfs capture`, or written by hand
# where this machine has no oracle) verifies byte for byte.
# usage: verify-golden.sh PATH-TO-uprocfs GOLDEN-DIR
uprocfs=$1
golden=$2
n=0
fail=0
for tree in "$golden"/*/; do
	[ -d "$tree" ] || continue
	# corpus-*: partial trees of other kernels, file by file (tests/load/test_golden_corpus.c)
	case $(basename "$tree") in corpus-*) continue ;; esac
	n=$((n + 1))
	out=$("$uprocfs" verify --quiet --proc "$tree" 2>&1)
	summary=$(printf '%s\n' "$out" | grep '^verify:')
	case "$summary" in
	*" 0 differ, 0 skipped")
		echo "ok $n - $(basename "$tree"): $summary" ;;
	*)
		echo "not ok $n - $(basename "$tree"): ${summary:-no summary}"
		printf '%s\n' "$out" | head -20 | sed 's/^/# /'
		fail=1 ;;
	esac
done
echo "1..$n"
exit $fail
