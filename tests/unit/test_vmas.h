/* SPDX-License-Identifier: MIT */
/*
 * test_vmas.h - an mm's VMAs for tests that walk them: made or stored
 * (mach_mm_vmas), and the test stops rather than walk a NULL array.
 */
#ifndef UPROCFS_TEST_VMAS_H
#define UPROCFS_TEST_VMAS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uprocfs/machine.h"

/** @mm's VMAs (valid until this thread asks for another mm's); exits 1 when they cannot be had. */
static inline const struct mach_vma *test_vmas(const struct mach_mm *mm)
{
	const struct mach_vma *v;
	int rc = mach_mm_vmas(mm, &v);

	if (rc) {
		printf("Bail out! the VMAs of an mm: %s\n", strerror(-rc));
		exit(1);
	}
	return v;
}

#endif /* UPROCFS_TEST_VMAS_H */
