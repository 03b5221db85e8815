// SPDX-License-Identifier: MIT
/*
 * psi_group.c - PSI groups and the engine: made, linked into the engine's
 * list, freed, and read.
 *
 * Mirrors group_init, psi_cgroup_alloc and psi_cgroup_free of
 * kernel/sched/psi.c (Linux 6.18).  The task changes that feed the groups
 * are psi.c, the averaging work psi_avgs.c.
 */
#include <errno.h>
#include <stdlib.h>

#include "psi_internal.h"

/* ------------------------------------------------------------------ */
/* Groups                                                              */

static struct psi_group *psi_group_alloc(struct psi_engine *eng, struct psi_group *parent)
{
	struct psi_group *group;

	group = calloc(1, sizeof(*group) + eng->ncpus * sizeof(group->pcpu[0]));
	if (!group)
		return NULL;
	group->eng = eng;
	group->parent = parent;
	group->depth = parent ? parent->depth + 1 : 0;
	group->enabled = true;
	/* group_init: the averaging clock starts at creation. */
	group->avg_last_update = psi_aggr_clock(eng, -1);
	group->avg_next_update = group->avg_last_update + eng->period;

	/* Append, so the work runs in creation order (system group first). */
	if (eng->groups) {
		struct psi_group *last = eng->groups->prev_all;

		last->next_all = group;
		group->prev_all = last;
		eng->groups->prev_all = group;
	} else {
		eng->groups = group;
		group->prev_all = group;
	}
	if (parent)
		parent->nr_children++;
	return group;
}

static void psi_group_unlink(struct psi_engine *eng, struct psi_group *group)
{
	if (group == eng->groups) {
		eng->groups = group->next_all;
		if (eng->groups)
			eng->groups->prev_all = group->prev_all;
		return;
	}
	group->prev_all->next_all = group->next_all;
	if (group->next_all)
		group->next_all->prev_all = group->prev_all;
	else
		eng->groups->prev_all = group->prev_all;
}

int psi_group_create(struct psi_engine *eng, struct psi_group *parent,
		     struct psi_group **out)
{
	struct psi_group *group;

	if (!eng || !parent || !out || parent->eng != eng)
		return -EINVAL;
	group = psi_group_alloc(eng, parent);
	if (!group)
		return -ENOMEM;
	*out = group;
	return 0;
}

int psi_group_destroy(struct psi_group *group)
{
	struct psi_engine *eng;

	if (!group || !group->parent)
		return -EINVAL;
	if (group->nr_children)
		return -EBUSY;
	eng = group->eng;
	for (unsigned int cpu = 0; cpu < eng->ncpus; cpu++)
		for (int t = 0; t < PSI_NR_TASK_COUNTS; t++)
			if (group->pcpu[cpu].tasks[t])
				return -EBUSY;
	psi_group_unlink(eng, group);
	group->parent->nr_children--;
	free(group);
	return 0;
}

struct psi_group *psi_group_parent(const struct psi_group *group)
{
	return group ? group->parent : NULL;
}

unsigned int psi_group_depth(const struct psi_group *group)
{
	return group ? group->depth : 0;
}

unsigned int psi_group_tasks(const struct psi_group *group, int cpu,
			     enum psi_task_count count)
{
	if (!group || cpu < 0 || (unsigned int)cpu >= group->eng->ncpus ||
	    (unsigned int)count >= PSI_NR_TASK_COUNTS)
		return 0;
	return group->pcpu[cpu].tasks[count];
}

uint32_t psi_group_state_mask(const struct psi_group *group, int cpu)
{
	if (!group || cpu < 0 || (unsigned int)cpu >= group->eng->ncpus)
		return 0;
	return group->pcpu[cpu].state_mask;
}

uint64_t psi_group_total(const struct psi_group *group, enum psi_states state)
{
	if (!group || (unsigned int)state >= PSI_NR_STATES - 1)
		return 0;
	return group->total[state];
}

unsigned long psi_group_avg(const struct psi_group *group, enum psi_states state,
			    unsigned int window)
{
	if (!group || (unsigned int)state >= PSI_NR_STATES - 1 || window >= PSI_NR_AVGS)
		return 0;
	return group->avg[state][window];
}

/* ------------------------------------------------------------------ */
/* Engine                                                              */

int psi_engine_create(const struct psi_config *cfg, struct psi_engine **out)
{
	struct psi_engine *eng;
	unsigned int hz;

	if (!cfg || !out)
		return -EINVAL;
	hz = cfg->hz ? cfg->hz : PSI_DEFAULT_HZ;
	/* jiffies <-> ns conversions below are exact only for such HZ. */
	if (cfg->ncpus < 1 || cfg->ncpus > 4096 || hz > NSEC_PER_SEC || NSEC_PER_SEC % hz)
		return -EINVAL;
	if (cfg->clock_mode != PSI_CLOCK_ONCE && cfg->clock_mode != PSI_CLOCK_PER_GROUP)
		return -EINVAL;

	eng = calloc(1, sizeof(*eng));
	if (!eng)
		return -ENOMEM;
	eng->cpus = calloc(cfg->ncpus, sizeof(eng->cpus[0]));
	if (!eng->cpus)
		goto out_free;
	eng->ncpus = cfg->ncpus;
	eng->clock = cfg->clock ? cfg->clock : psi_clock_boottime;
	eng->clock_ctx = cfg->clock_ctx;
	eng->clock_mode = cfg->clock_mode;
	eng->irq_accounting = cfg->irq_accounting;
	eng->tick_nsec = NSEC_PER_SEC / hz;
	eng->psi_freq = PSI_FREQ_HZ(hz);
	eng->period = (uint64_t)eng->psi_freq * eng->tick_nsec;	/* jiffies_to_nsecs */

	eng->system = psi_group_alloc(eng, NULL);
	if (!eng->system)
		goto out_free;
	*out = eng;
	return 0;

out_free:
	free(eng->cpus);
	free(eng);
	return -ENOMEM;
}

void psi_engine_destroy(struct psi_engine *eng)
{
	struct psi_group *group, *next;

	if (!eng)
		return;
	for (group = eng->groups; group; group = next) {
		next = group->next_all;
		free(group);
	}
	free(eng->cpus);
	free(eng);
}

struct psi_group *psi_system_group(struct psi_engine *eng)
{
	return eng ? eng->system : NULL;
}

void psi_set_clock_mode(struct psi_engine *eng, enum psi_clock_mode mode)
{
	if (eng && (mode == PSI_CLOCK_ONCE || mode == PSI_CLOCK_PER_GROUP))
		eng->clock_mode = mode;
}

void psi_get_stats(const struct psi_engine *eng, struct psi_stats *out)
{
	if (eng && out)
		*out = eng->stats;
}

unsigned int psi_nr_cpus(const struct psi_engine *eng)
{
	return eng ? eng->ncpus : 0;
}

uint64_t psi_period_ns(const struct psi_engine *eng)
{
	return eng ? eng->period : 0;
}
