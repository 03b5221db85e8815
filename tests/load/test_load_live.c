// SPDX-License-Identifier: MIT
/*
 * test_load_live.c - the loader against this machine's /proc: the whole live
 * tree (with a zombie, a process with an odd name and odd mappings, a
 * threaded one and a stopped one of our own), a tree captured to a
 * directory, and thousands of mutated live texts that must each load or fail
 * with a message.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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

#include "tap.h"
#include "test_load.h"
#include "testutil.h"
#include "uprocfs/load.h"
#include "uprocfs/machine.h"
#include "uprocfs/procfs.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

static char *slurp(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return NULL;
	}
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int spit(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int rc = 0;

	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len)
		rc = -1;
	close(fd);
	return rc;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

enum child_kind { CHILD_PAUSE, CHILD_WEIRD, CHILD_THREADS, CHILD_ZOMBIE_PARENT };

/* Fork a child that sets itself up, says so through a pipe, and waits. */
static pid_t spawn(enum child_kind kind, const char *dir, pid_t *zombie)
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char path[512];
		pid_t z = 0;
		int fd;

		close(fds[0]);
		switch (kind) {
		case CHILD_PAUSE:
			break;
		case CHILD_WEIRD:
			prctl(PR_SET_NAME, "a\nb\\c\td e)(f", 0, 0, 0);
			snprintf(path, sizeof(path), "%s/we ird\nna\\me", dir);
			fd = open(path, O_CREAT | O_RDWR, 0600);
			if (fd < 0 || ftruncate(fd, 4096) ||
			    mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED)
				_exit(1);
			snprintf(path, sizeof(path), "%s/gone", dir);
			fd = open(path, O_CREAT | O_RDWR, 0600);
			if (fd < 0 || ftruncate(fd, 4096) ||
			    mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED)
				_exit(1);
			unlink(path);
			break;
		case CHILD_THREADS:
			for (int i = 0; i < 2; i++) {
				pthread_t t;

				if (pthread_create(&t, NULL, sleeper, NULL))
					_exit(1);
			}
			break;
		case CHILD_ZOMBIE_PARENT:
			z = fork();
			if (z == 0)
				_exit(3);
			while (waitid(P_PID, (id_t)z, &(siginfo_t){ 0 }, WEXITED | WNOWAIT))
				;
			break;
		}
		if (write(fds[1], &z, sizeof(z)) != sizeof(z))
			_exit(1);
		for (;;)
			pause();
	}
	close(fds[1]);
	if (zombie) {
		if (read(fds[0], zombie, sizeof(*zombie)) != sizeof(*zombie))
			*zombie = 0;
	} else if (read(fds[0], &c, 1) != 1) {
		pid = -1;
	}
	close(fds[0]);
	return pid;
}

/* Wait until every thread of @pid sleeps, so its files hold still while copied. */
static void wait_sleeping(pid_t pid)
{
	for (int tries = 0; tries < 400; tries++) {
		char path[320];
		struct dirent *de;
		bool all = true;
		DIR *d;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
		d = opendir(path);
		while (d && (de = readdir(d))) {
			size_t len;
			char *t, *rp;

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid, de->d_name);
			t = slurp(path, &len);
			rp = t ? strrchr(t, ')') : NULL;
			if (!rp || rp[1] != ' ' || rp[2] != 'S')
				all = false;
			free(t);
		}
		if (d)
			closedir(d);
		if (all)
			return;
		usleep(5000);
	}
}

static void reap(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

static const struct mach_load_file *report_find(const struct mach_load_report *r, const char *path)
{
	for (size_t i = 0; i < r->nfiles; i++)
		if (!strcmp(r->files[i].path, path))
			return &r->files[i];
	return NULL;
}

/* pid of a report path, 0 for a global file */
static long path_pid(const char *p)
{
	return (*p >= '1' && *p <= '9') ? strtol(p, NULL, 10) : 0;
}

/* ------------------------------------------------------------------ */
/* The live tree                                                        */

static void check_order(const struct mach_load_report *r)
{
	long last = 0;
	bool in_pids = false, good = true;

	for (size_t i = 0; i < r->nfiles && good; i++) {
		long p = path_pid(r->files[i].path);

		if (!p && in_pids)
			good = false;
		if (p) {
			in_pids = true;
			if (p < last)
				good = false;
			last = p;
		}
		/* within a pid, /proc/<pid>/X before any task/ file */
		if (i && p && p == path_pid(r->files[i - 1].path) &&
		    strstr(r->files[i - 1].path, "/task/") && !strstr(r->files[i].path, "/task/"))
			good = false;
	}
	ok(good, "report order: global files, then pids ascending, whole files before task/");
}

static void check_sane(const struct mach_machine *m)
{
	unsigned int bad = 0;

	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];

		if (p->tgid <= 0 || !p->nthreads || p->threads[0].tid != p->tgid)
			bad++;
		if (i && p->tgid <= m->procs[i - 1].tgid)
			bad++;
		if (p->mm && (!p->mm->vm_size || p->mm->vm_rss > p->mm->vm_hwm))
			bad++;
		for (unsigned int k = 0; k < p->nthreads; k++) {
			const struct mach_thread *t = &p->threads[k];

			if (t->cpus_allowed.nbits != m->nr_cpu_ids ||
			    t->mems_allowed.nbits != m->max_numnodes ||
			    (unsigned int)t->state >= MACH_NR_TASK_STATES || t->tid <= 0)
				bad++;
		}
	}
	is_u64(bad, 0, "no garbage: ids, order, widths, states, mm sizes");
	ok(m->ncpus >= 1 && m->nr_cpu_ids >= m->ncpus && m->nr_irqs > 0 && m->btime > 0 &&
	   m->uptime_ns > 0 && m->profile.nmeminfo > 10 && m->profile.nvmstat > 100,
	   "global values present");
}

void test_live(void)
{
	char dir[] = "/tmp/uprocfs-load-XXXXXX", path[600];
	pid_t weird, threads, stopped, zparent, zombie = 0;
	struct mach_load_report r;
	struct mach_machine *m = NULL;
	const struct mach_process *p;
	struct timespec a, b;
	size_t nok = 0, nskip = 0, len = 0;
	char err[ERRLEN];
	char *self_cmd;
	int rc;

	if (!ok(mkdtemp(dir) != NULL, "live: a scratch directory for the children (%s)", dir))
		return;
	weird = spawn(CHILD_WEIRD, dir, NULL);
	threads = spawn(CHILD_THREADS, dir, NULL);
	stopped = spawn(CHILD_PAUSE, dir, NULL);
	zparent = spawn(CHILD_ZOMBIE_PARENT, dir, &zombie);
	if (stopped > 0) {
		kill(stopped, SIGSTOP);
		waitpid(stopped, NULL, WUNTRACED);
	}

	clock_gettime(CLOCK_MONOTONIC, &a);
	rc = pfs_load_tree("/proc", NULL, &m, &r, err, sizeof(err));
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (!ok(rc == 0, "the live /proc loads")) {
		diag("%s", err);
		goto out;
	}
	for (size_t i = 0; i < r.nfiles; i++) {
		if (r.files[i].status == MACH_LOAD_OK)
			nok++;
		else
			nskip++;
	}
	diag("live /proc: %zu processes, %zu files OK, %zu skipped, %.1f ms", m->nprocs, nok, nskip,
	     (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6);
	ok(nok > 100 && m->nprocs > 5, "many files OK (%zu), many processes (%zu)", nok, m->nprocs);
	ok(report_find(&r, "stat") && report_find(&r, "meminfo") && report_find(&r, "uptime"),
	   "global files in the report");
	ok(!report_find(&r, "schedstat") == !m->profile.has_schedstat,
	   "schedstat absent from the report iff the profile says so");
	check_order(&r);
	check_sane(m);
	{
		unsigned int bad = 0;

		for (size_t i = 0; i < r.nfiles; i++) {
			const struct mach_load_file *f = &r.files[i];
			long pid = path_pid(f->path);

			/* empty: a kernel thread's maps and cmdline, a zombie's stack, most children, no locks, the
			 * root autogroup's file, a sysctl key (vm/stat_refresh), a new network namespace's
			 * route (no main table yet) and if_inet6 */
			if (f->status == MACH_LOAD_OK && (!f->text || (!f->len && !strstr(f->path, "maps") &&
								       !strstr(f->path, "cmdline") &&
								       !strstr(f->path, "stack") &&
								       !strstr(f->path, "children") &&
								       !strstr(f->path, "autogroup") && strcmp(f->path, "locks") &&
								       !strstr(f->path, "net/route") &&
								       !strstr(f->path, "net/if_inet6") &&
								       strncmp(f->path, "sys/", 4))))
				bad++, diag("%s: OK but %s", f->path, f->text ? "empty" : "no text");
			if (f->status == MACH_LOAD_SKIPPED && (!f->reason || !*f->reason))
				bad++, diag("%s: skipped without a reason", f->path);
			if (pid && f->status == MACH_LOAD_OK && !mach_find_process(m, (pid_t)pid) &&
			    !strstr(f->path, "maps"))
				bad++, diag("%s: OK, but no process %ld in the model", f->path, pid);
		}
		is_u64(bad, 0, "every OK file has text and a process; every skip a reason");
	}

	p = mach_find_process(m, getpid());
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)getpid());
	self_cmd = slurp(path, &len);
	if (!ok(p && p->mm && self_cmd && len && !strncmp(p->threads[0].comm, self_cmd, len - 1),
		"this process is in the model")) {
		char prefix[32];

		snprintf(prefix, sizeof(prefix), "%d/", (int)getpid());
		for (size_t i = 0; i < r.nfiles; i++)
			if (!strncmp(r.files[i].path, prefix, strlen(prefix)) && r.files[i].status != MACH_LOAD_OK)
				diag("%s: %s", r.files[i].path, r.files[i].reason ? r.files[i].reason : "?");
	}
	free(self_cmd);
	/* relative to a /proc fd, as the loader reads it (valgrind fakes /proc/<pid>/cmdline) */
	{
		int pfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;

		snprintf(path, sizeof(path), "%d/cmdline", (int)getpid());
		fd = pfd >= 0 ? openat(pfd, path, O_RDONLY | O_CLOEXEC) : -1;
		self_cmd = malloc(65536);
		len = 0;
		if (fd >= 0 && self_cmd) {
			ssize_t n;

			while ((n = read(fd, self_cmd + len, 65536 - len)) > 0)
				len += (size_t)n;
		}
		if (fd >= 0)
			close(fd);
		if (pfd >= 0)
			close(pfd);
	}
	if (p && p->mm && self_cmd)
		is_bytes(p->mm->cmdline, p->mm->cmdline_len, self_cmd, len, "our cmdline");
	free(self_cmd);

	p = zombie > 0 ? mach_find_process(m, zombie) : NULL;
	ok(p && !p->mm && p->threads[0].state == MACH_TASK_ZOMBIE && p->exit_code == 3 << 8 &&
	   p->threads[0].umask == -1, "our zombie: Z, no mm, exit code 768, no Umask");
	p = weird > 0 ? mach_find_process(m, weird) : NULL;
	ok(p && !strcmp(p->threads[0].comm, "a\nb\\c\td e)(f"), "the odd name, unescaped");
	if (p && p->mm) {
		bool del = false, nl = false;

		for (size_t i = 0; i < p->mm->nvmas; i++) {
			const struct mach_vma *v = &p->mm->vmas[i];

			snprintf(path, sizeof(path), "%s/gone", dir);
			if (v->kind == MACH_VMA_FILE && v->deleted && !strcmp(v->name, path))
				del = true;
			snprintf(path, sizeof(path), "%s/we ird\nna\\me", dir);
			if (v->kind == MACH_VMA_FILE && !v->deleted && !strcmp(v->name, path))
				nl = true;
		}
		ok(del && nl, "its deleted mapping and its file with a newline in the name");
	}
	p = threads > 0 ? mach_find_process(m, threads) : NULL;
	ok(p && p->nthreads == 3 && p->threads[1].tid > 0, "the threaded child: three threads");
	snprintf(path, sizeof(path), "%d/stat", (int)stopped);
	{
		const struct mach_load_file *f = report_find(&r, path);

		/* whole exit_code 19 (group stop), the task's 0: one exit_code per process */
		ok(f && (f->status == MACH_LOAD_OK ||
			 (f->reason && strstr(f->reason, "cannot be represented"))),
		   "the stopped child: loaded, or skipped as not representable");
		if (f && f->status == MACH_LOAD_SKIPPED)
			diag("%s: %s", path, f->reason);
	}
	mach_load_report_free(&r);
	mach_free(m);
	m = NULL;

	/* only some pids, without task/ */
	{
		pid_t pids[3] = { getpid(), zombie, getpid() };
		struct mach_load_opts o = { .pids = pids, .npids = zombie > 0 ? 3 : 1, .no_tasks = true };
		bool task = false;

		rc = pfs_load_tree("/proc", &o, &m, &r, err, sizeof(err));
		ok(rc == 0 && m->nprocs == (zombie > 0 ? 2u : 1u), "opts: only the given pids");
		if (rc)
			diag("%s", err);
		for (size_t i = 0; !rc && i < r.nfiles; i++)
			task |= strstr(r.files[i].path, "/task/") != NULL;
		ok(!rc && !task, "opts: no_tasks reads no task/ directory");
		if (!rc) {
			mach_load_report_free(&r);
			mach_free(m);
		}
		m = NULL;
		pids[0] = 999999999;
		o.npids = 1;
		rc = pfs_load_tree("/proc", &o, &m, &r, err, sizeof(err));
		ok(rc == -ENOENT && strstr(err, "/proc/999999999"), "opts: a pid that does not exist");
		if (!rc) {
			mach_load_report_free(&r);
			mach_free(m);
		}
		m = NULL;
	}
out:
	reap(weird);
	reap(threads);
	reap(stopped);
	reap(zparent);
	snprintf(path, sizeof(path), "%s/we ird\nna\\me", dir);
	unlink(path);
	rmdir(dir);
}

/* ------------------------------------------------------------------ */
/* A captured tree                                                      */

static const char *const globals[] = { "stat", "meminfo", "vmstat", "loadavg", "uptime",
				       "pressure/cpu", "pressure/io", "pressure/memory" };
static const char *const pidfiles[] = { "status", "stat", "statm", "maps", "cmdline", "comm" };

static int copy(const char *from, const char *to)
{
	size_t len;
	char *t = slurp(from, &len);
	int rc;

	if (!t)
		return -1;
	rc = spit(to, t, len);
	free(t);
	return rc;
}

struct shown_diffs {
	const struct mach_machine *m;
	int shown;
};

/* The first few differences of the round trip, with the lines that differ. */
static void show_diff(void *arg, const struct pfs_verify_file *v)
{
	struct shown_diffs *sd = arg;

	if (v->verdict != PFS_DIFFERS)
		return;
	if (!v->text)
		diag("%s: cannot render", v->loaded->path);
	else if (sd->shown++ < 3)
		roundtrip(sd->m, v->loaded->path, v->loaded->text, v->loaded->len, 1);
}

static void rm_tree(const char *dir)
{
	char cmd[700];

	/* our own temporary directory only */
	if (!strncmp(dir, "/tmp/uprocfs-tree-", 18)) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			diag("could not remove %s", dir);
	}
}

void test_tree(void)
{
	char dir[] = "/tmp/uprocfs-tree-XXXXXX", a[800], b[800];
	struct mach_load_report r;
	struct mach_machine *m = NULL;
	char err[ERRLEN];
	pid_t child;
	int rc, bad = 0;

	if (!ok(mkdtemp(dir) != NULL, "tree: a scratch directory for the captured tree (%s)", dir))
		return;
	child = spawn(CHILD_THREADS, dir, NULL);
	wait_sleeping(child);
	snprintf(a, sizeof(a), "%s/pressure", dir);
	mkdir(a, 0700);
	for (size_t i = 0; i < sizeof(globals) / sizeof(globals[0]); i++) {
		snprintf(a, sizeof(a), "/proc/%s", globals[i]);
		snprintf(b, sizeof(b), "%s/%s", dir, globals[i]);
		if (access(a, R_OK) == 0)
			bad |= copy(a, b);
	}
	snprintf(a, sizeof(a), "%s/%d", dir, (int)child);
	mkdir(a, 0700);
	snprintf(a, sizeof(a), "%s/%d/task", dir, (int)child);
	mkdir(a, 0700);
	{
		DIR *d;
		struct dirent *de;

		snprintf(a, sizeof(a), "/proc/%d/task", (int)child);
		d = opendir(a);
		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(a, sizeof(a), "%s/%d/task/%s", dir, (int)child, de->d_name);
			mkdir(a, 0700);
			for (size_t k = 0; k < 6; k++) {
				snprintf(a, sizeof(a), "/proc/%d/task/%s/%s", (int)child, de->d_name,
					 pidfiles[k]);
				snprintf(b, sizeof(b), "%s/%d/task/%s/%s", dir, (int)child, de->d_name,
					 pidfiles[k]);
				bad |= copy(a, b);
			}
		}
		if (d)
			closedir(d);
	}
	for (size_t k = 0; k < 6; k++) {
		snprintf(a, sizeof(a), "/proc/%d/%s", (int)child, pidfiles[k]);
		snprintf(b, sizeof(b), "%s/%d/%s", dir, (int)child, pidfiles[k]);
		bad |= copy(a, b);
	}
	reap(child);
	ok(!bad, "a tree captured to %s", dir);

	rc = pfs_load_tree(dir, NULL, &m, &r, err, sizeof(err));
	ok(rc == 0 && m->nprocs == 1 && m->procs[0].tgid == child && m->procs[0].nthreads == 3,
	   "the captured tree loads: one process, three threads");
	if (rc)
		diag("%s", err);
	else {
		size_t want = 5 + 6 + 3 * 6;

		for (size_t i = 5; i < sizeof(globals) / sizeof(globals[0]); i++) {
			snprintf(a, sizeof(a), "/proc/%s", globals[i]);
			want += access(a, R_OK) == 0;
		}
		is_u64(r.nfiles, want, "every captured file in the report");
		mach_load_report_free(&r);
		mach_free(m);
	}

	/* Threads: counts the task directories */
	{
		DIR *d;
		struct dirent *de;
		pid_t victim = 0;

		snprintf(a, sizeof(a), "%s/%d/task", dir, (int)child);
		d = opendir(a);
		while (d && (de = readdir(d)))
			if (de->d_name[0] != '.' && atoi(de->d_name) != child)
				victim = atoi(de->d_name);
		if (d)
			closedir(d);
		snprintf(a, sizeof(a), "%s/%d/task/%d.hidden", dir, (int)child, (int)victim);
		snprintf(b, sizeof(b), "%s/%d/task/%d", dir, (int)child, (int)victim);
		rename(b, a);
		m = NULL;
		rc = pfs_load_tree(dir, NULL, &m, &r, err, sizeof(err));
		/* the model holds both counts: Threads: says 3, task/ shows the two captured */
		if (!ok(rc == 0 && m->nprocs == 1 && m->procs[0].nr_threads == 3 && m->procs[0].nthreads == 2,
			"a missing task directory: Threads: 3 kept, two threads loaded"))
			diag("%s", rc ? err : "");
		if (!rc) {
			for (size_t i = 0; i < r.nfiles; i++)
				bad |= r.files[i].status != MACH_LOAD_OK;
			ok(!bad, "every file of the other threads loads");
			mach_load_report_free(&r);
			mach_free(m);
		}
		bad = 0;
		rename(a, b);
	}

	/* a written tree is read beneath it: a symlink or a FIFO is skipped with the reason */
	{
		char comm[800], maps[800], status[800], aside[800], rel[64];
		const struct mach_load_file *f;

		snprintf(comm, sizeof(comm), "%s/%d/comm", dir, (int)child);
		snprintf(maps, sizeof(maps), "%s/%d/maps", dir, (int)child);
		snprintf(aside, sizeof(aside), "%s/%d/maps.aside", dir, (int)child);
		snprintf(b, sizeof(b), "%s/%d/comm.aside", dir, (int)child);
		rename(comm, b);
		rename(maps, aside);
		bad = symlink("/etc/hostname", comm) || mkfifo(maps, 0600);
		m = NULL;
		rc = pfs_load_tree(dir, NULL, &m, &r, err, sizeof(err));
		ok(!bad && rc == 0 && m->nprocs == 1, "a tree with a symlink and a FIFO loads");
		if (rc)
			diag("%s", err);
		if (!rc) {
			snprintf(rel, sizeof(rel), "%d/comm", (int)child);
			f = report_find(&r, rel);
			ok(f && f->status == MACH_LOAD_SKIPPED && f->reason &&
			   !strcmp(f->reason, "a symlink (not followed)"), "the symlink: skipped");
			snprintf(rel, sizeof(rel), "%d/maps", (int)child);
			f = report_find(&r, rel);
			ok(f && f->status == MACH_LOAD_SKIPPED && f->reason &&
			   strstr(f->reason, "not a regular file"), "the FIFO: skipped, not waited on");
			mach_load_report_free(&r);
			mach_free(m);
		}
		unlink(comm);
		unlink(maps);
		rename(b, comm);
		rename(aside, maps);

		/* a status that is a symlink is not followed: the process loads without it */
		snprintf(status, sizeof(status), "%s/%d/status", dir, (int)child);
		snprintf(aside, sizeof(aside), "%s/%d/status.aside", dir, (int)child);
		rename(status, aside);
		snprintf(rel, sizeof(rel), "task/%d/status", (int)child);
		bad = symlink(rel, status);
		m = NULL;
		rc = pfs_load_tree(dir, NULL, &m, &r, err, sizeof(err));
		snprintf(rel, sizeof(rel), "%d/status", (int)child);
		f = rc ? NULL : report_find(&r, rel);
		if (!ok(!bad && rc == 0 && m->nprocs == 1 && f && f->status == MACH_LOAD_SKIPPED && f->reason &&
			strstr(f->reason, "symlink (not followed)"),
			"a symlinked status inside the tree: skipped with the reason, the process loads"))
			diag("%s", rc ? err : f && f->reason ? f->reason : "?");
		snprintf(rel, sizeof(rel), "%d/stat", (int)child);
		f = rc ? NULL : report_find(&r, rel);
		ok(f && f->status == MACH_LOAD_OK, "... its stat loads");
		if (!rc) {
			mach_load_report_free(&r);
			mach_free(m);
		}
		unlink(status);
		rename(aside, status);
		bad = 0;
	}

	/* a static disagreement is an error naming both files */
	snprintf(b, sizeof(b), "%s/%d/statm", dir, (int)child);
	{
		size_t len;
		char *t = slurp(b, &len), *sp = t ? strchr(t, ' ') : NULL;

		if (sp) {
			char fixed[256];
			unsigned long long size, res;

			if (sscanf(t, "%llu %llu", &size, &res) == 2) {
				snprintf(fixed, sizeof(fixed), "%llu %llu%s", size, res + 1,
					 strchr(sp + 1, ' '));
				spit(b, fixed, strlen(fixed));
			}
		}
		free(t);
	}
	m = NULL;
	rc = pfs_load_tree(dir, NULL, &m, &r, err, sizeof(err));
	{
		const struct mach_load_file *f;

		/*
		 * written last, statm is the younger of the two that disagree: it is
		 * the one left out; the other is a thread's (its threads' copies are
		 * the same bytes, parsed once)
		 */
		snprintf(a, sizeof(a), "%d/statm", (int)child);
		f = rc ? NULL : report_find(&r, a);
		snprintf(b, sizeof(b), "/%d/task/", (int)child);
		if (!ok(f && f->status == MACH_LOAD_SKIPPED && f->reason && strstr(f->reason, "torn: ") &&
			strstr(f->reason, "/statm:1: resident is") && strstr(f->reason, b) &&
			strstr(f->reason, "/statm:1 says"),
			"statm changed in a captured tree: statm skipped, the reason naming both files"))
			diag("%s", rc ? err : f && f->reason ? f->reason : "?");
		if (!rc) {
			mach_load_report_free(&r);
			mach_free(m);
		}
	}
	snprintf(a, sizeof(a), "%s/vmstat", dir);
	unlink(a);
	m = NULL;
	rc = pfs_load_tree(dir, NULL, &m, &r, err, sizeof(err));
	ok(rc == 0 && m->nprocs == 1 && !report_find(&r, "vmstat") && report_find(&r, "meminfo") &&
	   (m->lacks & MACH_LD_BIT(MACH_LD_VMSTAT)), "a captured tree without vmstat loads; the machine lacks vmstat");
	if (!rc) {
		struct pfs_node n;
		struct pfs_ctx c;
		char perr[256];

		ok(pfs_resolve(m, "vmstat", &n, &c, perr, sizeof(perr)) == -ENOENT &&
		   pfs_resolve(m, "meminfo", &n, &c, perr, sizeof(perr)) == 0, "... vmstat is absent from it, meminfo not");
		mach_load_report_free(&r);
		mach_free(m);
	}
	rm_tree(dir);
}

/* ------------------------------------------------------------------ */
/* Mutations                                                            */

struct text {
	char path[64];     /* as mach_load_text names it */
	char *buf;
	size_t len;
};

static char *mutate(uint64_t *rng, const char *src, size_t len, size_t *out_len)
{
	static const char interesting[] = "0123456789 \t\n:()-/.,xkB\\";
	char *t = malloc(len + 64);
	size_t n = len, at;
	unsigned int ops = 1 + (unsigned int)(test_rand(rng) % 3);

	if (!t)
		return NULL;
	memcpy(t, src, len);
	while (ops--) {
		at = n ? (size_t)(test_rand(rng) % (n + 1)) : 0;
		switch (test_rand(rng) % 7) {
		case 0: /* flip a bit */
			if (at < n)
				t[at] ^= (char)(1u << (test_rand(rng) % 8));
			break;
		case 1: /* truncate */
			n = at;
			break;
		case 2: /* insert a random or interesting byte */
			if (n < len + 60) {
				memmove(t + at + 1, t + at, n - at);
				t[at] = test_rand(rng) & 1 ? (char)test_rand(rng)
					: interesting[test_rand(rng) % (sizeof(interesting) - 1)];
				n++;
			}
			break;
		case 3: /* delete a run */
			if (at < n) {
				size_t k = 1 + (size_t)(test_rand(rng) % 16);

				if (k > n - at)
					k = n - at;
				memmove(t + at, t + at + k, n - at - k);
				n -= k;
			}
			break;
		case 4: /* replace by an interesting byte */
			if (at < n)
				t[at] = interesting[test_rand(rng) % (sizeof(interesting) - 1)];
			break;
		case 5: /* a huge number */
			if (n + 24 < len + 60) {
				memmove(t + at + 24, t + at, n - at);
				memcpy(t + at, "999999999999999999999999", 24);
				n += 24;
			}
			break;
		case 6: { /* duplicate the line at @at (bounded) */
			size_t s = at, e = at;

			while (s > 0 && t[s - 1] != '\n')
				s--;
			while (e < n && t[e] != '\n')
				e++;
			if (e < n)
				e++;
			if (e - s && n + (e - s) <= len + 60) {
				memmove(t + e + (e - s), t + e, n - e);
				memmove(t + e, t + s, e - s);
				n += e - s;
			}
			break;
		}
		}
	}
	*out_len = n;
	return t;
}

static int load_pid_set(const struct text *set, size_t nset, size_t mutated, const char *mtext,
			size_t mlen, char *err)
{
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = mach_loader_new(m);
	int rc = 0;

	for (size_t i = 0; i < nset && !rc; i++)
		rc = pfs_load_text(ld, set[i].path, i == mutated ? mtext : set[i].buf,
				    i == mutated ? mlen : set[i].len, err, ERRLEN);
	if (!rc)
		rc = mach_loader_finish(ld, err, ERRLEN);
	mach_loader_free(ld);
	mach_free(m);
	return rc;
}

static size_t gather(struct text *set, const char *proc_dir, const char *prefix)
{
	size_t n = 0;

	for (size_t k = 0; k < 6; k++) {
		char src[256];

		snprintf(src, sizeof(src), "%s/%s", proc_dir, pidfiles[k]);
		set[n].buf = slurp(src, &set[n].len);
		if (!set[n].buf)
			continue;
		if ((size_t)snprintf(set[n].path, sizeof(set[n].path), "%s/%s", prefix, pidfiles[k]) >=
		    sizeof(set[n].path)) {
			free(set[n].buf);
			continue;
		}
		n++;
	}
	return n;
}

void test_mutations(void)
{
	const unsigned int rounds = TEST_UNDER_SANITIZER ? 600 : 1000;
	struct text glob[8], pset[3][6];
	size_t npset[3] = { 0, 0, 0 }, nglob = 0;
	unsigned long loads = 0, okays = 0, bad = 0, clean = 0;
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	char err[ERRLEN], pfx[700];
	pid_t child;

	for (size_t i = 0; i < sizeof(globals) / sizeof(globals[0]); i++) {
		char src[64];

		snprintf(src, sizeof(src), "/proc/%s", globals[i]);
		glob[nglob].buf = slurp(src, &glob[nglob].len);
		if (glob[nglob].buf) {
			snprintf(glob[nglob].path, sizeof(glob[nglob].path), "%s", globals[i]);
			nglob++;
		}
	}
	child = spawn(CHILD_THREADS, "/tmp", NULL);
	wait_sleeping(child);
	{
		char d[64], pre[64];

		snprintf(d, sizeof(d), "/proc/%d", (int)child);
		snprintf(pre, sizeof(pre), "%d", (int)child);
		npset[0] = gather(pset[0], d, pre);
		snprintf(d, sizeof(d), "/proc/%d/task/%d", (int)child, (int)child);
		snprintf(pre, sizeof(pre), "%d/task/%d", (int)child, (int)child);
		npset[1] = gather(pset[1], d, pre);
		npset[2] = gather(pset[2], "/proc/2", "2");
	}
	reap(child);

	/* unmutated: everything loads */
	for (size_t i = 0; i < nglob; i++) {
		struct mach_machine *m = mach_new();
		struct mach_loader *ld = mach_loader_new(m);

		clean += pfs_load_text(ld, glob[i].path, glob[i].buf, glob[i].len, err, ERRLEN) != 0;
		clean += mach_loader_finish(ld, err, ERRLEN) != 0;
		mach_loader_free(ld);
		mach_free(m);
	}
	for (int s = 0; s < 3; s++)
		clean += load_pid_set(pset[s], npset[s], (size_t)-1, NULL, 0, err) != 0;
	if (!is_u64(clean, 0, "the live texts load unmutated"))
		diag("%s", err);

	for (unsigned int r = 0; r < rounds; r++) {
		for (size_t i = 0; i < nglob; i++) {
			struct mach_machine *m = mach_new();
			struct mach_loader *ld = mach_loader_new(m);
			size_t len;
			char *t = mutate(&rng, glob[i].buf, glob[i].len, &len);
			int rc;

			if (!t)
				continue;
			err[0] = '\0';
			rc = pfs_load_text(ld, glob[i].path, t, len, err, ERRLEN);
			if (!rc)
				rc = mach_loader_finish(ld, err, ERRLEN);
			mach_loader_free(ld);
			snprintf(pfx, sizeof(pfx), "%s:", glob[i].path);
			loads++;
			okays += !rc;
			if (rc && (rc != -EINVAL || strncmp(err, pfx, strlen(pfx)))) {
				if (++bad <= 5)
					diag("%s: rc %d, message \"%s\"", glob[i].path, rc, err);
			}
			mach_free(m);
			free(t);
		}
		for (int s = 0; s < 3; s++) {
			size_t which = npset[s] ? (size_t)(test_rand(&rng) % npset[s]) : 0, len;
			char *t;
			int rc;

			if (!npset[s])
				continue;
			t = mutate(&rng, pset[s][which].buf, pset[s][which].len, &len);
			if (!t)
				continue;
			err[0] = '\0';
			rc = load_pid_set(pset[s], npset[s], which, t, len, err);
			loads++;
			okays += !rc;
			/* cross-file errors name another file first; parse errors this one */
			if (rc && (!(rc == -EINVAL || rc == -ENOTSUP) || !strchr(err, ':'))) {
				if (++bad <= 5)
					diag("%s: rc %d, message \"%s\"", pset[s][which].path, rc, err);
			}
			free(t);
		}
	}
	diag("%lu mutated loads: %lu loaded, %lu failed with a message", loads, okays,
	     loads - okays - bad);
	is_u64(bad, 0, "every mutation loads or fails with -EINVAL and a path:line message");

	/* a zero-padded number would render otherwise: refused with the line named */
	if (npset[0]) {
		const char *v = strstr(pset[0][0].buf, "VmRSS:\t");
		char *t = malloc(pset[0][0].len + 8);
		size_t len = 0;

		if (v && t) {
			size_t at = (size_t)(v - pset[0][0].buf) + 7, d = at;

			while (d < pset[0][0].len && pset[0][0].buf[d] == ' ')
				d++;
			/* "VmRSS:\t" + one more space + the padding + "00" + the digits */
			memcpy(t, pset[0][0].buf, at);
			t[at] = ' ';
			memcpy(t + at + 1, pset[0][0].buf + at, d - at);
			memcpy(t + d + 1, "00", 2);
			memcpy(t + d + 3, pset[0][0].buf + d, pset[0][0].len - d);
			len = pset[0][0].len + 3;
			ok(load_pid_set(pset[0], npset[0], 0, t, len, err) == -EINVAL && strstr(err, "VmRSS:"),
			   "live status with VmRSS padded and zero-prefixed is refused");
		}
		free(t);
	}
	for (size_t i = 0; i < nglob; i++)
		free(glob[i].buf);
	for (int s = 0; s < 3; s++)
		for (size_t i = 0; i < npset[s]; i++)
			free(pset[s][i].buf);
}

/* ------------------------------------------------------------------ */
/* Round trip through the renderers                                     */

/*
 * Compare two stat lines field by field, ignoring @skip_mask (bit n: field
 * n).  The comm may hold anything, so fields are counted after the last ')'.
 */
int stat_equal_except(const char *a, size_t alen, const char *b, size_t blen,
			     uint64_t skip_mask)
{
	const char *ra = memrchr(a, ')', alen), *rb = memrchr(b, ')', blen);
	const char *pa, *pb, *ea = a + alen, *eb = b + blen;
	int field = 3;

	if (!ra || !rb || ra - a != rb - b || memcmp(a, b, (size_t)(ra - a)))
		return 0;
	pa = ra + 2;
	pb = rb + 2;
	while (pa < ea && pb < eb) {
		const char *na = pa, *nb = pb;

		while (na < ea && *na != ' ' && *na != '\n')
			na++;
		while (nb < eb && *nb != ' ' && *nb != '\n')
			nb++;
		if (!(skip_mask >> field & 1) &&
		    (na - pa != nb - pb || memcmp(pa, pb, (size_t)(na - pa))))
			return 0;
		pa = na + 1;
		pb = nb + 1;
		field++;
	}
	return pa >= ea && pb >= eb;
}

void test_roundtrip_live(void)
{
	struct mach_load_report r;
	struct mach_machine *m = NULL;
	unsigned long same = 0, differ = 0;
	char err[ERRLEN];
	int rc;

	rc = pfs_load_tree("/proc", NULL, &m, &r, err, sizeof(err));
	if (!ok(rc == 0, "round trip: the live /proc loads")) {
		diag("%s", err);
		return;
	}
	struct pfs_verify_counts counts;
	struct shown_diffs sd = { .m = m };

	pfs_verify(m, &r, show_diff, &sd, &counts);
	same = counts.identical;
	differ = counts.differ;
	diag("round trip: %lu identical, %lu differ", same, differ);
	ok(same > 100 && differ == 0, "every loaded file renders back byte for byte");
	mach_load_report_free(&r);
	mach_free(m);
}
