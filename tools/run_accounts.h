/* SPDX-License-Identifier: MIT */
/* run_accounts.h - the served machine's users and groups in /etc under `uprocfs run`. */
#ifndef UPROCFS_TOOLS_RUN_ACCOUNTS_H
#define UPROCFS_TOOLS_RUN_ACCOUNTS_H

#include <stddef.h>

#include "uprocfs/machine.h"

/**
 * In a private mount namespace: when @m (NULL: none) has accounts of its
 * own, /etc/passwd and /etc/group become read-only files holding them
 * first and then the host's entries for the ids the machine does not name,
 * so the command sees the machine's names for the machine's ids.  0 or
 * -errno, with what failed in @err; on failure both files are the host's.
 */
int run_accounts_prepare(const struct mach_machine *m, char *err, size_t errlen);

#endif
