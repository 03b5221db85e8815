#!/bin/sh
# The whole test suite: a normal build, then the same suite under ASan+UBSan.
# Ends with the line "N passed, N failed" (test programs over both builds).
set -u

cd "$(dirname "$0")/.."
status=0

run_suite() {
	dir=$1
	shift
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 || {
			cat "$dir.setup.log"
			echo "check: meson setup of $dir failed" >&2
			return 1
		}
	fi
	ninja -C "$dir" || return 1
	meson test -C "$dir" --print-errorlogs --num-processes 2 || status=1
}

run_suite build || status=1
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	run_suite build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized \
	|| status=1

python3 - build build-asan <<'PY'
import json, sys, os
passed = failed = skipped = 0
for d in sys.argv[1:]:
    path = os.path.join(d, "meson-logs", "testlog.json")
    if not os.path.exists(path):
        failed += 1
        print(f"check: no test log in {d}: the build or the run failed")
        continue
    for line in open(path):
        r = json.loads(line).get("result")
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r == "SKIP":
            skipped += 1
        else:
            failed += 1
if skipped:
    print(f"({skipped} skipped)")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
summary=$?
[ $summary = 0 ] || status=1
exit $status
