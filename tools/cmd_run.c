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
 *               terminals device nodes (run_ttys.c) and its device-mapper
 *               devices their /dev/mapper names (run_dev.c), its accounts
 *               /etc/passwd and /etc/group (run_accounts.c), mounts the tree on
 *               /proc and, for a model, its /sys over the host's (run_sys.c,
 *               a second descriptor the daemon serves from the same source),
 *               runs CMD and reaps until CMD exits
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
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
#include "run_accounts.h"
#include "run_dev.h"
#include "run_sys.h"
#include "preload/shared.h"
#include "run_preload.h"
#include "run_ttys.h"
#include "served.h"
#include "supervise.h"

/* The command's pid namespace allocates from here up: above every synthetic pid. */
#define RUN_FIRST_PID MACH_SYNTH_PID_LIMIT

static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: uprocfs run [--machine SPEC] [--] CMD [ARGS...]\n"
		"\n"
		"Run CMD with the served machine as its /proc, in private mount and pid\n"
		"namespaces (needs root).  ps, top, free, vmstat, uptime, pgrep, htop... read\n"
		"the machine; CMD sees itself at /proc/self.  A model's /sys is served too:\n"
		"its CPUs, nodes, disks, network devices, cgroups, sensors and THP over the\n"
		"host's, the rest of /sys the host's; its device-mapper devices get their\n"
		"/dev/mapper names (empty files) in a /dev that is otherwise the host's, and a\n"
		"machine with accounts of its own (synth) names its users and groups in CMD's\n"
		"/etc/passwd and /etc/group, ahead of the host's (whose files are untouched).\n"
		"Everything is unmounted and ended when CMD exits or is killed; its exit status\n"
		"is passed through.\n"
		"\n"
		"  --machine SPEC   synth[:cpus=N,tasks=M,...] (default), tree:DIR, or live\n"
		"  --pin-cpu        keep the daemon and the command on one CPU: each FUSE request\n"
		"                   then wakes a thread on the CPU it came from (faster for\n"
		"                   single-threaded readers like ps; slower for parallel ones)\n"
		"  --real-affinity  sched_getaffinity of the command's own processes gives their\n"
		"                   real CPUs (default: the machine's online CPUs, so nproc and\n"
		"                   thread pools size themselves for the served machine)\n"
		"  --no-supervise   leave kill, renice, taskset, sysinfo, uname... to the host\n"
		"                   kernel (default: calls aimed at the machine's tasks, and those\n"
		"                   that describe the machine, are answered from the model)\n"
		"  --preload        serve /proc inside the command's dynamically linked programs\n"
		"                   too (LD_PRELOAD): files of the machine are read from a snapshot\n"
		"                   mapped into each program, with no syscall; the command's own\n"
		"                   processes and static programs still read through the mount\n"
		"  --stop-clock     the machine's clock stands still (no simulator): every read\n"
		"                   sees the same served time (to compare transports)\n"
		"  --no-passthrough read every file through FUSE requests, even where the kernel\n"
		"                   could read a small file's text itself (FUSE passthrough)\n"
		"  --io-uring       take FUSE requests over io_uring, each on the CPU of the task\n"
		"                   that sent it (Linux 6.14+; /sys/module/fuse/parameters/enable_uring)\n");
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

/* What the command's side needs to know. */
struct run_opts {
	const char *spec;
	bool pin, real_affinity, supervise, no_passthrough, io_uring;
	/* --preload: the run's directory and the library (run_preload.h); --stop-clock */
	bool preload, stop_clock;
	const char *preload_dir;
	const struct pl_daemon *preload_daemon;
	char preload_lib[4096];
	char **cmd;
	const struct mach_machine *mach; /* the served model (NULL when live), as the fork left it */
	int sys_fd; /* /dev/fuse for the model's /sys, or -1 (live: the host's /sys is the machine's) */
};

/*
 * The command itself, in G's namespaces: its syscalls about the machine go to
 * the supervisor (the listener goes to the daemon over @sock), then it runs.
 */
static void exec_command(int sock, const struct run_opts *ro)
{
	char err[256];
	int listener = -1;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (ro->supervise && sup_install(RUN_FIRST_PID, &listener, err, sizeof(err)))
		fprintf(stderr, "uprocfs run: not supervising the command (%s): kill, renice and the like "
				"of the machine's tasks go to the host kernel\n", err);
	send_fd(sock, listener >= 0 ? 0 : ENOSYS, listener);
	if (listener >= 0)
		close(listener);
	close(sock);
	if (ro->preload) {
		const char *old = getenv("LD_PRELOAD");
		char *both = NULL;

		setenv(PL_ENV, ro->preload_dir, 1);
		if (old && *old && asprintf(&both, "%s:%s", ro->preload_lib, old) > 0)
			setenv("LD_PRELOAD", both, 1);
		else
			setenv("LD_PRELOAD", ro->preload_lib, 1);
		free(both);
	}
	execvp(ro->cmd[0], ro->cmd);
	fprintf(stderr, "uprocfs run: %s: %s\n", ro->cmd[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/* G's procfs of its pid namespace, whose next pid is RUN_FIRST_PID; a descriptor or -errno. */
static int namespace_procfs(void)
{
	char procdir[] = "/tmp/uprocfs-nsproc.XXXXXX", path[256], last_pid[16];
	int fd, n;

	if (!mkdtemp(procdir) || mount("proc", procdir, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		return -errno;
	snprintf(path, sizeof(path), "%s/sys/kernel/ns_last_pid", procdir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	n = snprintf(last_pid, sizeof(last_pid), "%d\n", RUN_FIRST_PID - 1);
	if (fd < 0 || write(fd, last_pid, (size_t)n) != n) {
		int e = errno ? -errno : -EIO;

		if (fd >= 0)
			close(fd);
		umount2(procdir, MNT_DETACH);
		rmdir(procdir);
		return e;
	}
	close(fd);
	fd = open(procdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	umount2(procdir, MNT_DETACH); /* the open descriptor keeps it alive */
	rmdir(procdir);
	return fd < 0 ? -errno : fd;
}

/*
 * --preload: the run's directory gets its tmpfs (run_preload.c), and the
 * library lists the run's own processes beside the snapshot's, from a
 * procfs of this pid namespace that shows pids only, mounted in the run's
 * directory (in this mount namespace alone).  0, or -errno when the
 * directory cannot be had.
 */
static int mount_preload_dir(const struct run_opts *ro)
{
	char path[256];
	int rc = pl_daemon_attach(ro->preload_daemon);

	if (rc) {
		fprintf(stderr, "uprocfs run: --preload: the run's tmpfs on %s: %s\n", ro->preload_dir, strerror(-rc));
		return rc;
	}
	snprintf(path, sizeof(path), "%s/nsproc", ro->preload_dir);
	if (mount("proc", path, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, "subset=pid"))
		fprintf(stderr, "uprocfs run: --preload: %s: %s (ps will not list the command)\n", path,
			strerror(errno));
	return 0;
}

/* G: pid 1 of the command's namespaces. */
static int run_init(int sock, int fuse_fd, const struct run_opts *ro)
{
	struct run_sys_stage sys = { .dir = "" };
	int fd, status = 0, code = 0;
	char err[PATH_MAX + 128];
	pid_t cmd_pid, w;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* A procfs of this pid namespace: the daemon reads the command from it. */
	fd = namespace_procfs();
	if (fd < 0) {
		send_fd(sock, -fd, -1);
		return 1;
	}
	/* the machine's terminals, so that ps can name them (best effort) */
	code = run_ttys_prepare(ro->mach);
	if (code)
		fprintf(stderr, "uprocfs run: the machine's terminals are not in /dev/pts: %s\n", strerror(-code));
	/* udev's names of its device-mapper devices, which lsblk needs (best effort) */
	code = run_dev_prepare(ro->mach);
	if (code)
		fprintf(stderr, "uprocfs run: the machine's /dev/mapper names are not in /dev: %s\n", strerror(-code));
	/* the machine's user and group names (best effort: without them tools print numbers) */
	if (run_accounts_prepare(ro->mach, err, sizeof(err)))
		fprintf(stderr, "uprocfs run: the machine's accounts are not in /etc: %s\n", err);
	code = pfs_fuse_mount_fd(fuse_fd, "/proc", false);
	close(fuse_fd);
	/* the served /sys waits beside the host's until the daemon answers for it */
	if (!code && ro->sys_fd >= 0) {
		code = run_sys_stage(&sys, ro->sys_fd, err, sizeof(err));
		if (code)
			fprintf(stderr, "uprocfs run: /sys: %s\n", err);
	}
	if (ro->sys_fd >= 0)
		close(ro->sys_fd);
	if (!code && ro->preload)
		code = mount_preload_dir(ro);
	send_fd(sock, -code, fd);
	close(fd);
	if (code)
		return 1;
	/* wait until the daemon serves the trees */
	if (read(sock, &code, sizeof(code)) != sizeof(code) || code) {
		run_sys_unstage(&sys);
		return 1;
	}
	if (sys.dir[0] && run_sys_assemble(&sys, err, sizeof(err))) {
		fprintf(stderr, "uprocfs run: putting /sys together: %s\n", err);
		return 1;
	}
	cmd_pid = fork();
	if (cmd_pid < 0)
		return 1;
	if (cmd_pid == 0)
		exec_command(sock, ro);
	close(sock);
	/* Reap everything (we are init) until the command itself is done. */
	while ((w = wait(&status)) != cmd_pid)
		if (w < 0 && errno != EINTR)
			return 1;
	return status_code(status);
}

/* C: new namespaces, then G in them; C's status is G's. */
static void run_namespaces(int sock, int fuse_fd, const struct run_opts *ro)
{
	int status;
	pid_t g;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (unshare(CLONE_NEWNS | CLONE_NEWPID) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		send_fd(sock, errno, -1);
		_exit(1);
	}
	g = fork();
	if (g == 0)
		_exit(run_init(sock, fuse_fd, ro));
	close(sock);
	close(fuse_fd);
	if (ro->sys_fd >= 0)
		close(ro->sys_fd);
	if (g < 0)
		_exit(1);
	while (waitpid(g, &status, 0) < 0)
		if (errno != EINTR)
			_exit(1);
	_exit(status_code(status));
}

static void *loop_thread(void *arg)
{
	pfs_fuse_loop(arg);
	return NULL;
}

/* What the daemon runs while the command does. */
struct daemon {
	struct served s;
	struct pfs_fuse_opts o;
	struct pfs_source *src;
	struct pfs_fuse *fs;
	struct supervisor *sup;
	struct pl_daemon *pl;     /* --preload */
	pthread_t loop;
	int sock;
	/* the model's /sys: a second mount, same source (sys_o.mounted_fd -1: none) */
	struct pfs_fuse_opts sys_o;
	struct pfs_fuse *sys_fs;
	pthread_t sys_loop;
};

/* The /sys mount G staged, served from the same source; 0 or -errno. */
static int serve_sys(struct daemon *d, char *err, size_t errlen)
{
	int rc;

	if (d->sys_o.mounted_fd < 0)
		return 0;
	d->sys_o.caller_proc_fd = d->o.caller_proc_fd;
	rc = pfs_fuse_create(&d->sys_fs, d->src, &d->sys_o, err, errlen);
	if (!rc && pthread_create(&d->sys_loop, NULL, loop_thread, d->sys_fs))
		rc = -EAGAIN;
	if (rc) {
		pfs_fuse_destroy(d->sys_fs);
		d->sys_fs = NULL;
		return rc;
	}
	d->sys_o.mounted_fd = -1; /* the session owns it now */
	return 0;
}

/* Serve the tree G mounted, then supervise the command; 0, or 1 with a message printed. */
static int serve(struct daemon *d, const struct run_opts *ro)
{
	char err[512] = "";
	int ready, listener, rc;

	if (recv_fd(d->sock, &ready, &d->o.caller_proc_fd) || ready) {
		fprintf(stderr, "uprocfs run: preparing the command's namespaces failed: %s\n",
			strerror(ready > 0 ? ready : EIO));
		return 1;
	}
	d->s.stop_clock = ro->stop_clock;
	rc = served_source(&d->s, d->o.caller_proc_fd, RUN_FIRST_PID, &d->src);
	if (!rc)
		rc = pfs_fuse_create(&d->fs, d->src, &d->o, err, sizeof(err));
	if (!rc && d->pl)
		rc = pl_daemon_start(d->pl, d->src, &d->s, RUN_FIRST_PID, err, sizeof(err));
	if (!rc && pthread_create(&d->loop, NULL, loop_thread, d->fs))
		rc = -EAGAIN;
	if (rc) {
		fprintf(stderr, "uprocfs run: %s\n", err[0] ? err : strerror(-rc));
		report(d->sock, EIO);
		pfs_fuse_destroy(d->fs);
		d->fs = NULL;
		return 1;
	}
	d->o.mounted_fd = -1; /* the session owns it now */
	rc = serve_sys(d, err, sizeof(err));
	if (rc) {
		/* /proc is served: the command's side gives up and cmd_run ends it as usual */
		fprintf(stderr, "uprocfs run: /sys: %s\n", err[0] ? err : strerror(-rc));
		report(d->sock, EIO);
		return 1;
	}
	report(d->sock, 0);
	/* the command's listener, once it installed its filter (none: the host kernel answers) */
	if (ro->supervise && !recv_fd(d->sock, &ready, &listener) && !ready && listener >= 0) {
		struct sup_opts so = { .src = d->src, .sim = d->s.sim, .first_real = RUN_FIRST_PID,
				       .real_affinity = ro->real_affinity,
				       .changed = d->pl ? pl_daemon_changed : NULL, .changed_ctx = d->pl };

		if (sup_start(&d->sup, listener, &so)) {
			fprintf(stderr, "uprocfs run: cannot start the supervisor\n");
			close(listener);
		}
	}
	return 0;
}

static void print_stats(struct daemon *d)
{
	struct pfs_fuse_stats st;
	unsigned long answered = 0, passed = 0;

	if (!getenv("UPROCFS_FUSE_STATS"))
		return;
	pfs_fuse_get_stats(d->fs, &st);
	if (d->sup)
		sup_counts(d->sup, &answered, &passed);
	fprintf(stderr, "fuse requests: %llu lookup, %llu getattr, %llu readdir, %llu open, %llu read, "
			"%llu release, %llu readlink (%llu opens by passthrough, %llu kept files rendered again, "
			"%llu requests over io_uring); syscalls answered %lu, sent on %lu\n",
		(unsigned long long)st.lookup, (unsigned long long)st.getattr, (unsigned long long)st.readdir,
		(unsigned long long)st.open, (unsigned long long)st.read, (unsigned long long)st.release,
		(unsigned long long)st.readlink, (unsigned long long)st.passthrough,
		(unsigned long long)st.refresh, (unsigned long long)st.uring, answered, passed);
	if (d->pl) {
		char line[512];

		pl_daemon_stats(d->pl, line, sizeof(line));
		fprintf(stderr, "%s\n", line);
	}
}

static int parse_run_opts(int argc, char **argv, struct run_opts *ro)
{
	static const struct option longopts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "pin-cpu", no_argument, NULL, 'p' },
		{ "real-affinity", no_argument, NULL, 'r' },
		{ "no-supervise", no_argument, NULL, 'n' },
		{ "preload", no_argument, NULL, 'P' },
		{ "stop-clock", no_argument, NULL, 'S' },
		{ "no-passthrough", no_argument, NULL, 'T' },
		{ "io-uring", no_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*ro = (struct run_opts){ .spec = "synth", .supervise = true, .sys_fd = -1 };
	optind = 1;
	while ((c = getopt_long(argc, argv, "+m:ph", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': ro->spec = optarg; break;
		case 'p': ro->pin = true; break;
		case 'r': ro->real_affinity = true; break;
		case 'n': ro->supervise = false; break;
		case 'P': ro->preload = true; break;
		case 'S': ro->stop_clock = true; break;
		case 'T': ro->no_passthrough = true; break;
		case 'U': ro->io_uring = true; break;
		case 'h': run_usage(stdout); return 0;
		default: run_usage(stderr); return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "uprocfs run: no command given\n");
		run_usage(stderr);
		return 2;
	}
	ro->cmd = argv + optind;
	return -1;
}

static void pin_to_this_cpu(void)
{
	cpu_set_t one;
	int cpu = sched_getcpu();

	CPU_ZERO(&one);
	CPU_SET(cpu < 0 ? 0 : cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		fprintf(stderr, "uprocfs run: --pin-cpu: %s\n", strerror(errno));
}

int cmd_run(int argc, char **argv)
{
	struct daemon d = { .o = { .mountpoint = "/proc", .caller_proc_fd = -1, .mounted_fd = -1 },
			    .sys_o = { .mountpoint = "/sys", .tree = PFS_SCOPE_SYS, .caller_proc_fd = -1, .mounted_fd = -1 },
			    .sock = -1 };
	int sv[2] = { -1, -1 }, code = 1, status, rc;
	struct run_opts ro;
	char err[512];

	rc = parse_run_opts(argc, argv, &ro);
	if (rc >= 0)
		return rc;
	if (ro.pin)
		pin_to_this_cpu();
	if (geteuid() != 0) {
		fprintf(stderr, "uprocfs run: needs root, to create mount and pid namespaces "
				"(try `uprocfs mount` as a user)\n");
		return 1;
	}
	if (served_open(&d.s, ro.spec, err, sizeof(err))) {
		fprintf(stderr, "uprocfs run: %s\n", err);
		return 1;
	}
	ro.mach = d.s.mach;
	if (ro.preload) {
		if (!d.s.mach) {
			fprintf(stderr, "uprocfs run: --preload serves a model machine, not --machine live\n");
			goto out;
		}
		if (pl_library_path(ro.preload_lib, sizeof(ro.preload_lib))) {
			fprintf(stderr, "uprocfs run: --preload: libuprocfs-preload.so not found beside %s "
					"(set UPROCFS_PRELOAD_LIB)\n", argv[0]);
			goto out;
		}
		if (pl_daemon_prepare(&d.pl, ro.stop_clock, err, sizeof(err))) {
			fprintf(stderr, "uprocfs run: %s\n", err);
			goto out;
		}
		ro.preload_dir = pl_daemon_dir(d.pl);
		ro.preload_daemon = d.pl;
	}
	d.o.no_passthrough = d.sys_o.no_passthrough = ro.no_passthrough;
	d.o.io_uring = d.sys_o.io_uring = ro.io_uring;
	d.o.mounted_fd = open("/dev/fuse", O_RDWR); /* G mounts it; no CLOEXEC until then */
	if (d.o.mounted_fd < 0) {
		fprintf(stderr, "uprocfs run: /dev/fuse: %s (is the fuse module available?)\n", strerror(errno));
		goto out;
	}
	/* a model's /sys too; the live machine's is the host's own */
	if (ro.mach) {
		d.sys_o.mounted_fd = open("/dev/fuse", O_RDWR);
		if (d.sys_o.mounted_fd < 0) {
			fprintf(stderr, "uprocfs run: /dev/fuse: %s\n", strerror(errno));
			goto out;
		}
	}
	ro.sys_fd = d.sys_o.mounted_fd;
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
		close(sv[0]);
		run_namespaces(sv[1], d.o.mounted_fd, &ro);
	}
	close(sv[1]);
	sv[1] = -1;
	d.sock = sv[0];
	signal(SIGINT, forward_signal);
	signal(SIGTERM, forward_signal);
	signal(SIGHUP, forward_signal);
	serve(&d, &ro);
	while (waitpid(child_pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = 1 << 8;
			break;
		}
	}
	child_pid = 0;
	code = status_code(status);
	if (d.fs)
		print_stats(&d); /* before sup_stop, which frees the supervisor it asks for its counts */
	sup_stop(d.sup);
	if (d.fs) {
		/* the namespace is gone with its last process: the connection ends */
		pfs_fuse_unmount(d.fs);
		pthread_join(d.loop, NULL);
		pfs_fuse_destroy(d.fs);
	}
	if (d.sys_fs) {
		pfs_fuse_unmount(d.sys_fs);
		pthread_join(d.sys_loop, NULL);
		pfs_fuse_destroy(d.sys_fs);
	}
out:
	if (sv[0] >= 0)
		close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	if (d.o.mounted_fd >= 0)
		close(d.o.mounted_fd);
	if (d.sys_o.mounted_fd >= 0)
		close(d.sys_o.mounted_fd);
	if (d.o.caller_proc_fd >= 0)
		close(d.o.caller_proc_fd);
	pl_daemon_stop(d.pl);
	pfs_source_free(d.src);
	served_close(&d.s);
	return code;
}
