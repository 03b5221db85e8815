#!/bin/sh
# The whole test suite: a normal build, then the same suite under ASan+UBSan,
# then every libFuzzer target for 6 s (a clang build with the sanitizers).
# Ends with the line "N passed, N failed" (test programs over all builds).
set -u

cd "$(dirname "$0")/.."
status=0

# run_suite DIR [MESON-SETUP-ARGS...]; $SUITE, if set, limits the tests run;
# $SETUP_CC, if set, is the compiler of a new build directory; $TARGETS, if
# set, are the only ninja targets built (the suite needs no others).
run_suite() {
	dir=$1
	shift
	rm -f "$dir/meson-logs/testlog.json" # a stale log must not count
	if [ ! -f "$dir/build.ninja" ]; then
		${SETUP_CC:+env CC="$SETUP_CC"} meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 || {
			cat "$dir.setup.log"
			echo "check: meson setup of $dir failed" >&2
			return 1
		}
	fi
	ninja -C "$dir" ${TARGETS:-} || return 1
	meson test -C "$dir" ${TARGETS:+--no-rebuild} --print-errorlogs --num-processes 2 ${SUITE:+--suite "$SUITE"} \
		|| status=1
}

run_suite build || status=1
# The sanitizer run sweeps 4 seeds where the plain run sweeps 10 to 50, and
# its big cases are smaller (UPROCFS_TEST_LIGHT: a 500-task archive in
# test_captures, not 2,000): a seed costs five to ten times as much there,
# and the budget is 15 minutes
# (on the slowest 2-vCPU VMs here, whose syscalls and page faults cost 2-3x).
# It builds only what its tests run (meson-test-prereq): not the benchmarks,
# nor the preload library, which a sanitized build compiles a second time
# from every source, plain, and whose tests are the plain run's.  Line
# tables (-g1) are all a sanitizer's reports use: full -g costs a third of
# the compile.  -O1, as ASan's authors advise: gcc 12 at -O2 spends 14 s
# each on the putter-heavy renderers with the sanitizers, and the whole
# build took 171 s against 99 s here (AMD EPYC VM), for tests 5 % faster.
TARGETS=meson-test-prereq UPROCFS_TEST_SEEDS=4 UPROCFS_TEST_LIGHT=1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	run_suite build-asan -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 -Ddebug=true \
	-Dc_args=-g1 || status=1
# The fuzz suite needs only the libFuzzer targets, not the ~550 objects of
# every tool and test a third time; at -O1, as the sanitizer run.  Its
# compile is most of the stage: about 110 of 160 s here, at -O2 or -O1
# alike on this VM (two runs each), so the targets run 6 s, not 10.
SETUP_CC=clang SUITE=fuzz
TARGETS=$(for f in tests/fuzz/fuzz_*.c; do
	n=$(basename "$f" .c)
	[ "$n" = fuzz_seeds ] || echo "tests/fuzz/$n"
done)
run_suite build-fuzz -Dfuzz=true -Dfuzz_seconds=6 -Db_sanitize=address,undefined -Db_lundef=false \
	-Doptimization=1 -Dc_args=-g1 || status=1
SETUP_CC="" SUITE="" TARGETS=""

# Count the results of both runs from meson's logs (no interpreter needed).
passed=0
failed=0
skipped=0
for d in build build-asan build-fuzz; do
	log="$d/meson-logs/testlog.json"
	if [ ! -f "$log" ]; then
		echo "check: no test log in $d: the build or the run failed"
		failed=$((failed + 1))
		continue
	fi
	p=$(grep -o '"result": "[A-Z]*"' "$log" | grep -c -e '"OK"' -e '"EXPECTEDFAIL"')
	s=$(grep -o '"result": "[A-Z]*"' "$log" | grep -c '"SKIP"')
	t=$(grep -o '"result": "[A-Z]*"' "$log" | grep -c .)
	passed=$((passed + p))
	skipped=$((skipped + s))
	failed=$((failed + t - p - s))
done
[ "$skipped" = 0 ] || echo "($skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
summary=$?
[ $summary = 0 ] || status=1
exit $status
