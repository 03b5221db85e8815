// SPDX-License-Identifier: MIT
/*
 * pid_cgroup.c - /proc/<pid>/cgroup and /proc/<pid>/cpuset.
 *
 * Mirror kernel/cgroup/cgroup.c proc_cgroup_show and kernel/cgroup/cpuset.c
 * proc_cpuset_show of Linux 6.18.  cgroup has one line per hierarchy, newest
 * first, "ID:CONTROLLERS:PATH": the v1 legacy names of the controllers bound
 * to it in subsystem order, then name=NAME of a named hierarchy; nothing
 * for the v2 one.  Paths are raw (no escaping), relative to the reader's
 * cgroup namespace, which the model keeps as the initial one.  A task past
 * exit shows "/" on every v1 hierarchy but keeps its v2 group, with
 * " (deleted)" once that group is gone.  cpuset prints the path of the
 * group of the task's cpuset css (struct mach_css_set), even past exit.
 */
#include "render.h"

#define PF_EXITING 0x00000004u /* task->flags */

/* The path of group @cg from its hierarchy's root (cgroup_path_ns_locked), raw. */
static void put_cgroup_path(struct seq_file *m, const struct mach_machine *mach, uint32_t cg)
{
	const struct mach_cgroup *g = &mach->cgroups[cg];

	if (g->parent == MACH_NONE) {
		seq_putc(m, '/');
		return;
	}
	if (mach->cgroups[g->parent].parent != MACH_NONE) {
		put_cgroup_path(m, mach, g->parent);
		seq_putc(m, '/');
	} else {
		seq_putc(m, '/');
	}
	seq_puts(m, g->name);
}

/* "cpu,cpuacct", "name=systemd", "pids,name=x": what a v1 hierarchy's line names. */
static void put_controllers(struct seq_file *m, const struct mach_cg_root *r)
{
	unsigned int count = 0;

	if (r->id == 0)
		return;
	for (unsigned int ss = 0; ss < MACH_NR_SS; ss++)
		if (r->ss_mask & (1u << ss)) {
			if (count++)
				seq_putc(m, ',');
			seq_puts(m, mach_cg_ss_name((enum mach_cg_ss)ss, true));
		}
	if (r->name && r->name[0]) {
		if (count)
			seq_putc(m, ',');
		seq_puts(m, "name=");
		seq_puts(m, r->name);
	}
}

int pfs_show_pid_cgroup(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	const struct mach_css_set *cs = mach_thread_css_set(mach, c->thread);
	bool exiting = c->thread->pf_flags & PF_EXITING;

	(void)v;
	for (size_t i = 0; cs && i < mach->ncg_roots; i++) {
		const struct mach_cg_root *r = &mach->cg_roots[i];
		uint32_t cg = cs->cg[i];

		seq_put_decimal_ll(m, NULL, r->id);
		seq_putc(m, ':');
		put_controllers(m, r);
		seq_putc(m, ':');
		if (cg >= mach->ncgroups || (r->id != 0 && exiting))
			seq_putc(m, '/');
		else
			put_cgroup_path(m, mach, cg);
		if (r->id == 0 && cg < mach->ncgroups && mach->cgroups[cg].dead)
			seq_puts(m, " (deleted)\n");
		else
			seq_putc(m, '\n');
	}
	return 0;
}

int pfs_show_pid_cpuset(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_css_set *cs = mach_thread_css_set(c->mach, c->thread);
	uint32_t cg = cs ? cs->css[MACH_SS_CPUSET] : MACH_NONE;

	(void)v;
	if (cg < c->mach->ncgroups)
		put_cgroup_path(m, c->mach, cg);
	else
		seq_putc(m, '/');
	seq_putc(m, '\n');
	return 0;
}
