// SPDX-License-Identifier: MIT
/*
 * served_set.h - do two machines serve the same files?  A round trip
 * compares the bytes of every file the loader read; a file it skipped (a
 * disk's queue/scheduler classified before the disk's queue was known)
 * would pass unseen without this.
 */
#ifndef UPROCFS_TEST_SERVED_SET_H
#define UPROCFS_TEST_SERVED_SET_H

#include <stdbool.h>

#include "uprocfs/machine.h"

/**
 * True when @m and @back serve the same files and links (their paths under
 * /proc and /sys); else the first few each lacks are named in diagnostics
 * beginning with @spec.
 */
bool served_same(const char *spec, const struct mach_machine *m, const struct mach_machine *back);

#endif
