/* SPDX-License-Identifier: MIT */
/*
 * test_fds.h - a synthetic machine's fd tables stored for checks that read
 * across tables: a made table lives in its reader's one-table cache, so
 * pointers into two of them at once would not hold.  Storing every table
 * makes each of them through the maker once (test_synth_made compares the
 * made tables with the ones a build stores).
 */
#ifndef UPROCFS_TEST_FDS_H
#define UPROCFS_TEST_FDS_H

#include "uprocfs/machine.h"

/** Store every process's made fd table (mach_files_store): 0, or the first -errno. */
static inline int test_store_fds(struct mach_machine *m)
{
	for (size_t i = 0; i < m->nprocs; i++) {
		int rc = m->procs[i].files ? mach_files_store(m->procs[i].files) : 0;

		if (rc)
			return rc;
	}
	return 0;
}

#endif /* UPROCFS_TEST_FDS_H */
