// SPDX-License-Identifier: MIT
/*
 * walk.c - build a machine model from a /proc tree (mach_load_tree).
 *
 * mach_load_tree walks a directory: the global files first, then every
 * process (pids ascending) with its six files and those of its task/<tid>/
 * directories.  On the live /proc a process can change between two reads,
 * so all of a pid's files are read back to back into one buffer allocated up
 * front (reading does not allocate, so even /proc/self keeps still), parsed
 * into records, and checked against each other (pid_assemble.c); when
 * they disagree the pid is read again, up to LD_TRIES times.  A
 * disagreement that survives an identical re-read is a real one.  In a
 * captured tree, files do not change and any disagreement is an error.
 *
 * Which file a relative path names is decided here too, for the walk and
 * for mach_load_text, until the file table layer classifies paths.
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
/* Names                                                                */

/*
 * The files the walk reads, in report order, by the names they have in a
 * /proc tree: the machine-wide ones at its top, the per-task ones under
 * <pid>/ and <pid>/task/<tid>/.  This table and path_kind() are what the
 * file table layer's path parser will replace; nothing else in the loader
 * knows a file by its name.
 */
static const struct tree_file {
	const char *name;
	enum mach_ld_kind kind;
	bool required; /* machine-wide: the tree must have it; per task: no process without it */
} tree_files[] = {
	{ "stat", MACH_LD_STAT, true },
	{ "meminfo", MACH_LD_MEMINFO, true },
	{ "vmstat", MACH_LD_VMSTAT, true },
	{ "loadavg", MACH_LD_LOADAVG, true },
	{ "uptime", MACH_LD_UPTIME, true },
	{ "schedstat", MACH_LD_SCHEDSTAT, false },
	{ "pressure/cpu", MACH_LD_PRESSURE_CPU, false },
	{ "pressure/io", MACH_LD_PRESSURE_IO, false },
	{ "pressure/irq", MACH_LD_PRESSURE_IRQ, false },
	{ "pressure/memory", MACH_LD_PRESSURE_MEMORY, false },
	{ "status", MACH_LD_PID_STATUS, true },
	{ "stat", MACH_LD_PID_STAT, true },
	{ "statm", MACH_LD_PID_STATM, false },
	{ "maps", MACH_LD_PID_MAPS, false },
	{ "cmdline", MACH_LD_PID_CMDLINE, false },
	{ "comm", MACH_LD_PID_COMM, false },
};
#define NTREE_FILES (sizeof(tree_files) / sizeof(tree_files[0]))

/* "42" at @s (no sign, no leading zero); the rest in *@rest. */
static bool parse_pid(const char *s, pid_t *pid, const char **rest)
{
	long v = 0;

	if (*s < '1' || *s > '9')
		return false;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s++ - '0');
		if (v > INT32_MAX)
			return false;
	}
	*pid = (pid_t)v;
	*rest = s;
	return true;
}

/* Which file @path names ("meminfo", "42/status", "42/task/43/maps"); false if none. */
static bool path_kind(const char *path, enum mach_ld_kind *kind, pid_t *pid, pid_t *tid)
{
	const char *name = path;
	bool per_pid = false;

	*pid = *tid = 0;
	if (parse_pid(path, pid, &name)) {
		if (*name++ != '/')
			return false;
		if (!strncmp(name, "task/", 5) && (!parse_pid(name + 5, tid, &name) || *name++ != '/'))
			return false;
		per_pid = true;
	}
	for (size_t i = 0; i < NTREE_FILES; i++)
		if (ld_kind_per_pid(tree_files[i].kind) == per_pid &&
		    !strcmp(name, tree_files[i].name)) {
			*kind = tree_files[i].kind;
			return true;
		}
	return false;
}

int mach_load_text(struct mach_loader *ld, const char *path, const char *text, size_t len,
		   char *err, size_t errlen)
{
	enum mach_ld_kind kind;
	pid_t pid, tid;

	if (!ld || !path || (!text && len)) {
		snprintf(err, errlen, "mach_load_text: missing loader, path or text");
		return -EINVAL;
	}
	if (!path_kind(path, &kind, &pid, &tid)) {
		snprintf(err, errlen, "%s: not a file the loader knows (stat, meminfo, 42/status, "
			 "42/task/43/maps, ...)", path);
		return -EINVAL;
	}
	return mach_loader_file(ld, kind, pid, tid, path, text, len, err, errlen);
}

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
	struct mach_loader *ld;
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
	w->ld->m->profile.has_schedstat = false;
	for (size_t i = 0; i < NTREE_FILES; i++) {
		const struct tree_file *g = &tree_files[i];
		char path[4200];
		size_t off, len;
		int rc;

		if (ld_kind_per_pid(g->kind))
			continue;
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
		rc = mach_loader_file(w->ld, g->kind, 0, 0, path, w->arena.buf + off, len, w->err,
				      w->errlen);
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
	const struct tree_file *f;
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

		if (!parse_pid(de->d_name, &tid, &rest) || *rest)
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
	return x->f < y->f ? -1 : x->f > y->f;
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

/* The number of per-task files, and so of a task's slots. */
static size_t task_files(void)
{
	size_t n = 0;

	for (size_t i = 0; i < NTREE_FILES; i++)
		n += ld_kind_per_pid(tree_files[i].kind);
	return n;
}

/* Slot @x reads @f of @pid: from task/<tid>/ when @tid is not 0, else from <pid>/. */
static void set_slot(struct slot *x, const struct tree_file *f, pid_t pid, pid_t tid)
{
	x->tid = tid;
	x->f = f;
	if (tid)
		snprintf(x->rel, sizeof(x->rel), "%d/task/%d/%s", (int)pid, (int)tid, f->name);
	else
		snprintf(x->rel, sizeof(x->rel), "%d/%s", (int)pid, f->name);
}

/* Build the slots of one attempt: other threads first, then the leader's two copies. */
static struct slot *make_slots(pid_t pid, const pid_t *tids, size_t ntids, size_t *n)
{
	struct slot *s = calloc((ntids + 1) * task_files(), sizeof(*s));
	bool leader_task = false;
	size_t k = 0;

	if (!s)
		return NULL;
	for (size_t i = 0; i < ntids; i++) {
		if (tids[i] == pid) {
			leader_task = true;
			continue;
		}
		for (size_t f = 0; f < NTREE_FILES; f++)
			if (ld_kind_per_pid(tree_files[f].kind))
				set_slot(&s[k++], &tree_files[f], pid, tids[i]);
	}
	/* The leader's task/ copy right before /proc/<pid>/X: the two must agree. */
	for (size_t f = 0; f < NTREE_FILES; f++) {
		if (!ld_kind_per_pid(tree_files[f].kind))
			continue;
		if (leader_task)
			set_slot(&s[k++], &tree_files[f], pid, pid);
		set_slot(&s[k++], &tree_files[f], pid, 0);
	}
	*n = k;
	return s;
}

/* Parse an attempt's files and build the process; 0, -EINVAL, -ENOTSUP or -ENOMEM. */
static int try_pid(struct walk *w, pid_t pid, const struct slot *s, size_t n, const pid_t *tids,
		   size_t ntids, bool listed)
{
	struct ld_pid *lp = ld_pid_new(pid);
	int rc = 0;

	if (!lp)
		return -ENOMEM;
	lp->tasks_complete = listed;
	for (size_t i = 0; i < ntids && !rc; i++)
		if (!ld_pid_task(lp, tids[i]))
			rc = -ENOMEM;
	for (size_t i = 0; i < n && !rc; i++) {
		char path[4200];

		if (s[i].rc)
			continue;
		display_path(w, s[i].rel, path, sizeof(path));
		rc = ld_pid_file(lp, s[i].f->kind, s[i].tid, path, w->arena.buf + s[i].off,
				 s[i].len, w->err, w->errlen);
	}
	if (!rc)
		rc = ld_add_process(w->ld, lp, w->err, w->errlen);
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
			bool needed = s[i].tid == 0 && s[i].f->required;

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

		if (!parse_pid(de->d_name, &pid, &rest) || *rest)
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
	w.ld = m ? mach_loader_new(m) : NULL;
	if (!w.ld) {
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
	rc = mach_loader_finish(w.ld, err, errlen);
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", dir);
	if (w.dirfd >= 0)
		close(w.dirfd);
	free(pids);
	free(w.arena.buf);
	mach_loader_free(w.ld);
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
