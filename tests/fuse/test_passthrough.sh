#!/bin/sh
# test_passthrough.sh - the FUSE mount's passthrough (a small file's reads
# answered by the kernel from a memfd, issue 16) keeps procfs's semantics:
# the same bytes as requests give, st_size 0, a file kept open shows the
# machine moving, readers with other rights opening the same file at once
# each get their own text, a numeric sysctl still reads only from 0.
#
# TAP.  usage: test_passthrough.sh PATH-TO-uprocfs
# Each `uprocfs run` ends its own daemon and mounts; the temporary
# directory is removed on exit.
set -u

UPROCFS=$1
SPEC=synth:cpus=4,tasks=300,seed=5

if [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
	echo "1..0 # SKIP needs root and /dev/fuse"
	exit 0
fi
if ! grep -q '^CONFIG_FUSE_PASSTHROUGH=y' "/boot/config-$(uname -r)" 2>/dev/null &&
   ! { [ -r /proc/config.gz ] && zcat /proc/config.gz | grep -q '^CONFIG_FUSE_PASSTHROUGH=y'; }; then
	echo "1..0 # SKIP the kernel has no FUSE passthrough (CONFIG_FUSE_PASSTHROUGH)"
	exit 0
fi

tmp=$(mktemp -d /tmp/uprocfs-pt.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM

run() {
	timeout -k 5 120 "$UPROCFS" run --machine "$SPEC" "$@"
}

n=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# how many opens the run's daemon answered by passthrough (its stats line)
pt_opens() {
	sed -n 's/.*(\([0-9]*\) opens by passthrough.*/\1/p' "$1" | head -1
}

echo "1..8"
FILES="loadavg uptime meminfo stat vmstat 1/status 1/stat 1/statm 1/cmdline 1/io pressure/cpu sys/kernel/pid_max"

UPROCFS_FUSE_STATS=1 run --stop-clock -- sh -c "cd /proc && cat $FILES" > "$tmp/pt" 2> "$tmp/pt.err"
UPROCFS_FUSE_STATS=1 run --stop-clock --no-passthrough -- sh -c "cd /proc && cat $FILES" > "$tmp/direct" 2> "$tmp/direct.err"
p=$(pt_opens "$tmp/pt.err")
[ "${p:-0}" -gt 0 ]
ok $? "small files are opened by passthrough (${p:-none} of them)"
d=$(pt_opens "$tmp/direct.err")
[ "${d:-x}" = 0 ]
ok $? "--no-passthrough opens none so (${d:-no stats line})"
# a synthetic machine booted its uptime before it is served: btime follows the wall clock between runs
grep -av '^btime ' "$tmp/pt" > "$tmp/pt.nb"
grep -av '^btime ' "$tmp/direct" > "$tmp/direct.nb"
[ -s "$tmp/pt.nb" ] && [ "$(grep -ac '^btime ' "$tmp/pt")" = 1 ] && cmp -s "$tmp/pt.nb" "$tmp/direct.nb"
ok $? "the same bytes through passthrough as through requests but btime ($(wc -c < "$tmp/pt") bytes, $FILES)"
diff "$tmp/pt.nb" "$tmp/direct.nb" | head -6 | sed 's/^/# /'

# st_size stays 0 while the file is open by passthrough, and the read gets the whole text
run -- python3 -c '
import os
fd = os.open("/proc/loadavg", os.O_RDONLY)
st = os.fstat(fd)
text = os.read(fd, 4096)
print(st.st_size, len(text) > 10, text.count(b"\n"))
' > "$tmp/size" 2>&1
[ "$(cat "$tmp/size")" = "0 True 1" ]
ok $? "an open file's st_size is 0 and a read gets its whole text ($(cat "$tmp/size"))"

# a file kept open and read again from 0 shows the machine moving (top, vmstat)
run -- python3 -c '
import os, time
fd = os.open("/proc/uptime", os.O_RDONLY)
a = os.read(fd, 4096)
time.sleep(0.3)
os.lseek(fd, 0, os.SEEK_SET)
b = os.read(fd, 4096)
ua, ub = float(a.split()[0]), float(b.split()[0])
print("moved" if 0.2 <= ub - ua <= 5 else "stood", a.decode().strip(), b.decode().strip())
' > "$tmp/kept" 2>&1
grep -q '^moved ' "$tmp/kept"
ok $? "a kept /proc/uptime read again after 0.3 s shows the time moved ($(cat "$tmp/kept"))"

# Readers with other rights opening one file at once, through a mount of
# its own (`run` lets only root in): root holds 1/stat open while nobody
# opens it; nobody must get its own text (start_code, end_code and
# start_stack shown as 1), root its own, both whole.
chmod 755 "$tmp" # nobody must reach the mount point
mkdir "$tmp/mnt"
"$UPROCFS" mount --foreground --allow-other --machine "$SPEC" "$tmp/mnt" 2> "$tmp/mount.err" &
daemon=$!
trap 'fusermount3 -u -z "$tmp/mnt" 2>/dev/null; kill "$daemon" 2>/dev/null; wait "$daemon" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
for k in $(seq 1 100); do [ -f "$tmp/mnt/loadavg" ] && break; sleep 0.05; done
python3 - "$tmp/mnt" > "$tmp/rights" 2>&1 <<'PY'
import os, subprocess, sys, time
mnt = sys.argv[1]
as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
nobody = as_nobody + ["cat", mnt + "/1/stat"]
def fields(t):
    return t.split()[25:28]
alone = subprocess.run(nobody, capture_output=True).stdout
# root holds it open while nobody reads it
fd = os.open(mnt + "/1/stat", os.O_RDONLY)
root = os.read(fd, 4096)
beside = subprocess.run(nobody, capture_output=True).stdout
fd2 = os.open(mnt + "/1/stat", os.O_RDONLY)
root2 = os.read(fd2, 4096)
# nobody holds it open (its text the memfd's) while root reads it
holder = subprocess.Popen(as_nobody + ["python3", "-c",
    "import os, sys, time; fd = os.open(sys.argv[1], os.O_RDONLY); os.read(fd, 4096); print(flush=True); time.sleep(2)",
    mnt + "/1/stat"], stdout=subprocess.PIPE)
holder.stdout.readline()
fd3 = os.open(mnt + "/1/stat", os.O_RDONLY)
root3 = os.read(fd3, 4096)
holder.kill()
holder.wait()
print("nobody-masked" if fields(alone) == fields(beside) == [b"1", b"1", b"0"] else "nobody-wrong",
      "root-own" if fields(root) == fields(root2) == fields(root3) and fields(root)[0] != b"1" else "root-wrong",
      "whole" if all(t.endswith(b"\n") and len(t.split()) == len(root.split()) for t in (beside, root2, root3))
      else "torn",
      [f.decode() for f in fields(beside)], [f.decode() for f in fields(root3)])
PY
grep -q '^nobody-masked root-own whole ' "$tmp/rights"
ok $? "1/stat opened by root and nobody at once, either first: each reads its own text ($(cat "$tmp/rights"))"
fusermount3 -u "$tmp/mnt"
wait "$daemon"
ok $? "the mount's daemon exits 0 once unmounted"

# a numeric sysctl answers only a read from offset 0, as proc_dointvec does
run -- python3 -c '
import os
fd = os.open("/proc/sys/kernel/pid_max", os.O_RDONLY)
print(len(os.pread(fd, 100, 0)) > 1, os.pread(fd, 100, 1))
' > "$tmp/sysctl" 2>&1
[ "$(cat "$tmp/sysctl")" = "True b''" ]
ok $? "a numeric sysctl read from offset 1 gives nothing ($(cat "$tmp/sysctl"))"
