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

enum mach_load_status {
	MACH_LOAD_OK,       /* parsed into the model; text kept */
	MACH_LOAD_SKIPPED,  /* not readable (EACCES/EPERM, or in a written tree a symlink, FIFO,
			       device...), the task exited, or it kept changing */
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

/** The files the loader parses; the caller says which one a text is. */
enum mach_ld_kind {
	MACH_LD_NONE,             /* served, not loaded: the file table's mark */
	/* machine-wide: pid and tid 0 */
	MACH_LD_STAT,             /* /proc/stat */
	MACH_LD_MEMINFO,
	MACH_LD_VMSTAT,
	MACH_LD_LOADAVG,
	MACH_LD_UPTIME,
	MACH_LD_SCHEDSTAT,
	MACH_LD_PRESSURE_IO,      /* /proc/pressure/io */
	MACH_LD_PRESSURE_MEMORY,
	MACH_LD_PRESSURE_CPU,
	MACH_LD_PRESSURE_IRQ,
	/* per task: /proc/<pid>/X (tid 0) or /proc/<pid>/task/<tid>/X */
	MACH_LD_PID_STATUS,
	MACH_LD_PID_STAT,
	MACH_LD_PID_STATM,
	MACH_LD_PID_MAPS,
	MACH_LD_PID_CMDLINE,
	MACH_LD_PID_COMM,
	/* /proc/<pid>/net/X: the task's network namespace (absent for a task without one) */
	MACH_LD_PID_NET_ARP,
	MACH_LD_PID_NET_DEV,
	MACH_LD_PID_NET_TCP,
	MACH_LD_PID_NET_UDP,
	MACH_LD_PID_NET_SNMP,
	MACH_LD_PID_NET_TCP6,
	MACH_LD_PID_NET_UDP6,
	MACH_LD_PID_NET_UNIX,
	MACH_LD_PID_NET_ROUTE,
	MACH_LD_PID_NET_SNMP6,
	MACH_LD_PID_NET_NETSTAT,
	MACH_LD_PID_NET_IF_INET6,
	MACH_LD_PID_NET_SOCKSTAT,
	MACH_LD_PID_NET_SOCKSTAT6,
	MACH_LD_PID_NET_SOFTNET,
	MACH_LD_NR_KINDS
};

/** Whether @kind is a per-task file (/proc/<pid>/X, task/<tid>/X) rather than a machine-wide one. */
static inline bool mach_ld_kind_per_task(enum mach_ld_kind kind)
{
	return kind >= MACH_LD_PID_STATUS && kind < MACH_LD_NR_KINDS;
}

/** The first and last /proc/<pid>/net file kinds. */
#define MACH_LD_PID_NET_FIRST MACH_LD_PID_NET_ARP
#define MACH_LD_PID_NET_LAST MACH_LD_PID_NET_SOFTNET

/** Whether @kind is a /proc/<pid>/net file. */
static inline bool mach_ld_kind_net(enum mach_ld_kind kind)
{
	return kind >= MACH_LD_PID_NET_FIRST && kind <= MACH_LD_PID_NET_LAST;
}

/**
 * Whether a live task may lack a file of @kind while its other files are
 * there: the net files of a task without a network namespace (a zombie).
 * Such a file missing does not mean that the task exited.
 */
static inline bool mach_ld_may_be_absent(enum mach_ld_kind kind)
{
	return mach_ld_kind_net(kind);
}

/**
 * Whether a tree must have a file of @kind: the machine-wide files the
 * model's counters come from, and a task's status and stat (no process
 * without them).  Others may be absent.
 */
bool mach_ld_required(enum mach_ld_kind kind);

/** A file for the tree walk to read: where it is in a tree, and what it is. */
struct mach_ld_name {
	const char *name;         /* machine-wide: under the tree's root; per task: under <pid>/ and task/<tid>/ */
	enum mach_ld_kind kind;
};

struct mach_load_opts {
	/*
	 * The files to read, in report order (the file table's pfs_load_names()
	 * gives every file uprocfs parses).  Required: the loader knows files by
	 * kind, never by name.
	 */
	const struct mach_ld_name *files;
	size_t nfiles;
	const pid_t *pids;  /* only these processes (all when npids is 0) */
	size_t npids;
	bool no_tasks;      /* skip task/<tid>/ directories */
};

/**
 * Load the /proc tree at @dir ("/proc" for the live kernel, or a directory
 * written by `uprocfs capture`).  On success *@out is the model and, when
 * @report is non-NULL, it lists every file with its text or skip reason.
 * A tree that is not the live /proc is read only beneath @dir: what a /proc
 * tree never holds there (a symlink, a FIFO, a device) is skipped, not
 * followed or waited on.  Returns 0, or -errno with a message naming
 * file:line in @err.
 */
int mach_load_tree(const char *dir, const struct mach_load_opts *opts, struct mach_machine **out,
		   struct mach_load_report *report, char *err, size_t errlen);

/** Free what a report holds. */
void mach_load_report_free(struct mach_load_report *report);


/*
 * A loading session: the files of one load into one machine.  Machine-wide
 * files go straight into the machine; per-task files are kept as records
 * until mach_loader_finish builds (or replaces) their processes from the
 * files of the session, so a session should hold every file of a process it
 * touches.  A machine takes one session at a time, and a loader is used by
 * one thread at a time.
 */
struct mach_loader;

/** A session loading into @m (which must outlive it); NULL on ENOMEM. */
struct mach_loader *mach_loader_new(struct mach_machine *m);

/**
 * Parse one file of kind @kind: machine-wide with @pid and @tid 0, or of
 * process @pid, from /proc/<pid>/ when @tid is 0, else from its
 * task/<tid>/.  @path names the file in messages only.  0, or -EINVAL
 * (-ENOMEM) with "path:line: ..." in @err.
 */
int mach_loader_file(struct mach_loader *ld, enum mach_ld_kind kind, pid_t pid, pid_t tid,
		     const char *path, const char *text, size_t len, char *err, size_t errlen);

/**
 * Check what the per-task files said about values they share (status VmRSS
 * and stat rss, Threads and num_threads, ...), build their processes and
 * finish derived fields.  0; -EINVAL naming the disagreement; -ENOTSUP when
 * the files agree but the model cannot hold them (a zombie leader with live
 * threads).  Either way the session's records are gone and @ld can take the
 * files of a next session into the same machine.
 */
int mach_loader_finish(struct mach_loader *ld, char *err, size_t errlen);

/** End a session, dropping files not yet finished. */
void mach_loader_free(struct mach_loader *ld);

/**
 * The thread group id and thread id a status text names, at its innermost
 * pid namespace level: for a /proc/<tid>/status of any thread, whose
 * directory is not its group's.  0 or -EINVAL with "path:line: ..." in @err.
 */
int mach_status_ids(const char *path, const char *text, size_t len, pid_t *tgid, pid_t *tid, char *err,
		    size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_LOAD_H */
