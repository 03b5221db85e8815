/* SPDX-License-Identifier: MIT */
/*
 * procfs.h - the file table: every file, directory and symlink uprocfs
 * serves, declared once with everything each layer needs, and the one path
 * parser over it.
 *
 * An entry names its place (a scope and a path inside it), its kind and
 * mode, who may read it, when it exists, the renderer that prints it from a
 * const machine model, and the loader entry that parses it back.  The CLI
 * (render, verify, capture), the FUSE filesystem and the benches consult only
 * this table: no file name is tested anywhere else.
 *
 * Scopes are the directories that repeat: /proc itself, each /proc/<pid>,
 * each /proc/<pid>/task/<tid>.  A path component "*" in an entry is a
 * collection: a directory whose children are the instances of something in
 * the model (a task's open files: "fd/ *"; the pids of the machine: "*"
 * in the global scope, each one the root of a process scope).
 */
#ifndef UPROCFS_PROCFS_H
#define UPROCFS_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "uprocfs/load.h"
#include "uprocfs/machine.h"
#include "uprocfs/pfs_ctx.h"
#include "uprocfs/seq_file.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The directories that repeat; an entry's path is relative to its scope's directory. */
enum pfs_scope {
	PFS_SCOPE_GLOBAL, /* /proc/NAME */
	PFS_SCOPE_TGID,   /* /proc/<pid>/NAME: the whole thread group */
	PFS_SCOPE_TID,    /* /proc/<pid>/task/<tid>/NAME: one thread */
	PFS_NR_SCOPES
};

/** Scope bits for pfs_entry.scopes: an entry may exist in several. */
#define PFS_IN(scope) (1u << (scope))
#define PFS_IN_TASK (PFS_IN(PFS_SCOPE_TGID) | PFS_IN(PFS_SCOPE_TID))

enum pfs_kind {
	PFS_FILE, /* read through the seq_file protocol */
	PFS_DIR,
	PFS_LINK, /* a symlink: readlink */
};

/*
 * Who may read, beyond the mode bits the kernel checks on the inode (FUSE's
 * default_permissions does that part): pfs_entry.access is 0 (the mode bits
 * alone) or these bits, as fs/proc/base.c checks each file.
 */
#define PFS_ACC_PTRACE_READ   0x01u /* ptrace_may_access(PTRACE_MODE_READ_FSCREDS) */
#define PFS_ACC_PTRACE_ATTACH 0x02u /* ptrace_may_access(PTRACE_MODE_ATTACH_FSCREDS) */
#define PFS_ACC_AT_READ       0x04u /* checked when read (lock_trace in show): open succeeds, read fails */
#define PFS_ACC_MM            0x08u /* only against a task's mm (mm_access): no mm, or the reader's own, passes */
#define PFS_ACC_CAP_SYS_ADMIN 0x10u /* also CAP_SYS_ADMIN (stack) */
#define PFS_ACC_NEED_MM       0x20u /* __mem_open: a task without an mm fails with ESRCH (environ, auxv) */

/** Directories whose children come from the model or the source. */
enum pfs_coll {
	PFS_COLL_NONE,
	PFS_COLL_PIDS,  /* the machine's processes: children are PFS_SCOPE_TGID roots */
	PFS_COLL_TIDS,  /* a process's threads: children are PFS_SCOPE_TID roots */
	PFS_COLL_FDS,   /* a process's open files (fd/, fdinfo/): leaves named by fd number */
	PFS_NR_COLLS
};

/** One reader of the tree: what self points to and whom access rules are checked for. */
struct pfs_reader {
	pid_t pid, tid;            /* in the served machine's numbering; 0: not known */
	uid_t uid;                 /* fs uid and gid of the caller */
	gid_t gid;
	bool cap_sys_ptrace;       /* effective capabilities that override the checks */
	bool cap_sys_admin;
};

struct pfs_entry;

/** A predicate on the machine (global scope) or the task (task scopes). */
typedef bool (*pfs_exists_fn)(const struct pfs_ctx *c);

struct pfs_entry {
	const char *path;                 /* inside the scope: "status", "pressure/cpu", "ns/pid", "*" */
	unsigned int scopes;              /* PFS_IN(...) bits */
	enum pfs_kind kind;
	mode_t mode;                      /* permission bits, as the kernel's */
	unsigned int access;              /* PFS_ACC_* bits, 0: the mode bits alone */
	pfs_exists_fn exists;             /* NULL: always (while its scope exists) */
	/* PFS_FILE: single_open (show) or an iterator (ops) */
	int (*show)(struct seq_file *m, void *v);
	const struct seq_operations *ops;
	size_t (*first_size)(const struct pfs_ctx *c); /* single_open_size, or NULL: 4096 */
	/* PFS_LINK: write the target; 0, -ENOENT or -ENAMETOOLONG */
	int (*readlink)(const struct pfs_ctx *c, char *buf, size_t size);
	/* PFS_DIR whose path ends in "*": the instances */
	enum pfs_coll coll;
	enum pfs_scope child_scope;       /* PFS_COLL_PIDS/TIDS: the scope each child roots */
	unsigned int arg;
	/* the loader entry that parses this file, or MACH_LD_NONE: served, not loaded nor verified */
	enum mach_ld_kind load;
	/* other files the renderer takes its data from (PFS_NEEDS bits): what a mirror must load */
	uint64_t needs;
	const char *mirrors;              /* the kernel function it mirrors */
};

/** A pfs_entry.needs bit: the entry renders from what a file of loader kind @kind says. */
#define PFS_NEEDS(kind) (UINT64_C(1) << (kind))

/** The loader kinds a mirror must read to render @e: its own, what it needs, and a task's status and stat. */
uint64_t pfs_entry_needs(const struct pfs_entry *e);

/** The table, and its length. */
extern const struct pfs_entry pfs_entries[];
extern const size_t pfs_nentries;

/** An entry's index, for compact references (inode numbers). */
static inline unsigned int pfs_entry_index(const struct pfs_entry *e)
{
	return (unsigned int)(e - pfs_entries);
}

/* ------------------------------------------------------------------ */
/* Nodes: an entry at a place                                          */

/** A node of the served tree: an entry and the instances that place it. */
struct pfs_node {
	const struct pfs_entry *entry;    /* NULL: the root of the tree */
	enum pfs_scope scope;             /* which scope the entry is seen in */
	pid_t pid, tid;                   /* task scopes (tid 0 in PFS_SCOPE_TGID) */
	uint32_t inst;                    /* the "*" leaf instance */
};

/** The root directory. */
static inline struct pfs_node pfs_root(void)
{
	return (struct pfs_node){ .entry = NULL, .scope = PFS_SCOPE_GLOBAL };
}

/** True when @n is a directory (the root, a scope root, or a PFS_DIR entry). */
bool pfs_node_is_dir(const struct pfs_node *n);

/** The node's mode as stat(2) shows it (type and permission bits). */
mode_t pfs_node_mode(const struct pfs_node *n);

/**
 * The child @name of directory @dir, by syntax alone: pids, tids and leaf
 * instances are parsed, not checked against a machine (see pfs_node_exists).
 * 0, -ENOENT or -ENOTDIR.
 */
int pfs_child(const struct pfs_node *dir, const char *name, struct pfs_node *out);

/**
 * Static children of @dir in listing order, from position @*pos (0 first);
 * advances @*pos.  Collections are not listed here: see pfs_dir_coll.
 * Returns false past the end.  @c decides the entries' exists predicates
 * (NULL: list all).
 */
bool pfs_dir_next(const struct pfs_node *dir, const struct pfs_ctx *c, unsigned int *pos,
		  const char **name, struct pfs_node *out);

/** The collection entry of @dir (its "*" child), or NULL. */
const struct pfs_entry *pfs_dir_coll(const struct pfs_node *dir);

/**
 * The instances of a leaf collection on the task bound in @c, in listing
 * order: the first one at cursor *@pos or after it, advancing the cursor
 * (start at 0).  False at the end.
 */
bool pfs_coll_next(enum pfs_coll coll, const struct pfs_ctx *c, uint64_t *pos, uint32_t *inst);

/** Whether @n's entry exists for the task or machine in @c (its exists predicate). */
bool pfs_node_exists(const struct pfs_node *n, const struct pfs_ctx *c);

/**
 * Parse a path ("/proc/stat", "stat", "/proc/42/status", "42/task/43/stat",
 * "42/fd/3") into a node.  Syntax only; -ENOENT with a message in @err.
 */
int pfs_parse_path(const char *path, struct pfs_node *out, char *err, size_t errlen);

/** Write @n's path relative to the root ("42/task/43/stat"); 0 or -ENAMETOOLONG. */
int pfs_node_path(const struct pfs_node *n, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Reading against a model                                             */

/**
 * Fill @c for reading @n from @mach: the process and thread for task
 * scopes, the entry's arg and instance.  -ENOENT when the task or the file
 * does not exist on this machine.  The reader fields stay as they are.
 */
int pfs_bind(const struct mach_machine *mach, const struct pfs_node *n, struct pfs_ctx *c);

/** Open file node @n for reading with @ctx (which must outlive @m); 0 or -errno. */
int pfs_open(struct seq_file *m, const struct pfs_node *n, struct pfs_ctx *ctx);

/** Render file node @n whole into a malloc'd buffer; 0 or -errno. */
int pfs_render(const struct pfs_node *n, const struct pfs_ctx *ctx, char **out, size_t *len);

/**
 * Parse @path and bind it against @mach with full access (the CLI's view):
 * -ENOENT with a message in @err when no such file or task exists.
 */
int pfs_resolve(const struct mach_machine *mach, const char *path, struct pfs_node *n, struct pfs_ctx *ctx,
		char *err, size_t errlen);

/**
 * May reader @r open node @n of the task bound in @c, by the entry's access
 * rule?  Sets c->ptrace_ok (stat's masked fields) and c->read_denied (a
 * rule checked at read time).  0, -EACCES, or -ESRCH (PFS_ACC_NEED_MM).  A
 * NULL reader (the command line) may read everything.
 */
int pfs_access_check(const struct pfs_node *n, const struct pfs_reader *r, struct pfs_ctx *c);

/** pfs_for_each_file: every file and symlink, not only those the loader parses. */
#define PFS_EACH_ALL 1u

/**
 * Call @fn for every loadable file of @mach (every file and symlink with
 * PFS_EACH_ALL) that exists on it, in the order a capture writes them:
 * global files, then each process's files and each of its threads'.  Stops
 * at the first non-zero return and returns it.
 */
int pfs_for_each_file(const struct mach_machine *mach, unsigned int flags,
		      int (*fn)(void *arg, const struct pfs_node *n, const struct pfs_ctx *c), void *arg);

/* ------------------------------------------------------------------ */
/* Loading: the table names the files the loader parses                 */

/** Every file the loader parses, by its name in a tree, in table order; *@n set. */
const struct mach_ld_name *pfs_load_names(size_t *n);

/** mach_load_tree with the table's files (@opts may be NULL: everything). */
int pfs_load_tree(const char *dir, const struct mach_load_opts *opts, struct mach_machine **out,
		  struct mach_load_report *report, char *err, size_t errlen);

/**
 * Give @ld the text of the file at @path ("meminfo", "42/status",
 * "42/task/43/maps"): the path parser says which file it is.  -EINVAL for a
 * path of no file the loader parses.
 */
int pfs_load_text(struct mach_loader *ld, const char *path, const char *text, size_t len, char *err,
		  size_t errlen);

/* ------------------------------------------------------------------ */
/* Verifying a model against the text it was loaded from               */

enum pfs_verdict { PFS_IDENTICAL, PFS_DIFFERS, PFS_SKIPPED };

/** One file's outcome, for pfs_verify's callback. */
struct pfs_verify_file {
	const struct mach_load_file *loaded; /* path, the text read (or skip reason) */
	enum pfs_verdict verdict;
	const char *text;                    /* what uprocfs rendered (NULL when it could not) */
	size_t len;
	const char *why;                     /* PFS_DIFFERS without text: why it could not render */
};

struct pfs_verify_counts {
	size_t identical, differ, skipped;
};

/**
 * Render every file of @report that loaded from @mach (the machine loaded
 * with it) and compare with the text read; call @each (may be NULL) for
 * every file, in report order, and count the verdicts into @out.
 * 0 or -ENOMEM.
 */
int pfs_verify(const struct mach_machine *mach, const struct mach_load_report *report,
	       void (*each)(void *arg, const struct pfs_verify_file *f), void *arg,
	       struct pfs_verify_counts *out);

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_PROCFS_H */
