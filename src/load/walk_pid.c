// SPDX-License-Identifier: MIT
/*
 * walk_pid.c - one process of a /proc tree: its files read back to back,
 * parsed into records, checked against each other and built
 * (pid_assemble.c), and reported file by file.
 *
 * On the live /proc a process can change between two reads: when its files
 * disagree it is read again, up to LD_TRIES times, and a disagreement that
 * survives an identical re-read is a real one.  The last build (and the
 * only one of a written tree, whose files do not change) keeps what it can:
 * a file that does not parse is skipped with its error; files that disagree
 * keep both values where the model holds both (the assembly's tolerant
 * mode), else the younger of the files the failed check blames (mtime in a
 * tree, then the archive's order or the order read) is skipped with the
 * message, and the process is built again without it.  A process is left
 * out whole only when nothing says what it is (neither its status nor its
 * stat loaded), or when no file can be blamed.  What a tree lacks becomes
 * the process's and threads' lacks: served as absent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/readfile.h"
#include "../util/vec.h"
#include "load_int.h"
#include "uprocfs/load.h"
#include "walk_pid.h"

/* Files one process may lose to disagreements before it is left out whole (each loss builds it again). */
#define MAX_DROPS 64

/* @s at @p (which has room: names of the table, ids), then the NUL; the end. */
static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n + 1);
	return p + n;
}

/* @v in decimal at @p, then the NUL; the end.  (Built for every file of a walk: no printf.) */
static char *put_u(char *p, uint32_t v)
{
	char tmp[12];
	size_t n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n)
		*p++ = tmp[--n];
	*p = '\0';
	return p;
}

/* Where task @tid's files are, into @buf (at least 32 bytes): <pid> or <pid>/task/<tid>; the end. */
static char *task_dir(char *buf, pid_t pid, pid_t tid)
{
	char *p = put_u(buf, (uint32_t)pid);

	if (tid)
		p = put_u(put_str(p, "/task/"), (uint32_t)tid);
	return p;
}

/* A slot reading @f (instance @inst of a collection) of @pid: task/<tid>/ when @tid is not 0. */
static int add_slot(struct attempt *a, const struct mach_ld_name *f, pid_t tid, uint32_t inst)
{
	struct slot *x = VEC_PUSH(a->s, a->n, a->cap);
	char *p;

	if (!x)
		return -ENOMEM;
	*x = (struct slot){ .tid = tid, .f = f, .inst = inst };
	if (strlen(f->name) > sizeof(x->rel) - 48)
		return -ENAMETOOLONG; /* the table's names are short */
	p = put_str(put_str(task_dir(x->rel, a->pid, tid), "/"), f->name);
	if (mach_ld_kind_coll(f->kind))
		put_u(put_str(p, "/"), inst);
	return 0;
}

/* A listing of collection @f of task @tid, its directory opened (the listing's rc says if not). */
static int open_coll(struct walk *w, struct attempt *a, const struct mach_ld_name *f, pid_t tid)
{
	struct listing *l = VEC_PUSH(a->l, a->nl, a->lcap);
	char rel[80];

	if (!l)
		return -ENOMEM;
	*l = (struct listing){ .tid = tid, .f = f, .fd = -1 };
	snprintf(task_dir(rel, a->pid, tid), sizeof(rel) - 32, "/%s", f->name);
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

/*
 * A link that does not resolve (a zombie's cwd, a kernel thread's exe)
 * has no target: that is what it shows, not a file that is missing.
 */
static bool no_target(const struct slot *x)
{
	return x->f->link && !mach_ld_kind_coll(x->f->kind) && gone(x->rc);
}

static void attempt_clear(struct attempt *a)
{
	for (size_t i = 0; i < a->nl; i++) {
		free(a->l[i].insts);
		ld_walk_close_coll(&a->l[i]);
	}
	for (size_t i = 0; i < a->n; i++)
		free(a->s[i].why);
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
	char rel[32];
	int rc;

	attempt_clear(a);
	if (!w->no_tasks) {
		snprintf(rel, sizeof(rel), "%d/task", (int)a->pid);
		rc = ld_walk_list_ids(w, rel, &a->tids, &a->ntids);
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
		else if (w->mem)
			rc = ld_walk_peek(w, x->rel, &x->ext, &x->len);
		else
			rc = ld_walk_read(w, x->rel, &x->off, &x->len);
		if (rc == -ENOBUFS)
			return rc;
		x->rc = rc;
	}
	return 0;
}

/*
 * On the live kernel, whether the reads of @a can be parsed: *@again when
 * a thread exited or an fd closed while they were read (list again), *@skip
 * when the process itself exited.
 */
static void attempt_check(const struct walk *w, const struct attempt *a, const char **skip, bool *again)
{
	if (!w->live)
		return;
	for (size_t i = 0; i < a->nl; i++)
		if (gone(a->l[i].rc))
			*again = true; /* a task went away while we listed its fds */
	for (size_t i = 0; i < a->n; i++) {
		const struct slot *x = &a->s[i];

		if (absent(w, x) || no_target(x) || !gone(x->rc))
			continue;
		if (mach_ld_kind_coll(x->f->kind) || (x->tid && x->tid != a->pid)) {
			*again = true; /* an fd closed or a thread exited since the listing: list again */
		} else {
			*skip = "task exited";
			return;
		}
	}
}

/* 64-bit FNV-1a over what an attempt read, to tell a stable file set from a changing one. */
static uint64_t attempt_hash(const struct walk *w, const struct attempt *a)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < a->n; i++) {
		const struct slot *x = &a->s[i];
		const unsigned char *p = (const unsigned char *)slot_text(w, x);

		h = (h ^ (uint64_t)(unsigned int)x->rc) * 1099511628211ull;
		h = (h ^ x->len) * 1099511628211ull;
		for (size_t k = 0; !x->rc && k < x->len; k++)
			h = (h ^ p[k]) * 1099511628211ull;
	}
	return h;
}

/* Why a file that exists is not loaded, NULL when it was read: in a written tree, every read error says why. */
static const char *read_failure(const struct walk *w, const struct slot *x)
{
	const char *why = unreadable(w, x->rc);

	if (why || !x->rc || gone(x->rc))
		return why;
	return x->rc == -ENOTDIR ? "not beneath a directory" : strerror(-x->rc);
}

/* @msg with @prefix into a new string for a slot's why; NULL on ENOMEM. */
static char *why_of(const char *prefix, const char *msg)
{
	char *s = NULL;

	return asprintf(&s, "%s%s", prefix, msg) < 0 ? NULL : s;
}

/* Whether @lp has what says what the task is: the leader's status or stat, from either directory. */
static bool has_identity(const struct ld_pid *lp)
{
	if (lp->whole.status || lp->whole.stat)
		return true;
	for (size_t i = 0; i < lp->ntasks; i++)
		if (lp->tasks[i].tid == lp->tgid && (lp->tasks[i].status || lp->tasks[i].stat))
			return true;
	return false;
}

/* Whether @msg names @path as a whole word: followed by ':', a blank, a quote, a comma, ')' or the end. */
static bool names(const char *msg, const char *path)
{
	size_t len = strlen(path);

	for (const char *p = msg; (p = strstr(p, path)); p++) {
		char next = p[len];

		if ((p == msg || p[-1] == ' ' || p[-1] == '(' || p[-1] == '"') &&
		    (!next || strchr(": ,)\"'", next)))
			return true;
	}
	return false;
}

/*
 * The slot of the youngest file the failed check blamed (by name in the
 * blame list, or else in the message): -1 when it names none.
 */
static long blame_pick(struct walk *w, const struct attempt *a, const struct ld_blame *b)
{
	int64_t best_mtime = 0;
	size_t best_order = 0;
	long best = -1;

	for (size_t i = 0; i < a->n; i++) {
		const struct slot *x = &a->s[i];
		char path[4200];
		int64_t mtime = 0;
		size_t order = 0;
		bool named = false;

		if (!usable(w, x))
			continue;
		ld_walk_path(w, x->rel, path, sizeof(path));
		for (unsigned int k = 0; k < b->n && !named; k++)
			named = !strcmp(b->path[k], path);
		if (!named && !b->n)
			named = names(w->err, path);
		if (!named)
			continue;
		/* live: the order read; a tree: the newer mtime, then the later member, then the later read */
		if (!w->live && ld_walk_age(w, x->rel, &mtime, &order))
			mtime = order = 0;
		if (best < 0 || mtime > best_mtime || (mtime == best_mtime && order >= best_order)) {
			best = (long)i;
			best_mtime = mtime;
			best_order = order;
		}
	}
	return best;
}

/* The kinds @a's task @tid did not load (none for a task whose file the kernel refuses: absent_rc). */
static mach_file_set lacked(const struct walk *w, const struct attempt *a, pid_t tid)
{
	mach_file_set s = 0;

	for (size_t i = 0; i < a->nl; i++)
		if (a->l[i].tid == tid && a->l[i].rc)
			s |= MACH_LD_BIT(a->l[i].f->kind);
	for (size_t i = 0; i < a->n; i++) {
		const struct slot *x = &a->s[i];

		if (x->tid == tid && !mach_ld_kind_coll(x->f->kind) && !x->f->absent_rc && !usable(w, x))
			s |= MACH_LD_BIT(x->f->kind);
	}
	return s;
}

/* Mark in the machine what the process built from @a lacks: 0 or -ENOMEM. */
static int set_lacks(struct walk *w, const struct attempt *a)
{
	/* the loader's own machine, which it may change */
	struct mach_process *p = (struct mach_process *)mach_find_process(w->ld->m, a->pid);

	if (!p)
		return 0;
	p->lacks = lacked(w, a, 0);
	for (unsigned int i = 0; i < p->nthreads; i++) {
		struct mach_thread_rare r = *mach_thread_rare(&p->threads[i]);

		r.lacks = lacked(w, a, p->threads[i].tid);
		if (mach_thread_rare_set(&p->threads[i], &r))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Parse and build once: 0, an error of the files (-EINVAL, -ENOTSUP) with
 * *@pick the slot of the youngest file it blames (-1: none), *@skip, or
 * -ENOMEM.
 */
static int build_once(struct walk *w, struct attempt *a, bool final, long *pick, const char **skip, char *reason,
		      size_t rlen)
{
	struct ld_pid *lp = ld_pid_new(a->pid);
	struct netgroup *gs = NULL;
	struct ld_blame blame;
	size_t ng = 0;
	int rc = 0;

	if (!lp)
		return -ENOMEM;
	lp->tasks_complete = a->listed;
	lp->tolerant = final;
	for (size_t i = 0; i < a->ntids && !rc; i++)
		if (!ld_pid_task(lp, a->tids[i]))
			rc = -ENOMEM;
	if (!rc)
		rc = ld_walk_net_groups(w, a, &gs, &ng);
	if (!rc)
		rc = ld_walk_parse_slots(w, a, lp, final, gs, ng);
	if (!rc && !has_identity(lp)) {
		snprintf(reason, rlen, "not loaded: neither %d/status nor %d/stat was, so nothing says what the "
			 "task is", (int)a->pid, (int)a->pid);
		*skip = reason;
	} else if (!rc) {
		memset(&blame, 0, sizeof(blame));
		w->ld->blame = &blame;
		rc = ld_add_process(w->ld, lp, w->err, w->errlen);
		w->ld->blame = NULL;
		/* the blamed paths are the records': pick while they live */
		*pick = rc == -EINVAL || rc == -ENOTSUP ? blame_pick(w, a, &blame) : -1;
		if (!rc)
			rc = ld_walk_net_groups_learn(w, a, gs, ng);
	}
	free(gs);
	ld_pid_free(lp);
	return rc;
}

/* A collection's entry left out is no longer in its directory's listing either: the model has no such fd. */
static void unlist(struct attempt *a, const struct slot *x)
{
	for (size_t i = 0; i < a->nl && mach_ld_kind_coll(x->f->kind); i++) {
		struct listing *l = &a->l[i];

		if (l->tid != x->tid || l->f != x->f)
			continue;
		for (size_t k = 0; k < l->n; k++)
			if (l->insts[k] == x->inst) {
				memmove(&l->insts[k], &l->insts[k + 1], (l->n - k - 1) * sizeof(*l->insts));
				l->n--;
				break;
			}
	}
}

/*
 * Build the process from @a's files.  Not @final: 0 or the files' error
 * (the caller reads again).  @final: what cannot be built is left out file
 * by file (slot->why), or the whole process with *@skip; 0 or -ENOMEM.
 */
static int attempt_build(struct walk *w, struct attempt *a, bool final, const char **skip, char *reason,
			 size_t rlen)
{
	for (int drops = 0;; drops++) {
		long pick = -1;
		int rc = build_once(w, a, final, &pick, skip, reason, rlen);

		if (!rc && !*skip)
			rc = set_lacks(w, a);
		if (rc != -EINVAL && rc != -ENOTSUP)
			return rc;
		if (!final)
			return rc;
		if (pick < 0 || drops >= MAX_DROPS) {
			snprintf(reason, rlen, "%s: %s", rc == -ENOTSUP ? "cannot be represented" : "not loaded", w->err);
			*skip = reason;
			return 0;
		}
		a->s[pick].why = why_of(rc == -ENOTSUP ? "cannot be represented: "
					: w->live ? "kept changing while read: " : "torn: ", w->err);
		if (!a->s[pick].why)
			return -ENOMEM;
		unlist(a, &a->s[pick]);
	}
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
	struct slot *sorted;
	int rc = 0;

	if (!w->want_report)
		return 0;
	sorted = malloc((a->n ? a->n : 1) * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	if (refused(w, a->tasks_rc)) {
		char rel[32];

		snprintf(rel, sizeof(rel), "%d/task", (int)a->pid);
		rc = ld_walk_report(w, rel, MACH_LOAD_SKIPPED, uf_reason(a->tasks_rc), NULL, 0);
	}
	if (a->n) {
		memcpy(sorted, a->s, a->n * sizeof(*sorted));
		qsort(sorted, a->n, sizeof(*sorted), slot_order);
	}
	for (size_t i = 0; i < a->n && !rc; i++) {
		const struct slot *x = &sorted[i];
		const char *why = reason ? reason : x->why ? x->why : read_failure(w, x);

		if ((gone(x->rc) && !w->live && !reason) || absent(w, x))
			continue; /* a captured tree without this file, or a task without one */
		if (no_target(x) && !reason)
			continue; /* a link to nothing: no text to keep */
		if (why)
			rc = ld_walk_report(w, x->rel, MACH_LOAD_SKIPPED, why, NULL, 0);
		else
			rc = ld_walk_report(w, x->rel, MACH_LOAD_OK, NULL, slot_text(w, x), x->len);
	}
	free(sorted);
	return rc;
}

/*
 * Read @a until its files can be built: 0 with the process built or *@skip
 * set, or -errno.  On the live /proc a process that changes under the
 * reads is read again; the last try, and the only one of a written tree,
 * builds what it can.
 */
static int read_and_build(struct walk *w, struct attempt *a, const char **skip, char *reason, size_t rlen)
{
	const int limit = w->live ? LD_TRIES : 1;
	uint64_t prev_hash = 0;
	int rc, tries = 0;

	for (;;) {
		bool again = false, final;
		uint64_t h = 0;

		rc = attempt_read(w, a, skip);
		if (rc == -ENOBUFS) {
			rc = ld_arena_grow(&w->arena, w->arena.cap * 2);
			if (rc == -EFBIG) {
				snprintf(reason, rlen, "not loaded: its files hold more than the %zu MiB the loader reads of "
					 "one process", ARENA_MAX >> 20);
				*skip = reason;
				return ld_arena_grow(&w->arena, ARENA_FIRST);
			}
			if (rc)
				return rc;
			continue; /* not the task's fault: does not count as a try */
		}
		if (rc || *skip)
			return rc;
		attempt_check(w, a, skip, &again);
		if (*skip)
			return 0;
		if (!again) {
			/* the same bytes as the last attempt: what they say is real */
			if (w->live)
				h = attempt_hash(w, a);
			final = !w->live || (tries && h == prev_hash) || tries + 1 >= limit;
			rc = attempt_build(w, a, final, skip, reason, rlen);
			if (rc != -EINVAL && rc != -ENOTSUP)
				return rc;
			prev_hash = h;
		}
		if (++tries >= limit) {
			*skip = "kept changing while read";
			return 0;
		}
	}
}

int ld_walk_pid(struct walk *w, pid_t pid)
{
	struct attempt a = { .pid = pid };
	const char *skip = NULL;
	char reason[700];
	int rc = read_and_build(w, &a, &skip, reason, sizeof(reason));

	if (!rc)
		rc = report_pid(w, &a, skip);
	attempt_clear(&a);
	return rc;
}
