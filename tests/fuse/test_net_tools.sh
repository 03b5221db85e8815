#!/bin/sh
# test_net_tools.sh - network tools read a synthetic machine's /proc/net
# through `uprocfs run`: psutil (net_io_counters, net_if_stats,
# net_connections), sar -n DEV, netstat -s/-tan/-rn, arp, ss -s, cat, and
# prometheus-node-exporter's netdev, netstat, sockstat, softnet and arp
# collectors.  Tools that ask the kernel through netlink or ioctls (ss -tan,
# netstat -i, psutil's net_if_stats) see the real kernel: that is noted,
# not tested.
#
# TAP.  usage: test_net_tools.sh PATH-TO-uprocfs
# Every process this starts is ended by pid on exit.
set -u

UPROCFS=$1
SPEC=synth:cpus=16,tasks=500,seed=7
. "$(dirname "$0")/../unit/tap.sh"

if [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
	echo "1..0 # SKIP needs root and /dev/fuse"
	exit 0
fi

skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }

# Every process starts inside `run` and ends with it (timeout ends a stuck one).
tmp=$(mktemp -d /tmp/uprocfs-nettools.XXXXXX)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

run() { timeout -k 5 120 "$UPROCFS" run --machine "$SPEC" -- "$@"; }

# The oracle: the same machine rendered without FUSE; a command run on it sees the host's namespace.
"$UPROCFS" render --machine "$SPEC" --tree "$tmp/trees" && ln -s trees/proc "$tmp/tree"
net="$tmp/tree/1/net"
devs=$(tail -n +3 "$net/dev" | cut -d: -f1 | tr -d ' ' | sort | tr '\n' ' ')
lo_rx=$(awk '$1 == "lo:" {print $2}' "$net/dev")
listen=$(awk '$4 == "0A"' "$net/tcp" "$net/tcp6" | wc -l)
inet_rows=$(($(cat "$net/tcp" "$net/tcp6" "$net/udp" "$net/udp6" | wc -l) - 4))
used=$(awk '/^sockets:/ {print $3}' "$net/sockstat")
in_recv=$(awk '/^Ip: [0-9]/ {print $4}' "$net/snmp")
diag "oracle: devices $devs; $listen listening, $inet_rows inet sockets, $used in all"

# --- cat ---------------------------------------------------------------------
run cat /proc/net/dev > "$tmp/dev"
got=$(tail -n +3 "$tmp/dev" | cut -d: -f1 | tr -d ' ' | sort | tr '\n' ' ')
[ "$got" = "$devs" ]; ok $? "cat /proc/net/dev lists the machine's devices ($got)"
head -2 "$net/dev" > "$tmp/header"
head -2 "$tmp/dev" | cmp -s - "$tmp/header"; ok $? "with the kernel's header"
readlink_net=$(run readlink /proc/net)
[ "$readlink_net" = "self/net" ]; ok $? "/proc/net is a symlink to self/net ($readlink_net)"

# --- psutil --------------------------------------------------------------------
if /usr/bin/python3 -c 'import psutil' 2>/dev/null; then
	run /usr/bin/python3 -c '
import psutil
io = psutil.net_io_counters(pernic=True)
print("io", " ".join(sorted(io)))
print("lo", io["lo"].bytes_recv)
print("stats", " ".join(sorted(psutil.net_if_stats())))
c = psutil.net_connections("inet")
print("inet", len(c))
print("listen", sum(1 for x in c if x.status == "LISTEN"))
' > "$tmp/psutil" 2> "$tmp/psutil.err"
	ok $? "psutil runs"
	got=$(awk '$1 == "io" {$1 = ""; print substr($0, 2) " "}' "$tmp/psutil")
	[ "$got" = "$devs" ]; ok $? "psutil.net_io_counters names the machine's devices"
	got=$(awk '$1 == "lo" {print $2}' "$tmp/psutil")
	[ "${got:-0}" -ge "$lo_rx" ]; ok $? "lo's counters come from the machine and grow ($got >= $lo_rx)"
	got=$(awk '$1 == "inet" {print $2}' "$tmp/psutil")
	[ "$got" = "$inet_rows" ]; ok $? "psutil.net_connections('inet') lists the $inet_rows sockets of tcp, tcp6, udp, udp6 ($got)"
	got=$(awk '$1 == "listen" {print $2}' "$tmp/psutil")
	[ "$got" = "$listen" ]; ok $? "of which $listen listen ($got)"
	diag "psutil.net_if_stats (ioctls to the real kernel): $(awk '$1 == "stats"' "$tmp/psutil")"
else
	skip "python3-psutil is not installed"
fi

# --- sysstat, net-tools, iproute2 -------------------------------------------------
if command -v sar > /dev/null; then
	run sar -n DEV 1 1 > "$tmp/sar" 2>&1
	got=$(awk '$1 == "Average:" && $2 != "IFACE" {print $2}' "$tmp/sar" | sort | tr '\n' ' ')
	[ "$got" = "$devs" ]; ok $? "sar -n DEV 1 1 shows the machine's devices ($got)"
	awk '$1 == "Average:" && $2 != "IFACE" && $3 + 0 > 0 {n++} END {exit !n}' "$tmp/sar"
	ok $? "and their packets moving"
else
	skip "sysstat is not installed"
fi
if command -v netstat > /dev/null; then
	run netstat -s > "$tmp/netstat" 2>&1
	got=$(awk '/total packets received/ {print $1; exit}' "$tmp/netstat")
	[ "${got:-0}" -ge "$in_recv" ]; ok $? "netstat -s reads the machine's Ip counters ($got >= $in_recv)"
	got=$(run netstat -tan | grep -c LISTEN)
	[ "$got" = "$listen" ]; ok $? "netstat -tan lists its $listen listening sockets ($got)"
	run netstat -rn | grep -q '^0.0.0.0 *10.0.0.1 '; ok $? "netstat -rn shows its default route via 10.0.0.1"
	run arp -n | grep -q '^10.0.0.1 '; ok $? "arp -n shows its gateway's neighbour entry"
else
	skip "net-tools is not installed"
fi
if command -v ss > /dev/null; then
	got=$(run ss -s | awk '/^Total:/ {print $2}')
	[ "$got" = "$used" ]; ok $? "ss -s takes the total from sockstat ($got sockets)"
fi

# --- prometheus-node-exporter ---------------------------------------------------------
if command -v prometheus-node-exporter > /dev/null; then
	port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	run sh -c "prometheus-node-exporter --web.listen-address=127.0.0.1:$port --collector.disable-defaults \
		--collector.netdev --no-collector.netdev.netlink --collector.netstat --collector.sockstat \
		--collector.softnet --collector.arp > '$tmp/ne.log' 2>&1 & ne=\$!
		for i in 1 2 3 4 5 6 7 8 9 10; do wget -q -O '$tmp/metrics' http://127.0.0.1:$port/metrics && break; sleep 0.3; done
		kill \$ne; wait \$ne" 2> /dev/null
	for c in netdev netstat sockstat softnet arp; do
		grep -q "^node_scrape_collector_success{collector=\"$c\"} 1" "$tmp/metrics"
		ok $? "node_exporter's $c collector succeeds"
	done
	got=$(grep '^node_network_receive_bytes_total' "$tmp/metrics" | sed 's/.*device="\([^"]*\)".*/\1/' | sort | tr '\n' ' ')
	want=$(echo "$devs" | tr ' ' '\n' | grep -vx lo | grep . | sort | tr '\n' ' ')
	[ "$got" = "$want" ]; ok $? "node_exporter's netdev shows the machine's devices but lo ($got)"
else
	skip "prometheus-node-exporter is not installed"
fi

tap_done
