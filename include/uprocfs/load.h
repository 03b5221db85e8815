/* SPDX-License-Identifier: MIT */
/*
 * load.h - building a machine model by parsing a /proc tree.
 *
 * One parser per file turns text into typed values; a line or field that
 * does not parse is an error naming "file:line" and what was expected.  The
 * loader keeps the text it parsed so `uprocfs verify` can render the model
 * back and compare byte for byte.
 */
#ifndef UPROCFS_LOAD_H
#define UPROCFS_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "uprocfs/machine.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The files the loader parses, as the file table names them (MACH_LD_NONE: not loaded). */
enum mach_ld_kind {
	MACH_LD_NONE,
	MACH_LD_STAT,
	MACH_LD_MEMINFO,
	MACH_LD_VMSTAT,
	MACH_LD_LOADAVG,
	MACH_LD_UPTIME,
	MACH_LD_SCHEDSTAT,
	MACH_LD_PRESSURE,
	MACH_LD_PID_STATUS,
	MACH_LD_PID_STAT,
	MACH_LD_PID_STATM,
	MACH_LD_PID_MAPS,
	MACH_LD_PID_CMDLINE,
	MACH_LD_PID_COMM,
	MACH_NR_LD_KINDS
};

enum mach_load_status {
	MACH_LOAD_OK,       /* parsed into the model; text kept */
	MACH_LOAD_SKIPPED,  /* not readable (EACCES/EPERM), the task exited, or it kept changing */
};

/** One file the loader read. */
struct mach_load_file {
	char *path;         /* relative to the tree: "stat", "42/status", "42/task/43/stat" */
	enum mach_load_status status;
	char *reason;       /* SKIPPED: why ("permission denied", "task exited", ...) */
	char *text;         /* OK: the bytes read */
	size_t len;
};

struct mach_load_report {
	size_t nfiles;
	struct mach_load_file *files;
};

struct mach_load_opts {
	const pid_t *pids;  /* only these processes (all when npids is 0) */
	size_t npids;
	bool no_tasks;      /* skip task/<tid>/ directories */
};

/**
 * Load the /proc tree at @dir ("/proc" for the live kernel, or a directory
 * written by `uprocfs capture`).  On success *@out is the model and, when
 * @report is non-NULL, it lists every file with its text or skip reason.
 * Returns 0, or -errno with a message naming file:line in @err.
 */
int mach_load_tree(const char *dir, const struct mach_load_opts *opts, struct machine **out,
		   struct mach_load_report *report, char *err, size_t errlen);

/** Free what a report holds. */
void mach_load_report_free(struct mach_load_report *report);

/**
 * Parse one file's text into @m (for tests and for the FUSE live mirror).
 * @path is relative as in mach_load_file ("meminfo", "42/task/43/status").
 * The process/thread is created in @m if needed.  0 or -EINVAL with
 * "path:line: ..." in @err.
 */
int mach_load_text(struct machine *m, const char *path, const char *text, size_t len,
		   char *err, size_t errlen);

/**
 * The thread group id and thread id a status text names, at its innermost
 * pid namespace level: for a /proc/<tid>/status of any thread, whose
 * directory is not its group's.  0 or -EINVAL with "path:line: ..." in @err.
 */
int mach_status_ids(const char *path, const char *text, size_t len, pid_t *tgid, pid_t *tid, char *err,
		    size_t errlen);

/**
 * Check what the per-pid files said about values they share (status VmRSS
 * and stat rss, Threads and num_threads, ...) and finish derived fields.
 * Call after all mach_load_text calls; 0 or -EINVAL naming the disagreement.
 */
int mach_load_finish(struct machine *m, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_LOAD_H */
