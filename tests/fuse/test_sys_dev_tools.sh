#!/bin/sh
# test_sys_dev_tools.sh - unmodified tools read a synthetic machine's block
# devices, network devices and cgroup v2 tree from the /sys `uprocfs run`
# serves: lsblk lists its disks, psutil's disk_io_counters and iostat -d
# agree with its /proc/diskstats, each disk's /sys stat is its diskstats
# line, /sys/class/net lists /proc/net/dev's devices with its counters, and
# the root group's cpu.pressure is /proc/pressure/cpu (the same PSI group).
#
# TAP.  usage: test_sys_dev_tools.sh PATH-TO-uprocfs
# Every process this starts is ended by pid (run ends its own) on exit.
set -u

UPROCFS=$1
SPEC=synth:cpus=16,tasks=500,seed=7
PY=/usr/bin/python3
. "$(dirname "$0")/../unit/tap.sh"

if [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
	echo "1..0 # SKIP needs root and /dev/fuse"
	exit 0
fi

tmp=$(mktemp -d /tmp/uprocfs-sysdev.XXXXXX)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 1' HUP INT PIPE TERM

run() { timeout -k 5 120 "$UPROCFS" run --machine "$SPEC" -- "$@"; }
have() { command -v "$1" > /dev/null 2>&1; }

# The oracle: the same machine rendered as files, /proc and /sys.
"$UPROCFS" render --machine "$SPEC" --tree "$tmp/trees"
disks=$(ls "$tmp/trees/sys/block" | sort | tr '\n' ' ')
diag "oracle: /sys/block has $disks"

# --- lsblk: the disks of /sys/block, their partitions, device-mapper devices on them ---
if have lsblk; then
	run lsblk -rno KNAME,PKNAME > "$tmp/lsblk" 2>&1
	got=$(awk 'NF {print $1}' "$tmp/lsblk" | sort -u | tr '\n' ' ')
	# lsblk leaves out devices of size 0 (unbound loops)
	want=$(cd "$tmp/trees/sys/class/block" && for d in *; do [ "$(cat "$d/size")" != 0 ] && echo "$d"; done |
		sort | tr '\n' ' ')
	[ "$got" = "$want" ]; ok $? "lsblk lists the machine's disks, partitions and device-mapper devices ($got)"
	# a device-mapper device is its slave's child: the holders/ and slaves/ links and /dev/mapper/NAME
	dm=$(cd "$tmp/trees/sys/block" && ls -d dm-* 2>/dev/null | head -1)
	if [ -n "$dm" ]; then
		slave=$(ls "$tmp/trees/sys/block/$dm/slaves")
		grep -qx "$dm $slave" "$tmp/lsblk"
		ok $? "lsblk puts $dm under $slave, its slave ($(grep "^$dm" "$tmp/lsblk" | head -1))"
		name=$(cat "$tmp/trees/sys/block/$dm/dm/name")
		got=$(run readlink "/dev/mapper/$name")
		[ "$got" = "../$dm" ]; ok $? "/dev/mapper/$name is udev's link to ../$dm under run ($got)"
	else
		echo "ok $((n = n + 1)) - lsblk and a device-mapper device # SKIP the machine has none"
	fi
else
	echo "ok $((n = n + 1)) - lsblk # SKIP not installed"
fi

# --- /sys/block/<d>/stat against /proc/diskstats, read back to back ----------
cat > "$tmp/stat.py" << 'EOF'
import os
def diskstats():
    d = {}
    for line in open('/proc/diskstats'):
        f = line.split()
        d[f[2]] = [int(x) for x in f[3:]]
    return d
bad = []
for attempt in range(5):
    bad = []
    before = diskstats()
    sysfs = {n: [int(x) for x in open('/sys/block/%s/stat' % n).read().split()] for n in os.listdir('/sys/block')}
    after = diskstats()
    for n, v in sysfs.items():
        if n not in before or not (before[n] <= v <= after[n] or before[n] == v or v == after[n]):
            bad.append(n)
    if not bad:
        break
print(' '.join(sorted(sysfs)), '|', ' '.join(bad))
EOF
run "$PY" "$tmp/stat.py" > "$tmp/stat" 2>&1
names=$(sed 's/ |.*//' "$tmp/stat")
badn=$(sed 's/.*| *//' "$tmp/stat")
[ "$names " = "$disks" ] && [ -z "$badn" ]; ok $? "each /sys/block/<d>/stat is its /proc/diskstats line ($(cat "$tmp/stat"))"

# --- psutil: disk_io_counters() sums the disks /sys/block names ---------------
cat > "$tmp/ps.py" << 'EOF'
import os, psutil
disks = set(os.listdir('/sys/block'))
for attempt in range(5):
    a = sum(int(l.split()[3]) for l in open('/proc/diskstats') if l.split()[2] in disks)
    p = psutil.disk_io_counters().read_count
    b = sum(int(l.split()[3]) for l in open('/proc/diskstats') if l.split()[2] in disks)
    if a <= p <= b:
        break
print(a, p, b)
EOF
run "$PY" "$tmp/ps.py" > "$tmp/ps" 2>&1
set -- $(cat "$tmp/ps") x x x
[ "$1" != x ] && [ "$1" -le "$2" ] 2>/dev/null && [ "$2" -le "$3" ]; ok $? "psutil disk_io_counters().read_count sums diskstats over /sys/block ($(cat "$tmp/ps"))"

# --- iostat -d: the devices of /proc/diskstats that /sys/block has ------------
if have iostat; then
	run iostat -d 1 1 > "$tmp/iostat" 2>&1
	got=$(awk '/^Device/ {on = 1; next} on && NF {print $1}' "$tmp/iostat" | sort | tr '\n' ' ')
	want=""
	for d in $disks; do
		awk -v d="$d" '$3 == d && ($4 + $8 + $12 + $15 + $17) > 0 {found = 1} END {exit !found}' \
			"$tmp/trees/proc/diskstats" && want="$want$d "
	done
	[ -n "$got" ] && [ "$got" = "$want" ]; ok $? "iostat -d shows the machine's disks with I/O ($got; want $want)"
else
	echo "ok $((n = n + 1)) - iostat -d # SKIP not installed"
fi

# --- network devices: /sys/class/net is /proc/net/dev's devices, with its counters ---
cat > "$tmp/net.py" << 'EOF'
import os
def netdev():
    d = {}
    for line in open('/proc/net/dev').readlines()[2:]:
        name, rest = line.split(':', 1)
        d[name.strip()] = [int(x) for x in rest.split()]
    return d
bad = []
for attempt in range(5):
    bad = []
    before = netdev()
    names = sorted(os.listdir('/sys/class/net'))
    sysfs = {n: (int(open('/sys/class/net/%s/statistics/rx_bytes' % n).read()),
                 int(open('/sys/class/net/%s/statistics/tx_packets' % n).read())) for n in names}
    after = netdev()
    for n, (rx, txp) in sysfs.items():
        if n not in before or not (before[n][0] <= rx <= after[n][0] and before[n][9] <= txp <= after[n][9]):
            bad.append(n)
    if not bad and names == sorted(before):
        break
print(' '.join(names), '|', ' '.join(sorted(before)), '|', ' '.join(bad))
EOF
run "$PY" "$tmp/net.py" > "$tmp/net" 2>&1
IFS='|' read -r nsys nproc nbad < "$tmp/net"
want=$(ls "$tmp/trees/sys/class/net" | sort | tr '\n' ' ')
[ -n "$nsys" ] && [ "$(echo $nsys)" = "$(echo $nproc)" ] && [ "$(echo $nsys)" = "$(echo $want)" ] && [ -z "$(echo $nbad)" ]
ok $? "ls /sys/class/net lists /proc/net/dev's devices; statistics/rx_bytes, tx_packets are its columns ($(cat "$tmp/net"))"

uplink=$(cd "$tmp/trees/sys/class/net" && for d in *; do [ -e "$d/device" ] && echo "$d"; done | head -1)
u="/sys/class/net/$uplink"
run sh -c "cat /sys/class/net/lo/speed; echo \"rc \$?\"; cat /sys/class/net/lo/operstate /sys/class/net/lo/type
	cat $u/speed $u/duplex $u/address $u/mtu $u/flags; readlink $u" > "$tmp/netattr" 2>&1
t="$tmp/trees$u"
want=$(printf 'cat: /sys/class/net/lo/speed: Invalid argument\nrc 1\nunknown\n772\n'
	cat "$t/speed" "$t/duplex" "$t/address" "$t/mtu" "$t/flags"; readlink "$t")
[ -n "$uplink" ] && [ "$(cat "$tmp/netattr")" = "$want" ]
ok $? "lo's speed refuses (EINVAL) as the kernel's; $uplink's speed, duplex, address, mtu, flags and place are the machine's"
[ "$(cat "$tmp/netattr")" = "$want" ] || diag "got $(tr '\n' '|' < "$tmp/netattr") want $(echo "$want" | tr '\n' '|')"

# psutil: net_io_counters reads /proc/net/dev; net_if_stats() asks the host kernel by ioctl (not served)
printf 'import psutil\nprint(" ".join(sorted(psutil.net_io_counters(pernic=True))))\n' > "$tmp/psnet.py"
run "$PY" "$tmp/psnet.py" > "$tmp/psnet" 2>&1
[ "$(cat "$tmp/psnet") " = "$(ls "$tmp/trees/sys/class/net" | sort | tr '\n' ' ')" ]
ok $? "psutil net_io_counters(pernic=True) names the machine's devices ($(cat "$tmp/psnet"))"

# --- cgroup v2: the root's pressure is the system's ---------------------------
cat > "$tmp/psi.py" << 'EOF'
same = False
for attempt in range(10):
    a = open('/proc/pressure/cpu').read()
    b = open('/sys/fs/cgroup/cpu.pressure').read()
    c = open('/proc/pressure/cpu').read()
    if b in (a, c):
        same = True
        break
print('same' if same else 'differ: %r %r' % (a, b))
EOF
run "$PY" "$tmp/psi.py" > "$tmp/psi" 2>&1
grep -qx same "$tmp/psi"; ok $? "/sys/fs/cgroup/cpu.pressure is /proc/pressure/cpu ($(head -c 200 "$tmp/psi"))"

# a child group: its pressure file has the PSI form, and its members' /proc/<pid>/cgroup name it
group=$(cd "$tmp/trees/sys/fs/cgroup" && for d in */; do [ -s "$d/cgroup.procs" ] && echo "${d%/}" && break; done)
if [ -n "$group" ]; then
	run sh -c "cat '/sys/fs/cgroup/$group/cpu.pressure'; for p in \$(cat '/sys/fs/cgroup/$group/cgroup.procs'); do
		grep -q '^0::/$group' /proc/\$p/cgroup 2>/dev/null || echo \"member \$p elsewhere\"; done" > "$tmp/grp" 2>&1
	grep -Eq '^some avg10=[0-9]+\.[0-9]{2} avg60=[0-9]+\.[0-9]{2} avg300=[0-9]+\.[0-9]{2} total=[0-9]+$' "$tmp/grp" &&
		! grep -q elsewhere "$tmp/grp"
	ok $? "/sys/fs/cgroup/$group: cpu.pressure in psi_show's form, its cgroup.procs in the group by /proc/<pid>/cgroup"
else
	echo "ok $((n = n + 1)) - a populated child group # SKIP the machine has none"
fi

tap_done
