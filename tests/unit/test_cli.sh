#!/bin/sh
# test_cli.sh - every number the command line takes is parsed strictly
# (decimal only, finite, no spaces, range-checked), every --machine synth key
# at most once, no empty spec, no conflicting options: each refused with a
# message naming it and exit status 2 (1 for a bad spec, found when building).
#
# TAP.  usage: test_cli.sh PATH-TO-uprocfs
set -u
U=$1
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d /tmp/uprocfs-cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

refused() {	# refused WANT-STATUS WANT-TEXT DESCRIPTION -- ARGS...
	want=$1 text=$2 what=$3
	shift 4
	"$U" "$@" > /dev/null 2> "$tmp/err"
	st=$?
	[ "$st" = "$want" ] && grep -q -- "$text" "$tmp/err"
	ok $? "$what (status $st: $(head -1 "$tmp/err"))"
}

for at in nan inf 0x10 " 5" "5 " -1 1e3 "" 10000001 "1.2.3" "+4"; do
	refused 2 "expected seconds" "render --at \"$at\" is refused" -- render --at "$at" /proc/loadavg
done
refused 2 "given twice" "render --at given twice is refused" -- render --at 1 --at 2 /proc/loadavg
refused 2 "not both" "render PATHs with --tree is refused" -- render --tree "$tmp/t" /proc/loadavg
refused 1 "nothing after" "--machine synth: with nothing after is refused" -- render --machine synth: /proc/loadavg
refused 1 "given twice" "a synth key given twice is refused" -- render --machine synth:cpus=2,cpus=4 /proc/loadavg
for v in "cpus=0" "cpus= 4" "cpus=4 " "cpus=0x4" "cpus=-4" "load=1.5" "load=nan" "load=1e-1" "seed=18446744073709551616" "tasks=" "bogus=1" "cpus=4,"; do
	refused 1 "synth" "--machine synth:$v is refused" -- render --machine "synth:$v" /proc/loadavg
done
for p in 0 -1 0x10 " 7" "7 " 4194305 abc; do
	refused 2 "not a process id" "verify PID \"$p\" is refused" -- verify -- "$p"
	refused 2 "not a process id" "capture --pid \"$p\" is refused" -- capture --pid "$p" "$tmp/cap"
done
"$U" render --at 3.5 --machine synth:cpus=2,load=.25,seed=007 /proc/loadavg > /dev/null 2>&1
ok $? "good numbers still parse (--at 3.5, load=.25, seed=007)"
tap_done
