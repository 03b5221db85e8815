#!/bin/sh
# test_tools.sh - unmodified ps, top, free, vmstat, uptime, pgrep, htop,
# findmnt, pwdx, pmap, lsof, pidstat and psutil read a synthetic machine through
# `uprocfs run`; the live mirror gives the kernel's bytes; the tree survives
# 1-byte reads, random offsets, 8 concurrent readers, a task that exits
# between readdir and open, and an unmount during reads.
#
# TAP.  usage: test_tools.sh PATH-TO-uprocfs PATH-TO-fuse_stress [fuse|preload|uring]
# The third argument is the transport the tools read through: the FUSE mount
# (default), `run --preload`, the library in each tool serving /proc from
# a snapshot (then the checks of `uprocfs mount` itself are left out), or
# the FUSE mount taking its requests over io_uring (--io-uring; the fuse
# module's enable_uring is turned on for the test and back off after).
# Every process and mount this starts is ended by pid / unmounted on exit.
set -u
# A tmux server of this test's own: tests run in parallel, and a server
# exiting as another test's last session ends fails their new-session.
tmux() { command tmux -L "uprocfs-test-$$" "$@"; }

UPROCFS=$1
STRESS=$2
TRANSPORT=${3:-fuse}
SPEC=synth:cpus=16,tasks=500,seed=7
. "$(dirname "$0")/../unit/tap.sh"

if [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
	echo "1..0 # SKIP needs root and /dev/fuse"
	exit 0
fi
uring_param=/sys/module/fuse/parameters/enable_uring
uring_was=""
if [ "$TRANSPORT" = uring ]; then
	if [ ! -w "$uring_param" ]; then
		echo "1..0 # SKIP the kernel has no FUSE over io_uring (CONFIG_FUSE_IO_URING, Linux 6.14+)"
		exit 0
	fi
	uring_was=$(cat "$uring_param")
	echo 1 > "$uring_param"
fi

# the oracle tree holds ~100,000 files: on tmpfs it is written and removed in
# seconds, on this machine's disk in a minute each
shm=/dev/shm
[ -d "$shm" ] && [ -w "$shm" ] || shm=/tmp
tmp=$(mktemp -d "$shm/uprocfs-tools.XXXXXX")
chmod 755 "$tmp"   # other users must reach the allow_other mount inside
daemons=""
sleepers=""
mounts=""
cleanup() {
	for m in $mounts; do fusermount3 -u -z "$m" 2>/dev/null; done
	for p in $daemons $sleepers; do kill -9 "$p" 2>/dev/null; done
	for p in $daemons $sleepers; do wait "$p" 2>/dev/null; done
	tmux kill-session -t "uprocfs-htop-$$" 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/uprocfs-test-$$" # the server's socket, left when it exits
	rm -rf "$tmp"
	[ "$uring_was" = N ] && echo 0 > "$uring_param"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

RUNOPTS=""
MOUNTOPTS=""
[ "$TRANSPORT" = preload ] && RUNOPTS="--preload"
[ "$TRANSPORT" = uring ] && RUNOPTS="--io-uring" && MOUNTOPTS="--io-uring"
run() { timeout -k 5 120 "$UPROCFS" run $RUNOPTS --machine "$SPEC" -- "$@"; }

# The oracle: the same machine rendered without FUSE.
# the machine as files: /proc beneath trees/proc (and /sys beneath trees/sys)
"$UPROCFS" render --machine "$SPEC" --tree "$tmp/trees" && ln -s trees/proc "$tmp/tree"
nprocs=$(ls "$tmp/tree" | grep -c '^[0-9]')
nthreads=$(cut -d' ' -f4 "$tmp/tree/loadavg" | cut -d/ -f2)
memtotal=$(awk '/^MemTotal:/ {print $2}' "$tmp/tree/meminfo")
memfree=$(awk '/^MemFree:/ {print $2}' "$tmp/tree/meminfo")
diag "oracle: $nprocs processes, $nthreads threads, MemTotal $memtotal kB"

# --- ps ---------------------------------------------------------------------
if [ "$TRANSPORT" = uring ]; then
	# the requests came over the rings, not /dev/fuse (a kernel that refused would fall back silently)
	UPROCFS_FUSE_STATS=1 run ps aux > /dev/null 2> "$tmp/stats"
	ur=$(sed -n 's/.* \([0-9]*\) requests over io_uring.*/\1/p' "$tmp/stats")
	[ -n "$ur" ] && [ "$ur" -gt "$nprocs" ]
	ok $? "--io-uring: ps aux's requests come over io_uring (${ur:-none} of them)"
fi
if [ "$TRANSPORT" = preload ]; then
	# the library answered ps, not the mount: the mount saw only ps's own process
	UPROCFS_FUSE_STATS=1 run ps aux > /dev/null 2> "$tmp/stats"
	opens=$(sed -n 's/^fuse requests: .* \([0-9]*\) open,.*/\1/p' "$tmp/stats")
	served=$(sed -n 's/^preload: .* \([0-9]*\) files served,.*/\1/p' "$tmp/stats")
	[ -n "$opens" ] && [ "$opens" -lt 50 ] && [ -n "$served" ] && [ "$served" -gt "$nprocs" ]
	ok $? "--preload: ps aux reads from the snapshot ($served files), the mount opens $opens"
	[ -n "$opens" ] || diag "$(cat "$tmp/stats")"

	# a directory opened with O_DIRECTORY (htop's way: /proc, then each pid
	# and its files relative to it) is the library's, not the mount's
	UPROCFS_FUSE_STATS=1 run python3 -c "
import os
fd = os.open('/proc', os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
d = os.open('1', os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
print(os.read(os.open('stat', os.O_RDONLY, dir_fd=d), 4096).split()[0].decode())" > "$tmp/odir" 2> "$tmp/odir.err"
	opens=$(sed -n 's/^fuse requests: .* \([0-9]*\) open,.*/\1/p' "$tmp/odir.err")
	[ "$(cat "$tmp/odir")" = 1 ] && [ "$opens" = 0 ]
	ok $? "--preload: /proc opened with O_DIRECTORY, pid 1 and its stat relative to it: served by the library (the mount opened ${opens:-?})"

	# snapshots written over older ones' files while two processes of 4
	# threads read: every text whole (fuse_stress checks each), no error
	UPROCFS_PRELOAD_MAX_AGE_MS=1 UPROCFS_FUSE_STATS=1 run sh -c \
		"'$STRESS' concurrent /proc 6 4 & a=\$!; '$STRESS' concurrent /proc 6 4; b=\$?; wait \$a && [ \$b = 0 ]" \
		> "$tmp/reuse" 2> "$tmp/reuse.err"
	rc=$?
	reuses=$(sed -n "s/^preload: .* snapshots (\([0-9]*\) over an older one's file).*/\1/p" "$tmp/reuse.err")
	reads=$(awk '{s += $6} END {print s + 0}' "$tmp/reuse")
	[ $rc = 0 ] && [ -n "$reuses" ] && [ "$reuses" -gt 10 ] && [ "$reads" -gt 1000 ]
	ok $? "--preload: $reads reads by 8 threads of 2 processes while $reuses snapshots were written over older ones' files: all whole"
	[ $rc = 0 ] && [ -n "$reuses" ] || diag "$(grep -v '^fuse requests' "$tmp/reuse.err" | head -5)"

	# readers killed at random moments, some inside a snapshot file: that
	# file is never rewritten, but later snapshots still are (the request
	# page's reuses counter, struct pl_req, read before and after)
	cat > "$tmp/killed.sh" <<-EOF
	reuses() { python3 -c 'import os, struct; print(struct.unpack_from("<Q", open(os.environ["UPROCFS_PRELOAD"] + "/req", "rb").read(), 48)[0])'; }
	for i in \$(seq 40); do
		'$STRESS' concurrent /proc 5 2 > /dev/null 2>&1 & p=\$!
		sleep 0.0\$((i % 9 + 1)); kill -9 \$p; wait \$p 2> /dev/null
	done
	before=\$(reuses)
	'$STRESS' concurrent /proc 3 4 > /dev/null || exit 1
	echo "\$before \$(reuses)"
	EOF
	UPROCFS_PRELOAD_MAX_AGE_MS=1 run bash "$tmp/killed.sh" > "$tmp/killed" 2> "$tmp/killed.err"
	rc=$?
	read -r before after < "$tmp/killed"
	[ $rc = 0 ] && [ -n "$after" ] && [ "$after" -gt $((before + 10)) ]
	ok $? "--preload: 40 readers killed at random moments; after them, reads stay whole and snapshots are still written over old files (${before:-?} -> ${after:-?})"
	[ $rc = 0 ] || diag "$(head -5 "$tmp/killed.err")"
fi
run ps aux > "$tmp/psaux" 2> "$tmp/psaux.err"
lines=$(($(wc -l < "$tmp/psaux") - 1))
[ "$lines" = $((nprocs + 1)) ]; ok $? "ps aux lists the $nprocs synthetic processes plus itself ($lines)"
grep -q ' ps aux$' "$tmp/psaux"; ok $? "ps aux finds itself"
[ ! -s "$tmp/psaux.err" ]; ok $? "ps aux prints no error"
[ -s "$tmp/psaux.err" ] && diag "$(head -5 "$tmp/psaux.err")"

run ps -eo pid=,uid=,comm= > "$tmp/pscomm"
bad=0
for pid in $(ls "$tmp/tree" | grep '^[0-9]' | sort -n | awk 'NR % 37 == 1'); do
	want_comm=$(head -1 "$tmp/tree/$pid/comm")
	want_uid=$(awk '/^Uid:/ {print $3}' "$tmp/tree/$pid/status")
	got=$(awk -v p="$pid" '$1 == p {print $2 " " substr($0, index($0, $3))}' "$tmp/pscomm")
	if [ "$got" != "$want_uid $want_comm" ]; then
		diag "pid $pid: ps shows '$got', the machine has '$want_uid $want_comm'"
		bad=1
	fi
done
ok $bad "ps shows the machine's names and users (a sample of pids)"

# the machine's accounts: every uid its tasks hold has a name in the command's
# /etc/passwd, the same one ps shows; the host's files stay as they were
host_passwd=$(md5sum /etc/passwd /etc/group)
run sh -c 'ps -eo uid=,user:32= | sort -u | while read -r u n; do
	g=$(getent passwd "$u" | cut -d: -f1)
	[ "$n" = "$g" ] && [ "$n" != "$u" ] || echo "uid $u: ps shows $n, passwd names $g"
done; ps -eo uid= | sort -u | wc -l' > "$tmp/accounts" 2>&1
nuids=$(tail -1 "$tmp/accounts")
[ "$(wc -l < "$tmp/accounts")" = 1 ] && [ "$nuids" -gt 3 ]
ok $? "every one of the machine's $nuids uids has a name, which ps shows"
[ "$(wc -l < "$tmp/accounts")" = 1 ] || diag "$(head -5 "$tmp/accounts")"
names=$(cat "$tmp"/tree/[0-9]*/status | awk '/^Uid:/ {print $2}' | sort -un | tr '\n' ' ')
run sh -c 'for u in '"$names"'; do getent passwd "$u" > /dev/null || echo "$u"; done' > "$tmp/unnamed"
[ ! -s "$tmp/unnamed" ]; ok $? "getent names every uid in the machine's status files ($names)"
run sh -c 'getent passwd 0 | cut -d: -f1; echo x >> /etc/passwd 2>/dev/null && echo writable' > "$tmp/root_acct"
[ "$(cat "$tmp/root_acct")" = root ]; ok $? "root is root, and the command's /etc/passwd is read-only"
[ "$(md5sum /etc/passwd /etc/group)" = "$host_passwd" ] && ! ls /tmp | grep -q '^uprocfs-etc\.'
ok $? "the host's /etc/passwd and /etc/group are untouched, and no staging directory is left"

run ps -eLf > "$tmp/pseLf"
lines=$(($(wc -l < "$tmp/pseLf") - 1))
[ "$lines" = $((nthreads + 1)) ]; ok $? "ps -eLf lists the $nthreads threads plus itself ($lines)"

# --- cgroups, mounts, namespaces: ps, findmnt, lsns --------------------------------
run ps -eo pid=,cgroup= > "$tmp/pscgroup"
# every process's cgroup file against ps, in one awk (a pipeline for each of
# the 500 cost seconds); ps leaves out the root's lines: kernel threads show
# "-", as on a real host
ls "$tmp/tree" | grep '^[0-9]' > "$tmp/pidlist"
out=$(cd "$tmp/tree" && awk -v ps="$tmp/pscgroup" -v all="$tmp/pidlist" '
	BEGIN {
		while ((getline l < ps) > 0) { split(l, f, " "); got[f[1]] = f[2] }
		while ((getline p < all) > 0) want[p] = ""
	}
	FNR == 1 { p = FILENAME; sub(/\/.*/, "", p); want[p] = $0; next }
	{ want[p] = want[p] "\n" $0 }
	END {
		for (p in want) {
			w = want[p] == "0::/" ? "-" : want[p]
			if (got[p] != w && bad++ < 3)
				print "# pid " p ": ps shows cgroup \047" got[p] "\047, the machine has \047" w "\047"
		}
		print bad + 0
	}' [0-9]*/cgroup)
printf '%s\n' "$out" | sed '$d'
[ "$(printf '%s\n' "$out" | tail -1)" = 0 ]; bad=$?
users=$(awk '$2 != "-"' "$tmp/pscgroup" | wc -l)
[ "$users" -gt $((nprocs / 3)) ] || bad=1
ok $bad "ps -eo pid,cgroup shows every process's group, a path for all but kernel threads ($users paths)"

want=$(wc -l < "$tmp/tree/1/mountinfo")
got=$(run findmnt --task 1 -n -o TARGET | wc -l)
[ "$got" = "$want" ]; ok $? "findmnt --task 1 lists the machine's $want mounts ($got)"
run findmnt --task 1 -n -o TARGET,SOURCE,FSTYPE > "$tmp/findmnt1"
# the root's device as the machine's mountinfo names it (a disk or an LVM volume, by layout)
rootdev=$(awk '$5 == "/" { for (i = 7; i <= NF; i++) if ($i == "-") { print $(i + 2); exit } }' "$tmp/tree/1/mountinfo")
[ -n "$rootdev" ] && grep -q "^/ *[^ ]*$rootdev *ext4" "$tmp/findmnt1" &&
	grep -q '/sys/fs/cgroup *cgroup2 *cgroup2' "$tmp/findmnt1"
ok $? "findmnt shows / on the machine's root device ($rootdev), cgroup2 on /sys/fs/cgroup"
cpid=$(grep -l 'docker-\|cri-containerd-' "$tmp"/tree/[0-9]*/cgroup | head -1 | xargs -r dirname | xargs -r basename)
if [ -n "$cpid" ]; then
	run findmnt -F "/proc/$cpid/mountinfo" -n -o TARGET,FSTYPE > "$tmp/findmntc"
	grep -q '^/ *overlay' "$tmp/findmntc" && [ "$(wc -l < "$tmp/findmntc")" = "$(wc -l < "$tmp/tree/$cpid/mountinfo")" ]
	ok $? "findmnt -F /proc/$cpid/mountinfo: a container's overlay root and its $(wc -l < "$tmp/findmntc") mounts"
fi
# lsns stats through the ns/ links (magic links into nsfs): a FUSE symlink cannot lead there
lsns_out=$(run lsns -p 1 2>&1 | wc -l)
diag "lsns -p 1 prints $lsns_out lines (it needs nsfs behind the links)"

# --- top --------------------------------------------------------------------
run top -b -n 2 -d 1 > "$tmp/top"
tasks=$(awk '/^Tasks:/ {print $2}' "$tmp/top" | tail -1)
[ "$tasks" = $((nprocs + 1)) ]; ok $? "top counts the machine's tasks plus itself ($tasks)"
mib=$(awk '/^MiB Mem/ {print $4}' "$tmp/top" | tail -1)
want_mib=$(awk -v k="$memtotal" 'BEGIN {printf "%.1f", k / 1024}')
[ "$mib" = "$want_mib" ]; ok $? "top shows MemTotal ($mib MiB)"
idle=$(awk '/^%Cpu/ {for (i = 1; i <= NF; i++) if ($i ~ /^id,?$/) print $(i-1)}' "$tmp/top" | tail -1)
awk -v i="$idle" 'BEGIN {exit !(i + 0 < 100.0)}'; ok $? "top's second CPU line is not all idle ($idle id)"

# --- free, vmstat, uptime, pgrep ---------------------------------------------
total=$(run free | awk '/^Mem:/ {print $2}')
[ "$total" = "$memtotal" ]; ok $? "free shows MemTotal ($total kB)"

run vmstat 1 2 > "$tmp/vmstat"
line=$(tail -1 "$tmp/vmstat")
free_kb=$(echo "$line" | awk '{print $4}')
busy=$(echo "$line" | awk '{print $13 + $14}')
[ "$free_kb" = "$memfree" ]; ok $? "vmstat shows MemFree ($free_kb kB)"
[ "$busy" -gt 0 ]; ok $? "vmstat's second sample shows CPU time moving (us+sy = $busy)"

run sh -c 'cat /proc/uptime /proc/loadavg; uptime' > "$tmp/uptime"
up_s=$(head -1 "$tmp/uptime" | cut -d. -f1)
days=$((up_s / 86400))
loads=$(sed -n 2p "$tmp/uptime" | cut -d' ' -f1-3 | sed 's/ /, /g')
if [ "$days" -gt 0 ]; then
	grep -q "up $days day" "$tmp/uptime"; ok $? "uptime shows the machine's $days days"
else
	grep -q "up " "$tmp/uptime"; ok $? "uptime shows the machine's uptime"
fi
grep -q "load average: $loads" "$tmp/uptime"; ok $? "uptime shows the machine's load ($loads)"

name=$(cat "$tmp"/tree/[0-9]*/comm | sort | uniq -c | sort -rn | awk '$1 > 1 && $2 !~ /\// {print $2; exit}')
want=$(cat "$tmp"/tree/[0-9]*/comm | grep -cx "$name")
got=$(run pgrep -xc "$name")
[ "$got" = "$want" ]; ok $? "pgrep -xc $name counts $want synthetic processes ($got)"

# --- open files, working directories, terminals, io, limits ---------------------
# ps names a terminal by stat()ing what fd/2 (or fd/255) links to: the run
# gives the machine's /dev/pts/N as devices, and fd/0..2 agree with tty_nr.
run ps -eo pid=,tty= > "$tmp/pstty"
# every process's fd/2 against ps, in one awk
out=$(cd "$tmp/tree" && find [0-9]*/fd/2 -maxdepth 0 -printf '%p\t%l\n' 2> /dev/null |
	awk -F'\t' -v ps="$tmp/pstty" '
	BEGIN { while ((getline l < ps) > 0) { split(l, f, " "); got[f[1]] = f[2] } }
	$2 ~ /^\/dev\/pts\// {
		p = $1; sub(/\/.*/, "", p); nt++
		if (got[p] != substr($2, 6) && bad++ < 5)
			print "# pid " p ": ps shows tty \047" got[p] "\047, its fd/2 is " $2
	}
	END { print nt + 0, bad + 0 }')
printf '%s\n' "$out" | sed '$d'
set -- $(printf '%s\n' "$out" | tail -1)
nt=$1
bad=$2
[ "$nt" -gt 0 ] && [ $bad = 0 ]; ok $? "ps -eo pid,tty names the terminal of each of the $nt tasks on one"

pids=$(ls "$tmp/tree" | grep '^[0-9]' | sort -n | awk 'NR % 23 == 2')
run pwdx $pids > "$tmp/pwdx" 2>&1
bad=0
for pid in $pids; do
	want=$(readlink "$tmp/tree/$pid/cwd") || continue
	grep -qx "$pid: $want" "$tmp/pwdx" || { diag "pwdx $pid: $(grep "^$pid:" "$tmp/pwdx")"; bad=1; }
done
ok $bad "pwdx shows the machine's working directories (a sample of pids)"

# pmap reads maps and smaps: a synthetic process's are made from the seed when read
mapped=$(for pid in $pids; do [ -s "$tmp/tree/$pid/maps" ] && echo "$pid"; done)
run sh -c 'for p in '"$(echo $mapped)"'; do echo "pid $p"; pmap -x "$p" | tail -1; done' > "$tmp/pmap" 2>&1
bad=0
nmapped=0
for pid in $mapped; do
	nmapped=$((nmapped + 1))
	kb=$(awk '/^Size:/ { s += $2 } END { print s }' "$tmp/tree/$pid/smaps")
	rss=$(awk '/^Rss:/ { s += $2 } END { print s }' "$tmp/tree/$pid/smaps")
	got=$(awk -v p="pid $pid" '$0 == p { getline; print $3, $4 }' "$tmp/pmap")
	if [ "$got" != "$kb $rss" ]; then
		[ $bad -lt 5 ] && diag "pmap -x $pid: total '$got', the machine's maps and smaps say '$kb $rss'"
		bad=1
	fi
done
[ "$nmapped" -gt 0 ] && [ $bad = 0 ]; ok $? "pmap -x totals the machine's mappings and their RSS ($nmapped processes)"

# the process with the most fds, "COUNT PID": one find, not a pipeline for each of the 500
big=$(cd "$tmp/tree" && find [0-9]*/fd -mindepth 1 -maxdepth 1 |
	awk -F/ '{ n[$1]++ } END { for (p in n) print n[p], p }' | sort -rn | head -1)
bigpid=${big#* }
if run test -e /proc/mounts; then
	run lsof -w -p "$bigpid" > "$tmp/lsof" 2>/dev/null
	nfd=$(awk '$4 ~ /^[0-9]+[rwu]?[A-Za-z]?$/' "$tmp/lsof" | wc -l)
	[ "$nfd" = "${big% *}" ]; ok $? "lsof -p $bigpid lists its ${big% *} open fds ($nfd)"
else
	ok 0 "lsof -p $bigpid # SKIP lsof needs /proc/mounts, which this tree does not serve yet"
fi

cat > "$tmp/ps.py" <<'PYEOF'
import psutil
errors = 0; tasks = 0; fds = 0
for pid in psutil.pids():
    if pid >= 3000000:
        continue  # the run's own processes
    tasks += 1
    try:
        p = psutil.Process(pid)
        zombie = p.status() == psutil.STATUS_ZOMBIE
        p.io_counters()
        fds += p.num_fds()
        p.open_files()
        try:
            p.cwd()
        except (psutil.ZombieProcess, psutil.NoSuchProcess):
            # a zombie's cwd is ENOENT, and psutil then asks kill(pid, 0), which no machine pid passes
            if not zombie:
                raise
    except Exception as e:
        errors += 1
        print("pid", pid, type(e).__name__, e)
print("tasks", tasks, "fds", fds, "errors", errors)
PYEOF
run /usr/bin/python3 "$tmp/ps.py" > "$tmp/psutil" 2>&1
grep -q "^tasks $nprocs fds [0-9]* errors 0$" "$tmp/psutil"; ok $? "psutil: io_counters, num_fds, open_files, cwd of every task ($(tail -1 "$tmp/psutil"))"

want=$(awk '/^Max open files/ {print $4}' "$tmp/tree/1/limits")
got=$(run sh -c 'grep "^Max open files" /proc/1/limits' | awk '{print $4}')
[ -n "$want" ] && [ "$got" = "$want" ]; ok $? "limits: pid 1's soft Max open files, as node_exporter's process_max_fds reads it ($got)"
# --- wchan, smaps, context switches: ps, psutil, pidstat ------------------------
# ps shows /proc/<pid>/wchan: a function for a sleeping task, "-" for a running one or a zombie
# The clock stands still: the simulator would move tasks between ps's reads
# of stat and wchan, the more the slower the run (tests beside it, ASan).
timeout -k 5 120 "$UPROCFS" run $RUNOPTS --stop-clock --machine "$SPEC" -- \
	ps -eo pid=,stat=,wchan:40= > "$tmp/pswchan"
# the functions the tasks wait in at that same served time, named as ps
# names them: without their leading underscores (__do_sys_pause)
timeout -k 5 120 "$UPROCFS" run $RUNOPTS --stop-clock --machine "$SPEC" -- \
	sh -c 'awk 1 /proc/[0-9]*/task/*/wchan 2> /dev/null' |
	sed 's/^_*//' | cut -c1-40 | sort -u > "$tmp/wchans"
bad=$(awk -v known="$tmp/wchans" 'BEGIN { while ((getline w < known) > 0) k[w] = 1 }
	$1 >= 3000000 { next }
	{ running = substr($2, 1, 1) == "R" || substr($2, 1, 1) == "Z" }
	(running && $3 != "-") || (!running && !(($3 in k) || $3 == "-")) || $3 == "?" { bad++ }
	!running && $3 == "-" { bad++ }
	END { print bad + 0 }' "$tmp/pswchan")
named=$(awk '$3 != "-"' "$tmp/pswchan" | wc -l)
[ "$bad" = 0 ] && [ "$named" -gt $((nprocs / 2)) ]
ok $? "ps -eo pid,stat,wchan: a kernel function for every sleeping task ($named named, $bad wrong)"

# psutil reads smaps_rollup (uss, pss, swap) and smaps (memory_maps) of every process
PY=/usr/bin/python3
if [ -x "$PY" ] && "$PY" -c 'import psutil' 2>/dev/null; then
	cat > "$tmp/mem_check.py" <<'PYEOF'
import psutil
for p in psutil.process_iter():
    try:
        full = p.memory_full_info()
        maps = p.memory_maps(grouped=False)
        print(p.pid, "ok", full.pss, full.uss, len(maps))
    except (psutil.NoSuchProcess, psutil.AccessDenied) as e:
        # a task without an mm: smaps_rollup is ESRCH (the kernel's zombie answer
        # becomes NoSuchProcess here, the synthetic pid being no real one)
        print(p.pid, "refused", type(e).__name__)
    except Exception as e:
        print(p.pid, "error", repr(e))
PYEOF
	run "$PY" "$tmp/mem_check.py" > "$tmp/psutil" 2> "$tmp/psutil.err"
	# the machine's pss, uss and mappings of every process in one awk (three
	# pipelines for each of the 500 cost seconds)
	out=$(cd "$tmp/tree" && awk -v res="$tmp/psutil" '
		FNR == 1 { p = FILENAME; sub(/\/.*/, "", p); kind = FILENAME; sub(/^[^\/]*\//, "", kind); known[p] = 1 }
		kind == "smaps_rollup" && /^Pss:/ { pss[p] += $2 * 1024 }
		kind == "smaps_rollup" && /^Private_/ { uss[p] += $2 * 1024 }
		kind == "smaps" && /^VmFlags/ { maps[p]++ }
		kind == "status" && /^VmRSS/ { rss[p] = 1 }
		END {
			while ((getline l < res) > 0) {
				split(l, f, " ")
				p = f[1]
				if (!(p in known))
					continue
				if (f[2] == "ok") {
					want = sprintf("%.0f %.0f %d", pss[p], uss[p], maps[p])
					if (f[3] " " f[4] " " f[5] != want && bad++ < 5)
						print "# pid " p ": psutil pss " f[3] " uss " f[4] " maps " f[5] "; machine " want
				} else if (p in rss && bad++ < 5) {
					print "# pid " p ": psutil: " f[2] " " f[3]
				}
			}
			print bad + 0
		}' [0-9]*/smaps_rollup [0-9]*/smaps [0-9]*/status)
	printf '%s\n' "$out" | sed '$d'
	bad=$(printf '%s\n' "$out" | tail -1)
	nok=$(grep -c ' ok ' "$tmp/psutil")
	[ $bad = 0 ] && [ "$nok" -gt $((nprocs / 2)) ] && ! grep -q ' error ' "$tmp/psutil"
	ok $? "psutil memory_full_info() and memory_maps(): every process with an mm, the machine's pss and uss ($nok)"
else
	ok 0 "# SKIP python3-psutil is not installed"
fi

# pidstat -w: the simulator's context switches, per second, for the tasks it runs
if command -v pidstat > /dev/null; then
	run pidstat -w 1 1 > "$tmp/pidstat" 2>&1
	busy=$(awk '$4 ~ /^[0-9.]+$/ && $4 + 0 > 0 && $NF != "pidstat"' "$tmp/pidstat" | wc -l)
	grep -q 'cswch/s' "$tmp/pidstat" && [ "$busy" -gt 0 ]
	ok $? "pidstat -w shows context switches of the machine's tasks ($busy switching)"
else
	ok 0 "# SKIP sysstat (pidstat) is not installed"
fi

# --- htop ---------------------------------------------------------------------
session="uprocfs-htop-$$"
tmux new-session -d -s "$session" -x 200 -y 60 "timeout -k 5 60 $UPROCFS run $RUNOPTS --machine $SPEC -- htop -d 10"
# until it has drawn its task list (starting a run takes longer on a loaded machine), at most 30 s
for i in $(seq 1 60); do
	sleep 0.5
	tmux capture-pane -p -t "$session" > "$tmp/htop" 2>/dev/null
	grep -q "Tasks:" "$tmp/htop" && [ "$(grep -c . "$tmp/htop")" -gt 20 ] && break
done
sleep 1
tmux capture-pane -p -t "$session" > "$tmp/htop" 2>/dev/null
tmux kill-session -t "$session" 2>/dev/null
found=0
for comm in $(cat "$tmp"/tree/[0-9]*/comm | grep -v / | sort -u | head -400); do
	grep -q -- "$comm" "$tmp/htop" && found=$((found + 1))
done
[ "$found" -ge 5 ]; ok $? "htop's screen lists the machine's processes ($found names seen)"
grep -q "Tasks: $nprocs" "$tmp/htop" || grep -q "Tasks:" "$tmp/htop"; ok $? "htop shows its task summary"

if [ "$TRANSPORT" != preload ]; then
# --- the live mirror ------------------------------------------------------------
mkdir "$tmp/live"
"$UPROCFS" mount $MOUNTOPTS --machine live --foreground "$tmp/live" 2> "$tmp/live.err" &
daemons="$daemons $!"
mounts="$mounts $tmp/live"
for i in 1 2 3 4 5 6 7 8 9 10; do [ -f "$tmp/live/loadavg" ] && break; sleep 0.2; done
# as nobody: status's SigQ counts the pending signals of the task's user,
# and root's change whenever the tests running beside this one signal
for i in 1 2 3; do
	setpriv --reuid=65534 --regid=65534 --clear-groups sleep 1000 &
	sleepers="$sleepers $!"
done
sleep 0.2
for p in $sleepers; do kill -STOP "$p"; done
sleep 0.2
bad=0
for p in $sleepers 2 $(pgrep -x 'kworker/R-rcu_gp' | head -1); do
	for f in status stat statm maps cmdline comm cgroup cpuset mounts mountinfo mountstats smaps smaps_rollup wchan stack syscall; do
		[ -r "/proc/$p/$f" ] && cat "/proc/$p/$f" > /dev/null 2>&1 || continue
		# DAMON and reclaim age pages under a stopped task too (smaps' Referenced): try thrice
		same=1
		for try in 1 2 3; do
			cmp -s "$tmp/live/$p/$f" "/proc/$p/$f" && { same=0; break; }
		done
		# a page's Pss divides it among the processes mapping it, and a page
		# mapped once is Private, twice Shared: every process the tests
		# beside this one start or end (a sleep, libc) moves those lines
		case $f in smaps*)
			if [ $same != 0 ]; then
				grep -v -e '^Pss' -e '^Shared_' -e '^Private_' "$tmp/live/$p/$f" > "$tmp/smaps.served"
				grep -v -e '^Pss' -e '^Shared_' -e '^Private_' "/proc/$p/$f" > "$tmp/smaps.kernel"
				cmp -s "$tmp/smaps.served" "$tmp/smaps.kernel" && same=0
				[ $same = 0 ] || diag "$(diff "$tmp/smaps.served" "$tmp/smaps.kernel" | head -4)"
			fi ;;
		esac
		if [ $same != 0 ]; then
			diag "live $p/$f differs from the kernel's"
			bad=1
		fi
	done
	for nsl in net uts ipc pid pid_for_children user mnt cgroup time time_for_children; do
		if [ "$(readlink "$tmp/live/$p/ns/$nsl")" != "$(readlink "/proc/$p/ns/$nsl")" ]; then
			diag "live $p/ns/$nsl points elsewhere than the kernel's"
			bad=1
		fi
	done
done
ok $bad "live: every file of stopped processes and kernel threads is the kernel's, byte for byte"

files=""
for p in $sleepers; do files="$files $p/status $p/maps $p/stat $p/cmdline"; done
"$STRESS" chunks "$tmp/live" $files 2> "$tmp/chunks.err"
ok $? "1-byte reads, random chunks, random offsets and lseek 0 give the same bytes"
[ -s "$tmp/chunks.err" ] && diag "$(head -5 "$tmp/chunks.err")"

sleep 1000 &
victim=$!
ls "$tmp/live" > /dev/null
kill -9 "$victim"; wait "$victim" 2>/dev/null
if cat "$tmp/live/$victim/status" > /dev/null 2> "$tmp/gone.err"; then r=1; else r=0; fi
grep -q "No such file" "$tmp/gone.err" || r=1
ok $r "a task that exits between readdir and open: ENOENT"
kill -0 $(echo $daemons | awk '{print $NF}') 2>/dev/null; ok $? "the live daemon is still up"

# --- concurrency and unmount on a synthetic mount ---------------------------------
mkdir "$tmp/synth"
"$UPROCFS" mount $MOUNTOPTS --machine "$SPEC" --foreground "$tmp/synth" 2> "$tmp/synth.err" &
sdaemon=$!
daemons="$daemons $sdaemon"
mounts="$mounts $tmp/synth"
for i in 1 2 3 4 5 6 7 8 9 10; do [ -f "$tmp/synth/loadavg" ] && break; sleep 0.2; done
"$STRESS" concurrent "$tmp/synth" 10 8 > "$tmp/conc" 2> "$tmp/conc.err"
ok $? "8 concurrent readers for 10 s: no errors"
diag "$(cat "$tmp/conc")"

"$STRESS" concurrent "$tmp/synth" 20 4 --tolerate > "$tmp/conc2" 2>&1 &
reader=$!
sleep 1
fusermount3 -u -z "$tmp/synth"   # lazy: busy with the readers' open files
r=1
for i in $(seq 1 50); do kill -0 "$reader" 2>/dev/null || { r=0; break; }; sleep 0.2; done
ok $r "readers end when the tree is unmounted under them"
kill -9 "$reader" 2>/dev/null
wait "$sdaemon"; st=$?
[ "$st" = 0 ]; ok $? "the daemon exits cleanly after an unmount during reads (status $st)"
[ ! -s "$tmp/synth.err" ] || diag "$(head -5 "$tmp/synth.err")"

# --- permissions: what another user may not read ---------------------------------
mkdir "$tmp/perm"
"$UPROCFS" mount $MOUNTOPTS --machine "$SPEC" --allow-other --foreground "$tmp/perm" 2> "$tmp/perm.err" &
daemons="$daemons $!"
mounts="$mounts $tmp/perm"
for i in 1 2 3 4 5 6 7 8 9 10; do [ -f "$tmp/perm/loadavg" ] && break; sleep 0.2; done
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_nobody cat "$tmp/perm/1/status" > /dev/null 2>&1; ok $? "another user reads a root task's status"
as_nobody cat "$tmp/perm/1/environ" > /dev/null 2> "$tmp/perm1"
grep -q "Permission denied" "$tmp/perm1"; ok $? "but not its environ (0400)"
as_nobody cat "$tmp/perm/1/maps" > /dev/null 2> "$tmp/perm2"
grep -q "Permission denied" "$tmp/perm2"; ok $? "nor its maps (ptrace access, as the kernel checks)"
own=$(grep -l "^Uid:	[0-9]*	65534	" "$tmp"/tree/[0-9]*/status 2>/dev/null | head -1 | xargs -r dirname | xargs -r basename)
if [ -n "$own" ]; then
	as_nobody cat "$tmp/perm/$own/maps" > /dev/null 2>&1; ok $? "a task's own user reads its maps (pid $own)"
fi
stat -c %U "$tmp/perm/1" | grep -qx root; ok $? "pid directories belong to the task's user"
fi

# --- older kernels: procps on the files 3.10 and 4.18 printed ------------------------
for kv in 3.10 4.18; do
	kspec=synth:kernel=$kv,tasks=300
	kout="$tmp/k$kv"
	timeout -k 5 120 "$UPROCFS" run --machine "$kspec" -- sh -c \
		'ps aux; echo "rc=$?"; top -b -n1; echo "rc=$?"; free; echo "rc=$?"; vmstat; echo "rc=$?"; uname -r' \
		> "$kout" 2> "$kout.err"
	[ "$(grep -c '^rc=0$' "$kout")" = 4 ] && [ ! -s "$kout.err" ]
	ok $? "kernel $kv: ps aux, top -b -n1, free and vmstat run without an error"
	[ -s "$kout.err" ] && diag "$(head -5 "$kout.err")"
	grep -qx "$kv.0-uprocfs" "$kout"; ok $? "kernel $kv: uname -r says $kv.0-uprocfs"
	nps=$(awk '/^USER/ {on = 1; next} /^rc=/ {on = 0} on' "$kout" | wc -l)
	[ "$nps" -ge 300 ]; ok $? "kernel $kv: ps aux lists the 300 processes ($nps lines)"
done
# before 3.14 there is no MemAvailable: procps takes MemFree as available
kfree=$(awk '/^Mem:/ {print $4 " " $7}' "$tmp/k3.10")
[ "${kfree% *}" = "${kfree#* }" ]; ok $? "kernel 3.10: free shows available = free without MemAvailable ($kfree)"

# --- run: exit status, a killed command, nothing left behind -----------------------
run sh -c 'exit 7'; st=$?
[ "$st" = 7 ]; ok $? "run passes the command's exit status through ($st)"
run sh -c 'kill -9 $$'; st=$?
[ "$st" = 137 ]; ok $? "run reports a killed command as 128+signal ($st)"
! grep -q " /proc fuse" /proc/self/mounts; ok $? "nothing mounted over this namespace's /proc"

echo "1..$n"
exit $failed
