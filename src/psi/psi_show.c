// SPDX-License-Identifier: MIT
/*
 * psi_show.c - the text of /proc/pressure/<res> and <cgroup>/<res>.pressure.
 *
 * Mirrors psi_show of kernel/sched/psi.c, Linux 6.18: refresh the group,
 * then for "some" and "full"
 *
 *	"%s avg10=%lu.%02lu avg60=%lu.%02lu avg300=%lu.%02lu total=%llu\n"
 *
 * with LOAD_INT/LOAD_FRAC truncation (no rounding term) and total in µs.
 * CPU full is undefined for the whole system and printed as zeros there;
 * irq has only a full line.  The group's state becomes a struct
 * mach_pressure snapshot, printed by the /proc/pressure renderer
 * (src/procfs/pressure.c), so both files come from one printer.
 */
#include <errno.h>
#include <string.h>

#include "psi_internal.h"
#include "uprocfs/procfs.h"

_Static_assert((int)PSI_NR_RESOURCES == (int)MACH_NR_PSI_RES &&
	       (int)PSI_CPU == (int)MACH_PSI_CPU && (int)PSI_IRQ == (int)MACH_PSI_IRQ,
	       "enum psi_res and enum mach_psi_res must agree");
_Static_assert(PSI_IRQ * 2 == PSI_IRQ_FULL, "irq's line index");

static void psi_fill_line(const struct psi_group *group, int state, bool zero,
			  struct mach_psi_line *l)
{
	memset(l, 0, sizeof(*l));
	if (zero)
		return;
	for (int w = 0; w < PSI_NR_AVGS; w++)
		l->avg[w] = group->avg[state][w];
	l->total_us = group->total[state] / 1000;	/* NSEC_PER_USEC, truncated */
}

/* Snapshot without refreshing: what psi_show prints from the group's state. */
static void psi_fill(const struct psi_group *group, enum psi_res res, struct mach_pressure *out)
{
	const struct psi_engine *eng = group->eng;

	memset(out, 0, sizeof(*out));
	if (!group->enabled || (res == PSI_IRQ && !eng->irq_accounting))
		return;
	out->present = true;
	out->has_some = res != PSI_IRQ;
	out->has_full = true;
	if (out->has_some)
		psi_fill_line(group, res * 2, false, &out->some);
	/* irq's one line is state res * 2 = PSI_IRQ_FULL (psi_show's only_full). */
	psi_fill_line(group, res == PSI_IRQ ? PSI_IRQ_FULL : res * 2 + 1,
		      !group->parent && res == PSI_CPU, &out->full);
}

int psi_fill_pressure(struct psi_group *group, enum psi_res res, struct mach_pressure *out)
{
	if (!group || !out || (unsigned int)res >= PSI_NR_RESOURCES)
		return -EINVAL;
	psi__group_refresh(group);
	psi_fill(group, res, out);
	return 0;
}

int psi_fill_pressure_all(struct psi_group *group, struct mach_pressure out[MACH_NR_PSI_RES])
{
	if (!group || !out)
		return -EINVAL;
	psi__group_refresh(group);
	for (int res = 0; res < MACH_NR_PSI_RES; res++)
		psi_fill(group, (enum psi_res)res, &out[res]);
	return 0;
}

int psi_show(struct seq_file *m, struct psi_group *group, enum psi_res res)
{
	struct mach_pressure p;

	if (!m || !group || (unsigned int)res >= PSI_NR_RESOURCES)
		return -EINVAL;
	/* The file would not exist: no irq accounting, or cgroup.pressure=0. */
	if (!group->enabled || (res == PSI_IRQ && !group->eng->irq_accounting))
		return -EOPNOTSUPP;
	psi__group_refresh(group);
	psi_fill(group, res, &p);
	pfs_print_pressure(m, &p); /* the one routine that prints pressure text */
	return 0;
}
