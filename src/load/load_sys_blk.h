/* SPDX-License-Identifier: MIT */
/*
 * load_sys_blk.h - what load_sys_block.c (which device a file is of) hands
 * load_sys_blkattr.c (what the file says of it).
 */
#ifndef UPROCFS_LOAD_SYS_BLK_H
#define UPROCFS_LOAD_SYS_BLK_H

#include "load_int.h"

/** Device @b's sysfs part, made (zeroed, no poll interval) on first use; NULL on ENOMEM. */
struct mach_blk_sysfs *ld_blk_sysfs(struct mach_blkdev *b);

/**
 * The file @rest of device @i's directory ("stat", "queue/scheduler",
 * "dm/name"; @path the whole, for messages): into the model, or checked
 * against what /proc said.  -ENOENT for a file the loader does not parse,
 * -EAGAIN when counters moved since /proc/diskstats was read.
 */
int ld_blk_attr(struct lex *lx, struct mach_loader *ld, size_t i, const char *rest, const char *path);

/** Whether @name is a file of the device a disk sits on that the loader parses. */
bool ld_blk_hw_name(const char *name);
/** File @name of the device disk @d sits on (its device/ directory). */
int ld_blk_hw(struct lex *lx, struct mach_blkdev *d, const char *name);

#endif
