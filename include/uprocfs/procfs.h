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
#include <sys/stat.h>
#include <sys/types.h>

#include "uprocfs/load.h"
#include "uprocfs/machine.h"
#include "uprocfs/pfs_ctx.h"
#include "uprocfs/seq_file.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The directories that repeat; an entry's path is relative to its scope's
 * directory.  A scope's instance (a pid, a sysctl directory) is what the
 * directory stands for.
 */
enum pfs_scope {
	PFS_SCOPE_GLOBAL, /* /proc/NAME */
	PFS_SCOPE_TGID,   /* /proc/<pid>/NAME: the whole thread group */
	PFS_SCOPE_TID,    /* /proc/<pid>/task/<tid>/NAME: one thread */
	PFS_SCOPE_SYSCTL, /* /proc/sys and every directory under it: instance = the directory */
	PFS_SCOPE_SYS,    /* /sys/NAME: the other tree a machine is served as */
	/* scopes declared after PFS_SCOPE_SYS root directories under /sys: sysfs rules (pfs_node_fstype) */
	PFS_SCOPE_SYSOBJ, /* a /sys directory standing for an object: a cgroup, a block device (pfs_sysobj.h) */
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
/*
 * sysctl_perm: the node's mode bits for the reader as test_perm picks them
 * (root the owner's, group root the group's, others the rest), with no
 * override for root: root's read of a 0200 key fails with EACCES.
 */
#define PFS_ACC_SYSCTL        0x40u
#define PFS_ACC_NEED_NS       0x80u /* mounts_open_common: a task without an nsproxy (a zombie) fails with EINVAL */
#define PFS_ACC_SELF_OR_NICE  0x100u /* timerslack_ns: the task itself, or CAP_SYS_NICE; EPERM at read */

/** Directories whose children come from the model or the source. */
enum pfs_coll {
	PFS_COLL_NONE,
	PFS_COLL_PIDS,  /* the machine's processes: children are PFS_SCOPE_TGID roots */
	PFS_COLL_TIDS,  /* a process's threads: children are PFS_SCOPE_TID roots */
	PFS_COLL_FDS,   /* a process's open files (fd/, fdinfo/): leaves named by fd number */
	PFS_COLL_SYSCTL_DIRS, /* the directories of a /proc/sys directory: each roots PFS_SCOPE_SYSCTL */
	PFS_COLL_SYSCTL_KEYS, /* the files of a /proc/sys directory */
	/* /sys: block devices and cgroups (src/table/sys_coll.c) */
	PFS_COLL_SYS_BLOCK,   /* /sys/block: a link per disk */
	PFS_COLL_CLASS_BLOCK, /* /sys/class/block: a link per disk and partition */
	PFS_COLL_DEV_BLOCK,   /* /sys/dev/block: a link per device, named MAJ:MIN */
	PFS_COLL_DEVICES,     /* /sys/devices: the top directories on the way to disks */
	PFS_COLL_DEVDIRS,     /* a device directory's subdirectories on the way to disks */
	PFS_COLL_BLKDEVS,     /* the disks in a device directory, the partitions in a disk's */
	PFS_COLL_BLK_HOLDERS, /* a block device's holders/: links to the device-mapper devices on it */
	PFS_COLL_BLK_SLAVES,  /* a device-mapper device's slaves/: a link to the device under it */
	PFS_COLL_CLASS_NET,   /* /sys/class/net: a link per network device of its namespace (sys_coll_net.c) */
	PFS_COLL_CGROUPS,     /* a cgroupfs directory's child groups */
	/* /sys (src/table/coll_sys.c): instances named by syntax ("cpu3"), found in the machine */
	PFS_COLL_SYS_CPUS,        /* devices/system/cpu/cpuN: instance N */
	PFS_COLL_SYS_CACHES,      /* cpuN/cache/indexK: N << 3 | K */
	PFS_COLL_SYS_CPU_NODE,    /* cpuN/nodeM, the link to its node: N */
	PFS_COLL_SYS_POLICIES,    /* devices/system/cpu/cpufreq/policyN: N */
	PFS_COLL_SYS_NODES,       /* devices/system/node/nodeN: N */
	PFS_COLL_SYS_NODE_CPUS,   /* nodeN/cpuM, the links to its CPUs: M */
	PFS_COLL_SYS_HWMON_PCI,   /* devices/pci0000:00/<function> a hwmon device is bound to: its index */
	PFS_COLL_SYS_HWMONS_PCI,  /* <function>/hwmon/hwmonN: N */
	PFS_COLL_SYS_HWMONS_ZONE, /* thermal_zoneK/hwmonN, a zone's own: N */
	PFS_COLL_SYS_HWMON_TEMPS, /* hwmonN/tempC_ATTR: N << 12 | channel << 4 | attr */
	PFS_COLL_SYS_HWMON_LINKS, /* class/hwmon/hwmonN: N */
	PFS_COLL_SYS_ZONES,       /* devices/virtual/thermal/thermal_zoneK: K */
	PFS_COLL_SYS_ZONE_LINKS,  /* class/thermal/thermal_zoneK: K */
	PFS_NR_COLLS
};

/**
 * Which filesystem's rules a node follows (attributes, listing order,
 * refusals).  PFS_FST_DEFAULT in an entry: by its tree, procfs under /proc
 * and sysfs under /sys; an entry under /sys/fs/cgroup says cgroupfs.
 */
enum pfs_fstype {
	PFS_FST_DEFAULT,
	PFS_FST_PROC,     /* st_size 0, table order, nlink 2 */
	PFS_FST_SYSFS,    /* attributes st_size 4096, links 0; kernfs hash order; dirs nlink 2 + subdirectories;
			     a file without read bits refuses every open for reading (EACCES) */
	PFS_FST_CGROUP,   /* kernfs as sysfs, but st_size 0, and a write-only file opens for root and refuses
			     the read (EINVAL) */
};

/**
 * How a collection's instances are named, found and listed (src/table/coll.c
 * holds one per enum pfs_coll; the pids and tids are the sources' to list).
 * @parent is the instance of the directory that holds them (a sysctl
 * directory), 0 where the bound task says it all (fd numbers).
 */
struct pfs_coll_ops {
	bool numeric;   /* names are the instances in decimal (fd numbers): parsed without the model */
	/*
	 * Named by syntax ("cpu3", "index2"): lookup gives the instance without
	 * the machine (c->mach may be NULL); has() says whether it exists.
	 */
	bool syntactic;
	/* named collections: the instance named @name under @parent, 0 or -ENOENT */
	int (*lookup)(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst);
	/* named collections: @inst's name in its directory into @buf; 0, -ENOENT or -ENAMETOOLONG */
	int (*name)(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size);
	/* a scope's named instances: @inst's path under the scope's root (/proc/sys), or NULL */
	int (*path)(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size);
	/*
	 * A collection inside another one's instance (cpu3/cache/index2): the
	 * instance of the directory that holds @inst, or NULL: the same value.
	 */
	uint32_t (*parent)(const struct pfs_ctx *c, uint32_t inst);
	/* listing under @parent: the next instance from cursor *@pos (0 first); false at the end */
	bool (*next)(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst);
	/* whether @inst exists (numeric ones: on the bound task) */
	bool (*has)(const struct pfs_ctx *c, uint32_t inst);
	/* the permission bits of @inst, or NULL: the entry's mode */
	mode_t (*mode)(const struct pfs_ctx *c, uint32_t inst);
	/* whether a read of @inst gives text that loads back as it (not write-only, not failing), or NULL: all */
	bool (*loadable)(const struct pfs_ctx *c, uint32_t inst);
	/* a read at a non-zero offset gives nothing (the proc_dointvec family), or NULL: none */
	bool (*whole_at_zero)(const struct pfs_ctx *c, uint32_t inst);
	/*
	 * The "*" entries of one directory share one cursor over its children
	 * (the directories and files of a /proc/sys directory, in name order):
	 * a listing merges them by cursor.
	 */
	bool shared_cursor;
};

/** The operations of collection @coll, or NULL (none, or pids and tids). */
const struct pfs_coll_ops *pfs_coll_ops(enum pfs_coll coll);

/** One reader of the tree: what self points to and whom access rules are checked for. */
struct pfs_reader {
	pid_t pid, tid;            /* in the served machine's numbering; 0: not known */
	uid_t uid;                 /* fs uid and gid of the caller */
	gid_t gid;
	bool cap_sys_ptrace;       /* effective capabilities that override the checks */
	bool cap_sys_admin;
	bool cap_sys_nice;
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
	enum pfs_scope child_scope;       /* a directory that roots a scope (pid dirs, /proc/sys): that scope */
	/*
	 * PFS_DIR: the error a listing gets when none of its entries exists
	 * (net/ of a task without a namespace: proc_tgid_net_readdir's
	 * -EINVAL), 0: an empty listing
	 */
	int empty_list_err;
	unsigned int arg;
	/* the loader entry that parses this file, or MACH_LD_NONE: served, not loaded nor verified */
	enum mach_ld_kind load;
	/* other files the renderer takes its data from (PFS_NEEDS bits): what a mirror must load */
	mach_ld_set needs;
	const char *mirrors;              /* the kernel function it mirrors */
	enum pfs_fstype fstype;           /* whose rules it follows; DEFAULT: its tree's (pfs_node_fstype) */
	/*
	 * A /sys attribute whose show function may refuse (speed of a link that
	 * is down): the errno its read fails with for the node bound in @c, 0
	 * when it shows.  NULL: it always shows.  A tree has no file for it.
	 */
	int (*refuses)(const struct pfs_ctx *c);
	/*
	 * A /sys directory the model does not fill: served empty, and `uprocfs
	 * run` binds the host's read-only over it, for the tools that need it.
	 */
	bool host;
	/*
	 * The text shows more to a reader who may ptrace the task (stat's
	 * code and stack addresses, wchan's symbol): a transport must never
	 * let another reader see such a rendering (FUSE passthrough's memfds).
	 */
	bool ptrace_masked;
};

/** The longest symlink target served (PATH_MAX, as readlink of /proc links allows). */
#define PFS_LINK_MAX 4096

/** A pfs_entry.needs bit: the entry renders from what a file of loader kind @kind says. */
#define PFS_NEEDS(kind) MACH_LD_BIT(kind)

/** The loader kinds a mirror must read to render @e: its own, what it needs, and a task's status and stat. */
mach_ld_set pfs_entry_needs(const struct pfs_entry *e);

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

/** The root directory of /proc. */
static inline struct pfs_node pfs_root(void)
{
	return (struct pfs_node){ .entry = NULL, .scope = PFS_SCOPE_GLOBAL };
}

/** The root directory of a tree: /proc (PFS_SCOPE_GLOBAL) or /sys (PFS_SCOPE_SYS). */
static inline struct pfs_node pfs_tree_root(enum pfs_scope tree)
{
	return (struct pfs_node){ .entry = NULL, .scope = tree };
}

/** True when @n is a directory (the root, a scope root, or a PFS_DIR entry). */
bool pfs_node_is_dir(const struct pfs_node *n);

/**
 * The node's mode as stat(2) shows it (type and permission bits).  A
 * collection whose instances have modes of their own (/proc/sys) takes
 * them from the machine bound in @c; without @c, the entry's mode.
 */
mode_t pfs_node_mode(const struct pfs_node *n, const struct pfs_ctx *c);

/** Whether @n's mode comes from the machine (pfs_node_mode needs a bound @c). */
bool pfs_node_mode_needs_machine(const struct pfs_node *n);

/** Whether a read of file @n at a non-zero offset gives nothing (numeric sysctl handlers). */
bool pfs_node_whole_at_zero(const struct pfs_node *n, const struct pfs_ctx *c);

/**
 * The child @name of directory @dir.  Pids, tids and numeric instances are
 * parsed by syntax alone, not checked against a machine (see pfs_bind);
 * named ones (sysctl entries) are looked up in the machine bound in @c, so
 * without @c they are not found.  0, -ENOENT or -ENOTDIR.
 */
int pfs_child(const struct pfs_node *dir, const char *name, const struct pfs_ctx *c, struct pfs_node *out);

/** Whether looking up names in directory @dir needs the machine (a named collection). */
bool pfs_dir_needs_machine(const struct pfs_node *dir);

/**
 * Static children of @dir in listing order, from position @*pos (0 first);
 * advances @*pos.  Collections are not listed here: see pfs_dir_coll.
 * Returns false past the end.  @c decides the entries' exists predicates
 * (NULL: list all).
 */
bool pfs_dir_next(const struct pfs_node *dir, const struct pfs_ctx *c, unsigned int *pos,
		  const char **name, struct pfs_node *out);

/** The @k-th collection entry of @dir (its "*" children: /proc/sys has two), or NULL. */
const struct pfs_entry *pfs_dir_coll(const struct pfs_node *dir, unsigned int k);

/**
 * The instances of @dir's collection on the machine or task bound in @c, in
 * listing order: the first one at cursor *@pos or after it, advancing the
 * cursor (start at 0), with its name in @name.  False at the end.
 */
bool pfs_dir_next_instance(const struct pfs_node *dir, const struct pfs_entry *coll, const struct pfs_ctx *c,
			   uint64_t *pos, struct pfs_node *out, char *name, size_t size);

/** Whether @dir's collections share one cursor and are listed together (pfs_dir_next_merged). */
bool pfs_dir_merged(const struct pfs_node *dir);

/**
 * pfs_dir_next_instance over all of @dir's collections at once, for a
 * directory whose collections share a cursor: the instance nearest after
 * *@pos of any of them.
 */
bool pfs_dir_next_merged(const struct pfs_node *dir, const struct pfs_ctx *c, uint64_t *pos, struct pfs_node *out,
			 char *name, size_t size);

/** Whether @n's entry exists for the task or machine in @c (its exists predicate). */
bool pfs_node_exists(const struct pfs_node *n, const struct pfs_ctx *c);

/**
 * Whether @n is missing only because its machine (or task) was loaded
 * without the text of a file it shows or renders from: a partial capture,
 * or a file skipped as damaged or torn.
 */
bool pfs_node_lacks_input(const struct pfs_node *n, const struct pfs_ctx *c);

/**
 * Parse a path ("/proc/stat", "stat", "/proc/42/status", "42/task/43/stat",
 * "42/fd/3", "sys/kernel/pid_max", "/sys/devices/system/cpu/online": a
 * relative path is under /proc) into a node; named components are looked
 * up in @mach (NULL: syntax only, named components not found).  -ENOENT with
 * a message in @err.
 */
int pfs_parse_path(const char *path, const struct mach_machine *mach, struct pfs_node *out, char *err,
		   size_t errlen);

/**
 * pfs_parse_path for the loader, while @mach is being loaded: a file whose
 * presence only the machine's not yet loaded attributes decide (a disk's
 * queue/scheduler is there when the queue has request queues, which that
 * file's own text says) is found as long as its object is.
 */
int pfs_parse_path_loading(const char *path, const struct mach_machine *mach, struct pfs_node *out, char *err,
		   size_t errlen);

/**
 * Write @n's path relative to the root of its tree, /proc or /sys
 * ("42/task/43/stat", "sys/kernel/pid_max", "devices/system/cpu/online");
 * a named instance's path comes from the machine bound in @c (may be NULL
 * for other nodes).  0, -ENOENT or -ENAMETOOLONG.
 */
int pfs_node_path(const struct pfs_node *n, const struct pfs_ctx *c, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* The rules of /sys (kernfs): attributes and listing order            */

/** Which filesystem's rules node @n follows (never PFS_FST_DEFAULT). */
enum pfs_fstype pfs_node_fstype(const struct pfs_node *n);

/** st_size as @n's filesystem reports it: a sysfs attribute's 4096 (PAGE_SIZE), else 0. */
off_t pfs_node_size(const struct pfs_node *n);

/** kernfs_name_hash of @name without a namespace: the order a kernfs directory lists in. */
uint32_t pfs_kernfs_hash(const char *name);

/** One child in a listing: its name (at names + name), its node, its kernfs hash. */
struct pfs_listing_ent {
	uint32_t hash;
	uint32_t name;
	struct pfs_node node;
};

/** The children of a directory, as pfs_dir_list gives them. */
struct pfs_listing {
	size_t n, cap;
	struct pfs_listing_ent *ents;
	char *names;
	size_t names_len, names_cap;
};

/**
 * Every child of @dir that exists on the machine or task bound in @c:
 * the table's entries and the instances of its collections, in listing
 * order (kernfs hash order where pfs_dir_hashed, else the table's, then
 * each collection's).  0 or -ENOMEM; free with pfs_listing_free.
 */
int pfs_dir_list(const struct pfs_node *dir, const struct pfs_ctx *c, struct pfs_listing *out);

/** Free what a listing holds. */
void pfs_listing_free(struct pfs_listing *l);

/** Whether @dir lists its children in kernfs hash order (sysfs, cgroupfs). */
bool pfs_dir_hashed(const struct pfs_node *dir);

/** The subdirectories of @dir on the machine in @c: a kernfs directory's nlink is 2 plus these. */
unsigned int pfs_dir_subdirs(const struct pfs_node *dir, const struct pfs_ctx *c);

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

/**
 * Render file node @n whole into a malloc'd buffer, followed by a NUL that
 * @len does not count (the text itself may hold NULs: cmdline, environ); a
 * symlink renders its target (what readlink gives).  0 or -errno.
 */
int pfs_render(const struct pfs_node *n, const struct pfs_ctx *ctx, char **out, size_t *len);

/**
 * The attributes the model decides beyond the entry's: an fd link's mode
 * follows its file's open mode (lr-x, l-wx, lrwx, l---------) and its size
 * is 64, the fd directory's size is the number of open fds.  @st already
 * holds the entry's mode; @c is bound to @n's task.
 */
void pfs_node_attr(const struct pfs_node *n, const struct pfs_ctx *c, struct stat *st);

/**
 * Parse @path and bind it against @mach with full access (the CLI's view):
 * -ENOENT with a message in @err when no such file or task exists.
 */
int pfs_resolve(const struct mach_machine *mach, const char *path, struct pfs_node *n, struct pfs_ctx *ctx,
		char *err, size_t errlen);

/**
 * May reader @r open node @n of the task bound in @c, by the entry's access
 * rule?  Sets c->ptrace_ok (stat's masked fields) and c->read_denied (the errno of a
 * rule checked at read time).  0, -EACCES, or -ESRCH (PFS_ACC_NEED_MM).  A
 * NULL reader (the command line) may read everything.
 */
int pfs_access_check(const struct pfs_node *n, const struct pfs_reader *r, struct pfs_ctx *c);

/** pfs_for_each_file: every file and symlink, not only those (files and links) the loader parses. */
#define PFS_EACH_ALL 1u

/**
 * Call @fn for every loadable file of @mach (every file and symlink with
 * PFS_EACH_ALL) that exists on it, in the order a capture writes them:
 * global files, the keys of /proc/sys (depth first, in name order; not
 * those a read of which fails or never gives the same twice), then each
 * process's files and each of its threads', then the files of /sys (depth
 * first, in listing order).  Stops at the first non-zero return and
 * returns it.
 */
int pfs_for_each_file(const struct mach_machine *mach, unsigned int flags,
		      int (*fn)(void *arg, const struct pfs_node *n, const struct pfs_ctx *c), void *arg);


/* ------------------------------------------------------------------ */
/* Loading: the table names the files the loader parses                 */

/**
 * What opening (or readlink of) @e gives for a task that has none of what it
 * shows: -EINVAL (mounts of a zombie), -ESRCH (environ without an mm),
 * -ENOENT (a symlink with nothing to point to); 0 when it always has one.
 */
int pfs_entry_absent_rc(const struct pfs_entry *e);

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
	const char *why;                     /* PFS_DIFFERS without text: why it could not render; PFS_SKIPPED: why */
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
