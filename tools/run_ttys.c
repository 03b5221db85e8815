// SPDX-License-Identifier: MIT
/*
 * run_ttys.c - the served machine's terminals as device nodes, for
 * `uprocfs run`: ps names a task's terminal only when /dev/pts/N exists
 * with the device number its stat's tty_nr says (procps dev_to_tty stats
 * the name it finds in /proc/<pid>/fd/2 or builds from /proc/tty/drivers).
 *
 * In the command's private mount namespace a new devpts instance goes over
 * /dev/pts, and as many pty masters are opened as the machine's highest pts
 * number needs: devpts numbers them from 0, so /dev/pts/N is the real
 * device 136:N.  /dev/ptmx then opens ptys in that instance, so the command
 * can still open terminals of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <unistd.h>

#include "run_ttys.h"

#define PTS_MAJOR 136
#define PTS_MAX 900 /* masters held open at most: within the default RLIMIT_NOFILE of 1024 */

/* The highest /dev/pts number a task of @m has as its terminal, or -1. */
static int highest_pts(const struct mach_machine *m)
{
	int hi = -1;

	for (size_t i = 0; m && i < m->nprocs; i++) {
		unsigned int nr = (unsigned int)m->procs[i].tty_nr;
		unsigned int major = (nr >> 8) & 0xfff, minor = (nr & 0xff) | ((nr >> 12) & 0xfff00);

		if (major >= PTS_MAJOR && major < PTS_MAJOR + 8 && (int)(minor + (major - PTS_MAJOR) * 256) > hi)
			hi = (int)(minor + (major - PTS_MAJOR) * 256);
	}
	return hi;
}

int run_ttys_prepare(const struct mach_machine *m)
{
	int hi = highest_pts(m);

	if (hi < 0)
		return 0;
	if (hi >= PTS_MAX)
		hi = PTS_MAX - 1; /* beyond that ps shows "?" */
	if (mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620"))
		return -errno;
	/* kept open (and locked: nobody opens the slaves) while the command runs */
	for (int i = 0; i <= hi; i++)
		if (open("/dev/pts/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC) < 0)
			return -errno;
	return 0;
}
