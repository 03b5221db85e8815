// SPDX-License-Identifier: MIT
/*
 * hardcases.c - see hardcases.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <net/if.h>
#include <netinet/in.h>
#include <semaphore.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hardcases.h"
#include "hardcases_fds.h"

static void on_hup(int sig)
{
	(void)sig;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void map_file(const char *path, bool unlink_after)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || ftruncate(fd, 8192))
		_exit(3);
	if (mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED)
		_exit(3);
	close(fd);
	if (unlink_after)
		unlink(path);
}

enum hc_kind { HC_NAME, HC_FILES, HC_THREADS, HC_STOPPED, HC_NOBODY, HC_PINNED, HC_SIGNALS, HC_FDS, HC_LIMITS,
	       HC_SOCKETS, HC_NETNS, HC_CGROUP, HC_MNTNS, HC_NEWNS, HC_PIDNS, HC_PIDNS_EMPTY };

static void become_ns(enum hc_kind kind, const char *dir);

/* ------------------------------------------------------------------ */
/* Sockets: every kind of row /proc/net/{tcp,tcp6,udp,udp6,unix} prints  */

/* A listening TCP socket of @family on the loopback (or any) address; its port in *@port. */
static int tcp_listener(int family, bool any, unsigned short *port)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t len = family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
	int fd = socket(family, SOCK_STREAM, 0);

	ss.ss_family = (sa_family_t)family;
	if (family == AF_INET && !any)
		((struct sockaddr_in *)&ss)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else if (family == AF_INET6 && !any)
		((struct sockaddr_in6 *)&ss)->sin6_addr = in6addr_loopback;
	if (fd < 0 || bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 8) ||
	    getsockname(fd, (struct sockaddr *)&ss, &len))
		_exit(3);
	*port = ntohs(family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port : ((struct sockaddr_in6 *)&ss)->sin6_port);
	return fd;
}

/* Connect to 127.0.0.1:@port and accept: both ends stay open. */
static int tcp_pair(int lfd, unsigned short port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port),
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int c = socket(AF_INET, SOCK_STREAM, 0);

	if (c < 0 || connect(c, (struct sockaddr *)&sin, sizeof(sin)) || accept(lfd, NULL, NULL) < 0)
		_exit(3);
	return c;
}

/* A unix socket bound to @path (@len bytes: abstract names start with NUL). */
static int unix_bound(int type, const char *path, size_t len, bool listening)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, type, 0);

	memcpy(sun.sun_path, path, len);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sun, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len)) ||
	    (listening && listen(fd, 4)))
		_exit(3);
	return fd;
}

static void make_sockets(const char *dir)
{
	unsigned short p4, p6;
	int l4 = tcp_listener(AF_INET, false, &p4), l6 = tcp_listener(AF_INET6, true, &p6), c, u, sv[2];
	struct sockaddr_in self = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t slen = sizeof(self);
	char path[256];

	tcp_pair(l4, p4);
	tcp_pair(l6, p6); /* IPv4 on an IPv6 socket: ::ffff:127.0.0.1 in tcp6 */
	c = tcp_pair(l4, p4);
	close(c); /* the side that closes first keeps a time-wait sock */
	u = socket(AF_INET, SOCK_DGRAM, 0);
	if (u < 0 || bind(u, (struct sockaddr *)&self, sizeof(self)) || getsockname(u, (struct sockaddr *)&self, &slen))
		_exit(3);
	c = socket(AF_INET, SOCK_DGRAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&self, sizeof(self)) || send(c, "datagram", 8, 0) != 8)
		_exit(3); /* u holds it unread: a receive queue */
	if (socket(AF_INET6, SOCK_DGRAM, 0) < 0)
		_exit(3);
	snprintf(path, sizeof(path), "%s/sock with space\nand newline", dir);
	unix_bound(SOCK_STREAM, path, strlen(path), true);
	snprintf(path, sizeof(path), "%s/seq@packet", dir);
	unix_bound(SOCK_SEQPACKET, path, strlen(path), true);
	unix_bound(SOCK_DGRAM, "\0uprocfs-hc\0abstract", 21, false);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || socket(AF_UNIX, SOCK_DGRAM, 0) < 0)
		_exit(3);
}

/* A network namespace of its own, its loopback up, a socket or two in it. */
static void own_netns(void)
{
	struct ifreq ifr = { 0 };
	unsigned short port;
	int fd, l;

	if (unshare(CLONE_NEWNET))
		_exit(3);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	strcpy(ifr.ifr_name, "lo");
	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr))
		_exit(3);
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr))
		_exit(3);
	l = tcp_listener(AF_INET, false, &port);
	tcp_pair(l, port);
}

/* What each child does before it sleeps for good. */
static void become(enum hc_kind kind, const char *dir)
{
	char path[256];

	switch (kind) {
	case HC_NAME:
		prctl(PR_SET_NAME, "a\tb\\c d)(e f", 0, 0, 0);
		break;
	case HC_FILES:
		prctl(PR_SET_NAME, "hc-files", 0, 0, 0);
		snprintf(path, sizeof(path), "%s/with space", dir);
		map_file(path, false);
		snprintf(path, sizeof(path), "%s/with\ttab", dir);
		map_file(path, false);
		snprintf(path, sizeof(path), "%s/with\nnewline", dir);
		map_file(path, false);
		snprintf(path, sizeof(path), "%s/with\\backslash", dir);
		map_file(path, false);
		snprintf(path, sizeof(path), "%s/deleted file", dir);
		map_file(path, true);
		break;
	case HC_THREADS:
		prctl(PR_SET_NAME, "hc-threads", 0, 0, 0);
		for (int i = 0; i < 3; i++) {
			pthread_t t;
			if (pthread_create(&t, NULL, sleeper, NULL))
				_exit(3);
		}
		break;
	case HC_STOPPED:
		prctl(PR_SET_NAME, "hc-stopped", 0, 0, 0);
		break;
	case HC_NOBODY: {
		static const gid_t groups[] = { 4, 24, 27, 100 };
		prctl(PR_SET_NAME, "hc-nobody", 0, 0, 0);
		if (setgroups(4, groups) || setgid(65534) || setuid(65534))
			_exit(3);
		break;
	}
	case HC_PINNED: {
		cpu_set_t set;
		prctl(PR_SET_NAME, "hc-pinned", 0, 0, 0);
		CPU_ZERO(&set);
		CPU_SET(0, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(3);
		break;
	}
	case HC_SOCKETS:
		prctl(PR_SET_NAME, "hc-sockets", 0, 0, 0);
		make_sockets(dir);
		break;
	case HC_NETNS:
		prctl(PR_SET_NAME, "hc-netns", 0, 0, 0);
		own_netns();
		break;
	case HC_SIGNALS: {
		sigset_t block;
		struct sigaction sa = { .sa_handler = on_hup };
		prctl(PR_SET_NAME, "hc-signals", 0, 0, 0);
		sigemptyset(&block);
		sigaddset(&block, SIGUSR1);
		sigaddset(&block, SIGRTMIN + 3);
		sigprocmask(SIG_BLOCK, &block, NULL);
		signal(SIGUSR2, SIG_IGN);
		signal(SIGPIPE, SIG_IGN);
		sigaction(SIGHUP, &sa, NULL);
		raise(SIGUSR1);                  /* pending, blocked */
		kill(getpid(), SIGRTMIN + 3);    /* pending in the shared queue */
		break;
	}
	case HC_FDS:
		hc_become_fds(dir);
		break;
	case HC_LIMITS:
		hc_become_limits(dir);
		break;
	default:
		become_ns(kind, dir);
		break;
	}
}

/* ------------------------------------------------------------------ */
/* Namespaces and control groups                                        */

static char cg_procs[224]; /* the nested group's cgroup.procs, for HC_CGROUP */
static sem_t ns_ready;
static const char *ns_dir;

/* A thread that leaves for namespaces of its own: a mount namespace with one more tmpfs, or a uts one. */
static void *ns_thread(void *arg)
{
	char path[256];

	if (arg) {
		snprintf(path, sizeof(path), "%s/thread mnt", ns_dir);
		if (unshare(CLONE_NEWNS) || mount("hc-thread", path, "tmpfs", MS_NOEXEC, "size=64k"))
			_exit(3);
	} else if (unshare(CLONE_NEWUTS) || sethostname("hc-thread", 9)) {
		_exit(3);
	}
	sem_post(&ns_ready);
	for (;;)
		pause();
	return NULL;
}

static void start_ns_thread(bool mounts)
{
	pthread_t t;

	sem_init(&ns_ready, 0, 0);
	if (pthread_create(&t, NULL, ns_thread, mounts ? (void *)1 : NULL))
		_exit(3);
	while (sem_wait(&ns_ready) && errno == EINTR)
		;
}

/*
 * Its own mount namespace: a tmpfs (its source with a tab and '#') on a
 * mount point with a space, shared; a bind of it made a slave and
 * read-only; and a thread in a further namespace of its own.
 */
static void become_mntns(const char *dir)
{
	char mp[256], bd[256];

	snprintf(mp, sizeof(mp), "%s/mnt point", dir);
	snprintf(bd, sizeof(bd), "%s/bind dst", dir);
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("hc\ttmpfs#1", mp, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=750") ||
	    mount(NULL, mp, NULL, MS_SHARED, NULL) || mount(mp, bd, NULL, MS_BIND, NULL) ||
	    mount(NULL, bd, NULL, MS_SLAVE, NULL) ||
	    mount(NULL, bd, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL))
		_exit(3);
	ns_dir = dir;
	start_ns_thread(true);
}

static void become_ns(enum hc_kind kind, const char *dir)
{
	int fd;

	switch (kind) {
	case HC_CGROUP:
		prctl(PR_SET_NAME, "hc-cgroup", 0, 0, 0);
		fd = open(cg_procs, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "0", 1) != 1)
			_exit(3);
		close(fd);
		break;
	case HC_MNTNS:
		prctl(PR_SET_NAME, "hc-mntns", 0, 0, 0);
		become_mntns(dir);
		break;
	case HC_NEWNS:
		prctl(PR_SET_NAME, "hc-newns", 0, 0, 0);
		if (unshare(CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWCGROUP | CLONE_NEWTIME) ||
		    sethostname("hc-newns", 8))
			_exit(3);
		start_ns_thread(false);
		break;
	case HC_PIDNS:
		/* its child is pid 1 of the new namespace, asleep until this one dies */
		prctl(PR_SET_NAME, "hc-pidns", 0, 0, 0);
		if (unshare(CLONE_NEWPID))
			_exit(3);
		if (fork() == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			prctl(PR_SET_NAME, "hc-pidns-init", 0, 0, 0);
			for (;;)
				pause();
		}
		break;
	case HC_PIDNS_EMPTY:
		/* a namespace for children it never forks: pid_for_children has no init to show */
		prctl(PR_SET_NAME, "hc-pidns-empty", 0, 0, 0);
		if (unshare(CLONE_NEWPID))
			_exit(3);
		break;
	default:
		break;
	}
}

/* Fork a child that becomes @kind and sleeps; report it when it is ready. */
static pid_t spawn(struct hardcases *hc, enum hc_kind kind, const char *name)
{
	int ready[2];
	pid_t pid;
	char c;

	if (pipe2(ready, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(ready[0]);
		become(kind, hc->dir);
		if (write(ready[1], "r", 1) != 1)
			_exit(3);
		close(ready[1]);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		return -1;
	}
	close(ready[0]);
	hc->pids[hc->n] = pid;
	hc->names[hc->n++] = name;
	return pid;
}

/* Wait until @pid's state letter is @state (it has settled in its sleep). */
static void wait_state(pid_t pid, char state)
{
	char path[64], buf[512];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 500; i++) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		if (n > 0) {
			buf[n] = '\0';
			char *rp = strrchr(buf, ')');
			if (rp && rp[1] == ' ' && rp[2] == state)
				return;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	}
}

/* A group two levels deep where we may make one: the v2 hierarchy first, else a v1 one.  Its note or NULL. */
static const char *make_cgroups(struct hardcases *hc)
{
	static const struct { const char *base; long magic; const char *note; } bases[] = {
		{ "/sys/fs/cgroup/unified", CGROUP2_SUPER_MAGIC, "cgroup v2 (the unified mount beside v1)" },
		{ "/sys/fs/cgroup", CGROUP2_SUPER_MAGIC, "cgroup v2" },
		{ "/sys/fs/cgroup/pids", CGROUP_SUPER_MAGIC, "cgroup v1 (pids)" },
		{ "/sys/fs/cgroup/memory", CGROUP_SUPER_MAGIC, "cgroup v1 (memory)" },
	};
	struct statfs sfs;

	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		if (statfs(bases[i].base, &sfs) || sfs.f_type != bases[i].magic)
			continue;
		snprintf(hc->cgdirs[1], sizeof(hc->cgdirs[1]), "%s/uprocfs-hc.%d", bases[i].base, (int)getpid());
		snprintf(hc->cgdirs[0], sizeof(hc->cgdirs[0]), "%.160s/nested group", hc->cgdirs[1]);
		if (mkdir(hc->cgdirs[1], 0755) == 0 && mkdir(hc->cgdirs[0], 0755) == 0) {
			snprintf(cg_procs, sizeof(cg_procs), "%s/cgroup.procs", hc->cgdirs[0]);
			return bases[i].note;
		}
		rmdir(hc->cgdirs[1]);
		hc->cgdirs[0][0] = hc->cgdirs[1][0] = '\0';
	}
	return NULL;
}

/* The namespace and cgroup cases; pid 1 of the child pid namespace is found through its parent. */
static int start_ns_cases(struct hardcases *hc)
{
	static const char *const dirs[] = { "mnt point", "bind dst", "thread mnt" };
	char path[256], buf[64];
	pid_t pid, init = 0;
	FILE *f;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", hc->dir, dirs[i]);
		if (mkdir(path, 0755))
			return -errno;
	}
	hc->cg_note = make_cgroups(hc);
	if ((hc->cg_note && spawn(hc, HC_CGROUP, "nested cgroup") < 0) || spawn(hc, HC_MNTNS, "mount namespace") < 0 ||
	    spawn(hc, HC_NEWNS, "new namespaces") < 0 || (pid = spawn(hc, HC_PIDNS, "pid ns parent")) < 0 ||
	    spawn(hc, HC_PIDNS_EMPTY, "pid ns, no init") < 0)
		return -ECHILD;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	f = fopen(path, "re");
	if (f && fgets(buf, sizeof(buf), f))
		init = (pid_t)atoi(buf);
	if (f)
		fclose(f);
	if (init <= 0)
		return -ECHILD;
	hc->pids[hc->n] = init;
	hc->names[hc->n++] = "pid ns init";
	for (unsigned int i = 0; i < hc->n; i++)
		wait_state(hc->pids[i], 'S');
	return 0;
}

/* Remove what the namespace cases left: the groups once empty, the mount points. */
static void stop_ns_cases(struct hardcases *hc)
{
	static const char *const dirs[] = { "mnt point", "bind dst", "thread mnt" };
	char path[256];

	for (int k = 0; k < 2; k++)
		for (int tries = 0; hc->cgdirs[k][0] && rmdir(hc->cgdirs[k]) && errno == EBUSY && tries < 100; tries++)
			nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
	hc->cgdirs[0][0] = hc->cgdirs[1][0] = '\0';
	for (size_t i = 0; hc->dir[0] && i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", hc->dir, dirs[i]);
		rmdir(path);
	}
}

int hardcases_start(struct hardcases *hc)
{
	static const struct { enum hc_kind kind; const char *name; } kinds[] = {
		{ HC_NAME, "odd comm" }, { HC_FILES, "odd mapped files" }, { HC_THREADS, "threads" },
		{ HC_STOPPED, "stopped" }, { HC_NOBODY, "nobody" }, { HC_PINNED, "pinned" },
		{ HC_SIGNALS, "signals" }, { HC_FDS, "200 fds of every kind" },
		{ HC_LIMITS, "limits, oom, autogroup, deleted cwd" }, { HC_SOCKETS, "sockets" },
		{ HC_NETNS, "own network namespace" },
	};
	pid_t zp;
	int pipefd[2];

	memset(hc, 0, sizeof(*hc));
	snprintf(hc->dir, sizeof(hc->dir), "/tmp/uprocfs-hc.XXXXXX");
	if (!mkdtemp(hc->dir))
		return -errno;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		pid_t pid = spawn(hc, kinds[i].kind, kinds[i].name);
		if (pid < 0) {
			hardcases_stop(hc);
			return -ECHILD;
		}
		if (kinds[i].kind == HC_STOPPED) {
			kill(pid, SIGSTOP);
			wait_state(pid, 'T');
		} else {
			wait_state(pid, 'S');
		}
	}
	if (start_ns_cases(hc)) {
		hardcases_stop(hc);
		return -ECHILD;
	}
	/* A zombie: a parent that never reaps its exited child. */
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	zp = fork();
	if (zp == 0) {
		pid_t z;
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		prctl(PR_SET_NAME, "hc-zparent", 0, 0, 0);
		z = fork();
		if (z == 0) {
			prctl(PR_SET_NAME, "hc-zombie", 0, 0, 0);
			_exit(3);
		}
		if (write(pipefd[1], &z, sizeof(z)) != sizeof(z))
			_exit(3);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	if (zp > 0) {
		pid_t z;
		hc->zombie_parent = zp;
		hc->pids[hc->n] = zp;
		hc->names[hc->n++] = "zombie's parent";
		if (read(pipefd[0], &z, sizeof(z)) == sizeof(z)) {
			wait_state(z, 'Z');
			hc->pids[hc->n] = z;
			hc->names[hc->n++] = "zombie";
		}
		wait_state(zp, 'S');
	}
	close(pipefd[0]);
	if (hardcases_start_mem(hc)) {
		hardcases_stop(hc);
		return -ECHILD;
	}
	return 0;
}

void hardcases_stop(struct hardcases *hc)
{
	char path[256];

	for (unsigned int i = 0; i < hc->n; i++) {
		if (hc->pids[i] <= 0 || !strcmp(hc->names[i], "zombie"))
			continue; /* the zombie goes with its parent */
		kill(hc->pids[i], SIGKILL);
		waitpid(hc->pids[i], NULL, 0);
		hc->pids[i] = 0;
	}
	hc->n = 0;
	stop_ns_cases(hc);
	if (hc->dir[0]) {
		hardcases_stop_mem(hc);
		static const char *const names[] = { "with space", "with\ttab", "with\nnewline",
						     "with\\backslash", "deleted file", "sock with space\nand newline",
						     "seq@packet" };
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", hc->dir, names[i]);
			unlink(path);
		}
		hc_fds_cleanup(hc->dir);
		rmdir(hc->dir);
		hc->dir[0] = '\0';
	}
}
