// SPDX-License-Identifier: MIT
/*
 * test_supervise_gone.c - a command whose supervisor is gone is never left
 * hanging: with the filter of `uprocfs run` installed and its listener
 * closed, a watched call (kill of a synthetic pid, sysinfo) fails at once
 * with ENOSYS, and calls on real processes still work.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#include "supervise.h"
#include "tap.h"

int main(void)
{
	int p[2], status, results[3] = { -1, -1, -1 };
	pid_t child;

	if (geteuid() != 0)
		skip_all("needs root to install a seccomp filter without no_new_privs");
	if (pipe(p))
		skip_all("pipe");
	child = fork();
	if (child == 0) {
		char err[256];
		struct sysinfo si;
		int listener;

		alarm(10); /* a hang fails the test instead of blocking it */
		close(p[0]);
		/* this process is the first "real" pid: everything below it stands for a synthetic task */
		if (sup_install(getpid(), &listener, err, sizeof(err)))
			_exit(2);
		close(listener); /* the supervisor is gone */
		results[0] = kill(1, 0) ? errno : 0;
		results[1] = sysinfo(&si) ? errno : 0;
		results[2] = kill(getpid(), 0) ? errno : 0;
		if (write(p[1], results, sizeof(results)) != sizeof(results))
			_exit(3);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], results, sizeof(results)) != sizeof(results))
		results[0] = -1;
	waitpid(child, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the command ran to its end (no hang, status %d)", status);
	ok(results[0] == ENOSYS, "kill of a synthetic pid fails with ENOSYS (%d)", results[0]);
	ok(results[1] == ENOSYS, "sysinfo fails with ENOSYS (%d)", results[1]);
	ok(results[2] == 0, "a call on the command's own process still goes to the kernel (%d)", results[2]);
	return tap_done();
}
