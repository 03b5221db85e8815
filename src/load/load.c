// SPDX-License-Identifier: MIT
/*
 * load.c - build a machine model from a /proc tree (load.h).
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
 *
 * mach_load_text parses one file's text for tests and the FUSE mirror.  The
 * global files go straight into the machine; per-pid files are kept as
 * records, keyed by the machine, until mach_load_finish builds (or replaces)
 * their processes from the files of that session, so a session should hold
 * every file of a process it touches.  Every session must end with
 * mach_load_finish before the machine is freed, and one machine takes one
 * session at a time.  Files that agree with the kernel but that the model
 * cannot hold (a zombie leader with live threads) are skipped by the tree
 * walk with the reason, and are -ENOTSUP from mach_load_finish.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <pthread.h>
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
/* State                                                                */

static struct ld_state *state_new(struct machine *m)
{
	struct ld_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->m = m;
	for (int f = 0; f < LD_NR_DEC; f++)
		st->dec[f].val = -1;
	st->prev_nr_cpu_ids = m->nprocs ? m->nr_cpu_ids : 0;
	st->prev_max_numnodes = m->nprocs ? m->max_numnodes : 0;
	return st;
}

static void state_free(struct ld_state *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->npids; i++)
		ld_pid_free(st->pids[i]);
	free(st->pids);
	for (int f = 0; f < LD_NR_DEC; f++)
		free(st->dec[f].by);
	free(st->cpus.lo_by);
	free(st->cpus.hi_by);
	free(st->mems.lo_by);
	free(st->mems.hi_by);
	free(st);
}

/* mach_load_text keeps its state here until mach_load_finish. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ld_state **registry;
static size_t nregistry;

static struct ld_state *registry_get(struct machine *m, bool create, bool remove)
{
	struct ld_state *st = NULL;

	pthread_mutex_lock(&registry_lock);
	for (size_t i = 0; i < nregistry; i++)
		if (registry[i]->m == m) {
			st = registry[i];
			if (remove)
				registry[i] = registry[--nregistry];
			goto out;
		}
	if (create) {
		struct ld_state **n = realloc(registry, (nregistry + 1) * sizeof(*n));

		if (!n)
			goto out;
		registry = n;
		st = state_new(m);
		if (st)
			registry[nregistry++] = st;
	}
out:
	if (remove && !nregistry) {
		free(registry);
		registry = NULL;
	}
	pthread_mutex_unlock(&registry_lock);
	return st;
}

/* ------------------------------------------------------------------ */
/* Paths                                                                */

enum gkind { G_STAT, G_MEMINFO, G_VMSTAT, G_LOADAVG, G_UPTIME, G_SCHEDSTAT, G_PRESSURE };

static const struct global_file {
	const char *name;
	enum gkind kind;
	enum mach_psi_res res;
	bool required;
} global_files[] = {
	{ "stat", G_STAT, 0, true },
	{ "meminfo", G_MEMINFO, 0, true },
	{ "vmstat", G_VMSTAT, 0, true },
	{ "loadavg", G_LOADAVG, 0, true },
	{ "uptime", G_UPTIME, 0, true },
	{ "schedstat", G_SCHEDSTAT, 0, false },
	{ "pressure/cpu", G_PRESSURE, MACH_PSI_CPU, false },
	{ "pressure/io", G_PRESSURE, MACH_PSI_IO, false },
	{ "pressure/irq", G_PRESSURE, MACH_PSI_IRQ, false },
	{ "pressure/memory", G_PRESSURE, MACH_PSI_MEM, false },
};
#define NGLOBAL (sizeof(global_files) / sizeof(global_files[0]))

static int parse_global(struct ld_state *st, const struct global_file *g, const char *path,
			const char *text, size_t len, char *err, size_t errlen)
{
	struct machine *m = st->m;
	struct lex lx;
	int rc;

	lex_init(&lx, path, text, len, err, errlen);
	switch (g->kind) {
	case G_STAT:
		rc = ld_parse_stat(&lx, m);
		if (!rc && m->ncpus)
			ld_bound_lo(&st->cpus, m->cpus[m->ncpus - 1].id + 1, path);
		return rc;
	case G_MEMINFO:
		return ld_parse_meminfo(&lx, m);
	case G_VMSTAT:
		return ld_parse_vmstat(&lx, m);
	case G_LOADAVG:
		return ld_parse_loadavg(&lx, m);
	case G_UPTIME:
		return ld_parse_uptime(&lx, m);
	case G_SCHEDSTAT:
		return ld_parse_schedstat(&lx, m, st);
	case G_PRESSURE:
		return ld_parse_pressure(&lx, m, g->res);
	}
	return -EINVAL;
}

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

static int kind_of(const char *name)
{
	for (int k = 0; k < LD_NR_KINDS; k++)
		if (!strcmp(name, ld_kind_names[k]))
			return k;
	return -1;
}

/* ------------------------------------------------------------------ */
/* mach_load_text                                                       */

static struct ld_pid *state_pid(struct ld_state *st, pid_t tgid)
{
	struct ld_pid *lp;

	for (size_t i = 0; i < st->npids; i++)
		if (st->pids[i]->tgid == tgid)
			return st->pids[i];
	if (VEC_RESERVE(st->pids, st->cap, st->npids + 1))
		return NULL;
	lp = calloc(1, sizeof(*lp));
	if (!lp)
		return NULL;
	lp->tgid = tgid;
	lp->whole.tid = tgid;
	st->pids[st->npids++] = lp;
	return lp;
}

int mach_load_text(struct machine *m, const char *path, const char *text, size_t len,
		   char *err, size_t errlen)
{
	struct ld_state *st;
	struct ld_task *t;
	struct ld_pid *lp;
	const char *rest;
	bool in_task = false;
	pid_t pid, tid;
	int kind;

	if (!m || !path || (!text && len)) {
		snprintf(err, errlen, "mach_load_text: missing machine, path or text");
		return -EINVAL;
	}
	if (!text)
		text = "";
	st = registry_get(m, true, false);
	if (!st) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	for (size_t i = 0; i < NGLOBAL; i++)
		if (!strcmp(path, global_files[i].name))
			return parse_global(st, &global_files[i], path, text, len, err, errlen);
	if (!parse_pid(path, &pid, &rest) || *rest != '/')
		goto unknown;
	tid = pid;
	if (!strncmp(rest, "/task/", 6)) {
		if (!parse_pid(rest + 6, &tid, &rest) || *rest != '/')
			goto unknown;
		in_task = true;
	}
	kind = kind_of(rest + 1);
	if (kind < 0)
		goto unknown;
	lp = state_pid(st, pid);
	if (!lp)
		goto nomem;
	if (in_task) {
		t = ld_pid_task(lp, tid);
		if (!t)
			goto nomem;
	} else {
		t = &lp->whole;
	}
	return ld_parse_pid_file(t, (enum ld_kind)kind, pid, path, text, len, err, errlen);
unknown:
	snprintf(err, errlen, "%s: not a file the loader knows (stat, meminfo, 42/status, "
		 "42/task/43/maps, ...)", path);
	return -EINVAL;
nomem:
	snprintf(err, errlen, "%s: out of memory", path);
	return -ENOMEM;
}

/* ------------------------------------------------------------------ */
/* Finishing                                                            */

static int resize_bitmap(struct mach_bitmap *b, unsigned int nbits)
{
	struct mach_bitmap n;
	int rc;

	if (b->words && b->nbits == nbits)
		return 0;
	rc = mach_bitmap_alloc(&n, nbits);
	if (rc)
		return rc;
	for (unsigned int i = 0; i < b->nbits && i < nbits; i++)
		if (mach_bitmap_test(b, i))
			mach_bitmap_set(&n, i);
	mach_bitmap_free(b);
	*b = n;
	return 0;
}

/* Insert @p into m->procs by tgid, replacing a process with the same tgid. */
static int put_process(struct machine *m, struct mach_process *p)
{
	size_t lo = 0, hi = m->nprocs;
	struct mach_process *n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->procs[mid].tgid < p->tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nprocs && m->procs[lo].tgid == p->tgid) {
		mach_process_clear(&m->procs[lo]);
		m->procs[lo] = *p;
		return 0;
	}
	n = realloc(m->procs, (m->nprocs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	m->procs = n;
	memmove(&n[lo + 1], &n[lo], (m->nprocs - lo) * sizeof(*n));
	n[lo] = *p;
	m->nprocs++;
	return 0;
}

static int bound_conflict(const char *what, const struct ld_bound *b, unsigned int lo, char *err,
			  size_t errlen)
{
	snprintf(err, errlen,
		 "%s: %s needs at least %u, but the bitmap width in %s allows at most %u", what,
		 b->lo_by ? b->lo_by : "an earlier load", lo, b->hi_by ? b->hi_by : "?", b->hi);
	return -EINVAL;
}

/* Widths of the CPU and node masks, the kernel profile. */
static int finish_machine(struct ld_state *st, char *err, size_t errlen)
{
	static const size_t dec_flag[LD_NR_DEC] = {
		[DEC_UMASK] = offsetof(struct mach_profile, status_umask),
		[DEC_NGID] = offsetof(struct mach_profile, status_ngid),
		[DEC_NS] = offsetof(struct mach_profile, status_ns_lines),
		[DEC_KTHREAD] = offsetof(struct mach_profile, status_kthread),
		[DEC_HUGETLB] = offsetof(struct mach_profile, status_hugetlb),
		[DEC_COREDUMP] = offsetof(struct mach_profile, status_core_dumping),
		[DEC_THP] = offsetof(struct mach_profile, status_thp_enabled),
		[DEC_UNTAG] = offsetof(struct mach_profile, status_untag_mask),
		[DEC_SECCOMP] = offsetof(struct mach_profile, status_seccomp),
		[DEC_SECCOMP_FILTERS] = offsetof(struct mach_profile, status_seccomp_filters),
		[DEC_SIB] = offsetof(struct mach_profile, status_spec_ib),
		[DEC_MEMS] = offsetof(struct mach_profile, status_mems_allowed),
		[DEC_X86] = offsetof(struct mach_profile, status_x86_features),
	};
	struct machine *m = st->m;
	unsigned int ncpu, nnode, lo;

	/* nr_cpu_ids: the highest CPU + 1, raised as far as a mask's width demands */
	lo = st->cpus.lo > st->prev_nr_cpu_ids ? st->cpus.lo : st->prev_nr_cpu_ids;
	if (m->ncpus && m->cpus[m->ncpus - 1].id + 1 > lo)
		lo = m->cpus[m->ncpus - 1].id + 1;
	if (st->cpus.hi && lo > st->cpus.hi)
		return bound_conflict("nr_cpu_ids", &st->cpus, lo, err, errlen);
	ncpu = lo ? lo : m->nr_cpu_ids ? m->nr_cpu_ids : 1;

	/* MAX_NUMNODES is a power of two; take one if the widths allow */
	lo = st->mems.lo > st->prev_max_numnodes ? st->mems.lo : st->prev_max_numnodes;
	if (st->mems.hi && lo > st->mems.hi)
		return bound_conflict("MAX_NUMNODES", &st->mems, lo, err, errlen);
	if (st->mems.lo) {
		unsigned int p2 = 1;

		while (p2 < lo)
			p2 <<= 1;
		nnode = !st->mems.hi || p2 <= st->mems.hi ? p2 : st->mems.hi;
	} else {
		nnode = m->max_numnodes ? m->max_numnodes : MACH_MAX_NUMNODES_DEFAULT;
	}

	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int k = 0; k < m->procs[i].nthreads; k++) {
			struct mach_thread *t = &m->procs[i].threads[k];

			if (resize_bitmap(&t->cpus_allowed, ncpu) ||
			    resize_bitmap(&t->mems_allowed, nnode))
				goto nomem;
		}
	for (unsigned int i = 0; i < m->ncpus; i++)
		for (unsigned int d = 0; d < m->cpus[i].sched.ndomains; d++)
			if (resize_bitmap(&m->cpus[i].sched.domains[d].span, ncpu))
				goto nomem;
	m->nr_cpu_ids = ncpu;
	m->max_numnodes = nnode;

	for (int f = 0; f < LD_NR_DEC; f++) {
		bool *flag = (bool *)((char *)&m->profile + dec_flag[f]);

		/* Umask is only ever decided present: absence is the task's, not the kernel's */
		if (st->dec[f].val >= 0)
			*flag = st->dec[f].val;
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

/* Build one process from @lp into st->m. */
static int add_process(struct ld_state *st, struct ld_pid *lp, char *err, size_t errlen)
{
	struct mach_process p;
	struct ld_commit cm;
	int rc;

	memset(&p, 0, sizeof(p));
	rc = ld_assemble(st, lp, &p, &cm, err, errlen);
	if (!rc)
		rc = ld_commit(st, &cm);
	if (!rc)
		rc = put_process(st->m, &p);
	if (rc) {
		if (rc == -ENOMEM)
			snprintf(err, errlen, "%d: out of memory", lp->tgid);
		mach_process_clear(&p);
	}
	ld_commit_clear(&cm);
	return rc;
}

int mach_load_finish(struct machine *m, char *err, size_t errlen)
{
	struct ld_state *st = registry_get(m, false, true);
	int rc = 0;

	if (!st)
		return 0;
	for (size_t i = 0; i < st->npids && !rc; i++)
		rc = add_process(st, st->pids[i], err, errlen);
	if (!rc)
		rc = finish_machine(st, err, errlen);
	state_free(st);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The report                                                           */

struct report {
	size_t n, cap;
	struct mach_load_file *files;
};

static int report_add(struct report *r, const char *path, enum mach_load_status status,
		      const char *reason, const char *text, size_t len)
{
	struct mach_load_file *f = VEC_PUSH(r->files, r->n, r->cap);

	if (!f)
		return -ENOMEM;
	f->status = status;
	f->path = strdup(path);
	if (reason)
		f->reason = strdup(reason);
	if (status == MACH_LOAD_OK) {
		f->text = malloc(len + 1);
		if (f->text) {
			memcpy(f->text, text, len);
			f->text[len] = '\0';
			f->len = len;
		}
	}
	if (!f->path || (reason && !f->reason) || (status == MACH_LOAD_OK && !f->text))
		return -ENOMEM;
	return 0;
}

void mach_load_report_free(struct mach_load_report *report)
{
	if (!report)
		return;
	for (size_t i = 0; i < report->nfiles; i++) {
		free(report->files[i].path);
		free(report->files[i].reason);
		free(report->files[i].text);
	}
	free(report->files);
	report->files = NULL;
	report->nfiles = 0;
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
	struct ld_state *st;
	const char *dir;
	int dirfd;
	bool live, no_tasks;
	struct arena arena;
	struct report rep;
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
	for (size_t i = 0; i < NGLOBAL; i++) {
		const struct global_file *g = &global_files[i];
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
			if ((rc = report_add(&w->rep, g->name, MACH_LOAD_SKIPPED, "permission denied",
					     NULL, 0)))
				return rc;
			continue;
		}
		if (rc)
			return sys_error(w, g->name, rc);
		display_path(w, g->name, path, sizeof(path));
		rc = parse_global(w->st, g, path, w->arena.buf + off, len, w->err, w->errlen);
		if (rc)
			return rc;
		if ((rc = report_add(&w->rep, g->name, MACH_LOAD_OK, NULL, w->arena.buf + off, len)))
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
			rc = report_add(&w->rep, x->rel, MACH_LOAD_SKIPPED, reason, NULL, 0);
		else if (x->rc == -EACCES || x->rc == -EPERM)
			rc = report_add(&w->rep, x->rel, MACH_LOAD_SKIPPED, "permission denied",
					NULL, 0);
		else
			rc = report_add(&w->rep, x->rel, MACH_LOAD_OK, NULL, w->arena.buf + x->off,
					x->len);
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
		rc = add_process(w->st, lp, w->err, w->errlen);
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
	w.st = m ? state_new(m) : NULL;
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
	rc = finish_machine(w.st, err, errlen);
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", dir);
	if (w.dirfd >= 0)
		close(w.dirfd);
	free(pids);
	free(w.arena.buf);
	state_free(w.st);
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
