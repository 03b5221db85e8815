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
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hardcases.h"

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

enum hc_kind { HC_NAME, HC_FILES, HC_THREADS, HC_STOPPED, HC_NOBODY, HC_PINNED, HC_SIGNALS };

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

int hardcases_start(struct hardcases *hc)
{
	static const struct { enum hc_kind kind; const char *name; } kinds[] = {
		{ HC_NAME, "odd comm" }, { HC_FILES, "odd mapped files" }, { HC_THREADS, "threads" },
		{ HC_STOPPED, "stopped" }, { HC_NOBODY, "nobody" }, { HC_PINNED, "pinned" },
		{ HC_SIGNALS, "signals" },
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
	if (hc->dir[0]) {
		hardcases_stop_mem(hc);
		static const char *const names[] = { "with space", "with\ttab", "with\nnewline",
						     "with\\backslash", "deleted file" };
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", hc->dir, names[i]);
			unlink(path);
		}
		rmdir(hc->dir);
		hc->dir[0] = '\0';
	}
}
