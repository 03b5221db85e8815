/* SPDX-License-Identifier: MIT */
/*
 * procfs.h - the file table: every /proc file uprocfs serves, its mode and
 * the renderer that prints it from a const machine model.
 *
 * Transports (the CLI, the FUSE filesystem, benchmarks) resolve paths only
 * through this table and read files only through the seq_file protocol.
 */
#ifndef UPROCFS_PROCFS_H
#define UPROCFS_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "uprocfs/machine.h"
#include "uprocfs/seq_file.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where a file lives. */
enum pfs_scope {
	PFS_SCOPE_GLOBAL, /* /proc/NAME */
	PFS_SCOPE_PID,    /* /proc/<pid>/NAME and /proc/<pid>/task/<tid>/NAME */
};

/** What a renderer prints: passed as seq_file.private. */
struct pfs_ctx {
	const struct machine *mach;
	const struct mach_process *proc;  /* PID scope */
	const struct mach_thread *thread; /* the leader under /proc/<pid>, the thread under task/<tid> */
	bool whole;                       /* /proc/<pid> (thread-group totals) rather than task/<tid> */
	bool ptrace_ok;                   /* the reader may ptrace-read the task (stat's masked fields) */
	unsigned int arg;                 /* the table entry's arg (pressure resource) */
	pid_t caller_pid, caller_tid;     /* who reads: what self and thread-self point to (0: none) */
};

struct pfs_file {
	const char *name;                 /* "status", "pressure/cpu", ... relative to its scope */
	enum pfs_scope scope;
	mode_t mode;                      /* permission bits as the kernel's */
	int (*show)(struct seq_file *m, void *v);      /* single_open files */
	const struct seq_operations *ops;              /* iterator files (maps), else NULL */
	size_t (*first_size)(const struct pfs_ctx *c); /* single_open_size, or NULL: 4096 */
	unsigned int arg;
	const char *mirrors;              /* the kernel function it mirrors */
	/* symlinks (mode has S_IFLNK): write the target; 0, -ENOENT or -ENAMETOOLONG */
	int (*readlink)(const struct pfs_ctx *c, char *buf, size_t size);
	/* the loader parses it and verify compares it with the kernel's */
	bool verified;
};

/** The table, and its length. */
extern const struct pfs_file pfs_files[];
extern const size_t pfs_nfiles;

/** The entry named @name in @scope, or NULL. */
const struct pfs_file *pfs_lookup(enum pfs_scope scope, const char *name);

/** Open @f for reading with @ctx (which must outlive @m); 0 or -errno. */
int pfs_open(struct seq_file *m, const struct pfs_file *f, struct pfs_ctx *ctx);

/** Render @f whole into a malloc'd buffer; 0 or -errno. */
int pfs_render(const struct pfs_file *f, const struct pfs_ctx *ctx, char **out, size_t *len);

/**
 * Resolve a path ("/proc/stat", "stat", "/proc/42/status", "42/task/43/stat")
 * against @mach.  Fills *@f and @ctx (ptrace_ok set).  -ENOENT with a message
 * in @err when no such file or task exists.
 */
int pfs_resolve(const struct machine *mach, const char *path, const struct pfs_file **f,
		struct pfs_ctx *ctx, char *err, size_t errlen);

/* The renderers, one per file (src/procfs/<name>.c). */
int pfs_show_pid_status(struct seq_file *m, void *v);
int pfs_show_pid_stat(struct seq_file *m, void *v);
int pfs_show_pid_statm(struct seq_file *m, void *v);
extern const struct seq_operations pfs_pid_maps_ops;
/* The maps and schedstat iterators, for other show functions over the same records (bench/before). */
void *pfs_pid_maps_start(struct seq_file *m, loff_t *pos);
void *pfs_pid_maps_next(struct seq_file *m, void *v, loff_t *pos);
void *pfs_schedstat_start(struct seq_file *m, loff_t *pos);
void *pfs_schedstat_next(struct seq_file *m, void *v, loff_t *pos);
/** A stop() for iterators that take no locks. */
void pfs_seq_stop_nothing(struct seq_file *m, void *v);
int pfs_show_pid_cmdline(struct seq_file *m, void *v);
int pfs_show_pid_comm(struct seq_file *m, void *v);
int pfs_show_stat(struct seq_file *m, void *v);
/** /proc/stat's totals: CPU times summed over all CPUs (ns), the intr and softirq totals. */
void pfs_stat_totals(const struct machine *mach, uint64_t cpu_ns[MACH_NR_CPUTIME], uint64_t *intr,
		     uint64_t *softirq);
size_t pfs_stat_first_size(const struct pfs_ctx *c);
extern const struct seq_operations pfs_schedstat_ops;
int pfs_show_pressure(struct seq_file *m, void *v);
/** Print a pressure snapshot as psi_show does (also used for cgroup pressure files). */
void pfs_print_pressure(struct seq_file *m, const struct mach_pressure *p);
int pfs_show_meminfo(struct seq_file *m, void *v);
extern const struct seq_operations pfs_vmstat_ops;
int pfs_show_loadavg(struct seq_file *m, void *v);
int pfs_show_uptime(struct seq_file *m, void *v);
int pfs_show_cpuinfo(struct seq_file *m, void *v);
int pfs_show_pid_max(struct seq_file *m, void *v);
int pfs_show_osrelease(struct seq_file *m, void *v);
int pfs_show_tty_drivers(struct seq_file *m, void *v);
int pfs_show_pid_environ(struct seq_file *m, void *v);
int pfs_link_self(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_thread_self(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_exe(const struct pfs_ctx *c, char *buf, size_t size);
int pfs_link_ns_pid(const struct pfs_ctx *c, char *buf, size_t size);

/**
 * Write every verified file of @mach (global files, each process and each of
 * its threads) under @dir, laid out as /proc; what `uprocfs capture` writes
 * for the live kernel.  0 or -errno with the failing path in @err.
 */
int pfs_write_tree(const struct machine *mach, const char *dir, char *err, size_t errlen);

/** True when @f is a symlink rather than a file to read. */
static inline bool pfs_is_link(const struct pfs_file *f)
{
	return f->readlink != NULL;
}

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_PROCFS_H */
