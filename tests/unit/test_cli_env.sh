#!/bin/sh
# test_cli_env.sh - the command line starts itself once more with malloc's
# heap in transparent huge pages (GLIBC_TUNABLES glibc.malloc.hugetlb=1),
# unless UPROCFS_MALLOC_THP=0 or the caller set that tunable; and what it
# starts in turn (`run`'s command) sees the caller's environment as it was.
#
# TAP.  usage: test_cli_env.sh PATH-TO-uprocfs
set -u
U=$1
. "$(dirname "$0")/tap.sh"
M=synth:tasks=40,cpus=2

seen() {	# seen: the GLIBC_TUNABLES and UPROCFS_TUNED_FROM that run's command sees
	"$U" run --machine "$M" -- sh -c 'echo "${GLIBC_TUNABLES-unset}|${UPROCFS_TUNED_FROM-unset}"' 2>&1
}

# started_env: the environment `run` itself runs with, as the kernel keeps it
# (/proc/PID/environ) once it has started itself again.  The run ends on
# its own when its command does: killed while it starts, a run can leave
# its staging directories behind (which test_tools checks for).
started_env() {
	"$U" run --machine "$M" -- sleep 1 > /dev/null 2>&1 &
	run_pid=$!
	tries=0
	# a second start comes before run forks anything: once it has a child, its environment is final
	while [ $tries -lt 200 ] && ! pgrep -P "$run_pid" > /dev/null 2>&1; do
		tries=$((tries + 1))
		sleep 0.02
	done
	tr '\0' '\n' < "/proc/$run_pid/environ" 2> /dev/null
	wait "$run_pid" 2> /dev/null
}

out=$(unset GLIBC_TUNABLES; seen)
[ "$out" = "unset|unset" ]
ok $? "run's command sees no GLIBC_TUNABLES when the caller set none ($out)"

out=$(GLIBC_TUNABLES=glibc.malloc.check=0; export GLIBC_TUNABLES; seen)
[ "$out" = "glibc.malloc.check=0|unset" ]
ok $? "run's command sees the caller's GLIBC_TUNABLES as it was ($out)"

out=$(GLIBC_TUNABLES=; export GLIBC_TUNABLES; seen)
[ "$out" = "|unset" ]
ok $? "an empty GLIBC_TUNABLES stays set and empty ($out)"

if ldd "$U" 2> /dev/null | grep -q 'libasan\|libtsan'; then
	# a sanitizer's allocator is its own: the command line leaves malloc alone
	env=$(unset GLIBC_TUNABLES UPROCFS_MALLOC_THP; started_env)
	! printf '%s\n' "$env" | grep -q 'hugetlb'
	ok $? "sanitizer build: malloc left alone, no second start"
else
	env=$(unset GLIBC_TUNABLES UPROCFS_MALLOC_THP; started_env)
	printf '%s\n' "$env" | grep -qx 'GLIBC_TUNABLES=glibc.malloc.hugetlb=1'
	ok $? "the command line runs with glibc.malloc.hugetlb=1"
	printf '%s\n' "$env" | grep -qx 'UPROCFS_TUNED_FROM=-'
	ok $? "and remembers that the caller set no GLIBC_TUNABLES"
	# glibc 2.36 cuts the string it parsed at the first ':' in place, so
	# environ shows the caller's part; the remembered value is whole
	env=$(GLIBC_TUNABLES=glibc.mem.tagging=0; export GLIBC_TUNABLES; unset UPROCFS_MALLOC_THP; started_env)
	printf '%s\n' "$env" | grep -qx 'GLIBC_TUNABLES=glibc.mem.tagging=0\(:glibc.malloc.hugetlb=1\)\{0,1\}' &&
		printf '%s\n' "$env" | grep -qx 'UPROCFS_TUNED_FROM==glibc.mem.tagging=0'
	ok $? "a caller's tunables are kept, and remembered to be given back"
fi

env=$(UPROCFS_MALLOC_THP=0; export UPROCFS_MALLOC_THP; unset GLIBC_TUNABLES; started_env)
! printf '%s\n' "$env" | grep -q 'hugetlb\|UPROCFS_TUNED_FROM'
ok $? "UPROCFS_MALLOC_THP=0: malloc as the caller had it"

env=$(GLIBC_TUNABLES=glibc.malloc.hugetlb=0; export GLIBC_TUNABLES; unset UPROCFS_MALLOC_THP; started_env)
printf '%s\n' "$env" | grep -qx 'GLIBC_TUNABLES=glibc.malloc.hugetlb=0' &&
	! printf '%s\n' "$env" | grep -q '^UPROCFS_TUNED_FROM='
ok $? "a caller's own glibc.malloc.hugetlb is kept: no second start"
tap_done
