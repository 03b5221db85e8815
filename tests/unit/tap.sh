# tap.sh - TAP output for the shell tests, sourced by them (not run).
#
# After `. tap.sh`: `ok STATUS DESCRIPTION` prints "ok N - ..." when STATUS
# is 0 and "not ok N - ..." otherwise (remembering the failure in $failed);
# `diag TEXT...` prints each argument as a "# " line; `tap_done` prints the
# plan and exits 1 if anything failed.

n=0
failed=0

ok() {	# ok COND-STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=1
	fi
}

diag() { printf '%s\n' "$@" | sed 's/^/# /'; }

tap_done() {
	echo "1..$n"
	exit $failed
}
