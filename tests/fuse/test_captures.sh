#!/bin/sh
# test_captures.sh - captures as trees, archives and sosreport layouts
# (issue 14): a partial tree verifies what it has, a damaged or torn file
# is skipped with path:line and the reason while the rest loads, verify
# --list and --json report every file, capture refuses to write over
# anything, archives in each tar format and as a zip load (damaged ones are
# refused with the reason), and `uprocfs run --machine tree:FILE.tar.zst --
# ps aux` lists every process of a 2,000-task capture (500 in a sanitizer
# run: UPROCFS_TEST_LIGHT=1).
#
# TAP.  usage: test_captures.sh PATH-TO-uprocfs
# Every process this starts runs under `timeout` and ends with it.
set -u

UPROCFS=$1
. "$(dirname "$0")/../unit/tap.sh"

if [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
	echo "1..0 # SKIP needs root and /dev/fuse"
	exit 0
fi

tmp=$(mktemp -d /tmp/uprocfs-captures.XXXXXX)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

verify() { timeout -k 5 300 "$UPROCFS" verify "$@"; }
# "verify: N files identical, M differ, K skipped" -> "N M K"
counts() { sed -n 's/^verify: \([0-9]*\) files identical, \([0-9]*\) differ, \([0-9]*\) skipped$/\1 \2 \3/p'; }

# a /proc tree (render writes proc/ and sys/: its proc/)
"$UPROCFS" render --machine synth:cpus=4,tasks=30,seed=5 --tree "$tmp/fullroot" && mv "$tmp/fullroot/proc" "$tmp/full"
out=$(verify --proc "$tmp/full" --quiet 2>&1)
set -- $(echo "$out" | counts) x x x
ok $([ "$2" = 0 ] && [ "$1" -gt 100 ] && echo 0 || echo 1) "a synthetic tree verifies: $(echo "$out" | tail -1)"

# A partial tree: a few global files, three processes, no vmstat.
mkdir "$tmp/part"
cp -r "$tmp/full/stat" "$tmp/full/meminfo" "$tmp/full/loadavg" "$tmp/full/uptime" "$tmp/full/pressure" "$tmp/part/"
pids=$(ls "$tmp/full" | grep -E '^[0-9]+$' | sort -n | head -3)
for p in $pids; do cp -r "$tmp/full/$p" "$tmp/part/"; done
verify --proc "$tmp/part" --list >"$tmp/part.list" 2>&1
st=$?
set -- $(counts <"$tmp/part.list") x x x
ok $([ $st = 0 ] && [ "$2" = 0 ] && [ "$1" -gt 20 ] && echo 0 || echo 1) \
	"a partial tree (no vmstat, 3 pids) verifies what it has: $(tail -1 "$tmp/part.list")"
ok $(grep -q ' vmstat' "$tmp/part.list" && echo 1 || echo 0) "the absent vmstat is not reported"
bad=$(grep -vE '^(identical|differ|skipped) [^ ]+( .*)?$' "$tmp/part.list" | grep -v '^verify: ')
ok $([ -z "$bad" ] && echo 0 || echo 1) "--list: one 'identical|differ|skipped PATH reason' line per file"
[ -n "$bad" ] && diag "$bad"
first=$(echo $pids | cut -d' ' -f1)
ok $(grep -q "^identical $first/status$" "$tmp/part.list" && echo 0 || echo 1) "--list names $first/status identical"

# --json: one document python's json module reads, its counts those of the files listed.
verify --proc "$tmp/part" --json >"$tmp/part.json" 2>&1
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = d["counts"]
v = [f["verdict"] for f in d["files"]]
assert c["identical"] == v.count("identical") and c["differ"] == v.count("differ") == 0, c
assert c["skipped"] == v.count("skipped"), c
assert all("reason" in f for f in d["files"] if f["verdict"] != "identical")
' "$tmp/part.json"
ok $? "--json parses (python3 json.load), its counts match its files"

# A file the model cannot represent: skipped with path:line and why, the rest loads.
cp -r "$tmp/part" "$tmp/bad"
sed -i '3s/^\([A-Za-z]*:\) *[0-9]*/\1 banana/' "$tmp/bad/meminfo"
verify --proc "$tmp/bad" --list >"$tmp/bad.list" 2>&1
set -- $(counts <"$tmp/bad.list") x x x
line=$(grep '^skipped meminfo ' "$tmp/bad.list")
ok $([ "$2" = 0 ] && [ "$1" -gt 20 ] && echo "$line" | grep -q 'meminfo:3' && echo 0 || echo 1) \
	"a damaged meminfo is skipped with path:line, the rest verifies: $line"

# A torn pair: status read later than stat says another thing; the tree still loads.
cp -r "$tmp/part" "$tmp/torn"
sed -i 's/^\(voluntary_ctxt_switches:\t\)\([0-9]*\)/\19\2/' "$tmp/torn/$first/status"
touch -d '+1 min' "$tmp/torn/$first/status"
verify --proc "$tmp/torn" --list >"$tmp/torn.list" 2>&1
set -- $(counts <"$tmp/torn.list") x x x
ok $([ "$2" = 0 ] && grep -q "^identical $first/stat$" "$tmp/torn.list" && echo 0 || echo 1) \
	"a torn status/stat pair: no difference, $first/stat still identical ($(grep "^[a-z]* $first/status" "$tmp/torn.list"))"

# A sosreport: proc/ beside sys/ under its root; and the same as an archive.
mkdir -p "$tmp/sos/sys/kernel" "$tmp/sos/sos_commands"
cp -r "$tmp/part" "$tmp/sos/proc"
out=$(verify --proc "$tmp/sos" --quiet 2>&1)
ok $? "a sosreport-style tree (proc/ and sys/ under a root) verifies: $(echo "$out" | tail -1)"
tar -C "$tmp" -caf "$tmp/sos.tar.xz" sos
out=$(verify --proc "$tmp/sos.tar.xz" --quiet 2>&1)
ok $? "the sosreport as a .tar.xz verifies: $(echo "$out" | tail -1)"

# A live capture into one archive: the kernel release and time inside; nothing overwritten.
timeout -k 5 300 "$UPROCFS" capture --pid $$ -o "$tmp/live.tar.zst" 2>/dev/null
ok $? "capture --pid \$\$ -o live.tar.zst"
info=$(tar --zstd -xOf "$tmp/live.tar.zst" --wildcards '*uprocfs-capture' 2>/dev/null)
ok $(echo "$info" | grep -q "$(uname -r)" && echo 0 || echo 1) "the archive records the kernel release"
# its proc/ beside sys/ and uprocfs-capture: the /proc tree is proc/, not the directory holding them
out=$(verify --proc "$tmp/live.tar.zst" --quiet 2>&1)
set -- $(echo "$out" | counts) x x x
ok $([ "$2" = 0 ] && [ "$1" -gt 50 ] && echo 0 || echo 1) "the live capture archive verifies: $(echo "$out" | tail -1)"
# a directory capture keeps /sys's device links as links, so its /sys loads and verifies whole
timeout -k 5 300 "$UPROCFS" capture --pid $$ "$tmp/livedir" 2>/dev/null
out=$(verify --proc "$tmp/livedir" --quiet 2>&1)
nsys=$(echo "$out" | sed -n 's/.*of them in \/sys: \([0-9]*\) identical, 0 differ.*/\1/p')
[ -L "$tmp/livedir/sys/class/net/lo" ] && [ "${nsys:-0}" -ge 300 ]
ok $? "a live capture's /sys/class/net/lo is a link and its /sys verifies (${nsys:-?} files)"
# the archive's sys/ loads as the directory's does: the same files, identical
asys=$(echo "$(verify --proc "$tmp/live.tar.zst" --quiet 2>&1)" | sed -n 's/.*of them in \/sys: \([0-9]*\) identical, 0 differ.*/\1/p')
[ "${asys:-0}" -ge 300 ]
ok $? "the live capture archive's /sys loads and verifies too (${asys:-?} files)"
tar -C "$tmp/livedir" -caf "$tmp/livedir.tar.zst" proc sys
dsys=$(echo "$(verify --proc "$tmp/livedir.tar.zst" --quiet 2>&1)" | sed -n 's/.*of them in \/sys: \([0-9]*\) identical, 0 differ.*/\1/p')
[ "${dsys:-0}" = "${nsys:-x}" ]
ok $? "the directory capture as an archive verifies the same /sys files (${dsys:-?} of ${nsys:-?})"
echo keep >"$tmp/exists.tar.zst"
timeout -k 5 300 "$UPROCFS" capture --pid $$ -o "$tmp/exists.tar.zst" 2>/dev/null
ok $([ $? != 0 ] && [ "$(cat "$tmp/exists.tar.zst")" = keep ] && echo 0 || echo 1) "capture -o refuses an existing file"
ln -s "$tmp/elsewhere.tar.zst" "$tmp/link.tar.zst"
timeout -k 5 300 "$UPROCFS" capture --pid $$ -o "$tmp/link.tar.zst" 2>/dev/null
ok $([ $? != 0 ] && [ ! -e "$tmp/elsewhere.tar.zst" ] && echo 0 || echo 1) "capture -o does not follow a symlink"
mkdir "$tmp/full2" && echo keep >"$tmp/full2/x"
timeout -k 5 300 "$UPROCFS" capture --pid $$ "$tmp/full2" 2>/dev/null
ok $([ $? != 0 ] && [ "$(cat "$tmp/full2/x")" = keep ] && echo 0 || echo 1) "capture refuses a non-empty directory"

# Archives of the tree in each tar format (read from the decompressed bytes: tar_read.c), a zip (libarchive's
# own reader), and ones damaged: truncated, a file given twice, a member beneath a file.
for fmt in ustar gnu pax v7; do
	tar -C "$tmp" --format=$fmt -caf "$tmp/sos-$fmt.tar.gz" sos 2>/dev/null
	out=$(verify --proc "$tmp/sos-$fmt.tar.gz" --quiet 2>&1)
	ok $? "the sosreport as a $fmt tar verifies: $(echo "$out" | tail -1)"
done
(cd "$tmp" && zip -qry sos.zip sos)
out=$(verify --proc "$tmp/sos.zip" --quiet 2>&1)
ok $? "the sosreport as a zip verifies: $(echo "$out" | tail -1)"
tar -C "$tmp" -cf "$tmp/whole.tar" sos
head -c 30000 "$tmp/whole.tar" >"$tmp/cut.tar"
out=$(verify --proc "$tmp/cut.tar" --quiet 2>&1)
ok $([ $? != 0 ] && echo "$out" | grep -q "truncated" && echo 0 || echo 1) "a truncated archive: refused ($out)"
# tar itself would store the second copy as a hard link: python's tarfile writes both
python3 - "$tmp" <<'EOF'
import io, sys, tarfile
for archive, names in (("twice", ("p/stat", "p/stat")), ("under", ("p/stat", "p/stat/x"))):
    with tarfile.open(sys.argv[1] + "/" + archive + ".tar", "w") as t:
        for name in names:
            i = tarfile.TarInfo(name)
            i.size = 4
            t.addfile(i, io.BytesIO(b"cpu\n"))
EOF
out=$(verify --proc "$tmp/twice.tar" --quiet 2>&1)
ok $([ $? != 0 ] && echo "$out" | grep -q "given twice" && echo 0 || echo 1) "an archive giving a file twice: refused ($out)"
out=$(verify --proc "$tmp/under.tar" --quiet 2>&1)
ok $([ $? != 0 ] && echo "$out" | grep -q "members beneath it" && echo 0 || echo 1) "an archive with a member beneath a file: refused ($out)"

# 2,000 processes in one archive: ps under run lists every one.  A
# sanitizer run (UPROCFS_TEST_LIGHT=1, tools/check.sh) takes 500: the
# 2,000 cost it 30 s of its 45, and the plain run has them.
big=2000
[ "${UPROCFS_TEST_LIGHT:-0}" = 1 ] && big=500
"$UPROCFS" render --machine "synth:cpus=16,tasks=$big,seed=3" --tree "$tmp/big.tar.zst"
# the pid directories of its /proc (beneath its one top directory, in proc/ beside sys/): not task/<tid>
tar --zstd -tf "$tmp/big.tar.zst" | sed -n 's|^[^/]*/\(proc/\)\{0,1\}\([0-9][0-9]*\)/stat$|\2|p' | sort -u >"$tmp/want"
# the reader itself shows as one more process (served.c's stand-in for self): count the captured ones
timeout -k 5 600 "$UPROCFS" run --machine "tree:$tmp/big.tar.zst" -- ps -e -o pid= | tr -d ' ' | sort -u >"$tmp/got"
want=$(wc -l <"$tmp/want")
got=$(comm -12 "$tmp/want" "$tmp/got" | wc -l)
ok $([ "$got" = "$want" ] && [ "$want" -ge "$big" ] && echo 0 || echo 1) \
	"run --machine tree:big.tar.zst -- ps -e lists every captured process ($got of $want)"
tap_done
