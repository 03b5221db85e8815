/* SPDX-License-Identifier: MIT */
/*
 * mirror.h - models of real processes, loaded on demand from a real procfs:
 * the caller's own pid directory, and every file under `--machine live`.
 */
#ifndef UPROCFS_SOURCE_MIRROR_H
#define UPROCFS_SOURCE_MIRROR_H

#include <stddef.h>
#include <sys/types.h>

#include "uprocfs/machine.h"

/**
 * Load the global files of the procfs at @procfd into a new machine (enough
 * for any global file to render).  0 or -errno with a message in @err.
 */
int mirror_load_globals(int procfd, struct mach_machine **out, char *err, size_t errlen);

/**
 * Load process @pid (and thread @tid if non-zero) of the procfs at @procfd,
 * with /proc/stat for the machine's CPU width, into a new machine: the
 * files of loader kinds @kinds (PFS_NEEDS bits; status and stat always).
 * Fewer files, fewer chances for a busy process to change between two.
 * -ESRCH when the process is gone.
 */
int mirror_load_task(int procfd, pid_t pid, pid_t tid, uint64_t kinds, struct mach_machine **out, char *err,
		     size_t errlen);

/**
 * The thread group and thread ids of thread @tid as the procfs at @procfd
 * numbers them (its innermost pid namespace level).  0, or -ESRCH when the
 * thread is gone.
 */
int mirror_translate_tid(int procfd, pid_t tid, pid_t *ns_tgid, pid_t *ns_tid);

/** Mark the processes of @m whose entries in the procfs at @procfd show an mm that is not dumpable. */
void mirror_dumpability(int procfd, struct mach_machine *m);


#endif
