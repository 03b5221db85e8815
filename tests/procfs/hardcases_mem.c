// SPDX-License-Identifier: MIT
/*
 * hardcases_mem.c - the hard cases of memory and waiting (see hardcases.h):
 *
 *  - hc-mem: mappings of every kind smaps tells apart: a file mapped shared
 *    read-write and again read-only, a deleted file, private and shared
 *    anonymous memory, a memfd, mlock()ed and lock-on-fault memory, PROT_NONE
 *    guards, a transparent huge page, MADV_FREE'd pages, regions with
 *    DONTDUMP, WIPEONFORK, DONTFORK, SEQUENTIAL, RANDOM, NOHUGEPAGE,
 *    MAP_NORESERVE and an mseal()ed one; then two forked copies, so its
 *    anonymous pages are shared three ways (Pss in thirds of pages).  There
 *    is no swap on the reference machine and no hugetlb page reserved: those
 *    lines stay 0 here.
 *  - hc-forker: a second thread forks a child, which shows in that thread's
 *    children, not the leader's.
 *  - hc-waits: threads asleep in epoll_wait, pselect6, poll, clock_nanosleep,
 *    a pipe read, a unix socket read, a futex, accept, recvfrom,
 *    sigtimedwait, an inotify read and a terminal read; the leader in wait4
 *    for its child, which sleeps in pause.
 *
 * Each reports the pids of the children it forked, which are ended by pid
 * with it.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hardcases.h"

#define KB4 4096u
#define SHARED_NAME "hc-mem shared"

static void die(void)
{
	_exit(3);
}

/* An anonymous private mapping of @pages pages, touched, with @advice (0: none). */
static char *anon(size_t pages, int prot, int flags, int advice)
{
	char *p = mmap(NULL, pages * KB4, prot, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);

	if (p == MAP_FAILED)
		die();
	if (advice && madvise(p, pages * KB4, advice))
		die();
	if (prot & PROT_WRITE)
		for (size_t i = 0; i < pages; i++)
			p[i * KB4] = 1;
	return p;
}

/* A PROT_NONE page after each mapping keeps the kernel from merging neighbours. */
static void guard(void)
{
	anon(1, PROT_NONE, 0, 0);
}

static void map_files(const char *dir)
{
	char path[256];
	char *p;
	int fd;

	snprintf(path, sizeof(path), "%s/" SHARED_NAME, dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, 16 * KB4))
		die();
	p = mmap(NULL, 16 * KB4, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die();
	for (int i = 0; i < 8; i++)
		p[i * KB4] = 1; /* half of it dirty */
	close(fd);
	guard();
	fd = open(path, O_RDONLY | O_CLOEXEC); /* shared, but read-only: no VM_SHARED, no mw */
	if (fd < 0 || mmap(NULL, 16 * KB4, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED)
		die();
	close(fd);
	guard();
	snprintf(path, sizeof(path), "%s/hc-mem deleted", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, 4 * KB4))
		die();
	p = mmap(NULL, 4 * KB4, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		die();
	(void)*(volatile char *)p;
	close(fd);
	unlink(path);
	guard();
	fd = memfd_create("hc-mem", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, 8 * KB4))
		die();
	p = mmap(NULL, 8 * KB4, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die();
	p[0] = p[KB4] = 1;
	close(fd);
	guard();
}

/* Two MB aligned in four, with MADV_HUGEPAGE: the fault takes a huge page when it can. */
static void map_huge(void)
{
	char *p = mmap(NULL, 4u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a;

	if (p == MAP_FAILED)
		die();
	a = (char *)(((uintptr_t)p + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	munmap(a + (2u << 20), (size_t)(p + (4u << 20) - (a + (2u << 20))));
	if (madvise(a, 2u << 20, MADV_HUGEPAGE))
		die();
	memset(a, 1, 2u << 20);
	guard();
}

static void become_mem(const char *dir)
{
	/* dd, wf, dc, sr, rr and nh in VmFlags */
	static const int advice[] = { MADV_DONTDUMP, MADV_WIPEONFORK, MADV_DONTFORK, MADV_SEQUENTIAL,
				      MADV_RANDOM, MADV_NOHUGEPAGE };
	char *p;

	prctl(PR_SET_NAME, "hc-mem", 0, 0, 0);
	map_files(dir);
	anon(16, PROT_READ | PROT_WRITE, 0, 0);
	guard();
	p = mmap(NULL, 8 * KB4, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die();
	p[0] = 1;
	guard();
	p = anon(4, PROT_READ | PROT_WRITE, 0, 0);
	if (mlock(p, 4 * KB4))
		die();
	guard();
	p = mmap(NULL, 4 * KB4, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || syscall(SYS_mlock2, p, 4 * KB4, 1 /* MLOCK_ONFAULT */))
		die();
	p[0] = 1;
	guard();
	p = anon(8, PROT_READ | PROT_WRITE, 0, 0);
	if (madvise(p, 4 * KB4, MADV_FREE))
		die();
	guard();
	for (size_t i = 0; i < sizeof(advice) / sizeof(advice[0]); i++) {
		anon(2, PROT_READ | PROT_WRITE, 0, advice[i]);
		guard();
	}
	anon(64, PROT_READ | PROT_WRITE, MAP_NORESERVE, 0);
	guard();
	p = anon(1, PROT_READ, 0, 0);
	syscall(462 /* mseal */, p, KB4, 0); /* "sl" where the kernel has mseal */
	guard();
	map_huge();
}

/* ------------------------------------------------------------------ */
/* Children reported to the test, which ends them by pid                */

static int report_fd = -1;

static void report(pid_t pid)
{
	if (write(report_fd, &pid, sizeof(pid)) != sizeof(pid))
		die();
}

/* A child that sleeps until killed, or until its parent thread dies. */
static pid_t sleeper_child(const char *name)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		prctl(PR_SET_NAME, name, 0, 0, 0);
		close(report_fd);
		for (;;)
			pause();
	}
	if (pid < 0)
		die();
	return pid;
}

static void *forking_thread(void *arg)
{
	(void)arg;
	report(sleeper_child("hc-forked"));
	for (;;)
		pause();
	return NULL;
}

/* ------------------------------------------------------------------ */
/* hc-waits: one thread per way of waiting                              */

static int pipe_end(void)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		die();
	return p[0];
}

static int inet_socket(int type)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int s = socket(AF_INET, type | SOCK_CLOEXEC, 0);

	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) || (type == SOCK_STREAM && listen(s, 4)))
		die();
	return s;
}

static void *waiter(void *arg)
{
	long kind = (long)arg;
	char buf[256];
	int fd, sv[2];

	switch (kind) {
	case 0: {
		struct epoll_event ev;

		epoll_wait(epoll_create1(EPOLL_CLOEXEC), &ev, 1, -1);
		break;
	}
	case 1: {
		fd_set r;

		fd = pipe_end();
		FD_ZERO(&r);
		FD_SET(fd, &r);
		pselect(fd + 1, &r, NULL, NULL, NULL, NULL);
		break;
	}
	case 2: {
		struct pollfd p = { .fd = pipe_end(), .events = POLLIN };

		poll(&p, 1, -1);
		break;
	}
	case 3:
		clock_nanosleep(CLOCK_MONOTONIC, 0, &(struct timespec){ .tv_sec = 1000000 }, NULL);
		break;
	case 4:
		if (read(pipe_end(), buf, 1) < 0)
			die();
		break;
	case 5:
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) || read(sv[0], buf, 1) < 0)
			die();
		break;
	case 6: {
		static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
		static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

		pthread_mutex_lock(&mu);
		for (;;)
			pthread_cond_wait(&cv, &mu);
	}
	case 7:
		accept(inet_socket(SOCK_STREAM), NULL, NULL);
		break;
	case 8:
		recvfrom(inet_socket(SOCK_DGRAM), buf, sizeof(buf), 0, NULL, NULL);
		break;
	case 9: {
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR2);
		sigtimedwait(&set, NULL, NULL);
		break;
	}
	case 10:
		fd = inotify_init1(IN_CLOEXEC);
		if (fd < 0 || inotify_add_watch(fd, "/", IN_DELETE_SELF) < 0 || read(fd, buf, sizeof(buf)) < 0)
			die();
		break;
	default: {
		int m, s;

		if (openpty(&m, &s, NULL, NULL, NULL) || read(s, buf, 1) < 0)
			die();
		break;
	}
	}
	for (;;)
		pause();
	return NULL;
}

static void become_waits(void)
{
	sigset_t set;
	pthread_t t;
	pid_t child;

	prctl(PR_SET_NAME, "hc-waits", 0, 0, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	child = sleeper_child("hc-waited");
	report(child);
	for (long k = 0; k < 12; k++)
		if (pthread_create(&t, NULL, waiter, (void *)k))
			die();
}

/* ------------------------------------------------------------------ */
/* Starting them                                                        */

enum hcm_kind { HCM_MEM, HCM_FORKER, HCM_WAITS };

/* What the child @kind does before it sleeps for good (in wait4, for hc-waits). */
static void run_child(enum hcm_kind kind, const char *dir)
{
	pthread_t t;

	switch (kind) {
	case HCM_MEM:
		become_mem(dir);
		report(sleeper_child("hc-mem-copy"));
		report(sleeper_child("hc-mem-copy"));
		break;
	case HCM_FORKER:
		prctl(PR_SET_NAME, "hc-forker", 0, 0, 0);
		if (pthread_create(&t, NULL, forking_thread, NULL))
			die();
		break;
	case HCM_WAITS:
		become_waits();
		for (;;)
			waitpid(-1, NULL, 0);
	}
	for (;;)
		pause();
}

/* Until every thread of @pid has gone to sleep somewhere (its wchan names a function). */
static void wait_asleep(pid_t pid)
{
	char path[128], buf[64];

	for (int i = 0; i < 500; i++) {
		bool all = true;

		for (int tid = pid; tid < pid + 64 && all; tid++) {
			int fd;
			ssize_t n;

			snprintf(path, sizeof(path), "/proc/%d/task/%d/wchan", (int)pid, tid);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			n = read(fd, buf, sizeof(buf));
			close(fd);
			all = n > 0 && !(n == 1 && buf[0] == '0');
		}
		if (all)
			return;
		nanosleep(&(struct timespec){ .tv_nsec = 4000000 }, NULL);
	}
}

static int spawn_mem(struct hardcases *hc, enum hcm_kind kind, const char *name, unsigned int nchildren,
		     const char *child_name)
{
	pid_t pid, kids[2];
	int rp[2];

	if (hc->n + 1 + nchildren > HC_MAX || pipe2(rp, O_CLOEXEC))
		return -ENOSPC;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(rp[0]);
		report_fd = rp[1];
		run_child(kind, hc->dir);
	}
	close(rp[1]);
	if (pid < 0) {
		close(rp[0]);
		return -errno;
	}
	hc->pids[hc->n] = pid;
	hc->names[hc->n++] = name;
	for (unsigned int i = 0; i < nchildren; i++) {
		if (read(rp[0], &kids[i], sizeof(pid_t)) != sizeof(pid_t)) {
			close(rp[0]);
			return -ECHILD;
		}
		hc->pids[hc->n] = kids[i];
		hc->names[hc->n++] = child_name;
	}
	close(rp[0]);
	wait_asleep(pid);
	for (unsigned int i = 0; i < nchildren; i++)
		wait_asleep(kids[i]);
	return 0;
}

int hardcases_start_mem(struct hardcases *hc)
{
	int rc;

	if ((rc = spawn_mem(hc, HCM_MEM, "every kind of mapping", 2, "its forked copy")) ||
	    (rc = spawn_mem(hc, HCM_FORKER, "a thread forked", 1, "the thread's child")) ||
	    (rc = spawn_mem(hc, HCM_WAITS, "waits of every kind", 1, "the child waited for")))
		return rc;
	return 0;
}

void hardcases_stop_mem(struct hardcases *hc)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/" SHARED_NAME, hc->dir);
	unlink(path);
}
