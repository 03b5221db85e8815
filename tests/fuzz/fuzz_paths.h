/* SPDX-License-Identifier: MIT */
/*
 * fuzz_paths.h - the loader kinds the fuzz targets reach, and a path of a
 * file of each: shared by fuzz_parsers, fuzz_tree and fuzz_seeds (which
 * writes seeds in their formats), so a seed's first byte means the same
 * kind in all of them.
 */
#ifndef UPROCFS_FUZZ_PATHS_H
#define UPROCFS_FUZZ_PATHS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

/* The table's name of @kind, or NULL when no file loads as it. */
static inline const struct mach_ld_name *fz_name_of_kind(enum mach_ld_kind kind)
{
	size_t n;
	const struct mach_ld_name *names = pfs_load_names(&n);

	for (size_t i = 0; names && i < n; i++)
		if (names[i].kind == kind)
			return &names[i];
	return NULL;
}

/* The @b-th kind (modulo their number) of those the table loads, in enum order; MACH_LD_NONE if none. */
static inline enum mach_ld_kind fz_kind_of_byte(uint8_t b)
{
	static enum mach_ld_kind kinds[MACH_LD_NR_KINDS];
	static size_t nkinds;

	if (!nkinds)
		for (int k = MACH_LD_NONE + 1; k < MACH_LD_NR_KINDS; k++)
			if (fz_name_of_kind((enum mach_ld_kind)k))
				kinds[nkinds++] = (enum mach_ld_kind)k;
	return nkinds ? kinds[b % nkinds] : MACH_LD_NONE;
}

/* The byte fz_kind_of_byte maps to @kind, or -1. */
static inline int fz_byte_of_kind(enum mach_ld_kind kind)
{
	for (int b = 0; b < 256; b++)
		if (fz_kind_of_byte((uint8_t)b) == kind)
			return b;
	return -1;
}

/* A path of a file of @kind: "meminfo", "42/smaps", "42/fd/3", "42/task/42/children" (not for the sysctl tree). */
static inline void fz_path_of_kind(enum mach_ld_kind kind, char *buf, size_t size)
{
	const struct mach_ld_name *nm = fz_name_of_kind(kind);

	if (!nm)
		snprintf(buf, size, "?");
	else if (!mach_ld_kind_per_task(kind))
		snprintf(buf, size, "%s", nm->name);
	else if (mach_ld_kind_coll(kind))
		snprintf(buf, size, "42/%s/3", nm->name);
	else
		snprintf(buf, size, nm->tid_only ? "42/task/42/%s" : "42/%s", nm->name);
}

#endif
