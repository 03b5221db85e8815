/* SPDX-License-Identifier: MIT */
/*
 * load_sys_cg.h - what load_sys_cgroup.c (which group a path names)
 * hands load_sys_cgfiles.c (the controllers' files of it).
 */
#ifndef UPROCFS_LOAD_SYS_CG_H
#define UPROCFS_LOAD_SYS_CG_H

#include "load_int.h"

/**
 * File @file of group @g (its state made): cpu.*, memory.*, io.stat,
 * pids.*, the pressure files.  -ENOENT for a file the loader does not
 * parse; -EAGAIN when it disagrees with what /proc said (read both again).
 */
int ld_cg_controller_file(struct lex *lx, struct mach_loader *ld, uint32_t g, const char *file);

#endif
