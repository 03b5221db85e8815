/* SPDX-License-Identifier: MIT */
/* run_dev.h - the served machine's device-mapper names in /dev under `uprocfs run`. */
#ifndef UPROCFS_TOOLS_RUN_DEV_H
#define UPROCFS_TOOLS_RUN_DEV_H

#include "uprocfs/machine.h"

/**
 * In a private mount namespace, before /proc is mounted over (it reads the
 * host's /dev through /proc/self/fd): when @m (NULL: none) has named
 * device-mapper devices, /dev becomes a tmpfs holding the host's entries
 * (bound) and /dev/mapper/NAME -> ../dm-N for each, as udev would make
 * them, so lsblk lists them.  0 or -errno; on failure /dev is the host's.
 */
int run_dev_prepare(const struct mach_machine *m);

#endif
