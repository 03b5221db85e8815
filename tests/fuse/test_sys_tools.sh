#!/bin/sh
# test_sys_tools.sh - unmodified tools count a synthetic machine's CPUs and
# read its sensors from the /sys `uprocfs run` serves beside /proc: nproc,
# getconf, lscpu, mpstat, htop (in tmux), /sys/bus/cpu, psutil's cpu_count,
# cpu_freq and sensors_temperatures; the machine rendered as files is the oracle.
#
# TAP.  usage: test_sys_tools.sh PATH-TO-uprocfs
# Every process and mount this starts is ended by pid / unmounted on exit.
set -u
# A tmux server of this test's own: tests run in parallel, and a server
# exiting as another test's last session ends fails their new-session.
tmux() { command tmux -L "uprocfs-test-$$" "$@"; }

UPROCFS=$1
SPEC=synth:cpus=16,tasks=500,seed=7
PY=/usr/bin/python3
. "$(dirname "$0")/../unit/tap.sh"

if [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
	echo "1..0 # SKIP needs root and /dev/fuse"
	exit 0
fi

tmp=$(mktemp -d /tmp/uprocfs-systools.XXXXXX)
session="uprocfs-syshtop-$$"
cleanup() {
	tmux kill-session -t "$session" 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/uprocfs-test-$$" # the server's socket, left when it exits
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

run() { timeout -k 5 120 "$UPROCFS" run --machine "$SPEC" -- "$@"; }
have() { command -v "$1" > /dev/null 2>&1; }
skip_ok() { ok 0 "# SKIP $1: $2"; }

# The oracle: the same machine rendered without FUSE (/sys beneath trees/sys).
"$UPROCFS" render --machine "$SPEC" --tree "$tmp/trees" || exit 1
cpu="$tmp/trees/sys/devices/system/cpu"
ncpus=$(ls "$cpu" | grep -c '^cpu[0-9]')
online=$(cat "$cpu/online")
cores=$(cat "$cpu"/cpu[0-9]*/topology/core_cpus_list | sort -u | wc -l)
diag "oracle: $ncpus CPUs (online $online), $cores cores"
[ "$ncpus" = 16 ] && [ "$online" = 0-15 ]; ok $? "the machine has the 16 CPUs its spec asks for"

# --- the C library: nproc, getconf ---------------------------------------------
got=$(run nproc --all)
[ "$got" = "$ncpus" ]; ok $? "nproc --all prints the machine's CPUs ($got)"
got=$(run getconf _NPROCESSORS_ONLN)
[ "$got" = "$ncpus" ]; ok $? "getconf _NPROCESSORS_ONLN prints the machine's online CPUs ($got)"
got=$(run getconf _NPROCESSORS_CONF)
[ "$got" = "$ncpus" ]; ok $? "getconf _NPROCESSORS_CONF prints the machine's CPUs ($got)"

# --- the listing itself --------------------------------------------------------
# uevent has no loader (its text is always empty), so the oracle tree lacks it
{ ls "$cpu"; echo uevent; } | sort > "$tmp/want_ls"
run ls /sys/devices/system/cpu | sort > "$tmp/got_ls"
cmp -s "$tmp/want_ls" "$tmp/got_ls"; ok $? "ls /sys/devices/system/cpu lists the machine's entries, no host one"
[ -s "$tmp/got_ls" ] && diff "$tmp/want_ls" "$tmp/got_ls" | sed -n 's/^[<>]/#&/p' | head -5
got=$(run sh -c 'cat /sys/devices/system/cpu/online; ls /sys/devices/system/cpu/cpu0')
want=$(echo "$online"; ls "$cpu/cpu0"; echo uevent)
[ "$(echo "$got" | sort)" = "$(echo "$want" | sort)" ]
ok $? "online and cpu0/ are the machine's (no cpuidle, no host attribute)"
# what the model has nothing of stays the host's: the other buses and classes
run test -d /sys/bus/pci -a -d /sys/class/tty -a -d /sys/fs/cgroup -a -d /sys/class/net
ok $? "the host's other buses (/sys/bus/pci) and classes (/sys/class/tty) stay beside the machine's"
# the cpu bus lists the machine's CPUs, each a link to its directory
got=$(run sh -c 'for c in /sys/bus/cpu/devices/*; do echo "${c##*/} $(readlink "$c")"; done' | sort)
want=$(cd "$cpu" && for c in cpu[0-9]*; do echo "$c ../../../devices/system/cpu/$c"; done | sort)
[ -n "$got" ] && [ "$got" = "$want" ]; ok $? "/sys/bus/cpu/devices links the machine's $ncpus CPUs, no host one ($(echo "$got" | wc -l))"
run sh -c 'echo 1 > /sys/devices/system/cpu/cpu1/online' 2> /dev/null
[ $? != 0 ]; ok $? "the machine's /sys is read-only"

# --- lscpu, mpstat ---------------------------------------------------------------
if have lscpu; then
	run lscpu > "$tmp/lscpu" 2>&1
	got=$(awk -F: '/^CPU\(s\):/ {gsub(/ /, "", $2); print $2}' "$tmp/lscpu")
	[ "$got" = "$ncpus" ]; ok $? "lscpu: CPU(s): $got"
	got=$(awk -F: '/^On-line CPU\(s\) list:/ {gsub(/ /, "", $2); print $2}' "$tmp/lscpu")
	[ "$got" = "$online" ]; ok $? "lscpu: On-line CPU(s) list: $got"
	tpc=$(awk -F: '/^Thread\(s\) per core:/ {gsub(/ /, "", $2); print $2}' "$tmp/lscpu")
	[ -n "$tpc" ] && [ $((ncpus / tpc)) = "$cores" ]; ok $? "lscpu: $tpc thread(s) per core, as the topology's $cores cores"
else
	skip_ok "lscpu" "util-linux is not installed"
fi
if have mpstat; then
	run mpstat -P ALL 1 1 > "$tmp/mpstat" 2>&1
	got=$(awk '/^Average:/ && $2 ~ /^[0-9]+$/ {n++} END {print n + 0}' "$tmp/mpstat")
	[ "$got" = "$ncpus" ]; ok $? "mpstat -P ALL lists $got CPUs"
else
	skip_ok "mpstat" "sysstat is not installed"
fi

# --- htop ---------------------------------------------------------------------
if have htop && have tmux; then
	tmux new-session -d -s "$session" -x 200 -y 60 "timeout -k 5 60 $UPROCFS run --machine $SPEC -- htop -d 10"
	got=0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		sleep 1
		tmux capture-pane -p -t "$session" > "$tmp/htop" 2> /dev/null
		got=$(grep -oE '(^| )[0-9]+\[' "$tmp/htop" | tr -d ' [' | sort -un | wc -l)
		[ "$got" -ge "$ncpus" ] && break
	done
	tmux kill-session -t "$session" 2> /dev/null
	[ "$got" = "$ncpus" ]; ok $? "htop draws $got CPU meters"
else
	skip_ok "htop" "htop or tmux is not installed"
fi

# --- psutil ---------------------------------------------------------------------
if "$PY" -c 'import psutil' 2> /dev/null; then
	run "$PY" -c '
import psutil
print(psutil.cpu_count(), psutil.cpu_count(logical=False))
f = psutil.cpu_freq()
print("%.3f %.3f %.3f %d" % (f.current, f.min, f.max, len(psutil.cpu_freq(percpu=True))))
for name, temps in sorted(psutil.sensors_temperatures().items()):
    for t in temps:
        print(name, t.label or "-", 0 < t.current < 150)' > "$tmp/ps" 2>&1
	[ "$(sed -n 1p "$tmp/ps")" = "$ncpus $cores" ]; ok $? "psutil cpu_count(), cpu_count(logical=False): $(sed -n 1p "$tmp/ps")"
	pol="$cpu/cpufreq"
	npol=$(ls "$pol" | grep -c '^policy')
	fmin=$(cat "$pol"/policy*/scaling_min_freq | awk '{s += $1} END {printf "%.3f", s / NR / 1000}')
	fmax=$(cat "$pol"/policy*/scaling_max_freq | awk '{s += $1} END {printf "%.3f", s / NR / 1000}')
	set -- $(sed -n 2p "$tmp/ps")
	[ "$#" = 4 ] && [ "$2" = "$fmin" ] && [ "$3" = "$fmax" ] && [ "$4" = "$npol" ] &&
		awk -v c="$1" -v lo="$2" -v hi="$3" 'BEGIN {exit !(c >= lo && c <= hi)}'
	ok $? "psutil cpu_freq(): the policies' min and max ($fmin, $fmax MHz), current within ($(sed -n 2p "$tmp/ps"))"
	# the oracle's sensors: each hwmon's name and its temperatures' labels
	for h in "$tmp"/trees/sys/class/hwmon/hwmon*; do
		name=$(cat "$h/name")
		for t in "$h"/temp*_input; do
			l="${t%_input}_label"
			echo "$name $( [ -f "$l" ] && cat "$l" || echo -) True"
		done
	done | sort > "$tmp/want_temps"
	sed -n '3,$p' "$tmp/ps" | sort > "$tmp/got_temps"
	[ -s "$tmp/want_temps" ] && cmp -s "$tmp/want_temps" "$tmp/got_temps"
	ok $? "psutil sensors_temperatures(): the machine's sensors ($(tr '\n' ';' < "$tmp/got_temps"))"
else
	skip_ok "psutil" "python3-psutil is not installed"
fi

tap_done
