// SPDX-License-Identifier: MIT
/*
 * hardcases_fds.c - the hard cases of open files and fs/proc/base.c's small
 * files (hardcases_fds.h): what a child becomes before it sleeps.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/fanotify.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hardcases_fds.h"

#define FDS_WANTED 200

static int must(int fd)
{
	if (fd < 0)
		_exit(4);
	return fd;
}

static void path_in(char *buf, size_t n, const char *dir, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
}

/* Regular files: read, write, append, O_PATH, a directory, a deleted one, and locks of three kinds. */
static void open_files(const char *dir)
{
	struct flock posix = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 10, .l_len = 20 };
	struct flock ofd = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 40 };
	char path[256];
	int fd;

	path_in(path, sizeof(path), dir, "fds-data");
	fd = must(open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600));
	if (write(fd, "0123456789abcdefghijklmnopqrstuvwxyz", 36) != 36)
		_exit(4);
	flock(fd, LOCK_EX);
	must(open(path, O_RDONLY));
	fd = must(open(path, O_WRONLY | O_APPEND));
	if (fcntl(fd, F_SETLK, &posix))
		_exit(4);
	fd = must(open(path, O_RDONLY | O_NONBLOCK | O_NOATIME));
	if (fcntl(fd, F_OFD_SETLK, &ofd))
		_exit(4);
	lseek(fd, 7, SEEK_SET);
	must(open(path, O_PATH));
	must(open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	must(open("/dev/null", O_RDWR));
	path_in(path, sizeof(path), dir, "fds-deleted");
	must(open(path, O_RDWR | O_CREAT | O_TRUNC, 0600));
	unlink(path);
	must(syscall(SYS_memfd_create, "hc-memfd", 1 /* MFD_CLOEXEC */));
	/* the odd names the mapped-files case made, if it did: links print them raw */
	path_in(path, sizeof(path), dir, "with\nnewline");
	open(path, O_RDONLY | O_CLOEXEC);
	path_in(path, sizeof(path), dir, "with space");
	open(path, O_RDONLY | O_CLOEXEC);
	must(open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC));
}

/* A socket pair with a descriptor in flight, a listening TCP socket, UDP and netlink. */
static void open_sockets(void)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, byte = 'x';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	int sv[2], tcp;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		_exit(4);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &sv[0], sizeof(int));
	if (sendmsg(sv[0], &msg, 0) != 1)
		_exit(4);
	tcp = must(socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0));
	if (bind(tcp, (struct sockaddr *)&in, sizeof(in)) || listen(tcp, 4))
		_exit(4);
	must(socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0));
	must(socket(AF_NETLINK, SOCK_RAW, 0));
}

/* eventfd, signalfd, two timerfds (one fired), inotify watches, epoll over some of them. */
static void open_events(const char *dir)
{
	struct itimerspec once = { .it_value = { .tv_nsec = 1 } };
	struct epoll_event ev = { .events = EPOLLIN };
	char path[256];
	sigset_t mask;
	int ep, efd, in, p[2], tfd;

	efd = must(eventfd(5, EFD_NONBLOCK | EFD_CLOEXEC));
	must(eventfd(0, EFD_SEMAPHORE));
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGHUP);
	must(signalfd(-1, &mask, SFD_CLOEXEC));
	/* an expired one-shot timer keeps still: ticks 1, nothing left */
	tfd = must(timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK));
	if (timerfd_settime(tfd, 0, &once, NULL))
		_exit(4);
	nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	must(timerfd_create(CLOCK_REALTIME, 0));
	in = must(inotify_init1(IN_NONBLOCK));
	path_in(path, sizeof(path), dir, "fds-data");
	inotify_add_watch(in, dir, IN_CREATE | IN_DELETE);
	inotify_add_watch(in, path, IN_MODIFY | IN_CLOSE_WRITE);
	if (pipe2(p, O_NONBLOCK))
		_exit(4);
	ep = must(epoll_create1(EPOLL_CLOEXEC));
	ev.data.u64 = 0x1122334455667788ull;
	epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev);
	ev.events = EPOLLIN | EPOLLET | EPOLLRDHUP;
	ev.data.fd = p[0];
	epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
	ev.events = EPOLLOUT;
	ev.data.fd = in;
	epoll_ctl(ep, EPOLL_CTL_ADD, in, &ev);
}

/* A pidfd of the parent, one of a reaped child, fanotify, userfaultfd and a pty pair. */
static void open_special(const char *dir)
{
	struct uffdio_api api = { .api = UFFD_API };
	pid_t child;
	int fan, uffd, pt;

	must(syscall(SYS_pidfd_open, getppid(), 0));
	child = fork();
	if (child == 0)
		_exit(0);
	must(syscall(SYS_pidfd_open, child, 0));
	waitpid(child, NULL, 0);
	fan = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC, O_RDONLY);
	if (fan >= 0) {
		fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN | FAN_CLOSE_WRITE, AT_FDCWD, dir);
		fanotify_mark(fan, FAN_MARK_ADD | FAN_MARK_MOUNT, FAN_OPEN, AT_FDCWD, "/");
		fanotify_mark(fan, FAN_MARK_ADD | FAN_MARK_FILESYSTEM, FAN_CLOSE_WRITE, AT_FDCWD, "/");
	}
	uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd >= 0)
		ioctl(uffd, UFFDIO_API, &api);
	pt = posix_openpt(O_RDWR | O_NOCTTY);
	if (pt >= 0 && !grantpt(pt) && !unlockpt(pt) && ptsname(pt))
		open(ptsname(pt), O_RDWR | O_NOCTTY);
}

void hc_become_fds(const char *dir)
{
	int base;

	prctl(PR_SET_NAME, "hc-fds", 0, 0, 0);
	open_files(dir);
	open_sockets();
	open_events(dir);
	open_special(dir);
	/* up to 200 open: copies of the data file, some above the first hundred */
	base = must(open("/dev/null", O_RDONLY));
	for (int fd = base + 1; fd < FDS_WANTED; fd++)
		if (fcntl(base, fd % 3 ? F_DUPFD : F_DUPFD_CLOEXEC, fd) < 0)
			_exit(4);
}

static void *io_then_exit(void *arg)
{
	char buf[512];
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);

	(void)arg;
	for (int i = 0; fd >= 0 && i < 20; i++) {
		if (pread(fd, buf, sizeof(buf), 0) < 0)
			break;
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static void *other_persona(void *arg)
{
	(void)arg;
	personality(PER_LINUX | ADDR_COMPAT_LAYOUT);
	for (;;)
		pause();
	return NULL;
}

void hc_become_limits(const char *dir)
{
	struct rlimit nofile = { 4096, 8192 }, core = { RLIM_INFINITY, RLIM_INFINITY }, cpu = { 3600, 7200 };
	char path[256];
	pthread_t t;
	int fd;

	prctl(PR_SET_NAME, "hc-limits", 0, 0, 0);
	setsid(); /* a new autogroup */
	if (setrlimit(RLIMIT_NOFILE, &nofile) || setrlimit(RLIMIT_CORE, &core) || setrlimit(RLIMIT_CPU, &cpu))
		_exit(5);
	fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "500", 3) != 3)
		_exit(5);
	close(fd);
	fd = open("/proc/self/autogroup", O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && write(fd, "5", 1) != 1)
		_exit(5);
	if (fd >= 0)
		close(fd);
	fd = open("/proc/self/loginuid", O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && write(fd, "1000", 4) != 4)
		_exit(5);
	if (fd >= 0)
		close(fd);
	prctl(PR_SET_TIMERSLACK, 123456, 0, 0, 0);
	personality(PER_LINUX | ADDR_NO_RANDOMIZE);
	/* a thread that read and left: its counts stay with the group */
	if (pthread_create(&t, NULL, io_then_exit, NULL) || pthread_join(t, NULL))
		_exit(5);
	if (pthread_create(&t, NULL, other_persona, NULL))
		_exit(5);
	/* a working directory that is gone */
	path_in(path, sizeof(path), dir, "limits-gone");
	if (mkdir(path, 0700) || chdir(path) || rmdir(path))
		_exit(5);
}

void hc_fds_cleanup(const char *dir)
{
	static const char *const names[] = { "fds-data", "fds-deleted", "limits-gone" };
	char path[256];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		path_in(path, sizeof(path), dir, names[i]);
		unlink(path);
		rmdir(path);
	}
}
