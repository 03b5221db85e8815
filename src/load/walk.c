// SPDX-License-Identifier: MIT
/*
 * walk.c - build a machine model from a /proc tree (mach_load_tree).
 *
 * mach_load_tree walks a directory: the global files first, then every
 * process (pids ascending) with its files and those of its task/<tid>/
 * directories: files read whole, symlinks by readlink (a link to nothing, a
 * zombie's cwd, is what it shows, not a missing file), and collections
 * (fd/, fdinfo/) listed, then each entry read.  On the live /proc a process
 * can change between two reads, so all of a pid's files are read back to
 * back (walk_read.c), parsed into records, and checked against each other
 * (pid_assemble.c); when they disagree the pid is read again, up to
 * LD_TRIES times.  A disagreement that survives an identical re-read is a
 * real one.  In a captured tree, files do not change and any disagreement
 * is an error; what a /proc tree never holds (a FIFO, a device, a symlink
 * where a file belongs) is not read but reported as skipped, with the
 * reason; the links a capture wrote are read, never followed.
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

#include "../util/readfile.h"
#include "../util/vec.h"
#include "load_int.h"
#include "uprocfs/load.h"
#include "walk.h"

/* stat, softirqs and interrupts are three small files: cheap to read again while an IPI lands between them */
#define GROUP_TRIES 20
#define ARENA_FIRST (1u << 20)

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

/* One file of a group of machine-wide files read together. */
struct gslot {
	const struct mach_ld_name *f;
	size_t off, len;
	int rc;
	bool ok;           /* parsed, and agreed with the group's first file */
	const char *skip;  /* why it is not loaded, or NULL */
};

/* Read every file of the group back to back; 0, or -errno of the arena. */
static int group_read(struct walk *w, struct gslot *g, size_t n)
{
	int rc;

	for (;;) {
		w->arena.used = 0;
		rc = 0;
		for (size_t k = 0; k < n && rc != -ENOBUFS; k++) {
			rc = ld_walk_read(w, g[k].f->name, &g[k].off, &g[k].len);
			g[k].rc = rc == -ENOBUFS ? 0 : rc;
		}
		if (rc != -ENOBUFS)
			return 0;
		rc = ld_arena_grow(&w->arena, w->arena.cap * 2);
		if (rc)
			return rc;
	}
}

/* 64-bit FNV-1a of what one read of a group gave, to tell counters that moved from a real disagreement. */
static uint64_t group_hash(const struct walk *w, const struct gslot *g, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t k = 0; k < n; k++) {
		const unsigned char *p = (const unsigned char *)w->arena.buf + g[k].off;

		h = (h ^ (uint64_t)(unsigned int)g[k].rc) * 1099511628211ull;
		for (size_t i = 0; !g[k].rc && i < g[k].len; i++)
			h = (h ^ p[i]) * 1099511628211ull;
	}
	return h;
}

/* Parse slot @k: 0, -EAGAIN when it disagrees with the files before it, or an error. */
static int group_parse_one(struct walk *w, struct gslot *x)
{
	char path[4200];

	ld_walk_path(w, x->f->name, path, sizeof(path));
	return mach_loader_file(w->ld, x->f->kind, 0, 0, path, w->arena.buf + x->off, x->len, w->err,
				w->errlen);
}

/*
 * A machine-wide file every tree must have could not be read (a FIFO, a
 * symlink, too large): an error naming it and why, not a skip that leaves
 * the files depending on it to fail with another message or render wrong.
 */
static int required_unreadable(struct walk *w, const char *rel, const char *why, int rc)
{
	char path[4200];

	ld_walk_path(w, rel, path, sizeof(path));
	snprintf(w->err, w->errlen, "%s: %s, and a tree must have it", path, why);
	return rc < 0 ? rc : -EINVAL;
}

/*
 * Parse what one read gave: the first file, then the others that agree
 * with it.  @final: the last attempt, so a file that disagrees is left out
 * (and the files before it parsed again without it) instead of -EAGAIN.
 * @same: this read gave the bytes the one before gave, so a check of a
 * file against the first that fails (-EINVAL) is a real disagreement, not
 * counters that moved between the reads.
 */
static int group_parse(struct walk *w, struct gslot *g, size_t n, bool final, bool same)
{
	int rc;

	for (size_t k = 0; k < n; k++) {
		struct gslot *x = &g[k];

		x->ok = false;
		x->skip = NULL;
		if (gone(x->rc) && !mach_ld_required(x->f->kind)) {
			x->skip = "";
			continue;
		}
		if ((x->skip = unreadable(w, x->rc)) && mach_ld_required(x->f->kind))
			return required_unreadable(w, x->f->name, x->skip, x->rc);
		if (x->skip)
			continue;
		if (x->rc)
			return ld_walk_error(w, x->f->name, x->rc);
		rc = group_parse_one(w, x);
		if (rc == -EINVAL && k && w->live && !same)
			rc = -EAGAIN;
		if (rc == -EAGAIN && k && final && w->live) {
			x->skip = "kept changing while read: it never agreed with the file read before it";
			for (size_t j = 0; j < k; j++)
				if (g[j].ok && (rc = group_parse_one(w, &g[j])))
					return rc;
			continue;
		}
		if (rc == -EAGAIN && !w->live)
			return -EINVAL; /* a written tree does not move: the files disagree */
		if (rc)
			return rc;
		x->ok = true;
	}
	return 0;
}

/* The files of the group led by file @lead, read and parsed until they agree, into the report. */
static int load_group(struct walk *w, size_t lead, bool *done)
{
	struct gslot g[8];
	uint64_t h = 0;
	size_t n = 0;
	int rc = 0;

	for (size_t i = lead; i < w->nfiles && n < 8; i++) {
		const struct mach_ld_name *f = &w->files[i];

		if (!done[i] && (i == lead || mach_ld_group(f->kind) == w->files[lead].kind)) {
			g[n++] = (struct gslot){ .f = f };
			done[i] = true;
		}
	}
	for (int tries = 1; !rc; tries++) {
		uint64_t prev = h;

		rc = group_read(w, g, n);
		h = group_hash(w, g, n);
		if (!rc)
			rc = group_parse(w, g, n, !w->live || tries >= GROUP_TRIES, tries > 1 && h == prev);
		if (rc != -EAGAIN)
			break;
		rc = 0;
	}
	for (size_t k = 0; k < n && !rc; k++) {
		if (g[k].skip && !g[k].skip[0])
			continue; /* absent, and not required */
		rc = ld_report_add(&w->rep, g[k].f->name, g[k].ok ? MACH_LOAD_OK : MACH_LOAD_SKIPPED, g[k].skip,
				   w->arena.buf + g[k].off, g[k].ok ? g[k].len : 0);
	}
	return rc;
}

static int load_globals(struct walk *w)
{
	bool *done = calloc(w->nfiles ? w->nfiles : 1, sizeof(*done));
	int rc = 0;

	if (!done)
		return -ENOMEM;
	w->ld->m->profile.has_schedstat = false;
	for (size_t i = 0; i < w->nfiles && !rc; i++) {
		const struct mach_ld_name *g = &w->files[i];

		if (mach_ld_kind_per_task(g->kind) || done[i])
			continue;
		if (mach_ld_kind_tree(g->kind))
			rc = ld_walk_sysctl(w, g);
		else
			rc = load_group(w, i, done);
	}
	free(done);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Processes                                                            */

/* One file of one attempt at a pid. */
struct slot {
	char rel[80];
	pid_t tid;          /* 0: /proc/<pid>/X, else task/<tid>/X */
	const struct mach_ld_name *f;
	uint32_t inst;      /* a collection's instance (fd/<inst>) */
	size_t off, len;
	int rc;
};

/* One attempt at reading a process: its threads, then its files. */
struct attempt {
	pid_t pid;
	pid_t *tids;
	size_t ntids;
	bool listed;        /* task/ was listed: the tids are every thread */
	int tasks_rc;       /* why it was not */
	struct slot *s;
	size_t n, cap;
	struct listing *l;
	size_t nl, lcap;
};

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/*
 * The entries of the directory open at @fd that are ids ("42", not "042"
 * or "self"), ascending, into *@ids.  @fd is closed.  0, -ENOMEM, or what
 * fdopendir said.
 */
static int list_ids(int fd, pid_t **ids, size_t *n)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	size_t cap = 0;
	int rc = 0;

	*ids = NULL;
	*n = 0;
	if (!d) {
		rc = -errno;
		close(fd);
		return rc;
	}
	rewinddir(d); /* a dup()ed descriptor shares the offset of the one it copies */
	while (!rc && (de = readdir(d))) {
		const char *rest;
		pid_t id, *slot;

		if (!parse_pid(de->d_name, &id, &rest) || *rest)
			continue;
		slot = VEC_PUSH(*ids, *n, cap);
		if (slot)
			*slot = id;
		else
			rc = -ENOMEM;
	}
	closedir(d);
	if (rc) {
		free(*ids);
		*ids = NULL;
		*n = 0;
	} else if (*n) {
		qsort(*ids, *n, sizeof(pid_t), pid_cmp);
	}
	return rc;
}

/* The tids under <pid>/task: 0, -ENOENT, or -errno. */
static int list_tasks(struct walk *w, pid_t pid, pid_t **tids, size_t *n)
{
	char rel[64];
	int fd;

	*tids = NULL;
	*n = 0;
	snprintf(rel, sizeof(rel), "%d/task", (int)pid);
	fd = uf_open(w->dirfd, rel, w->uf_flags, O_DIRECTORY);
	return fd < 0 ? fd : list_ids(fd, tids, n);
}

/* Where task @tid's files are: <pid>/ or <pid>/task/<tid>/. */
static void task_dir(char *buf, size_t n, pid_t pid, pid_t tid)
{
	if (tid)
		snprintf(buf, n, "%d/task/%d", (int)pid, (int)tid);
	else
		snprintf(buf, n, "%d", (int)pid);
}

/* A slot reading @f (instance @inst of a collection) of @pid: task/<tid>/ when @tid is not 0. */
static int add_slot(struct attempt *a, const struct mach_ld_name *f, pid_t tid, uint32_t inst)
{
	struct slot *x = VEC_PUSH(a->s, a->n, a->cap);
	char dir[48];

	if (!x)
		return -ENOMEM;
	task_dir(dir, sizeof(dir), a->pid, tid);
	x->tid = tid;
	x->f = f;
	x->inst = inst;
	if (mach_ld_kind_coll(f->kind))
		snprintf(x->rel, sizeof(x->rel), "%s/%s/%u", dir, f->name, inst);
	else
		snprintf(x->rel, sizeof(x->rel), "%s/%s", dir, f->name);
	return 0;
}

/* A listing of collection @f of task @tid, its directory opened (the listing's rc says if not). */
static int open_coll(struct walk *w, struct attempt *a, const struct mach_ld_name *f, pid_t tid)
{
	struct listing *l = VEC_PUSH(a->l, a->nl, a->lcap);
	char rel[80], dir[48];

	if (!l)
		return -ENOMEM;
	l->tid = tid;
	l->f = f;
	task_dir(dir, sizeof(dir), a->pid, tid);
	snprintf(rel, sizeof(rel), "%s/%s", dir, f->name);
	ld_walk_open_coll(w, l, rel);
	return 0;
}

/* List @l and give each entry a slot. */
static int list_coll(struct attempt *a, struct listing *l)
{
	int rc = ld_walk_list_coll(l);

	for (size_t i = 0; !rc && !l->rc && i < l->n; i++)
		rc = add_slot(a, l->f, l->tid, l->insts[i]);
	return rc;
}

/* The slots of one task's directory: its files, its collections' entries. */
static int task_slots(struct walk *w, struct attempt *a, pid_t tid)
{
	int rc = 0;

	for (size_t f = 0; f < w->nfiles && !rc; f++) {
		const struct mach_ld_name *n = &w->files[f];

		if (!mach_ld_kind_per_task(n->kind) || (tid && n->tgid_only) || (!tid && n->tid_only))
			continue;
		rc = mach_ld_kind_coll(n->kind) ? open_coll(w, a, n, tid) : add_slot(a, n, tid, 0);
	}
	return rc;
}

/* Build the slots of one attempt: other threads first, then the leader's two copies. */
static int make_slots(struct walk *w, struct attempt *a)
{
	bool leader_task = false;
	int rc = 0;

	for (size_t i = 0; i < a->ntids && !rc; i++) {
		if (a->tids[i] == a->pid)
			leader_task = true;
		else
			rc = task_slots(w, a, a->tids[i]);
	}
	/*
	 * The leader's task/ copy right before /proc/<pid>/X, file by file: the
	 * two must agree, and the fewer microseconds between them the likelier
	 * counters shared with the whole machine (SigQ) still do.
	 */
	for (size_t f = 0; f < w->nfiles && !rc; f++) {
		const struct mach_ld_name *n = &w->files[f];
		bool coll = mach_ld_kind_coll(n->kind);

		if (!mach_ld_kind_per_task(n->kind))
			continue;
		if (leader_task && !n->tgid_only)
			rc = coll ? open_coll(w, a, n, a->pid) : add_slot(a, n, a->pid, 0);
		if (!rc && !n->tid_only)
			rc = coll ? open_coll(w, a, n, 0) : add_slot(a, n, 0, 0);
	}
	/* every collection directory is open by now: list them */
	for (size_t i = 0; i < a->nl && !rc; i++)
		if (!a->l[i].rc)
			rc = list_coll(a, &a->l[i]);
	return rc;
}

/* The live kernel said the task has none of this file (a zombie's mountinfo: EINVAL). */
static bool absent(const struct walk *w, const struct slot *x)
{
	return w->live && x->rc && x->rc == x->f->absent_rc;
}

static void attempt_clear(struct attempt *a)
{
	for (size_t i = 0; i < a->nl; i++) {
		free(a->l[i].insts);
		if (a->l[i].fd >= 0)
			close(a->l[i].fd);
	}
	free(a->l);
	free(a->s);
	free(a->tids);
	*a = (struct attempt){ .pid = a->pid };
}

/*
 * List @a's threads and read all its files: 0; -ENOBUFS when the arena is
 * too small (grow it and read again); -ENOMEM; or *@skip when the process
 * exited.  The files are read back to back: parsing allocates, reading
 * must not.
 */
static int attempt_read(struct walk *w, struct attempt *a, const char **skip)
{
	int rc;

	attempt_clear(a);
	if (!w->no_tasks) {
		rc = list_tasks(w, a->pid, &a->tids, &a->ntids);
		if (rc == -ENOMEM)
			return rc;
		if (rc && w->live && gone(rc)) {
			*skip = "task exited";
			return 0;
		}
		a->listed = !rc;
		a->tasks_rc = rc;
	}
	rc = make_slots(w, a);
	if (rc)
		return rc;
	w->arena.used = 0;
	for (size_t i = 0; i < a->n; i++) {
		struct slot *x = &a->s[i];
		pid_t tid = x->tid ? x->tid : a->pid;

		/*
		 * The reader's own syscall shows the very read, its schedstat the
		 * time it runs, its smaps the pages the reading touches: never the
		 * same twice.
		 */
		if (((x->f->kind == MACH_LD_PID_SYSCALL || x->f->kind == MACH_LD_PID_SCHEDSTAT) && tid == w->self_tid) ||
		    ((x->f->kind == MACH_LD_PID_SMAPS || x->f->kind == MACH_LD_PID_SMAPS_ROLLUP) && w->self_tid &&
		     a->pid == getpid())) {
			x->rc = LD_RC_SELF;
			continue;
		}
		if (x->f->link)
			rc = ld_walk_readlink(w, x->rel, &x->off, &x->len);
		else
			rc = ld_walk_read(w, x->rel, &x->off, &x->len);
		if (rc == -ENOBUFS)
			return rc;
		x->rc = rc;
	}
	return 0;
}

/*
 * A link that does not resolve (a zombie's cwd, a kernel thread's exe)
 * has no target: that is what it shows, not a file that is missing.
 */
static bool no_target(const struct slot *x)
{
	return x->f->link && !mach_ld_kind_coll(x->f->kind) && gone(x->rc);
}

/*
 * What the reads of @a allow: 0 to parse them (*@again when a thread
 * exited and the threads must be listed again), *@skip with a reason in
 * @reason, or an error for a file a tree must have.
 */
static int attempt_check(struct walk *w, const struct attempt *a, const char **skip,
			 char *reason, size_t rlen, bool *again)
{
	for (size_t i = 0; i < a->nl; i++)
		if (gone(a->l[i].rc) && w->live)
			*again = true; /* a task went away while we listed its fds */
	for (size_t i = 0; i < a->n; i++) {
		const struct slot *x = &a->s[i];
		bool leader = x->tid == 0 || x->tid == a->pid;
		bool needed = x->tid == 0 && mach_ld_required(x->f->kind);

		if (absent(w, x) || no_target(x))
			continue; /* the task has none (the assembly checks that it may not), or a link to nothing */
		if (gone(x->rc) && w->live && mach_ld_kind_coll(x->f->kind)) {
			*again = true; /* closed since the listing: list again */
		} else if (gone(x->rc) && w->live) {
			if (leader) {
				*skip = "task exited";
				return 0;
			}
			*again = true; /* a thread exited: list the threads again */
		} else if (gone(x->rc) && needed) {
			return ld_walk_error(w, x->rel, x->rc);
		} else if (x->rc && !gone(x->rc) && !unreadable(w, x->rc)) {
			return ld_walk_error(w, x->rel, x->rc);
		} else if (unreadable(w, x->rc) && needed) {
			if (denied(x->rc))
				snprintf(reason, rlen, "not loaded: %s is not readable", x->rel);
			else
				snprintf(reason, rlen, "not loaded: %s is %s", x->rel,
					 uf_reason(x->rc));
			*skip = reason;
			return 0;
		}
	}
	return 0;
}

/* 64-bit FNV-1a over what an attempt read, to tell a stable file set from a changing one. */
static uint64_t attempt_hash(const struct walk *w, const struct attempt *a)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < a->n; i++) {
		const struct slot *x = &a->s[i];
		const unsigned char *p = (const unsigned char *)w->arena.buf + x->off;

		h = (h ^ (uint64_t)(unsigned int)x->rc) * 1099511628211ull;
		h = (h ^ x->len) * 1099511628211ull;
		for (size_t k = 0; !x->rc && k < x->len; k++)
			h = (h ^ p[k]) * 1099511628211ull;
	}
	return h;
}

/* Parse an attempt's files and build the process; 0, -EINVAL, -ENOTSUP or -ENOMEM. */
static int attempt_build(struct walk *w, const struct attempt *a)
{
	struct ld_pid *lp = ld_pid_new(a->pid);
	int rc = 0;

	if (!lp)
		return -ENOMEM;
	lp->tasks_complete = a->listed;
	for (size_t i = 0; i < a->ntids && !rc; i++)
		if (!ld_pid_task(lp, a->tids[i]))
			rc = -ENOMEM;
	for (size_t i = 0; i < a->nl && !rc; i++) {
		const struct listing *l = &a->l[i];
		struct ld_task *t = l->tid ? ld_pid_task(lp, l->tid) : &lp->whole;

		if (!l->rc)
			rc = t ? ld_misc_listing(&t->misc, l->f->kind, l->insts, l->n) : -ENOMEM;
	}
	for (size_t i = 0; i < a->n && !rc; i++) {
		const struct slot *x = &a->s[i];
		char path[4200];

		if (absent(w, x)) {
			rc = ld_pid_absent(lp, x->f->kind, x->tid);
			continue;
		}
		if (x->rc)
			continue;
		ld_walk_path(w, x->rel, path, sizeof(path));
		rc = ld_pid_file(lp, x->f->kind, x->tid, x->inst, path, w->arena.buf + x->off, x->len,
				 w->err, w->errlen);
	}
	if (!rc)
		rc = ld_add_process(w->ld, lp, w->err, w->errlen);
	ld_pid_free(lp);
	return rc;
}

/* Report order: the whole files, then each task's by tid, each in the table's order. */
static int slot_order(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if ((x->tid != 0) != (y->tid != 0))
		return x->tid ? 1 : -1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->f != y->f)
		return x->f < y->f ? -1 : 1;
	return (x->inst > y->inst) - (x->inst < y->inst);
}

/* Every file of @a into the report: skipped all for @reason when not NULL. */
static int report_pid(struct walk *w, const struct attempt *a, const char *reason)
{
	struct slot *sorted = malloc((a->n ? a->n : 1) * sizeof(*sorted));
	int rc = 0;

	if (!sorted)
		return -ENOMEM;
	if (refused(w, a->tasks_rc)) {
		char rel[32];

		snprintf(rel, sizeof(rel), "%d/task", (int)a->pid);
		rc = ld_report_add(&w->rep, rel, MACH_LOAD_SKIPPED, uf_reason(a->tasks_rc), NULL,
				   0);
	}
	if (a->n) {
		memcpy(sorted, a->s, a->n * sizeof(*sorted));
		qsort(sorted, a->n, sizeof(*sorted), slot_order);
	}
	for (size_t i = 0; i < a->n && !rc; i++) {
		const struct slot *x = &sorted[i];
		const char *why = reason ? reason : unreadable(w, x->rc);

		if ((x->rc == -ENOENT && !w->live && !reason) || absent(w, x))
			continue; /* a captured tree without this file, or a task without one */
		if (no_target(x) && !reason)
			continue; /* a link to nothing: no text to keep */
		if (why)
			rc = ld_report_add(&w->rep, x->rel, MACH_LOAD_SKIPPED, why, NULL, 0);
		else
			rc = ld_report_add(&w->rep, x->rel, MACH_LOAD_OK, NULL,
					   w->arena.buf + x->off, x->len);
	}
	free(sorted);
	return rc;
}

/*
 * Read, check and build one process; on the live /proc, read it again while
 * it changes under the reads.  Whatever is not loaded is in the report
 * with the reason.
 */
static int load_pid(struct walk *w, pid_t pid)
{
	const int limit = w->live ? LD_TRIES : 1;
	struct attempt a = { .pid = pid };
	uint64_t prev_hash = 0;
	const char *skip = NULL;
	char reason[600];
	int rc, tries = 0;

	for (;;) {
		bool again = false;
		uint64_t h;

		rc = attempt_read(w, &a, &skip);
		if (rc == -ENOBUFS) {
			rc = ld_arena_grow(&w->arena, w->arena.cap * 2);
			if (rc == -EFBIG) {
				snprintf(reason, sizeof(reason), "%d", (int)pid);
				rc = ld_walk_error(w, reason, rc);
			}
			if (rc)
				break;
			continue; /* not the task's fault: does not count as a try */
		}
		if (!rc && !skip)
			rc = attempt_check(w, &a, &skip, reason, sizeof(reason), &again);
		if (rc || skip)
			break;
		if (!again) {
			/* only a live tree is read again: a written one's bytes need no fingerprint */
			h = w->live ? attempt_hash(w, &a) : 0;
			rc = attempt_build(w, &a);
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
		rc = report_pid(w, &a, skip);
	attempt_clear(&a);
	return rc;
}

static int list_pids(struct walk *w, const struct mach_load_opts *opts, pid_t **out, size_t *n)
{
	int fd, rc;

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
				return ld_walk_error(w, rel, -errno);
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
		return ld_walk_error(w, ".", -errno);
	rc = list_ids(fd, out, n);
	return rc && rc != -ENOMEM ? ld_walk_error(w, ".", rc) : rc;
}

int mach_load_tree(const char *dir, const struct mach_load_opts *opts, struct mach_machine **out,
		   struct mach_load_report *report, char *err, size_t errlen)
{
	struct walk w;
	struct mach_machine *m;
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
	if (!opts || !opts->files || !opts->nfiles) {
		snprintf(err, errlen, "%s: no files to read were named (pfs_load_tree names them)", dir);
		return -EINVAL;
	}
	w.files = opts->files;
	w.nfiles = opts->nfiles;
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
	w.self_tid = w.live ? gettid() : 0;
	w.uf_flags = w.live ? 0 : UF_BENEATH;
	rc = ld_arena_grow(&w.arena, ARENA_FIRST);
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
