#!/bin/sh
# test_preload_diff.sh - run preload_diff inside `uprocfs run --preload
# --stop-clock` over a machine of 250 tasks: every file through the library
# and through the mount at one served time.
#
# TAP (preload_diff's).  usage: test_preload_diff.sh PATH-TO-uprocfs PATH-TO-preload_diff
set -u

if [ "$(id -u)" != 0 ] || [ ! -c /dev/fuse ]; then
	echo "1..0 # SKIP needs root and /dev/fuse"
	exit 0
fi
exec timeout -k 5 580 "$1" run --preload --stop-clock --machine synth:cpus=16,tasks=250,seed=7 -- "$2"
