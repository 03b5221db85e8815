/* SPDX-License-Identifier: MIT */
/*
 * source.h - where the transports (FUSE, the CLI) read a machine from: a
 * model (synthetic or captured, moved by the simulator), or the live kernel
 * mirrored file by file.  One small vtable, so no transport ever branches on
 * "live or model".
 *
 * A request sees the machine through a view: open() finds what a node shows
 * (and, for a mirror, loads it), enter()/leave() bracket each rendering (a
 * moving model is locked, and the task found again: it may have exited),
 * close() frees what open() loaded.
 */
#ifndef UPROCFS_SOURCE_H
#define UPROCFS_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "uprocfs/machine.h"
#include "uprocfs/procfs.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pfs_source;

/** What one request reads through: the renderer context and what it owns. */
struct pfs_view {
	struct pfs_ctx ctx;        /* mach, proc, thread, ptrace_ok, caller */
	struct mach_machine *own;       /* loaded for this view (a mirror), freed by close */
	bool entered;              /* between enter and leave */
};

struct pfs_source_ops {
	/** Bring the machine up to now (the simulator); NULL for one that stands still. */
	void (*advance)(struct pfs_source *s);
	/**
	 * Whether node @n exists for reader @r: its task, and the file on this
	 * machine.  0, -ENOENT.
	 */
	int (*exists)(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *n);
	/** Owner and times of the task a node belongs to (uid, gid, st_*tim); 0 or -ENOENT. */
	int (*task_attr)(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *n,
			 struct stat *st);
	/**
	 * The pids (dir is the root) or tids (dir is a task/ directory) above
	 * @after, ascending, at most @max into @ids: how many (0 at the end).
	 */
	size_t (*list_ids)(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *dir,
			   pid_t after, pid_t *ids, size_t max);
	/**
	 * Prepare @v to read node @n for @r: find the task, check access (the
	 * entry's access rule: -EACCES), load a mirror.  0, -ENOENT, -EACCES or
	 * -errno with a message in @err.
	 */
	int (*open)(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *n,
		    struct pfs_view *v, char *err, size_t errlen);
	/** Make @v current for rendering; -ESRCH when its task is gone. */
	int (*enter)(struct pfs_source *s, const struct pfs_node *n, struct pfs_view *v);
	/** End what enter began. */
	void (*leave)(struct pfs_source *s, struct pfs_view *v);
	/** Free what open loaded. */
	void (*close)(struct pfs_source *s, struct pfs_view *v);
	/**
	 * Run @fn on the served model under the write lock (a control call:
	 * kill, renice, ...); -EOPNOTSUPP for a source without a model (live).
	 */
	int (*control)(struct pfs_source *s, int (*fn)(void *arg, struct mach_machine *m), void *arg);
	/** The thread group of thread @tid (the kernel's /proc/<tid> works for any thread); 0 if none. */
	pid_t (*tgid_of)(struct pfs_source *s, const struct pfs_reader *r, pid_t tid);
	/** Free the source. */
	void (*destroy)(struct pfs_source *s);
};

struct pfs_source {
	const struct pfs_source_ops *ops;
	/* Names and attributes stay valid for long (a model's tasks do not come and go by themselves). */
	bool stable;
	/* Processes from this pid up come and go as real ones do: never cache them (0: none). */
	pid_t volatile_from;
};

/** Options of a model source. */
struct pfs_model_opts {
	/*
	 * Bring @m up to @now_ns of CLOCK_BOOTTIME (the simulator), or NULL for a
	 * machine that stands still.  Called with the model locked for writing.
	 */
	int (*advance)(void *ctx, struct mach_machine *m, uint64_t now_ns);
	void *advance_ctx;
	/*
	 * A real procfs of the readers' pid namespace, or -1: a reader's own
	 * pid directory is mirrored from it, so it sees itself.
	 */
	int reader_proc_fd;
	/*
	 * With reader_proc_fd: every process of that namespace from this pid up
	 * is mirrored and listed among the model's (`uprocfs run`: the command
	 * and all it starts), hung under the machine's login shell.  0: only
	 * each reader's own process, shown to itself.
	 */
	pid_t mirror_from;
};

/** A source serving model @m (owned by the caller). 0 or -ENOMEM. */
int pfs_model_source_new(struct mach_machine *m, const struct pfs_model_opts *o, struct pfs_source **out);

/**
 * Bring model source @s up to now (the simulator), then run @fn on its
 * machine under the read lock, readers of the tree going on meanwhile
 * (`uprocfs run --preload` copies the machine so).  @fn's return, or
 * -EINVAL for a source of another kind.
 */
int pfs_model_source_read(struct pfs_source *s, int (*fn)(void *arg, const struct mach_machine *m), void *arg);

/**
 * A source mirroring the real procfs at @proc_fd (kept open by the caller):
 * each open reads the kernel's files through the loader and renders them
 * again.  0 or -ENOMEM.
 */
int pfs_live_source_new(int proc_fd, struct pfs_source **out);

/** Free a source of either kind. */
void pfs_source_free(struct pfs_source *s);

/**
 * Render node @n whole from @s for @r (the CLI's read): open, enter, render,
 * leave, close.  0 or -errno with a message in @err.
 */
int pfs_source_render(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *n,
		      char **out, size_t *len, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_SOURCE_H */
