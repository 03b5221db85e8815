#!/bin/sh
# Install the Debian 12 packages uprocfs needs to build, test and run its demo.
# (lxcfs: `uprocfs bench fuse` times files beside it.)
# Only missing packages are installed; needs root (or sudo) when some are missing.
set -eu

# libarchive-dev: captures as archives (capture -o FILE.tar.zst, tree:FILE.tar.zst); its
# libarchive13 links libzstd1 itself, so no libzstd-dev; zstd: the CLI, to look inside one; zip: a capture
# as a zip (test_captures.sh).
PACKAGES="gcc make meson ninja-build pkg-config valgrind libfuse3-dev liburing-dev libseccomp-dev fuse3 procps util-linux htop tmux gnuplot-nox clang libclang-rt-14-dev sysstat procinfo strace lsof python3-psutil psmisc atop btop nmon glances net-tools iproute2 prometheus-node-exporter wget libarchive-dev zstd zip lxcfs"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have stale or empty package lists: update once on failure.
if ! $SUDO apt-get install -y --no-install-recommends $missing; then
	$SUDO apt-get update
	$SUDO apt-get install -y --no-install-recommends $missing
fi
