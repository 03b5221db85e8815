/* SPDX-License-Identifier: MIT */
/*
 * pfs_ctx.h - what a renderer is given: the machine, the task and the
 * reader's rights, passed as seq_file.private.  The renderers include this
 * and the model, nothing above them (not the file table, not the loader).
 */
#ifndef UPROCFS_PFS_CTX_H
#define UPROCFS_PFS_CTX_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "uprocfs/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a renderer prints: passed as seq_file.private. */
struct pfs_ctx {
	const struct mach_machine *mach;
	const struct mach_process *proc;  /* task scopes */
	const struct mach_thread *thread; /* the leader under /proc/<pid>, the thread under task/<tid> */
	bool whole;                       /* /proc/<pid> (thread-group totals) rather than task/<tid> */
	bool ptrace_ok;                   /* the reader may ptrace-read the task (stat's masked fields) */
	bool read_denied;                 /* a PFS_ACC_AT_READ check failed: reads give read_err */
	int read_err;                     /* with read_denied: EACCES, or EPERM (lock_trace, CAP_SYS_NICE) */
	unsigned int arg;                 /* the entry's arg (pressure resource, ...) */
	uint32_t inst;                    /* the instance of a "*" leaf (an fd number, ...) */
	pid_t caller_pid, caller_tid;     /* who reads: what self and thread-self point to (0: none) */
	bool loading;                     /* the loader asks, the machine half loaded: attributes a file's own
					     text states (a queue's scheduler, a disk's serial) count as present */
};

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_PFS_CTX_H */
