// SPDX-License-Identifier: MIT
/*
 * session.c - the loader's state between the first file and the finish.
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
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"
#include "uprocfs/load.h"

/* ------------------------------------------------------------------ */
/* State                                                                */

struct ld_state *ld_state_new(struct machine *m)
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

void ld_state_free(struct ld_state *st)
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
		st = ld_state_new(m);
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

const struct ld_global_file ld_global_files[LD_NGLOBAL] = {
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
int ld_parse_global(struct ld_state *st, const struct ld_global_file *g, const char *path,
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
bool ld_parse_pid(const char *s, pid_t *pid, const char **rest)
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
	for (size_t i = 0; i < LD_NGLOBAL; i++)
		if (!strcmp(path, ld_global_files[i].name))
			return ld_parse_global(st, &ld_global_files[i], path, text, len, err, errlen);
	if (!ld_parse_pid(path, &pid, &rest) || *rest != '/')
		goto unknown;
	tid = pid;
	if (!strncmp(rest, "/task/", 6)) {
		if (!ld_parse_pid(rest + 6, &tid, &rest) || *rest != '/')
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
int ld_finish_machine(struct ld_state *st, char *err, size_t errlen)
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
int ld_add_process(struct ld_state *st, struct ld_pid *lp, char *err, size_t errlen)
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
		rc = ld_add_process(st, st->pids[i], err, errlen);
	if (!rc)
		rc = ld_finish_machine(st, err, errlen);
	ld_state_free(st);
	return rc;
}
