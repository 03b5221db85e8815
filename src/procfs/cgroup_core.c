// SPDX-License-Identifier: MIT
/*
 * cgroup_core.c - the cgroup v2 core files of a group (kernel/cgroup/
 * cgroup.c cgroup_base_files and the PSI files of Linux 6.18).
 *
 * cgroup.procs and cgroup.threads list the group's tasks as css_task_iter
 * walks them: the model's order (cg_pos, then tid); threads leaves out the
 * exiting (a zombie is on its css_set's dying list), procs the leaders of
 * groups that have no live thread.  Controller masks print as
 * cgroup_print_ss_mask does: names in subsystem order, nothing at all for
 * an empty mask.  cgroup.stat counts what the tree holds: descendants, and
 * for each controller bound to v2 the groups that hold its state.
 */
#include <errno.h>
#include <stdlib.h>

#include "render.h"
#include "uprocfs/pfs_sysobj.h"

uint32_t pfs_cg_of(const struct pfs_ctx *c)
{
	return pfs_obj_cgroup(c->mach, c->inst);
}

static bool exiting(const struct mach_thread *t)
{
	return t->state == MACH_TASK_ZOMBIE || t->state == MACH_TASK_DEAD;
}

/* Whether the process still has a live thread: cgroup.procs lists it. */
static bool proc_live(const struct mach_process *p)
{
	for (unsigned int i = 0; i < p->nthreads; i++)
		if (!exiting(&p->threads[i]))
			return true;
	return false;
}

struct member {
	uint32_t pos;
	pid_t id;
};

static int by_pos(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* The members of @g (the threads, or the processes), in listing order; *@out malloc'd. */
static int members(const struct mach_machine *mach, uint32_t g, bool threads, struct member **out, size_t *n)
{
	size_t cap = 64, k = 0;
	struct member *v = malloc(cap * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < mach->nprocs; i++) {
		const struct mach_process *p = &mach->procs[i];

		for (unsigned int t = 0; t < (threads ? p->nthreads : (p->nthreads ? 1u : 0u)); t++) {
			const struct mach_thread *th = &p->threads[t];

			if (mach_thread_cg2(mach, th) != g || (threads ? exiting(th) : !proc_live(p)))
				continue;
			if (k == cap) {
				struct member *bigger = realloc(v, 2 * cap * sizeof(*v));

				if (!bigger) {
					free(v);
					return -ENOMEM;
				}
				v = bigger;
				cap *= 2;
			}
			v[k++] = (struct member){ th->cg_pos, threads ? th->tid : p->tgid };
		}
	}
	if (k)
		qsort(v, k, sizeof(*v), by_pos);
	*out = v;
	*n = k;
	return 0;
}

static int show_members(struct seq_file *m, bool threads)
{
	const struct pfs_ctx *c = m->private;
	struct member *v;
	size_t n;
	int rc = members(c->mach, pfs_cg_of(c), threads, &v, &n);

	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		seq_put_decimal_ull(m, "", (unsigned long long)v[i].id);
		seq_putc(m, '\n');
	}
	free(v);
	return 0;
}

int pfs_show_cg_procs(struct seq_file *m, void *v)
{
	(void)v;
	return show_members(m, false);
}

int pfs_show_cg_threads(struct seq_file *m, void *v)
{
	(void)v;
	return show_members(m, true);
}

size_t pfs_cg_tasks_first_size(const struct pfs_ctx *c)
{
	uint32_t g = pfs_cg_of(c);
	size_t n = 0;

	for (size_t i = 0; i < c->mach->nprocs; i++)
		for (unsigned int t = 0; t < c->mach->procs[i].nthreads; t++)
			n += mach_thread_cg2(c->mach, &c->mach->procs[i].threads[t]) == g;
	return n * 9 + 4096;
}

/* cgroup_print_ss_mask */
static void print_ss_mask(struct seq_file *m, uint32_t mask)
{
	bool printed = false;

	for (int ss = 0; ss < MACH_NR_SS; ss++)
		if (mask & (1u << ss)) {
			if (printed)
				seq_putc(m, ' ');
			seq_puts(m, mach_cg_ss_name((enum mach_cg_ss)ss, false));
			printed = true;
		}
	if (printed)
		seq_putc(m, '\n');
}

int pfs_show_cg_controllers(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	print_ss_mask(m, mach_cg_controllers(c->mach, pfs_cg_of(c)));
	return 0;
}

int pfs_show_cg_subtree_control(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	print_ss_mask(m, c->mach->cgroups[pfs_cg_of(c)].subtree_control);
	return 0;
}

static const struct mach_cg_state *state(const struct pfs_ctx *c)
{
	return mach_cg_state_of(&c->mach->cgroups[pfs_cg_of(c)]);
}

int pfs_show_cg_type(struct seq_file *m, void *v)
{
	static const char *const names[] = { "domain\n", "domain threaded\n", "domain invalid\n", "threaded\n" };
	const struct pfs_ctx *c = m->private;
	unsigned int t = state(c)->type;

	(void)v;
	seq_puts(m, names[t < 4 ? t : 0]);
	return 0;
}

/* Whether a live task is in @g or below it (cgroup_is_populated). */
static bool populated(const struct mach_machine *mach, uint32_t g)
{
	for (size_t i = 0; i < mach->nprocs; i++)
		for (unsigned int t = 0; t < mach->procs[i].nthreads; t++) {
			const struct mach_thread *th = &mach->procs[i].threads[t];
			uint32_t cg = mach_thread_cg2(mach, th);

			if (!exiting(th) && cg != MACH_NONE && mach_cg_under(mach, cg, g))
				return true;
		}
	return false;
}

/* Frozen: it or a group above it asked to be (every task then stops). */
static bool frozen(const struct mach_machine *mach, uint32_t g)
{
	for (; g != MACH_NONE; g = mach->cgroups[g].parent)
		if (mach_cg_state_of(&mach->cgroups[g])->freeze)
			return true;
	return false;
}

int pfs_show_cg_events(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	uint32_t g = pfs_cg_of(c);

	(void)v;
	seq_put_decimal_ull(m, "populated ", populated(c->mach, g));
	seq_put_decimal_ull(m, "\nfrozen ", frozen(c->mach, g));
	seq_putc(m, '\n');
	return 0;
}

int pfs_show_cg_stat(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	uint32_t g = pfs_cg_of(c), bound = mach_cg_v2_ss(mach);
	const struct mach_cg_state *st = state(c);
	unsigned int desc = 0, css[MACH_NR_SS] = { 0 };

	(void)v;
	for (uint32_t i = g; i < mach->ncgroups; i++) {
		if (mach->cgroups[i].dead || !mach_cg_under(mach, i, g))
			continue;
		desc += i != g;
		for (int ss = 0; ss < MACH_NR_SS; ss++)
			css[ss] += mach_cg_has_css(mach, i, (enum mach_cg_ss)ss);
	}
	seq_put_decimal_ull(m, "nr_descendants ", desc);
	seq_putc(m, '\n');
	for (int ss = 0; ss < MACH_NR_SS; ss++)
		if (bound & (1u << ss)) {
			seq_puts(m, "nr_subsys_");
			seq_puts(m, mach_cg_ss_name((enum mach_cg_ss)ss, false));
			/* css->nr_descendants + 1 where the group holds the css, else 0 */
			seq_put_decimal_ull(m, " ", mach_cg_has_css(mach, g, (enum mach_cg_ss)ss) ? css[ss] : 0);
			seq_putc(m, '\n');
		}
	seq_put_decimal_ull(m, "nr_dying_descendants ", st->nr_dying_descendants);
	seq_putc(m, '\n');
	for (int ss = 0; ss < MACH_NR_SS; ss++)
		if (bound & (1u << ss)) {
			seq_puts(m, "nr_dying_subsys_");
			seq_puts(m, mach_cg_ss_name((enum mach_cg_ss)ss, false));
			seq_put_decimal_ull(m, " ", mach_cg_dying_subsys(st, (enum mach_cg_ss)ss));
			seq_putc(m, '\n');
		}
	return 0;
}

int pfs_show_cg_stat_local(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_decimal_ull(m, "frozen_usec ", state(c)->frozen_usec);
	seq_putc(m, '\n');
	return 0;
}

/* cgroup_max_depth_show, cgroup_max_descendants_show: "max" at INT_MAX. */
static void put_max_int(struct seq_file *m, int v)
{
	if (v >= MACH_CG_INT_MAX)
		seq_puts(m, "max");
	else
		seq_put_decimal_ll(m, "", v);
	seq_putc(m, '\n');
}

int pfs_show_cg_max_depth(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	put_max_int(m, state(c)->max_depth);
	return 0;
}

int pfs_show_cg_max_descendants(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	put_max_int(m, state(c)->max_descendants);
	return 0;
}

int pfs_show_cg_freeze(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_decimal_ull(m, "", state(c)->freeze);
	seq_putc(m, '\n');
	return 0;
}

/* cgroup.kill has only a write handler: a read (root opens it past the mode bits) fails. */
int pfs_show_cg_kill(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	return -EINVAL;
}

int pfs_show_cg_psi_enable(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;

	(void)v;
	seq_put_decimal_ull(m, "", !state(c)->psi_off);
	seq_putc(m, '\n');
	return 0;
}

/*
 * psi_show of the group's PSI group: the root's is the system's, what
 * /proc/pressure prints; another group's has the same lines with its own
 * numbers (zeros until accounted).
 */
int pfs_show_cg_pressure(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	uint32_t g = pfs_cg_of(c);
	const struct mach_pressure *sys = &c->mach->pressure[c->arg];
	const struct mach_cg_state *st = state(c);
	struct mach_pressure p = { 0 };

	(void)v;
	if (c->mach->cgroups[g].parent == MACH_NONE) {
		pfs_print_pressure(m, sys);
		return 0;
	}
	if (st->pressure)
		p = st->pressure[c->arg];
	p.present = sys->present;
	p.has_some = sys->has_some;
	p.has_full = sys->has_full;
	pfs_print_pressure(m, &p);
	return 0;
}
