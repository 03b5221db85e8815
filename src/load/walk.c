// SPDX-License-Identifier: MIT
/*
 * walk.c - build a machine model from a /proc tree (mach_load_tree).
 *
 * mach_load_tree walks a directory: the global files first, then every
 * process (pids ascending) with its six files and those of its task/<tid>/
 * directories.  On the live /proc a process can change between two reads,
 * so all of a pid's files are read back to back into one buffer allocated up
 * front (reading does not allocate, so even /proc/self keeps still), parsed
 * into records, and checked against each other (load_pid.c); when they
 * disagree the pid is read again, up to LD_TRIES times.  A disagreement that
 * survives an identical re-read is a real one.  In a captured tree, files do
 * not change and any disagreement is an error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "../util/vec.h"
#include "load_int.h"
#include "uprocfs/load.h"

#define LD_TRIES 5
#define ARENA_FIRST (1u << 20)
#define ARENA_MAX ((size_t)1 << 30)

/* ------------------------------------------------------------------ */
/* Reading                                                              */

struct arena {
	char *buf;
	size_t cap, used;
};

/* Pages are touched up front so that filling them later changes no RSS. */
static int arena_grow(struct arena *a, size_t cap)
{
	char *n;

	if (cap > ARENA_MAX)
		return -EFBIG;
	n = realloc(a->buf, cap);
	if (!n)
		return -ENOMEM;
	memset(n, 0, cap);
	a->buf = n;
	a->cap = cap;
	a->used = 0;
	return 0;
}

/* Read @rel under @dirfd into the arena: 0, -ENOBUFS when full, or -errno. */
static int read_file(struct arena *a, int dirfd, const char *rel, size_t *off, size_t *len)
{
	int fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	size_t start = a->used;
	int rc = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (a->used == a->cap) {
			rc = -ENOBUFS;
			break;
		}
		n = read(fd, a->buf + a->used, a->cap - a->used);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (n == 0)
			break;
		a->used += (size_t)n;
	}
	close(fd);
	*off = start;
	*len = a->used - start;
	return rc;
}

struct walk {
	struct ld_state *st;
	const char *dir;
	int dirfd;
	bool live, no_tasks;
	struct arena arena;
	struct ld_report rep;
	char *err;
	size_t errlen;
};

static void display_path(const struct walk *w, const char *rel, char *buf, size_t n)
{
	size_t dl = strlen(w->dir);

	snprintf(buf, n, "%s%s%s", w->dir, dl && w->dir[dl - 1] == '/' ? "" : "/", rel);
}

static int sys_error(struct walk *w, const char *rel, int rc)
{
	char path[4200];

	display_path(w, rel, path, sizeof(path));
	snprintf(w->err, w->errlen, "%s: %s", path, strerror(-rc));
	return rc;
}

static int load_globals(struct walk *w)
{
	struct machine *m = w->st->m;

	m->profile.has_schedstat = false;
	for (size_t i = 0; i < LD_NGLOBAL; i++) {
		const struct ld_global_file *g = &ld_global_files[i];
		char path[4200];
		size_t off, len;
		int rc;

		w->arena.used = 0;
		rc = read_file(&w->arena, w->dirfd, g->name, &off, &len);
		while (rc == -ENOBUFS) {
			rc = arena_grow(&w->arena, w->arena.cap * 2);
			if (!rc)
				rc = read_file(&w->arena, w->dirfd, g->name, &off, &len);
		}
		if (rc == -ENOENT && !g->required)
			continue;
		if (rc == -EACCES || rc == -EPERM) {
			if ((rc = ld_report_add(&w->rep, g->name, MACH_LOAD_SKIPPED,
						"permission denied", NULL, 0)))
				return rc;
			continue;
		}
		if (rc)
			return sys_error(w, g->name, rc);
		display_path(w, g->name, path, sizeof(path));
		rc = ld_parse_global(w->st, g, path, w->arena.buf + off, len, w->err, w->errlen);
		if (rc)
			return rc;
		if ((rc = ld_report_add(&w->rep, g->name, MACH_LOAD_OK, NULL, w->arena.buf + off,
					len)))
			return rc;
	}
	return 0;
}

/* One file of one attempt at a pid. */
struct slot {
	char rel[64];
	pid_t tid;          /* 0: /proc/<pid>/X, else task/<tid>/X */
	enum ld_kind kind;
	size_t off, len;
	int rc;
};

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* The tids under <pid>/task: 0, -ENOENT, or -errno. */
static int list_tasks(struct walk *w, pid_t pid, pid_t **tids, size_t *n)
{
	char rel[64];
	size_t cap = 0;
	struct dirent *de;
	DIR *d;
	int fd;

	*tids = NULL;
	*n = 0;
	snprintf(rel, sizeof(rel), "%d/task", (int)pid);
	fd = openat(w->dirfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	while ((de = readdir(d))) {
		const char *rest;
		pid_t tid, *slot;

		if (!ld_parse_pid(de->d_name, &tid, &rest) || *rest)
			continue;
		slot = VEC_PUSH(*tids, *n, cap);
		if (!slot) {
			closedir(d);
			free(*tids);
			*tids = NULL;
			return -ENOMEM;
		}
		*slot = tid;
	}
	closedir(d);
	if (*n)
		qsort(*tids, *n, sizeof(pid_t), pid_cmp);
	return 0;
}

/* 64-bit FNV-1a over what an attempt read, to tell a stable file set from a changing one. */
static uint64_t attempt_hash(const struct walk *w, const struct slot *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++) {
		const unsigned char *p = (const unsigned char *)w->arena.buf + s[i].off;

		h = (h ^ (uint64_t)(unsigned int)s[i].rc) * 1099511628211ull;
		h = (h ^ s[i].len) * 1099511628211ull;
		for (size_t k = 0; !s[i].rc && k < s[i].len; k++)
			h = (h ^ p[k]) * 1099511628211ull;
	}
	return h;
}

/* Report order: the six whole files, then each task's six by tid. */
static int slot_order(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if ((x->tid != 0) != (y->tid != 0))
		return x->tid ? 1 : -1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

static int report_pid(struct walk *w, struct slot *s, size_t n, const char *reason)
{
	struct slot *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	int rc = 0;

	if (!sorted)
		return -ENOMEM;
	if (n) {
		memcpy(sorted, s, n * sizeof(*s));
		qsort(sorted, n, sizeof(*sorted), slot_order);
	}
	for (size_t i = 0; i < n && !rc; i++) {
		const struct slot *x = &sorted[i];

		if (x->rc == -ENOENT && !w->live && !reason)
			continue; /* a captured tree without this file */
		if (reason)
			rc = ld_report_add(&w->rep, x->rel, MACH_LOAD_SKIPPED, reason, NULL, 0);
		else if (x->rc == -EACCES || x->rc == -EPERM)
			rc = ld_report_add(&w->rep, x->rel, MACH_LOAD_SKIPPED, "permission denied",
					   NULL, 0);
		else
			rc = ld_report_add(&w->rep, x->rel, MACH_LOAD_OK, NULL,
					   w->arena.buf + x->off, x->len);
	}
	free(sorted);
	return rc;
}

/* Build the slots of one attempt: other threads first, then the leader's two copies. */
static struct slot *make_slots(pid_t pid, const pid_t *tids, size_t ntids, size_t *n)
{
	struct slot *s = calloc((ntids + 1) * LD_NR_KINDS, sizeof(*s));
	size_t k = 0;
	bool leader_task = false;

	if (!s)
		return NULL;
	for (size_t i = 0; i < ntids; i++) {
		if (tids[i] == pid) {
			leader_task = true;
			continue;
		}
		for (int kind = 0; kind < LD_NR_KINDS; kind++, k++) {
			s[k].tid = tids[i];
			s[k].kind = (enum ld_kind)kind;
			snprintf(s[k].rel, sizeof(s[k].rel), "%d/task/%d/%s", (int)pid, (int)tids[i],
				 ld_kind_names[kind]);
		}
	}
	/* The leader's task/ copy right before /proc/<pid>/X: the two must agree. */
	for (int kind = 0; kind < LD_NR_KINDS; kind++) {
		if (leader_task) {
			s[k].tid = pid;
			s[k].kind = (enum ld_kind)kind;
			snprintf(s[k].rel, sizeof(s[k].rel), "%d/task/%d/%s", (int)pid, (int)pid,
				 ld_kind_names[kind]);
			k++;
		}
		s[k].tid = 0;
		s[k].kind = (enum ld_kind)kind;
		snprintf(s[k].rel, sizeof(s[k].rel), "%d/%s", (int)pid, ld_kind_names[kind]);
		k++;
	}
	*n = k;
	return s;
}

/* Parse an attempt's files and build the process; 0, -EINVAL, -ENOTSUP or -ENOMEM. */
static int try_pid(struct walk *w, pid_t pid, const struct slot *s, size_t n, const pid_t *tids,
		   size_t ntids, bool listed)
{
	struct ld_pid *lp = calloc(1, sizeof(*lp));
	int rc = 0;

	if (!lp)
		return -ENOMEM;
	lp->tgid = pid;
	lp->whole.tid = pid;
	lp->tasks_complete = listed;
	for (size_t i = 0; i < ntids && !rc; i++)
		if (!ld_pid_task(lp, tids[i]))
			rc = -ENOMEM;
	for (size_t i = 0; i < n && !rc; i++) {
		struct ld_task *t;
		char path[4200];

		if (s[i].rc)
			continue;
		t = s[i].tid ? ld_pid_task(lp, s[i].tid) : &lp->whole;
		if (!t) {
			rc = -ENOMEM;
			break;
		}
		display_path(w, s[i].rel, path, sizeof(path));
		rc = ld_parse_pid_file(t, s[i].kind, pid, path, w->arena.buf + s[i].off, s[i].len,
				       w->err, w->errlen);
	}
	if (!rc)
		rc = ld_add_process(w->st, lp, w->err, w->errlen);
	ld_pid_free(lp);
	return rc;
}

static bool gone(int rc)
{
	return rc == -ENOENT || rc == -ESRCH;
}

static bool denied(int rc)
{
	return rc == -EACCES || rc == -EPERM;
}

static int load_pid(struct walk *w, pid_t pid)
{
	const int limit = w->live ? LD_TRIES : 1;
	uint64_t prev_hash = 0;
	struct slot *s = NULL;
	pid_t *tids = NULL;
	size_t n = 0, ntids = 0;
	const char *skip = NULL;
	char reason[600];
	int rc = 0, tries = 0;

	for (;;) {
		bool listed = false, again = false;
		uint64_t h;

		free(s);
		free(tids);
		s = NULL;
		tids = NULL;
		n = ntids = 0;
		if (!w->no_tasks) {
			rc = list_tasks(w, pid, &tids, &ntids);
			if (rc == -ENOMEM)
				break;
			if (rc && w->live && gone(rc)) {
				skip = "task exited";
				rc = 0;
				break;
			}
			listed = !rc;
			rc = 0;
		}
		s = make_slots(pid, tids, ntids, &n);
		if (!s) {
			rc = -ENOMEM;
			break;
		}
		/* read everything first: parsing allocates, reading must not */
		w->arena.used = 0;
		for (size_t i = 0; i < n && !rc; i++) {
			rc = read_file(&w->arena, w->dirfd, s[i].rel, &s[i].off, &s[i].len);
			if (rc == -ENOBUFS)
				break;
			s[i].rc = rc;
			rc = 0;
		}
		if (rc == -ENOBUFS) {
			rc = arena_grow(&w->arena, w->arena.cap * 2);
			if (rc)
				break;
			continue; /* not the task's fault: does not count as a try */
		}
		for (size_t i = 0; i < n && !rc && !skip; i++) {
			bool leader = s[i].tid == 0 || s[i].tid == pid;
			bool needed = s[i].tid == 0 &&
				      (s[i].kind == LD_STATUS || s[i].kind == LD_STAT);

			if (gone(s[i].rc) && w->live) {
				if (leader)
					skip = "task exited";
				else
					again = true; /* a thread exited: list the threads again */
			} else if (gone(s[i].rc) && needed) {
				rc = sys_error(w, s[i].rel, s[i].rc);
			} else if (s[i].rc && !gone(s[i].rc) && !denied(s[i].rc)) {
				rc = sys_error(w, s[i].rel, s[i].rc);
			} else if (denied(s[i].rc) && needed) {
				snprintf(reason, sizeof(reason), "not loaded: %s is not readable",
					 s[i].rel);
				skip = reason;
			}
		}
		if (rc || skip)
			break;
		if (!again) {
			h = attempt_hash(w, s, n);
			rc = try_pid(w, pid, s, n, tids, ntids, listed);
			if (rc != -EINVAL && rc != -ENOTSUP)
				break;
			/* the same bytes as the last attempt: the error is real */
			if (!w->live || (tries && h == prev_hash)) {
				if (rc == -ENOTSUP) {
					snprintf(reason, sizeof(reason), "cannot be represented: %s",
						 w->err);
					skip = reason;
					rc = 0;
				}
				break;
			}
			prev_hash = h;
		}
		if (++tries >= limit) {
			skip = "kept changing while read";
			rc = 0;
			break;
		}
	}
	if (!rc)
		rc = report_pid(w, s, n, skip);
	free(s);
	free(tids);
	return rc;
}

static int list_pids(struct walk *w, const struct mach_load_opts *opts, pid_t **out, size_t *n)
{
	size_t cap = 0;
	struct dirent *de;
	DIR *d;
	int fd;

	*out = NULL;
	*n = 0;
	if (opts && opts->npids) {
		*out = malloc(opts->npids * sizeof(pid_t));
		if (!*out)
			return -ENOMEM;
		for (size_t i = 0; i < opts->npids; i++) {
			char rel[32];
			struct stat sb;

			if (opts->pids[i] <= 0) {
				snprintf(w->err, w->errlen, "pid %d: not a process id",
					 (int)opts->pids[i]);
				return -EINVAL;
			}
			snprintf(rel, sizeof(rel), "%d", (int)opts->pids[i]);
			if (fstatat(w->dirfd, rel, &sb, 0))
				return sys_error(w, rel, -errno);
			(*out)[i] = opts->pids[i];
		}
		qsort(*out, opts->npids, sizeof(pid_t), pid_cmp);
		for (size_t i = 0; i < opts->npids; i++)
			if (!*n || (*out)[i] != (*out)[*n - 1])
				(*out)[(*n)++] = (*out)[i];
		return 0;
	}
	fd = dup(w->dirfd);
	if (fd < 0)
		return sys_error(w, ".", -errno);
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return sys_error(w, ".", -errno);
	}
	rewinddir(d);
	while ((de = readdir(d))) {
		const char *rest;
		pid_t pid, *slot;

		if (!ld_parse_pid(de->d_name, &pid, &rest) || *rest)
			continue;
		slot = VEC_PUSH(*out, *n, cap);
		if (!slot) {
			closedir(d);
			return -ENOMEM;
		}
		*slot = pid;
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof(pid_t), pid_cmp);
	return 0;
}

int mach_load_tree(const char *dir, const struct mach_load_opts *opts, struct machine **out,
		   struct mach_load_report *report, char *err, size_t errlen)
{
	struct walk w;
	struct machine *m;
	struct statfs sfs;
	pid_t *pids = NULL;
	size_t npids = 0;
	int rc;

	*out = NULL;
	if (report)
		memset(report, 0, sizeof(*report));
	memset(&w, 0, sizeof(w));
	w.dir = dir;
	w.err = err;
	w.errlen = errlen;
	w.dirfd = -1;
	w.no_tasks = opts && opts->no_tasks;
	m = mach_new();
	w.st = m ? ld_state_new(m) : NULL;
	if (!w.st) {
		rc = -ENOMEM;
		goto out;
	}
	w.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w.dirfd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(-rc));
		goto out;
	}
	/* the live kernel's files change between reads; a captured tree's do not */
	w.live = !fstatfs(w.dirfd, &sfs) && sfs.f_type == PROC_SUPER_MAGIC;
	rc = arena_grow(&w.arena, ARENA_FIRST);
	if (rc)
		goto out;
	rc = load_globals(&w);
	if (rc)
		goto out;
	rc = list_pids(&w, opts, &pids, &npids);
	if (rc)
		goto out;
	for (size_t i = 0; i < npids && !rc; i++)
		rc = load_pid(&w, pids[i]);
	if (rc)
		goto out;
	rc = ld_finish_machine(w.st, err, errlen);
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", dir);
	if (w.dirfd >= 0)
		close(w.dirfd);
	free(pids);
	free(w.arena.buf);
	ld_state_free(w.st);
	if (rc || !report) {
		struct mach_load_report r = { w.rep.n, w.rep.files };

		mach_load_report_free(&r);
	} else {
		report->nfiles = w.rep.n;
		report->files = w.rep.files;
	}
	if (rc) {
		mach_free(m);
		return rc;
	}
	*out = m;
	return 0;
}
