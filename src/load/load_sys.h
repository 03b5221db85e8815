/* SPDX-License-Identifier: MIT */
/*
 * load_sys.h - what the /sys tree loaders (load_sys_*.c) share.
 */
#ifndef UPROCFS_LOAD_SYS_H
#define UPROCFS_LOAD_SYS_H

#include "load_int.h"
#include "load_platform.h"

/** What follows @prefix in @path, or NULL when @path does not start with it. */
const char *ld_sys_after(const char *path, const char *prefix);

/**
 * Where the link at @link (a path below /sys) points: its directory with
 * @target's components applied, a path below /sys.  0, -EINVAL (above
 * /sys) or -ENAMETOOLONG.
 */
int ld_sys_link_target(const char *link, const char *target, char *out, size_t size);

/** One decimal number and the newline after it (sysfs "%d\n", "%llu\n"). */
int ld_sys_u64_line(struct lex *lx, uint64_t *v, uint64_t max);
/** One signed decimal and its newline. */
int ld_sys_s64_line(struct lex *lx, int64_t *v, int64_t min, int64_t max);
/** "max\n" (*@v = @max_value) or a number no larger than @limit and its newline. */
int ld_sys_max_line(struct lex *lx, uint64_t *v, uint64_t max_value, uint64_t limit);
/** A line of text up to its newline into a new string. */
int ld_sys_string_line(struct lex *lx, char **out);

#endif
