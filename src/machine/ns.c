// SPDX-License-Identifier: MIT
/*
 * ns.c - the machine's namespaces, control groups and mount tables
 * (mach_ns.h): names of their vocabularies, a thread's entries in the
 * tables, and freeing them.
 */
#include <stdlib.h>

#include "uprocfs/machine.h"

const char *mach_ns_type_name(enum mach_ns_type t)
{
	static const char *const names[MACH_NR_NS] = {
		[MACH_NS_NET] = "net", [MACH_NS_UTS] = "uts", [MACH_NS_IPC] = "ipc",
		[MACH_NS_PID] = "pid", [MACH_NS_PID_FOR_CHILDREN] = "pid", [MACH_NS_USER] = "user",
		[MACH_NS_MNT] = "mnt", [MACH_NS_CGROUP] = "cgroup", [MACH_NS_TIME] = "time",
		[MACH_NS_TIME_FOR_CHILDREN] = "time",
	};
	return (unsigned int)t < MACH_NR_NS ? names[t] : "?";
}

const char *mach_ns_entry_name(enum mach_ns_type t)
{
	if (t == MACH_NS_PID_FOR_CHILDREN)
		return "pid_for_children";
	if (t == MACH_NS_TIME_FOR_CHILDREN)
		return "time_for_children";
	return mach_ns_type_name(t);
}

const char *mach_cg_ss_name(enum mach_cg_ss ss, bool legacy)
{
	static const char *const names[MACH_NR_SS] = {
		[MACH_SS_CPUSET] = "cpuset", [MACH_SS_CPU] = "cpu", [MACH_SS_CPUACCT] = "cpuacct",
		[MACH_SS_IO] = "io", [MACH_SS_MEMORY] = "memory", [MACH_SS_DEVICES] = "devices",
		[MACH_SS_FREEZER] = "freezer", [MACH_SS_NET_CLS] = "net_cls",
		[MACH_SS_PERF_EVENT] = "perf_event", [MACH_SS_NET_PRIO] = "net_prio",
		[MACH_SS_HUGETLB] = "hugetlb", [MACH_SS_PIDS] = "pids", [MACH_SS_RDMA] = "rdma",
		[MACH_SS_MISC] = "misc", [MACH_SS_DMEM] = "dmem", [MACH_SS_DEBUG] = "debug",
	};
	if ((unsigned int)ss >= MACH_NR_SS)
		return "?";
	return legacy && ss == MACH_SS_IO ? "blkio" : names[ss];
}

const struct mach_nsset *mach_thread_nsset(const struct mach_machine *m, const struct mach_thread *t)
{
	return t->nsset < m->nnssets ? &m->nssets[t->nsset] : NULL;
}

bool mach_thread_has_nsproxy(const struct mach_thread *t)
{
	/* exit_task_namespaces comes before exit_notify makes the task a zombie */
	return t->state != MACH_TASK_ZOMBIE && t->state != MACH_TASK_DEAD;
}

const struct mach_mnt_table *mach_thread_mounts(const struct mach_machine *m, const struct mach_thread *t)
{
	const struct mach_nsset *ns = mach_thread_nsset(m, t);

	if (!ns || !mach_thread_has_nsproxy(t) || ns->mounts >= m->nmnt_tables)
		return NULL;
	return &m->mnt_tables[ns->mounts];
}

const struct mach_css_set *mach_thread_css_set(const struct mach_machine *m, const struct mach_thread *t)
{
	return t->css_set < m->ncss_sets ? &m->css_sets[t->css_set] : NULL;
}

uint32_t mach_cg_dfl_root(const struct mach_machine *m)
{
	for (size_t i = 0; i < m->ncg_roots; i++)
		if (m->cg_roots[i].id == 0)
			return (uint32_t)i;
	return MACH_NONE;
}

unsigned int mach_cgroup_level(const struct mach_machine *m, uint32_t cg)
{
	unsigned int level = 0;

	while (cg < m->ncgroups && m->cgroups[cg].parent != MACH_NONE && level < m->ncgroups) {
		cg = m->cgroups[cg].parent;
		level++;
	}
	return level;
}

void mach_mount_clear(struct mach_mount *mnt)
{
	free(mnt->root);
	free(mnt->point);
	free(mnt->fstype);
	free(mnt->source);
	free(mnt->fs_opts);
	mnt->root = mnt->point = mnt->fstype = mnt->source = mnt->fs_opts = NULL;
}

void mach_mnt_table_clear(struct mach_mnt_table *t)
{
	for (size_t i = 0; t->mounts && !t->strings && i < t->n; i++)
		mach_mount_clear(&t->mounts[i]);
	free(t->strings);
	t->strings = NULL;
	free(t->mounts);
	t->mounts = NULL;
	t->n = 0;
}
