#!/bin/sh
# test_system_tools.sh - unmodified tools read the rest of a synthetic
# machine through `uprocfs run`: psutil's swap_memory, disk_io_counters and
# disk_partitions, iostat (sysfs and /proc/diskstats), vmstat -d, free,
# procinfo and lsof; the machine-wide files it serves are the oracle's.
#
# What a tool needs that a later issue serves is reported as a SKIP with the
# reason: /proc/self/mounts (the per-process mount table) for lsof and
# disk_partitions, /proc/interrupts for procinfo.  Tools that read
# /sys/block see this host's devices (uprocfs serves /proc only): iostat
# without -p, and the disk filters of vmstat -d and psutil.
#
# TAP.  usage: test_system_tools.sh PATH-TO-uprocfs PATH-TO-fuse_stress
# Every process and mount this starts is ended by pid / unmounted on exit.
set -u

UPROCFS=$1
STRESS=$2
SPEC=synth:cpus=16,tasks=500,seed=7
PY=/usr/bin/python3
. "$(dirname "$0")/../unit/tap.sh"

if [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
	echo "1..0 # SKIP needs root and /dev/fuse"
	exit 0
fi

tmp=$(mktemp -d /tmp/uprocfs-systools.XXXXXX)
daemon=""
mounted=""
cleanup() {
	[ -n "$mounted" ] && fusermount3 -u -z "$mounted" 2>/dev/null
	[ -n "$daemon" ] && kill -9 "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT PIPE TERM

run() { timeout -k 5 120 "$UPROCFS" run --machine "$SPEC" -- "$@"; }
skip_ok() {	# skip_ok DESCRIPTION REASON
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}
have() { command -v "$1" > /dev/null 2>&1; }

# The oracle: the same machine rendered without FUSE or the simulator.
# the machine as files: /proc beneath trees/proc (and /sys beneath trees/sys)
"$UPROCFS" render --machine "$SPEC" --tree "$tmp/trees" && ln -s trees/proc "$tmp/tree"
swap_kb=$(awk '/^SwapTotal:/ {print $2}' "$tmp/tree/meminfo")
devices=$(awk '{print $3}' "$tmp/tree/diskstats" | sort | tr '\n' ' ')
root=$(sed -n 's/.*root=\/dev\/\([^ ]*\).*/\1/p' "$tmp/tree/cmdline")
case "$root" in
mapper/*) rootdev=dm-0 ;; # the root LV: device-mapper's first device
*) rootdev=$root ;;
esac
diag "oracle: devices $devices; root $root ($rootdev); SwapTotal $swap_kb kB"

# --- the served files ------------------------------------------------------
bad=0
for f in swaps partitions filesystems version cmdline devices misc cgroups locks slabinfo buddyinfo zoneinfo; do
	if ! run cat "/proc/$f" > "$tmp/got" 2>&1 || ! cmp -s "$tmp/got" "$tmp/tree/$f"; then
		diag "/proc/$f is not the oracle's"
		bad=1
	fi
done
ok $bad "the static machine-wide files are the machine's (swaps, partitions, ..., zoneinfo)"
[ "$(run readlink /proc/mounts)" = self/mounts ]; ok $? "/proc/mounts is a link to self/mounts"

# The iterators read every way (1-byte reads, random chunks and offsets, lseek 0) give the same bytes.
mkdir "$tmp/mnt"
"$UPROCFS" mount --machine "$SPEC" --foreground "$tmp/mnt" 2> "$tmp/mnt.err" &
daemon=$!
mounted="$tmp/mnt"
for i in 1 2 3 4 5 6 7 8 9 10; do [ -f "$tmp/mnt/loadavg" ] && break; sleep 0.2; done
"$STRESS" chunks "$tmp/mnt" devices partitions locks zoneinfo slabinfo buddyinfo swaps misc filesystems \
	cgroups version cmdline 2> "$tmp/chunks.err"
ok $? "1-byte reads, random chunks and offsets of the system files give the same bytes"
[ -s "$tmp/chunks.err" ] && diag "$(head -5 "$tmp/chunks.err")"
fusermount3 -u "$tmp/mnt" && wait "$daemon"
daemon=""
mounted=""

# --- psutil -------------------------------------------------------------------
if "$PY" -c 'import psutil' 2> /dev/null; then
	out=$(run "$PY" -c 'import psutil; print(psutil.swap_memory().total)')
	[ "$out" = $((swap_kb * 1024)) ]; ok $? "psutil swap_memory(): total is SwapTotal ($out bytes)"
	run "$PY" -c '
import psutil
d = psutil.disk_io_counters(perdisk=True)
print(" ".join(sorted(d)))
print(d["'"$rootdev"'"].read_count)' > "$tmp/psio" 2>&1
	[ "$(head -1 "$tmp/psio") " = "$devices" ]; ok $? "psutil disk_io_counters(perdisk=True): every device of diskstats"
	want=$(awk -v d="$rootdev" '$3 == d {print $4}' "$tmp/tree/diskstats")
	got=$(sed -n 2p "$tmp/psio")
	[ -n "$got" ] && [ "$got" -ge "$want" ]; ok $? "psutil: $rootdev has read at least what it had ($got >= $want)"
	run "$PY" -c 'import psutil; print(psutil.disk_io_counters().read_count)' > "$tmp/pstot" 2>&1
	[ "$(cat "$tmp/pstot")" -ge 0 ] 2> /dev/null
	ok $? "psutil disk_io_counters(): sums the disks /sys/block has ($(cat "$tmp/pstot") reads: this host's sysfs decides which)"
	if run test -r /proc/self/mounts; then
		run "$PY" -c 'import psutil; print(len(psutil.disk_partitions()))' > "$tmp/pspart" 2>&1
		ok $? "psutil disk_partitions(): $(cat "$tmp/pspart") mounts"
	else
		skip_ok "psutil disk_partitions()" "needs /proc/self/mounts (the per-process mount table)"
	fi
else
	skip_ok "psutil" "python3-psutil is not installed"
fi

# --- iostat, vmstat -d, free --------------------------------------------------------
if have iostat; then
	run iostat -x -p ALL 1 2 > "$tmp/iostat" 2>&1; st=$?
	listed=$(awk '/^Device/ {d = 1; next} d && NF > 10 {print $1}' "$tmp/iostat" | sort -u | tr '\n' ' ')
	[ "$st" = 0 ] && [ "$listed" = "$devices" ]; ok $? "iostat -x -p ALL (/proc/diskstats) lists the machine's devices"
	rs=$(awk -v d="$rootdev" '$1 == d {v = $2} END {print v}' "$tmp/iostat")
	awk -v v="$rs" 'BEGIN {exit !(v + 0 > 0)}'; ok $? "iostat: $rootdev reads in the second interval ($rs r/s): the simulator's io waits"
	run iostat -x 1 1 > "$tmp/iostat-sys" 2>&1; st=$?
	[ "$st" = 0 ]; ok $? "iostat -x (/sys/block/*/stat) runs"
	diag "iostat -x without -p reads this host's /sys/block: $(awk '/^Device/ {d = 1; next} d && NF > 10 {printf "%s ", $1}' "$tmp/iostat-sys")"
else
	skip_ok "iostat" "sysstat is not installed"
fi

run vmstat -d > "$tmp/vmd" 2>&1; st=$?
want=$(awk '$3 == "loop0" {print $4}' "$tmp/tree/diskstats")
got=$(awk '$1 == "loop0" {print $2}' "$tmp/vmd")
[ "$st" = 0 ] && [ -n "$got" ] && [ "$got" -ge "$want" ]
ok $? "vmstat -d shows the machine's loop0 ($got reads; its disks are those this host's /sys/block has)"

total=$(run free | awk '/^Swap:/ {print $2}')
[ "$total" = "$swap_kb" ]; ok $? "free: Swap total is SwapTotal ($total kB)"

# --- procinfo, lsof -----------------------------------------------------------------
if ! have procinfo; then
	skip_ok "procinfo" "procinfo is not installed"
elif run test -r /proc/interrupts; then
	run procinfo > "$tmp/procinfo" 2>&1; ok $? "procinfo exits 0"
else
	skip_ok "procinfo" "needs /proc/interrupts (it reads cpuinfo, interrupts, stat, meminfo, vmstat, uptime, loadavg, diskstats)"
fi
if ! have lsof; then
	skip_ok "lsof" "lsof is not installed"
elif run test -r /proc/self/mounts; then
	run lsof -n > "$tmp/lsof" 2>&1; st=$?
	[ "$st" -le 1 ] && [ -s "$tmp/lsof" ]; ok $? "lsof starts and lists open files"
else
	skip_ok "lsof" "needs /proc/mounts -> self/mounts (the per-process mount table)"
fi

tap_done
