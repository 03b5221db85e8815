/* SPDX-License-Identifier: MIT */
/*
 * mach_ns.h - the machine model's namespaces, control groups and mount
 * tables: what /proc/<pid>/{ns/,cgroup,cpuset,mounts,mountinfo,mountstats}
 * print, and what /sys/fs/cgroup and /proc/mounts will serve.
 *
 * The kernel shares these between tasks (an nsproxy, a css_set, a mount
 * namespace), and so does the model: the machine holds tables of them and a
 * thread holds indices.  An index past the end of its table (or MACH_NONE)
 * means the model knows nothing of it, and the files that print it do not
 * exist for that task.
 */
#ifndef UPROCFS_MACH_NS_H
#define UPROCFS_MACH_NS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mach_cg_state;

/** An index into one of the machine's tables that names nothing. */
#define MACH_NONE UINT32_MAX

/* ------------------------------------------------------------------ */
/* Namespaces (fs/proc/namespaces.c, fs/nsfs.c)                         */

/** The entries of /proc/<pid>/ns/, in its readdir order (ns_entries[]). */
enum mach_ns_type {
	MACH_NS_NET,
	MACH_NS_UTS,
	MACH_NS_IPC,
	MACH_NS_PID,
	MACH_NS_PID_FOR_CHILDREN,
	MACH_NS_USER,
	MACH_NS_MNT,
	MACH_NS_CGROUP,
	MACH_NS_TIME,
	MACH_NS_TIME_FOR_CHILDREN,
	MACH_NR_NS
};

/*
 * The inodes of the initial namespaces (include/linux/proc_ns.h); the ones
 * created later count up from MACH_NS_INO_DYNAMIC (proc_alloc_inum).
 */
#define MACH_NS_INO_INIT_MNT 4026531832u
#define MACH_NS_INO_INIT_NET 4026531833u
#define MACH_NS_INO_INIT_TIME 4026531834u
#define MACH_NS_INO_INIT_CGROUP 4026531835u
#define MACH_NS_INO_INIT_PID 4026531836u
#define MACH_NS_INO_INIT_USER 4026531837u
#define MACH_NS_INO_INIT_UTS 4026531838u
#define MACH_NS_INO_INIT_IPC 4026531839u
#define MACH_NS_INO_DYNAMIC 4026531840u

/**
 * What one task's nsproxy, credentials and fs root give it; several tasks
 * share one.  A zombie has no nsproxy any more: the renderers know it by
 * its state, and then print only its pid and user namespaces.
 */
struct mach_nsset {
	uint32_t ino[MACH_NR_NS]; /* nsfs inode of each ("net:[INO]"); 0: not known */
	uint32_t mounts;          /* its mount namespace seen from its root: a mach->mnt_tables index */
};

/* ------------------------------------------------------------------ */
/* Control groups (kernel/cgroup/)                                      */

/** The controllers by subsystem id (include/linux/cgroup_subsys.h order). */
enum mach_cg_ss {
	MACH_SS_CPUSET,
	MACH_SS_CPU,
	MACH_SS_CPUACCT,
	MACH_SS_IO,        /* "blkio" on v1 */
	MACH_SS_MEMORY,
	MACH_SS_DEVICES,
	MACH_SS_FREEZER,
	MACH_SS_NET_CLS,
	MACH_SS_PERF_EVENT,
	MACH_SS_NET_PRIO,
	MACH_SS_HUGETLB,
	MACH_SS_PIDS,
	MACH_SS_RDMA,
	MACH_SS_MISC,
	MACH_SS_DMEM,
	MACH_SS_DEBUG,
	MACH_NR_SS
};

/** Hierarchies a machine may have: the v2 one and a v1 mount per controller, and named ones. */
#define MACH_CG_ROOTS_MAX 24

/** One hierarchy (struct cgroup_root): the v2 default one, or a v1 mount's. */
struct mach_cg_root {
	int id;                   /* hierarchy_id: 0 for the v2 default hierarchy */
	uint32_t ss_mask;         /* v1: the controllers bound to it (1u << MACH_SS_*); 0 on v2 */
	char *name;               /* v1 name= option ("systemd"), or NULL */
	uint32_t top;             /* its root group (a mach->cgroups index) */
};

/** One control group: a directory of a hierarchy. */
struct mach_cgroup {
	uint32_t root;            /* its hierarchy (a mach->cg_roots index) */
	uint32_t parent;          /* its parent group, MACH_NONE for a hierarchy's root */
	char *name;               /* its directory name, raw; "" for a hierarchy's root */
	uint64_t id;              /* cgroup id (its kernfs node's inode); 0: not known */
	uint32_t subtree_control; /* v2: controllers enabled for its children (1u << MACH_SS_*) */
	bool dead;                /* removed while a zombie still names it: " (deleted)" */
	struct mach_cg_state *st; /* v2: what its cgroupfs files keep (mach_sysfs.h); NULL: not known */
};

/**
 * What /proc shows of a task's css_set: its group in each hierarchy, and
 * for each controller the group whose state (css) it is charged to: on v2
 * the nearest group at or above its own whose parent enables the
 * controller, on v1 its group in the controller's hierarchy.
 */
struct mach_css_set {
	uint32_t cg[MACH_CG_ROOTS_MAX]; /* by mach->cg_roots index */
	uint32_t css[MACH_NR_SS];       /* a mach->cgroups index, MACH_NONE: not known */
};

/* ------------------------------------------------------------------ */
/* Mounts (fs/proc_namespace.c)                                         */

/* Per-mount flags (mnt_flags), in show_mnt_opts order after the read-only bit. */
#define MACH_MNT_RDONLY 0x001u
#define MACH_MNT_NOSUID 0x002u
#define MACH_MNT_NODEV 0x004u
#define MACH_MNT_NOEXEC 0x008u
#define MACH_MNT_NOATIME 0x010u
#define MACH_MNT_NODIRATIME 0x020u
#define MACH_MNT_RELATIME 0x040u
#define MACH_MNT_NOSYMFOLLOW 0x080u
#define MACH_MNT_IDMAPPED 0x100u

/* Superblock flags (s_flags), in show_sb_opts order after the read-only bit. */
#define MACH_SB_RDONLY 0x01u
#define MACH_SB_SYNC 0x02u
#define MACH_SB_DIRSYNC 0x04u
#define MACH_SB_MAND 0x08u
#define MACH_SB_LAZYTIME 0x10u

/** One mount of a mount namespace. */
struct mach_mount {
	int id;                   /* mnt_id */
	int parent;               /* the parent mount's id (the namespace root's may be outside the table) */
	uint32_t major, minor;    /* the superblock's device */
	unsigned int mnt_flags;   /* MACH_MNT_* */
	unsigned int sb_flags;    /* MACH_SB_* */
	int shared;               /* peer group of a shared mount ("shared:N"), 0: not shared */
	int master;               /* peer group it is a slave of ("master:N"), 0: not a slave */
	int propagate_from;       /* "propagate_from:N", 0: none */
	bool unbindable;
	char *root;               /* the path of the mount's root inside its filesystem */
	char *point;              /* where it is mounted, from the task's root */
	char *fstype;             /* "ext4", or type.subtype ("fuse.sshfs") */
	char *source;             /* the device name; NULL: none ("none", "no device") */
	char *fs_opts;            /* the filesystem's options, comma-separated, no leading comma; NULL: none */
};

struct mach_maker;

/** A mount namespace as its tasks see it from their root. */
struct mach_mnt_table {
	uint32_t ns_ino;          /* the namespace's nsfs inode; 0: not known */
	uint32_t maker_key;       /* which table @maker makes (the generator's table index) */
	size_t n;
	/*
	 * In the namespace's order (creation order); NULL when @maker makes
	 * them on demand: read them with mach_mnt_table_mounts(), never
	 * through this field.
	 */
	struct mach_mount *mounts;
	char *strings;            /* NULL: each mount owns its strings; else all of them lie in this block */
	const struct mach_maker *maker; /* NULL: @mounts holds them */
	uint64_t serial;          /* what this thread's made mounts are kept by (mach_new_serial); 0 when stored */
};

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_MACH_NS_H */
