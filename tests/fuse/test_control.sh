#!/bin/sh
# test_control.sh - served tasks behave like processes under `uprocfs run`:
# the command's processes see each other under a synthetic parent; kill,
# renice, taskset, ionice and psutil act on synthetic tasks with the kernel's
# rules and the served files show it; top's k and htop's F9 end a task;
# sysinfo, uname and nproc describe the served machine; killing `uprocfs run`
# leaves nothing behind.
#
# TAP.  usage: test_control.sh PATH-TO-uprocfs PATH-TO-sysinfo_probe
# Every process and mount this starts is ended by pid / unmounted on exit.
set -u
# A tmux server of this test's own: tests run in parallel, and a server
# exiting as another test's last session ends fails their new-session.
tmux() { command tmux -L "uprocfs-test-$$" "$@"; }

UPROCFS=$1
PROBE=$2
SPEC=synth:cpus=16,tasks=500,seed=7
. "$(dirname "$0")/../unit/tap.sh"

if [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
	echo "1..0 # SKIP needs root and /dev/fuse"
	exit 0
fi
PY=/usr/bin/python3
tmp=$(mktemp -d /tmp/uprocfs-control.XXXXXX)
pids=""
cleanup() {
	for p in $pids; do kill -9 "$p" 2>/dev/null; done
	tmux kill-session -t "uprocfs-ctl-$$" 2>/dev/null
	tmux kill-session -t "uprocfs-keep-$$" 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/uprocfs-test-$$" # the server's socket, left when it exits
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

run() { timeout -k 5 120 "$UPROCFS" run --machine "$SPEC" -- "$@"; }
# Wait until the full-screen tool in tmux session $1 shows $2 (a run starts slowly on a loaded machine), at most 30 s.
screen_shows() {
	for i in $(seq 1 60); do
		tmux capture-pane -p -t "$1" 2>/dev/null | grep -q "$2" && return 0
		sleep 0.5
	done
	return 1
}

# the machine as files: /proc beneath trees/proc (and /sys beneath trees/sys)
"$UPROCFS" render --machine "$SPEC" --tree "$tmp/trees" && ln -s trees/proc "$tmp/tree"
cpus=$(grep -c '^cpu[0-9]' "$tmp/tree/stat")
memtotal=$(awk '/^MemTotal:/ {printf "%.0f", $2 * 1024}' "$tmp/tree/meminfo")
release=$("$UPROCFS" render --machine "$SPEC" /proc/sys/kernel/osrelease)
# a root daemon and a user task of the machine, to act on
cron=$(grep -l '^Name:	cron$' "$tmp"/tree/[0-9]*/status | head -1 | xargs dirname | xargs basename)
user_task=$(grep -l '^Uid:	1000	' "$tmp"/tree/[0-9]*/status | head -1 | xargs dirname | xargs basename)
diag "machine: $cpus CPUs, MemTotal $memtotal B, release $release; cron $cron, a user's task $user_task"

# --- the machine describes itself to syscalls ----------------------------------
run sh -c "$PROBE; free -b | awk '/^Mem:/ {print \"free \" \$2}'; uname -r; nproc" > "$tmp/describe"
probe_total=$(awk '/^totalram/ {print $2}' "$tmp/describe")
free_total=$(awk '/^free/ {print $2}' "$tmp/describe")
[ "$probe_total" = "$memtotal" ] && [ "$free_total" = "$memtotal" ]
ok $? "sysinfo(2) and free -b report the machine's memory ($probe_total, $free_total)"
[ "$(sed -n 3p "$tmp/describe")" = "$release" ]; ok $? "uname -r prints the served osrelease"
[ "$(sed -n 4p "$tmp/describe")" = "$cpus" ]; ok $? "nproc prints the machine's CPU count"

# --- the run's processes see each other ----------------------------------------
run sh -c 'ls -d /proc/$$ > /dev/null && read x < /proc/self/stat && echo fine' > "$tmp/self" 2>&1
grep -qx fine "$tmp/self"; ok $? "a shell sees its own pid directory and /proc/self"
run sh -c 'sleep 5 & ps -o pid=,ppid= --ppid $$; kill $!' > "$tmp/kids"
[ "$(wc -l < "$tmp/kids")" -ge 1 ]; ok $? "ps --ppid lists the shell's child"
run strace -f -o /dev/null ps aux > "$tmp/strace" 2>&1
[ "$(grep -c . "$tmp/strace")" -gt 400 ]; ok $? "strace -f ps aux completes"
run sh -c 'pstree -p' > "$tmp/pstree"
grep -q 'sh(3000000)' "$tmp/pstree" && ! grep -q '^sh(3000000)' "$tmp/pstree"
ok $? "pstree shows the command under a synthetic parent"
run timeout 5 atop 1 1 > "$tmp/atop" 2>&1 < /dev/null
grep -q 'PRC' "$tmp/atop"; ok $? "atop starts and shows a sample"

# --- signals --------------------------------------------------------------------
run sh -c "kill -0 $cron && echo alive; kill -0 2999999 2>/dev/null || echo nosuch;
	kill -STOP $cron; echo stopped \$(ps -o stat= -p $cron); kill -CONT $cron; echo continued \$(ps -o stat= -p $cron);
	kill $cron; ps -o pid= -p $cron || echo gone" > "$tmp/signals" 2>&1
grep -qx alive "$tmp/signals"; ok $? "kill -0 of a live synthetic pid succeeds"
grep -qx nosuch "$tmp/signals"; ok $? "kill -0 of a free pid fails (ESRCH)"
grep -q '^stopped T' "$tmp/signals"; ok $? "kill -STOP: ps shows T"
grep -q '^continued [SR]' "$tmp/signals"; ok $? "kill -CONT: running or sleeping again"
grep -qx gone "$tmp/signals"; ok $? "kill (TERM): the task is gone from ps"
run setpriv --reuid=65534 --regid=65534 --clear-groups kill "$cron" > "$tmp/nobody" 2>&1
grep -q 'Operation not permitted' "$tmp/nobody"; ok $? "as nobody, kill of a root task: Operation not permitted"

# --- nice, affinity, io priority ---------------------------------------------------
run sh -c "renice +5 -p $cron > /dev/null; ps -o ni= -p $cron; taskset -p $cron; taskset -p 0x2 $cron > /dev/null;
	taskset -p $cron; grep Cpus_allowed_list /proc/$cron/status; ionice -c2 -n6 -p $cron; ionice -p $cron;
	taskset -p 1" > "$tmp/nice" 2>&1
[ "$(sed -n 1p "$tmp/nice" | tr -d ' ')" = 5 ]; ok $? "renice +5: ps shows nice 5"
sed -n 2p "$tmp/nice" | grep -q 'affinity mask: ffff$'; ok $? "taskset -p prints the model's mask"
sed -n 3p "$tmp/nice" | grep -q 'affinity mask: 2$'; ok $? "taskset -p 0x2 changes it"
grep -q 'Cpus_allowed_list:	1$' "$tmp/nice"; ok $? "status shows the new affinity"
# most threads share one "every CPU" mask: the change is cron's own
grep -q "pid 1's current affinity mask: ffff$" "$tmp/nice"; ok $? "pid 1 keeps every CPU"
grep -q 'best-effort: prio 6' "$tmp/nice"; ok $? "ionice sets and reads the I/O priority"

# --- limits (prlimit64) ---------------------------------------------------------------
# a process with cron's very limits: a synthetic machine's share one interned set, which must stay
twin=$(for f in "$tmp"/tree/[0-9]*/limits; do
	d=$(basename "$(dirname "$f")"); [ "$d" != "$cron" ] && cmp -s "$f" "$tmp/tree/$cron/limits" && echo "$d"
done | head -1)
run sh -c "prlimit --pid $cron --nofile --noheadings --output SOFT,HARD; prlimit --pid $cron --nofile=512:4096;
	prlimit --pid $cron --nofile --noheadings --output SOFT,HARD; grep '^Max open files' /proc/$cron/limits;
	cat /proc/${twin:-1}/limits > $tmp/twin_limits;
	setpriv --reuid=65534 --regid=65534 --clear-groups prlimit --pid $cron --nofile=100:100 || echo refused;
	prlimit --pid $cron --nofile=1:99999999 || echo nr_open" > "$tmp/limits" 2>&1
want=$(awk '/^Max open files/ {print $4, $5}' "$tmp/tree/$cron/limits")
[ "$(sed -n 1p "$tmp/limits" | tr -s ' ' | sed 's/^ //')" = "$want" ]; ok $? "prlimit --pid prints the model's limit ($want)"
[ "$(sed -n 2p "$tmp/limits" | tr -s ' ' | sed 's/^ //')" = "512 4096" ]; ok $? "prlimit --nofile=512:4096 changes it"
grep -q '^Max open files            512                  4096                 files' "$tmp/limits"
ok $? "/proc/PID/limits shows the new limit"
grep -q 'Operation not permitted' "$tmp/limits" && grep -qx refused "$tmp/limits"
ok $? "as nobody, prlimit of a root task: Operation not permitted"
grep -qx nr_open "$tmp/limits"; ok $? "a hard limit of open files above fs.nr_open is refused"
[ -n "$twin" ] && cmp -s "$tmp/twin_limits" "$tmp/tree/$twin/limits"
ok $? "pid ${twin:-none}, which had cron's limits, keeps its own"

# --- psutil, for every task --------------------------------------------------------
run $PY -c '
import psutil
bad = 0
capeff = int([l.split()[1] for l in open("/proc/self/status") if l.startswith("CapEff:")][0], 16)
may_any = bool(capeff >> 24 & 1)
pids = psutil.pids()
for p in psutil.process_iter():
    try:
        p.nice(); p.cpu_affinity(); p.ionice()
        # without CAP_SYS_RESOURCE (containers drop it) only tasks all of whose ids are ours: the kernel rule
        mine = set(p.uids()) == {0} and set(p.gids()) == {0}
        try:
            p.rlimit(psutil.RLIMIT_NOFILE)
            if not (mine or may_any): raise Exception("rlimit allowed without the right")
        except psutil.AccessDenied:
            if mine or may_any: raise
    except psutil.NoSuchProcess:
        pass
    except Exception as e:
        bad += 1
        if bad < 4: print("error", p.pid, repr(e))
print("pids", len(pids), "exists", sum(psutil.pid_exists(p) for p in pids), "bad", bad)
' > "$tmp/psutil" 2>&1
tail -1 "$tmp/psutil" | grep -q 'bad 0$'; ok $? "psutil nice, cpu_affinity, ionice, rlimit work for every task ($(tail -1 "$tmp/psutil"))"
listed=$(awk '/^pids/ {print $2}' "$tmp/psutil"); exist=$(awk '/^pids/ {print $4}' "$tmp/psutil")
[ -n "$listed" ] && [ "$listed" -gt 500 ] && [ "$listed" = "$exist" ]
ok $? "psutil.pid_exists (kill 0) is true for every pid it lists ($exist of $listed)"

# glances counts processes through psutil (pid_exists is kill 0): the machine's, and the run's own few
machine_procs=$(ls -d "$tmp"/tree/[0-9]* | wc -l)
run timeout 60 glances --stdout processcount --stop-after 1 > "$tmp/glances" 2>&1
total=$(sed -n "s/.*'total': \([0-9]*\).*/\1/p" "$tmp/glances" | tail -1)
[ -n "$total" ] && [ "$total" -ge "$machine_procs" ] && [ "$total" -le $((machine_procs + 5)) ]
ok $? "glances counts the machine's processes ($total; the machine has $machine_procs and the run a few)"

# --- top's k and htop's F9 ------------------------------------------------------------
sess="uprocfs-ctl-$$"
# A session that outlives the two below: when the last session ends the tmux
# server exits, and a new-session racing that exit fails ("server exited
# unexpectedly").
tmux new-session -d -s "uprocfs-keep-$$" "sleep 600"
victim=$(grep -l '^Name:	agetty$\|^Name:	rsyslogd$' "$tmp"/tree/[0-9]*/status | head -1 | xargs dirname | xargs basename)
tmux new-session -d -s "$sess" -x 200 -y 50 \
	"$UPROCFS run --machine $SPEC -- sh -c 'top -d 1; ps -o pid= -p $victim > $tmp/top.after 2>&1; echo done >> $tmp/top.after'"
screen_shows "$sess" "PID USER"; sleep 1
tmux send-keys -t "$sess" k; sleep 0.5
tmux send-keys -t "$sess" "$victim" Enter; sleep 0.5
tmux send-keys -t "$sess" Enter; sleep 1.5
tmux send-keys -t "$sess" q
for i in $(seq 1 20); do grep -q done "$tmp/top.after" 2>/dev/null && break; sleep 0.5; done
[ "$(cat "$tmp/top.after" 2>/dev/null)" = done ]; ok $? "top's k ends a synthetic task (pid $victim)"
tmux kill-session -t "$sess" 2>/dev/null

tmux new-session -d -s "$sess" -x 200 -y 50 \
	"$UPROCFS run --machine $SPEC -- sh -c 'htop -p $cron; ps -o pid= -p $cron > $tmp/htop.after 2>&1; echo done >> $tmp/htop.after'"
screen_shows "$sess" "Tasks:"; sleep 1
tmux send-keys -t "$sess" F9; sleep 0.7
tmux send-keys -t "$sess" Enter; sleep 1
tmux send-keys -t "$sess" q
for i in $(seq 1 20); do grep -q done "$tmp/htop.after" 2>/dev/null && break; sleep 0.5; done
[ "$(cat "$tmp/htop.after" 2>/dev/null)" = done ]; ok $? "htop's F9 ends a synthetic task (pid $cron)"
tmux kill-session -t "$sess" 2>/dev/null
tmux kill-session -t "uprocfs-keep-$$" 2>/dev/null

# --- SIGKILL of uprocfs run leaves nothing ------------------------------------------
"$UPROCFS" run --machine "$SPEC" -- sleep 300 &
runner=$!
pids="$pids $runner"
sleep 2
tree=$(ps -o pid= --ppid "$runner"; for c in $(ps -o pid= --ppid "$runner"); do ps -o pid= --ppid "$c";
	for g in $(ps -o pid= --ppid "$c"); do ps -o pid= --ppid "$g"; done; done)
kill -9 "$runner"
sleep 1
left=""
for p in $tree; do
	# a zombie waits for this machine's init to reap it: it runs nothing
	st=$(ps -o stat= -p "$p" 2>/dev/null)
	case "$st" in ""|Z*) ;; *) left="$left $p($st)" ;; esac
done
[ -z "$left" ] && [ -n "$tree" ]; ok $? "SIGKILL of uprocfs run leaves no running process (tree:$(echo $tree), left:$left)"
# the run's tree is mounted on /proc in its own namespace: none may have reached ours
# (other tests' mounts elsewhere may run at the same time)
! grep -q ' /proc fuse.uprocfs ' /proc/mounts; ok $? "and no mount"
tap_done
