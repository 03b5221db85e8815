/* SPDX-License-Identifier: MIT */
/* test_load.h - shared helpers of the loader tests. */
#ifndef UPROCFS_TEST_LOAD_H
#define UPROCFS_TEST_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "uprocfs/load.h"

#define ERRLEN 1024

/** mach_load_text of a NUL-terminated text. */
int load_str(struct mach_loader *ld, const char *path, const char *text, char *err);
/** Load each (path, text) pair of @files (NULL-terminated) into @m and finish; the first error. */
int load_set(struct mach_machine *m, const char *const *files, char *err);
/** Whether @err starts with @prefix and contains @needle (either may be NULL). */
int err_is(const char *err, const char *prefix, const char *needle);

/**
 * Render @path from @m and compare with @text.  1 when identical; else 0
 * with the first difference as a diagnostic (when @verbose).
 */
int roundtrip(const struct mach_machine *m, const char *path, const char *text, size_t len, int verbose);

/** Two stat lines equal but for the fields in @skip_mask (bit n: field n). */
int stat_equal_except(const char *a, size_t alen, const char *b, size_t blen, uint64_t skip_mask);

void test_live(void);
void test_roundtrip_live(void);
void test_tree(void);
void test_mutations(void);
void test_interrupts(void);
void test_sysctl(void);
/* test_load_sys.c: the system files (diskstats, swaps, locks, ...) */
void test_system_files(void);

#endif
