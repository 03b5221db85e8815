/* SPDX-License-Identifier: MIT */
/*
 * mirror.h - models of real processes, loaded on demand from a real procfs:
 * the caller's own pid directory, and every file under `--machine live`.
 */
#ifndef UPROCFS_SOURCE_MIRROR_H
#define UPROCFS_SOURCE_MIRROR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "uprocfs/load.h"
#include "uprocfs/machine.h"

/**
 * Load the global files of the procfs at @procfd into a new machine: those
 * a machine must have and those of loader kinds @kinds (PFS_NEEDS bits; ~0
 * for all, /proc/sys included).  Files that move together (stat, softirqs,
 * interrupts) are read again until they agree.  0 or -errno with a message
 * in @err.
 */
int mirror_load_globals(int procfd, mach_ld_set kinds, struct mach_machine **out, char *err, size_t errlen);

/** Load the /proc/sys tree at @dir of the procfs at @procfd into @ld's machine; 0 or -errno. */
int mirror_load_sysctl(struct mach_loader *ld, int procfd, const char *dir, char *err, size_t errlen);

/* mirror_load_task's @inst: every entry of a collection (fd/), or its listing only. */
#define MIRROR_ALL_INSTS (-1L)
#define MIRROR_NO_INSTS (-2L)

/**
 * Load process @pid (and thread @tid if non-zero) of the procfs at @procfd,
 * with /proc/stat for the machine's CPU width, into a new machine: the
 * files of loader kinds @kinds (PFS_NEEDS bits; status and stat always;
 * machine-wide kinds among them too, such as meminfo).  Of a collection
 * (fd/) the listing, and its entries as @inst says: all, none, or only
 * that one.  Fewer files, fewer chances for a busy process to change
 * between two; one that never stops changing is read a last time with
 * only one of status and stat beside @own, the file asked for
 * (MACH_LD_NONE: none).  -ESRCH when the process is gone.
 */
int mirror_load_task(int procfd, pid_t pid, pid_t tid, mach_ld_set kinds, enum mach_ld_kind own, long inst,
		     struct mach_machine **out, char *err, size_t errlen);

/**
 * The thread group and thread ids of thread @tid as the procfs at @procfd
 * numbers them (its innermost pid namespace level).  0, or -ESRCH when the
 * thread is gone.
 */
int mirror_translate_tid(int procfd, pid_t tid, pid_t *ns_tgid, pid_t *ns_tid);

/** Mark the processes of @m whose entries in the procfs at @procfd show an mm that is not dumpable. */
void mirror_dumpability(int procfd, struct mach_machine *m);


#endif
