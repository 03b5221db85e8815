#!/bin/sh
# test_unmount.sh - a tree unmounted lazily from outside while readers are
# busy ends its daemon with status 0, every time (REPS repetitions, with the
# CPUs loaded so the connection is often aborted before the daemon reads).
#
# TAP.  usage: test_unmount.sh PATH-TO-uprocfs PATH-TO-fuse_stress REPS
# Every process and mount this starts is ended by pid / unmounted on exit.
set -u

UPROCFS=$1
STRESS=$2
REPS=${3:-200}

if [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
	echo "1..0 # SKIP needs root and /dev/fuse"
	exit 0
fi

tmp=$(mktemp -d /tmp/uprocfs-unmount.XXXXXX)
pids=""
cleanup() {
	for p in $pids; do kill -9 "$p" 2>/dev/null; done
	for d in "$tmp"/m*; do
		[ -d "$d" ] && { fusermount3 -u -z "$d" 2>/dev/null; rmdir "$d" 2>/dev/null; }
	done
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

echo "1..1"
# two busy loops: an aborted connection is likelier on a loaded machine
for h in 1 2; do sh -c 'while :; do :; done' & pids="$pids $!"; done
bad=0
first=""
for i in $(seq 1 "$REPS"); do
	d="$tmp/m$i"
	mkdir "$d"
	"$UPROCFS" mount --machine synth:tasks=100 --foreground "$d" 2> "$tmp/err" &
	daemon=$!
	for k in $(seq 1 50); do [ -f "$d/loadavg" ] && break; sleep 0.02; done
	"$STRESS" concurrent "$d" 1 4 --tolerate > /dev/null 2>&1 &
	reader=$!
	sleep 0.1
	fusermount3 -u -z "$d"
	wait "$reader"
	wait "$daemon"
	st=$?
	if [ "$st" != 0 ]; then
		bad=$((bad + 1))
		[ -n "$first" ] || first="repetition $i: status $st: $(head -2 "$tmp/err")"
	fi
	rmdir "$d"
done
if [ "$bad" = 0 ]; then
	echo "ok 1 - $REPS lazy unmounts during reads: the daemon exits 0 every time"
else
	echo "not ok 1 - $REPS lazy unmounts during reads: $bad ended with another status"
	echo "# $first"
fi
