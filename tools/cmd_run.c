// SPDX-License-Identifier: MIT
/*
 * cmd_run.c - `uprocfs run -- CMD`: run a command whose /proc is the served
 * machine.
 *
 * The daemon (this process) takes a private mount namespace and mounts the
 * tree over /proc there.  The command runs in a new pid namespace whose first
 * pids are set high (ns_last_pid), so the pids the command and its children
 * get never collide with the machine's; the daemon describes the command to
 * itself from a real procfs of that namespace.  Nothing outside sees the
 * mount, and when the command exits, or is killed, the namespaces and the
 * mount go with it.  The command's exit status is passed through.
 *
 *   uprocfs run (daemon, host pid ns, private mount ns: FUSE on /proc)
 *     `- child C: unshare(CLONE_NEWPID), waits for G
 *          `- G: pid 1 of the new ns: mounts its procfs, sets ns_last_pid,
 *               runs CMD and reaps until CMD exits
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "served.h"

/* The command's pid namespace allocates from here up: above every synthetic pid. */
#define RUN_FIRST_PID 3000000

static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: uprocfs run [--machine SPEC] [--] CMD [ARGS...]\n"
		"\n"
		"Run CMD with the served machine as its /proc, in private mount and pid\n"
		"namespaces (needs root).  ps, top, free, vmstat, uptime, pgrep, htop... read\n"
		"the machine; CMD sees itself at /proc/self.  Everything is unmounted and\n"
		"ended when CMD exits or is killed; its exit status is passed through.\n"
		"\n"
		"  --machine SPEC   synth[:cpus=N,tasks=M,...] (default), tree:DIR, or live\n");
}

static volatile pid_t child_pid;

static void forward_signal(int sig)
{
	(void)sig;
	/* Ending C ends G (PDEATHSIG) and with it the whole pid namespace. */
	if (child_pid > 0)
		kill(child_pid, SIGKILL);
}

static int status_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

static void report(int fd, int code)
{
	ssize_t n = write(fd, &code, sizeof(code));
	(void)n;
}

/* G: pid 1 of the command's namespace. */
static int run_init(const char *procdir, int ready_fd, int go_fd, char **cmd)
{
	static const char last_pid[] = "2999999\n"; /* RUN_FIRST_PID - 1 */
	char path[256];
	int fd, status = 0, code;
	pid_t cmd_pid, w;
	ssize_t n;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (mount("proc", procdir, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		report(ready_fd, errno);
		return 1;
	}
	/* the next pid this namespace hands out is RUN_FIRST_PID */
	snprintf(path, sizeof(path), "%s/sys/kernel/ns_last_pid", procdir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, last_pid, sizeof(last_pid) - 1) != (ssize_t)sizeof(last_pid) - 1) {
		report(ready_fd, errno ? errno : EIO);
		return 1;
	}
	close(fd);
	report(ready_fd, 0);
	n = read(go_fd, &code, sizeof(code));
	if (n != sizeof(code) || code)
		return 1; /* the daemon could not mount */
	close(go_fd);
	close(ready_fd);
	cmd_pid = fork();
	if (cmd_pid < 0)
		return 1;
	if (cmd_pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(cmd[0], cmd);
		fprintf(stderr, "uprocfs run: %s: %s\n", cmd[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	/* Reap everything (we are init) until the command itself is done. */
	while ((w = wait(&status)) != cmd_pid)
		if (w < 0 && errno != EINTR)
			return 1;
	return status_code(status);
}

static void *loop_thread(void *arg)
{
	pfs_fuse_loop(arg);
	return NULL;
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pfs_fuse_opts o = { .mountpoint = "/proc", .caller_proc_fd = -1, .host_proc_fd = -1 };
	char procdir[] = "/tmp/uprocfs-nsproc.XXXXXX";
	const char *spec = "synth";
	struct pfs_fuse *fs = NULL;
	int ready[2], go[2], c, rc, code = 1, status;
	pthread_t loop;
	struct served s;
	char err[512];

	optind = 1;
	while ((c = getopt_long(argc, argv, "+m:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': spec = optarg; break;
		case 'h': run_usage(stdout); return 0;
		default: run_usage(stderr); return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "uprocfs run: no command given\n");
		run_usage(stderr);
		return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "uprocfs run: needs root, to create mount and pid namespaces "
				"(try `uprocfs mount` as a user)\n");
		return 1;
	}
	rc = served_open(&s, spec, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "uprocfs run: %s\n", err);
		return 1;
	}
	o.host_proc_fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (o.host_proc_fd < 0 || !mkdtemp(procdir) || pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC)) {
		fprintf(stderr, "uprocfs run: setting up: %s\n", strerror(errno));
		goto out;
	}
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		fprintf(stderr, "uprocfs run: cannot create a private mount namespace: %s\n", strerror(errno));
		goto out;
	}
	child_pid = fork();
	if (child_pid < 0) {
		fprintf(stderr, "uprocfs run: fork: %s\n", strerror(errno));
		goto out;
	}
	if (child_pid == 0) {
		pid_t g;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (unshare(CLONE_NEWPID)) {
			report(ready[1], errno);
			_exit(1);
		}
		g = fork();
		if (g == 0)
			_exit(run_init(procdir, ready[1], go[0], argv + optind));
		if (g < 0) {
			report(ready[1], errno);
			_exit(1);
		}
		close(ready[1]);
		close(go[0]);
		while (waitpid(g, &status, 0) < 0)
			if (errno != EINTR)
				_exit(1);
		_exit(status_code(status));
	}
	close(ready[1]);
	close(go[0]);
	signal(SIGINT, forward_signal);
	signal(SIGTERM, forward_signal);
	signal(SIGHUP, forward_signal);
	if (read(ready[0], &rc, sizeof(rc)) != sizeof(rc) || rc) {
		fprintf(stderr, "uprocfs run: preparing the command's pid namespace failed: %s\n",
			strerror(rc > 0 ? rc : EIO));
		goto wait_child;
	}
	/* The namespace's procfs describes the command; keep it open, hide the mount. */
	o.caller_proc_fd = open(procdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	umount2(procdir, MNT_DETACH);
	rmdir(procdir);
	procdir[0] = '\0';
	rc = o.caller_proc_fd < 0 ? -errno : pfs_fuse_create(&fs, &s.src, &o, err, sizeof(err));
	if (!rc && pthread_create(&loop, NULL, loop_thread, fs))
		rc = -EAGAIN;
	if (rc) {
		fprintf(stderr, "uprocfs run: %s\n", o.caller_proc_fd < 0 ? strerror(-rc) : err);
		report(go[1], EIO);
		pfs_fuse_destroy(fs);
		fs = NULL;
		goto wait_child;
	}
	report(go[1], 0);
wait_child:
	close(go[1]);
	while (waitpid(child_pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = 1 << 8;
			break;
		}
	}
	child_pid = 0;
	code = status_code(status);
	if (fs) {
		pfs_fuse_unmount(fs);
		pthread_join(loop, NULL);
		pfs_fuse_destroy(fs);
	}
out:
	if (procdir[0])
		rmdir(procdir);
	if (o.caller_proc_fd >= 0)
		close(o.caller_proc_fd);
	if (o.host_proc_fd >= 0)
		close(o.host_proc_fd);
	served_close(&s);
	return code;
}
