#!/bin/sh
# test_sysctl_tools.sh - unmodified sysctl, mpstat and procinfo read a
# synthetic machine through `uprocfs run`: /proc/sys as `sysctl -a` walks it
# (every key, no error, the kernel's refusals for writes, write-only and
# unset keys), /proc/interrupts and /proc/softirqs as mpstat reads them.
#
# TAP.  usage: test_sysctl_tools.sh PATH-TO-uprocfs
# Every process and mount this starts is ended by pid / unmounted on exit.
set -u

UPROCFS=$1
SPEC=synth:cpus=16,tasks=500,seed=7
. "$(dirname "$0")/../unit/tap.sh"

if [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
	echo "1..0 # SKIP needs root and /dev/fuse"
	exit 0
fi

tmp=$(mktemp -d /tmp/uprocfs-sysctl.XXXXXX)
cleanup() {
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# `uprocfs run` ends the command's namespaces, and its mount, when the command exits
run() { timeout -k 5 120 "$UPROCFS" run --machine "$SPEC" -- "$@"; }

# The oracle: the same machine rendered without FUSE (keys that read back the same).
# the machine as files: /proc beneath trees/proc (and /sys beneath trees/sys)
"$UPROCFS" render --machine "$SPEC" --tree "$tmp/trees" && ln -s trees/proc "$tmp/tree"
keys=$(find "$tmp/tree/sys" -type f | wc -l)
diag "oracle: $keys readable keys under sys/"

# --- sysctl -a ----------------------------------------------------------------
run sysctl -a > "$tmp/all" 2> "$tmp/all.err"
st=$?
[ "$st" = 0 ]; ok $? "sysctl -a exits 0 (status $st)"
[ ! -s "$tmp/all.err" ]; ok $? "sysctl -a prints no error"
[ -s "$tmp/all.err" ] && diag "$(head -5 "$tmp/all.err")"
# sysctl -a prints a line per line of each value, leaves out the deprecated
# neigh keys, and shows kernel.random.uuid, which no tree holds (it changes)
want=$(find "$tmp/tree/sys" -type f ! -path '*/neigh/*/base_reachable_time' ! -path '*/neigh/*/retrans_time' \
	-exec cat {} + | wc -l)
want=$((want + 1))
got=$(wc -l < "$tmp/all")
[ "$got" = "$want" ]; ok $? "sysctl -a lists every readable key ($got lines, $want expected)"
[ "$got" -gt 1000 ]; ok $? "over a thousand keys"
# the kernel lists each directory in name order and sysctl walks it depth first:
# the order of full paths with the separator sorting before every name byte
find "$tmp/tree/sys" -type f ! -path '*/neigh/*/base_reachable_time' ! -path '*/neigh/*/retrans_time' -size +0 |
	sed "s|^$tmp/tree/sys/||; s|/|\x01|g" | LC_ALL=C sort | sed 's|\x01|/|g' > "$tmp/want_order"
cut -d' ' -f1 "$tmp/all" | uniq | tr . / | grep -vx 'kernel/random/uuid' > "$tmp/got_order"
cmp -s "$tmp/want_order" "$tmp/got_order"
ok $? "sysctl -a walks the directories in the kernel's order (names in byte order, depth first)"
bad=0
for k in kernel/hostname fs/file-max vm/min_free_kbytes net/ipv4/tcp_mem net/core/somaxconn \
	kernel/threads-max vm/overcommit_ratio net/ipv6/conf/eth0/mtu net/ipv4/conf/lo/disable_xfrm; do
	key=$(echo "$k" | tr / .)
	want=$(cat "$tmp/tree/sys/$k")
	got=$(grep "^$key = " "$tmp/all" | sed "s/^$key = //")
	if [ "$got" != "$want" ]; then
		diag "$key: sysctl shows '$got', the machine has '$want'"
		bad=1
	fi
done
ok $bad "sysctl -a shows the machine's values (hostname, file-max, tcp_mem, per-interface keys...)"
grep -q '^kernel\.core_modes = pipe$' "$tmp/all"; ok $? "a multi-line value gives one line per line"

# --- one key, a write ------------------------------------------------------------
host=$(cat "$tmp/tree/sys/kernel/hostname")
got=$(run sysctl kernel.hostname)
[ "$got" = "kernel.hostname = $host" ]; ok $? "sysctl kernel.hostname ($got)"
run sysctl -w kernel.hostname=x > "$tmp/w" 2>&1
st=$?
[ "$st" != 0 ]; ok $? "sysctl -w kernel.hostname=x fails (status $st: $(head -1 "$tmp/w"))"
run sh -c 'echo x > /proc/sys/kernel/hostname' 2> "$tmp/w2"
grep -q "Read-only file system" "$tmp/w2"; ok $? "a write is refused as a read-only file system refuses it"
got=$(run sysctl -n kernel.hostname)
[ "$got" = "$host" ]; ok $? "and the host name stays ($got)"

# --- what even root may not read ----------------------------------------------------
run sh -c 'stat -c %A /proc/sys/vm/drop_caches; cat /proc/sys/vm/drop_caches' > "$tmp/wo" 2>&1
grep -qx -- '--w-------' "$tmp/wo" && grep -q "Permission denied" "$tmp/wo"
ok $? "vm/drop_caches: mode 0200, root's read refused"
run cat /proc/sys/net/ipv6/conf/all/stable_secret > /dev/null 2> "$tmp/eio"
grep -q "Input/output error" "$tmp/eio"; ok $? "an unset stable_secret: EIO"
run sh -c 'stat -c %a /proc/sys/kernel/osrelease /proc/sys/kernel/ns_last_pid /proc/sys/kernel/cad_pid' > "$tmp/modes"
[ "$(tr '\n' ' ' < "$tmp/modes")" = "444 666 600 " ]; ok $? "modes from the tree: 444, 666, 600 ($(tr '\n' ' ' < "$tmp/modes"))"
got=$(run sh -c 'dd if=/proc/sys/fs/file-nr bs=2 2>/dev/null; echo; dd if=/proc/sys/kernel/hostname bs=1 2>/dev/null')
want="$(head -c 2 "$tmp/tree/sys/fs/file-nr")
$host"
[ "$got" = "$want" ]; ok $? "a numeric key answers only a read from offset 0; a string any offset"
got=$(run sh -c 'cat /proc/sys/kernel/random/uuid /proc/sys/kernel/random/uuid /proc/sys/kernel/random/boot_id /proc/sys/kernel/random/boot_id' | sort -u | wc -l)
[ "$got" = 3 ]; ok $? "kernel.random.uuid is new on every read, boot_id is not"

# --- mpstat ---------------------------------------------------------------------
run mpstat -I ALL 1 1 > "$tmp/mpstat" 2>&1
st=$?
[ "$st" = 0 ]; ok $? "mpstat -I ALL 1 1 exits 0"
grep -q "(16 CPU)" "$tmp/mpstat"; ok $? "mpstat counts 16 CPUs"
rows=$(awk '$1 == "Average:" && $2 ~ /^[0-9]+$/' "$tmp/mpstat" | wc -l)
[ "$rows" = 32 ]; ok $? "mpstat prints 16 CPU rows for the irqs and 16 for the softirqs ($rows rows)"
grep -q " 24/s " "$tmp/mpstat" && grep -q "RCU/s" "$tmp/mpstat"
ok $? "mpstat shows the synthetic irqs (24/s ...) and the softirqs"
intr=$(awk '$1 == "Average:" && $2 == "all" && NF == 3 {print $3; exit}' "$tmp/mpstat")
awk -v i="$intr" 'BEGIN {exit !(i + 0 > 16 * 10)}'; ok $? "interrupts per second: $intr (the local timers tick)"

# --- procinfo -------------------------------------------------------------------
# procinfo reads /proc/interrupts first, then /proc/diskstats; it aborts when a file is missing
run procinfo > "$tmp/procinfo" 2>&1
st=$?
if [ -f "$tmp/tree/diskstats" ]; then
	[ "$st" = 0 ]; ok $? "procinfo exits 0 (status $st)"
	grep -q "^irq  24:" "$tmp/procinfo"; ok $? "procinfo lists the synthetic irqs"
else
	ok 0 "procinfo exits 0 # SKIP the machine has no /proc/diskstats yet (status $st)"
	run strace -f -e trace=openat -o "$tmp/pi.trace" procinfo > /dev/null 2>&1
	grep -q '"/proc/interrupts", O_RDONLY) = [0-9]' "$tmp/pi.trace" &&
		grep -q '"/proc/diskstats"' "$tmp/pi.trace"
	ok $? "procinfo reads /proc/interrupts and gets on to /proc/diskstats"
fi

tap_done
