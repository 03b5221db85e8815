/* SPDX-License-Identifier: MIT */
/* run_ttys.h - the served machine's terminals as device nodes under `uprocfs run`. */
#ifndef UPROCFS_TOOLS_RUN_TTYS_H
#define UPROCFS_TOOLS_RUN_TTYS_H

#include "uprocfs/machine.h"

/**
 * In a private mount namespace: a new devpts on /dev/pts holding
 * /dev/pts/0 .. /dev/pts/N for the highest terminal a task of @m (NULL:
 * none) is on, each the device its tty_nr names.  0 or -errno.
 */
int run_ttys_prepare(const struct mach_machine *m);

#endif
