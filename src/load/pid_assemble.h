/* SPDX-License-Identifier: MIT */
/*
 * pid_assemble.h - what the two halves of a process's assembly share: the
 * checks and the order of the steps (pid_assemble.c), and the building of
 * the threads and the mm from records that agree (pid_assemble_build.c).
 *
 * Private to those two files: the rest of the loader calls ld_assemble
 * (load_int.h).
 */
#ifndef UPROCFS_PID_ASSEMBLE_H
#define UPROCFS_PID_ASSEMBLE_H

#include <stdbool.h>

#include "load_int.h"

/* One thread and the records that describe it. */
struct thr {
	pid_t tid;
	const struct ld_status *status;
	const struct ld_stat *stat;  /* its own values (task/<tid>/stat), or NULL */
	const struct ld_stat *tstat; /* thread-level fields: own, else the whole file's */
	const struct ld_bytes *comm;
};

/* One process being assembled: its records, and what the checks found out. */
struct asm_ctx {
	struct ld_msg ms;
	const struct mach_loader *ld;
	struct ld_pid *lp;
	struct ld_commit *cm;
	struct mach_process *out;
	struct ld_task *lt;            /* task/<tgid>/: the leader's second set of files, or NULL */
	struct thr *th;                /* the leader, then the other threads by tid */
	unsigned int n;
	/* the first record of each kind speaks for the process once all agree */
	const struct ld_status *rs;
	const struct ld_stat *ts;
	const struct ld_statm *rm;
	struct ld_maps *rmaps;
	struct ld_bytes *rcmd;
	bool hidden;                   /* stat masked: the reader may not ptrace the task */
	bool has_mm;
};

/*
 * The steps that build the process (pid_assemble_build.c), run by
 * ld_assemble after every check passed: each 0, -ENOMEM or -EINVAL
 * naming the files that disagree.
 */

/** The threads, leader first; each status's groups and bitmaps move into its thread. */
int ld_asm_build_threads(struct asm_ctx *a);
/** The process-wide values of stat, and the sums over its threads. */
int ld_asm_build_from_stat(struct asm_ctx *a);
/** The process-wide values of status; where stat says the same, status wins. */
int ld_asm_build_from_status(struct asm_ctx *a);
/** The mm, from every file that describes it; maps and cmdline move into it. */
int ld_asm_build_mm(struct asm_ctx *a);

#endif /* UPROCFS_PID_ASSEMBLE_H */
