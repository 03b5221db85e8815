// SPDX-License-Identifier: MIT
/*
 * psi_pressure.c - a group's pressure as a struct mach_pressure snapshot.
 *
 * psi_show of kernel/sched/psi.c (Linux 6.18) refreshes the group, then
 * prints "some" and "full" from its totals and averages.  The engine does
 * the first half only: it fills the snapshot machine.h defines, and the
 * /proc/pressure renderer (pfs_print_pressure, src/procfs/pressure.c)
 * prints it, for the system group and for cgroups alike.  Keeping the text
 * out of here keeps the engine below the renderers: src/psi includes no
 * procfs header.
 *
 * What psi_show decides, the snapshot records: CPU full is undefined for
 * the whole system and reads as zeros there; irq has only a full line; a
 * file that does not exist (irq without irq accounting, a group with
 * cgroup.pressure=0) is present = false.
 */
#include <errno.h>
#include <string.h>

#include "psi_internal.h"

_Static_assert((int)PSI_NR_RESOURCES == (int)MACH_NR_PSI_RES &&
	       (int)PSI_CPU == (int)MACH_PSI_CPU && (int)PSI_IRQ == (int)MACH_PSI_IRQ,
	       "enum psi_res and enum mach_psi_res must agree");
_Static_assert(PSI_IRQ * 2 == PSI_IRQ_FULL, "irq's line index");
/* The snapshot's averages are copied as they are: both sides use 11 bits. */
_Static_assert(CALC_LOAD_FSHIFT == MACH_FSHIFT, "psi averages and mach_psi_line share a scale");

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

/* Whether the file for @res exists for @group at all. */
static bool psi_file_exists(const struct psi_group *group, enum psi_res res)
{
	return group->enabled && (res != PSI_IRQ || group->eng->irq_accounting);
}

/* Snapshot without refreshing: what psi_show prints from the group's state. */
static void psi_fill(const struct psi_group *group, enum psi_res res, struct mach_pressure *out)
{
	memset(out, 0, sizeof(*out));
	if (!psi_file_exists(group, res))
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
	/* A file that does not exist is never read, so nothing is folded. */
	if (psi_file_exists(group, res))
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
