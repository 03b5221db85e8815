/* SPDX-License-Identifier: MIT */
/*
 * psi_text.h - what the PSI engine prints for a group, for the tests that
 * compare a served pressure file with it (tests/synth/sysfs_checks_cg.c,
 * tests/fuse/sys_psi_diff.c).
 */
#ifndef UPROCFS_TESTS_PSI_TEXT_H
#define UPROCFS_TESTS_PSI_TEXT_H

#include "procfs/render.h"
#include "seq/seq_testing.h"
#include "uprocfs/psi.h"

/*
 * Group @g's @res as psi_show prints it, NUL-terminated in @buf ("" where
 * no file would be).  The refresh happens at the time the simulator stands
 * at, so it moves nothing the simulator published.
 */
static inline void psi_text(const struct psi_group *g, enum psi_res res, char *buf, size_t size)
{
	struct mach_pressure p;
	struct seq_file sm;

	buf[0] = '\0';
	if (psi_fill_pressure((struct psi_group *)g, res, &p) || !p.present)
		return;
	seq_init_buffer(&sm, buf, size - 1);
	pfs_print_pressure(&sm, &p);
	buf[sm.count] = '\0';
}

#endif
