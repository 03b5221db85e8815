// SPDX-License-Identifier: MIT
/*
 * cmd_run.c - `uprocfs run -- CMD`: run a command whose /proc is the served
 * machine.
 *
 * The command gets private mount and pid namespaces.  Its side mounts the
 * FUSE tree over /proc there, from a /dev/fuse descriptor the daemon opened;
 * the daemon (this process) stays in the original namespaces and serves that
 * descriptor, so neither it nor the C library under it ever opens the tree it
 * serves (a FUSE daemon reading its own mount deadlocks).  The command's pid
 * namespace hands out pids from MACH_SYNTH_PID_LIMIT up (ns_last_pid), so the
 * pids the command and its children get never name a machine's task; the
 * daemon describes the command to itself from a procfs of that namespace,
 * passed back over a socket.  When the command exits, or is killed, the
 * namespaces and the mount go with it.  Its exit status is passed through.
 *
 *   uprocfs run (daemon: original namespaces, serves the /dev/fuse descriptor)
 *     `- C: unshare(CLONE_NEWNS | CLONE_NEWPID), waits for G
 *          `- G: pid 1 of the new namespace: mounts its procfs (sends it to
 *               the daemon), sets ns_last_pid, gives the machine's
 *               terminals device nodes (run_ttys.c), mounts the tree on
 *               /proc, runs CMD and reaps until CMD exits
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "run_ttys.h"
#include "served.h"

/* The command's pid namespace allocates from here up: above every synthetic pid. */
#define RUN_FIRST_PID MACH_SYNTH_PID_LIMIT

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
		"  --machine SPEC   synth[:cpus=N,tasks=M,...] (default), tree:DIR, or live\n"
		"  --pin-cpu        keep the daemon and the command on one CPU: each FUSE request\n"
		"                   then wakes a thread on the CPU it came from (faster for\n"
		"                   single-threaded readers like ps; slower for parallel ones)\n");
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

/* Send @code, and @fd when >= 0, over the unix socket @sock. */
static int send_fd(int sock, int code, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &code, .iov_len = sizeof(code) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	return sendmsg(sock, &msg, 0) == (ssize_t)sizeof(code) ? 0 : -1;
}

/* Receive a code and maybe a descriptor (-1 when none came). */
static int recv_fd(int sock, int *code, int *fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = code, .iov_len = sizeof(*code) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;

	*fd = -1;
	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != (ssize_t)sizeof(*code))
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
		memcpy(fd, CMSG_DATA(c), sizeof(int));
	return 0;
}

/* G: pid 1 of the command's namespaces; @m is the served machine (NULL: the live one). */
static int run_init(int sock, int fuse_fd, const struct mach_machine *m, char **cmd)
{
	char procdir[] = "/tmp/uprocfs-nsproc.XXXXXX", path[256], last_pid[16];
	int fd, status = 0, code = 0, n;
	pid_t cmd_pid, w;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* A procfs of this pid namespace: the daemon reads the command from it. */
	if (!mkdtemp(procdir) || mount("proc", procdir, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		send_fd(sock, errno, -1);
		return 1;
	}
	/* the next pid this namespace hands out is RUN_FIRST_PID */
	snprintf(path, sizeof(path), "%s/sys/kernel/ns_last_pid", procdir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	n = snprintf(last_pid, sizeof(last_pid), "%d\n", RUN_FIRST_PID - 1);
	if (fd < 0 || write(fd, last_pid, (size_t)n) != n) {
		send_fd(sock, errno ? errno : EIO, -1);
		return 1;
	}
	close(fd);
	fd = open(procdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	umount2(procdir, MNT_DETACH); /* the open descriptor keeps it alive */
	rmdir(procdir);
	if (fd < 0) {
		send_fd(sock, errno, -1);
		return 1;
	}
	/* the machine's terminals, so that ps can name them (best effort) */
	code = run_ttys_prepare(m);
	if (code)
		fprintf(stderr, "uprocfs run: the machine's terminals are not in /dev/pts: %s\n", strerror(-code));
	code = pfs_fuse_mount_fd(fuse_fd, "/proc", false);
	close(fuse_fd);
	send_fd(sock, -code, fd);
	close(fd);
	if (code)
		return 1;
	/* wait until the daemon serves the tree */
	if (read(sock, &code, sizeof(code)) != sizeof(code) || code)
		return 1;
	close(sock);
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
		{ "pin-cpu", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool pin = false;
	struct pfs_fuse_opts o = { .mountpoint = "/proc", .caller_proc_fd = -1,
				   .mounted_fd = -1 };
	const char *spec = "synth";
	struct pfs_fuse *fs = NULL;
	int sv[2] = { -1, -1 }, c, rc, code = 1, status, ready;
	pthread_t loop;
	struct pfs_source *src = NULL;
	struct served s;
	char err[512];

	optind = 1;
	while ((c = getopt_long(argc, argv, "+m:ph", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': spec = optarg; break;
		case 'p': pin = true; break;
		case 'h': run_usage(stdout); return 0;
		default: run_usage(stderr); return 2;
		}
	}
	if (pin) {
		cpu_set_t one;
		int cpu = sched_getcpu();

		CPU_ZERO(&one);
		CPU_SET(cpu < 0 ? 0 : cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			fprintf(stderr, "uprocfs run: --pin-cpu: %s\n", strerror(errno));
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
	o.mounted_fd = open("/dev/fuse", O_RDWR); /* G mounts it; no CLOEXEC until then */
	if (o.mounted_fd < 0) {
		fprintf(stderr, "uprocfs run: /dev/fuse: %s (is the fuse module available?)\n", strerror(errno));
		goto out;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		fprintf(stderr, "uprocfs run: setting up: %s\n", strerror(errno));
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
		close(sv[0]);
		if (unshare(CLONE_NEWNS | CLONE_NEWPID) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
			send_fd(sv[1], errno, -1);
			_exit(1);
		}
		g = fork();
		if (g == 0)
			_exit(run_init(sv[1], o.mounted_fd, s.mach, argv + optind));
		close(sv[1]);
		close(o.mounted_fd);
		if (g < 0)
			_exit(1);
		while (waitpid(g, &status, 0) < 0)
			if (errno != EINTR)
				_exit(1);
		_exit(status_code(status));
	}
	close(sv[1]);
	sv[1] = -1;
	signal(SIGINT, forward_signal);
	signal(SIGTERM, forward_signal);
	signal(SIGHUP, forward_signal);
	if (recv_fd(sv[0], &ready, &o.caller_proc_fd) || ready) {
		fprintf(stderr, "uprocfs run: preparing the command's namespaces failed: %s\n",
			strerror(ready > 0 ? ready : EIO));
		goto wait_child;
	}
	err[0] = '\0';
	rc = served_source(&s, o.caller_proc_fd, RUN_FIRST_PID, &src);
	if (!rc)
		rc = pfs_fuse_create(&fs, src, &o, err, sizeof(err));
	if (!rc && pthread_create(&loop, NULL, loop_thread, fs))
		rc = -EAGAIN;
	if (rc) {
		fprintf(stderr, "uprocfs run: %s\n", err[0] ? err : strerror(-rc));
		report(sv[0], EIO);
		pfs_fuse_destroy(fs);
		fs = NULL;
		goto wait_child;
	}
	o.mounted_fd = -1; /* the session owns it now */
	report(sv[0], 0);
wait_child:
	while (waitpid(child_pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = 1 << 8;
			break;
		}
	}
	child_pid = 0;
	code = status_code(status);
	if (fs) {
		if (getenv("UPROCFS_FUSE_STATS")) {
			struct pfs_fuse_stats st;
			pfs_fuse_get_stats(fs, &st);
			fprintf(stderr, "fuse requests: %llu lookup, %llu getattr, %llu readdir, %llu open, "
					"%llu read, %llu release, %llu readlink\n",
				(unsigned long long)st.lookup, (unsigned long long)st.getattr,
				(unsigned long long)st.readdir, (unsigned long long)st.open,
				(unsigned long long)st.read, (unsigned long long)st.release,
				(unsigned long long)st.readlink);
		}
		/* the namespace is gone with its last process: the connection ends */
		pfs_fuse_unmount(fs);
		pthread_join(loop, NULL);
		pfs_fuse_destroy(fs);
	}
out:
	if (sv[0] >= 0)
		close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	if (o.mounted_fd >= 0)
		close(o.mounted_fd);
	if (o.caller_proc_fd >= 0)
		close(o.caller_proc_fd);
	pfs_source_free(src);
	served_close(&s);
	return code;
}
