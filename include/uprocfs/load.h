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
#include <stdint.h>
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
	unsigned int mode;  /* permission bits where they say something (a /proc/sys key), S_IFLNK for a link, else 0 */
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
	MACH_LD_SOFTIRQS,         /* /proc/softirqs: after stat (moves with it: see mach_ld_group) */
	MACH_LD_INTERRUPTS,       /* /proc/interrupts: after stat */
	MACH_LD_SYSCTL,           /* a tree: every file under /proc/sys is a key (mach_loader_sysctl) */
	/* the rest of the machine (mach_sys.h) */
	MACH_LD_LOCKS,
	MACH_LD_MISC,
	MACH_LD_SWAPS,
	MACH_LD_CGROUPS,
	MACH_LD_CMDLINE,          /* /proc/cmdline (not /proc/<pid>/cmdline) */
	MACH_LD_DEVICES,
	MACH_LD_VERSION,
	MACH_LD_SLABINFO,
	MACH_LD_ZONEINFO,
	MACH_LD_BUDDYINFO,
	MACH_LD_DISKSTATS,
	MACH_LD_PARTITIONS,
	MACH_LD_FILESYSTEMS,
	/*
	 * /sys subtrees: every file the table serves beneath a directory marked
	 * with the kind is one record of it (mach_loader_sys), named by its
	 * attribute and instance (mach_platform.h enum mach_sys_attr)
	 */
	MACH_LD_SYS_CPU,          /* /sys/devices/system/cpu */
	MACH_LD_SYS_NODE,         /* /sys/devices/system/node */
	MACH_LD_SYS_HWMON,        /* /sys/class/hwmon and the devices it links to */
	MACH_LD_SYS_THERMAL,      /* /sys/class/thermal, /sys/devices/virtual/thermal */
	MACH_LD_SYS_THP,          /* /sys/kernel/mm/transparent_hugepage */
	/* the objects' trees: a file is named by its path below /sys (mach_ld_sys_file.rel) */
	MACH_LD_SYS_BLOCK,        /* block/, class/block/, dev/block/ and the devices' directories */
	MACH_LD_SYS_CGROUP,       /* fs/cgroup/ (cgroup v2) */
	MACH_LD_SYS_NET,          /* class/net/ and the network devices' directories (after /proc/<pid>/net/dev) */
	/* per task: /proc/<pid>/X (tid 0) or /proc/<pid>/task/<tid>/X */
	MACH_LD_PID_STATUS,
	MACH_LD_PID_STAT,
	MACH_LD_PID_STATM,
	MACH_LD_PID_MAPS,
	MACH_LD_PID_CMDLINE,
	MACH_LD_PID_COMM,
	/* namespaces, control groups, mounts (mach_ns.h) */
	MACH_LD_PID_CGROUP,
	MACH_LD_PID_CPUSET,
	MACH_LD_PID_MOUNTS,
	MACH_LD_PID_MOUNTINFO,
	MACH_LD_PID_MOUNTSTATS,
	MACH_LD_PID_NS_NET,       /* the ns/ links, in enum mach_ns_type order */
	MACH_LD_PID_NS_UTS,
	MACH_LD_PID_NS_IPC,
	MACH_LD_PID_NS_PID,
	MACH_LD_PID_NS_PID_FOR_CHILDREN,
	MACH_LD_PID_NS_USER,
	MACH_LD_PID_NS_MNT,
	MACH_LD_PID_NS_CGROUP,
	MACH_LD_PID_NS_TIME,
	MACH_LD_PID_NS_TIME_FOR_CHILDREN,
	/* open files, links and the small files of fs/proc/base.c (load_fds.c, load_pid_misc.c) */
	MACH_LD_PID_FD,           /* fd/<n>: a symlink, one file per open fd */
	MACH_LD_PID_FDINFO,       /* fdinfo/<n> */
	MACH_LD_PID_CWD,          /* symlinks: the target is the text */
	MACH_LD_PID_ROOT,
	MACH_LD_PID_EXE,
	MACH_LD_PID_IO,
	MACH_LD_PID_LIMITS,
	MACH_LD_PID_OOM_SCORE,
	MACH_LD_PID_OOM_SCORE_ADJ,
	MACH_LD_PID_OOM_ADJ,
	MACH_LD_PID_LOGINUID,
	MACH_LD_PID_SESSIONID,
	MACH_LD_PID_AUTOGROUP,
	MACH_LD_PID_PERSONALITY,
	MACH_LD_PID_TIMERSLACK_NS,
	MACH_LD_PID_SMAPS,
	MACH_LD_PID_SMAPS_ROLLUP,
	MACH_LD_PID_SCHEDSTAT,
	MACH_LD_PID_WCHAN,
	MACH_LD_PID_STACK,
	MACH_LD_PID_SYSCALL,
	MACH_LD_PID_CHILDREN,     /* task/<tid>/children only */
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

/** Whether @kind is a collection: one file per instance under a directory (fd/<n>, fdinfo/<n>). */
static inline bool mach_ld_kind_coll(enum mach_ld_kind kind)
{
	return kind == MACH_LD_PID_FD || kind == MACH_LD_PID_FDINFO;
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
 * Whether a mirror of the live kernel always reads @kind: the machine-wide
 * files the model's counters come from, and a task's status and stat.  A
 * tree (mach_load_tree) may lack any file: it loads what is there.
 */
bool mach_ld_required(enum mach_ld_kind kind);

/**
 * Files whose counters move together: a file of a group is parsed after the
 * group's first (its kind is returned; it comes first in the table) and
 * checked against it, and a tree walk reads a group's files back to back.
 * When the counters moved between the reads, its parse fails (-EAGAIN, or
 * -EINVAL from a check against the first) and the reader reads the whole
 * group again; a disagreement that survives an identical re-read is a real
 * one.  /proc/softirqs and /proc/interrupts attribute /proc/stat's totals
 * to CPUs; meminfo's SwapTotal is the sum of the swaps; diskstats' devices
 * are partitions'; zoneinfo's zones are buddyinfo's.  Other kinds return
 * themselves.
 */
enum mach_ld_kind mach_ld_group(enum mach_ld_kind kind);

/** Whether @kind is a /sys subtree's (mach_loader_sys): its files live in the /sys tree, not /proc's. */
static inline bool mach_ld_kind_sysfs(enum mach_ld_kind kind)
{
	return kind >= MACH_LD_SYS_CPU && kind <= MACH_LD_SYS_NET;
}

/** Whether @kind names a directory tree (every file beneath is one record) rather than one file. */
static inline bool mach_ld_kind_tree(enum mach_ld_kind kind)
{
	return kind == MACH_LD_SYSCTL;
}

/**
 * A set of loader kinds, one bit each (MACH_LD_BIT): what a renderer needs
 * loaded, what a session read.  128 bits: more kinds than one word holds.
 */
__extension__ typedef unsigned __int128 mach_ld_set;
#define MACH_LD_BIT(kind) ((mach_ld_set)1 << (kind))
#define MACH_LD_ALL (~(mach_ld_set)0)

/** A file for the tree walk to read: where it is in a tree, and what it is. */
struct mach_ld_name {
	const char *name;         /* machine-wide: under the tree's root; per task: under <pid>/ and task/<tid>/ */
	enum mach_ld_kind kind;
	/*
	 * A symlink: its target is the text (readlink), and a link that does
	 * not resolve (ENOENT: a zombie's cwd) has none, which is no error.
	 */
	bool link;
	bool tgid_only;           /* per task, but only under <pid>/, not task/<tid>/ (mountstats) */
	bool tid_only;            /* per task, but only under task/<tid>/, not <pid>/ (children) */
	/*
	 * What reading it gives when the task has none (a zombie's mounts:
	 * -EINVAL, its ns/net: -ENOENT): not an error, not a sign that the task
	 * exited, but a fact the loader checks against the task; 0: none.
	 */
	int absent_rc;
	/* a collection (mach_ld_kind_coll) is named by its directory ("fd"): listed, each entry read */
};

/** Whether @kind is one of the ns/ links; its enum mach_ns_type is kind - MACH_LD_PID_NS_NET. */
static inline bool mach_ld_kind_ns(enum mach_ld_kind kind)
{
	return kind >= MACH_LD_PID_NS_NET && kind <= MACH_LD_PID_NS_TIME_FOR_CHILDREN;
}

/** What the file table says a file of a /sys tree is (mach_loader_sys). */
struct mach_ld_sys_file {
	enum mach_ld_kind kind;   /* its subtree's kind (mach_ld_kind_sysfs) */
	unsigned int attr;        /* which file: enum mach_sys_attr (mach_platform.h) */
	uint32_t inst;            /* the instance of the directory holding it (a CPU, a cache leaf, a node...) */
	bool link;                /* a symlink: its target is the text */
	const char *rel;          /* its path below /sys ("block/vda/stat"): what the objects' trees parse */
};

/**
 * One member of a /proc tree held in memory (an archive read whole): what
 * mach_load_tree reads instead of a directory when mach_load_opts.members
 * is set.  Directories need no member of their own: a member's path makes
 * its parents.
 */
struct mach_tree_member {
	const char *path;   /* beneath the tree's root: "stat", "42/task/43/stat"; no "", "." or ".." part */
	char type;          /* 'f' a regular file, 'd' a directory, 'l' a symlink (never followed) */
	unsigned int mode;  /* permission bits (a /proc/sys key's say who may read it) */
	int64_t mtime_ns;   /* last modification, ns since the epoch: the younger file of a torn pair */
	const char *data;   /* a file's bytes, a symlink's target; not NUL-terminated */
	size_t len;
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
	/*
	 * /sys beside /proc.  A tree written by capture holds proc/ and sys/;
	 * its sys/ is read unless @sys_dir says otherwise.  The live /proc has
	 * none: @sys_dir names the /sys to read with it ("/sys"), NULL none.
	 * @sys_classify is how the file table names a path under it ("devices/
	 * system/cpu/cpu0/online"): 0 and @f for a file it serves and loads, 0
	 * for a directory it serves (@dir), -ENOENT for anything else.  @m is
	 * the machine as /proc loaded it: the objects' directories (a disk's,
	 * a group's) are named after what it holds.  /sys is read after /proc,
	 * in a session of its own.  NULL: no /sys is read.
	 */
	const char *sys_dir;
	int (*sys_classify)(const struct mach_machine *m, const char *rel, bool dir, struct mach_ld_sys_file *f);
	/* read these (an archive's members) instead of the directory; it names them in messages */
	const struct mach_tree_member *members;
	size_t nmembers;
	/* and the archive's /sys (paths beneath it), read as sys_dir would be; sys_dir names it */
	const struct mach_tree_member *sys_members;
	size_t nsys_members;
};

/**
 * Load the /proc tree at @dir ("/proc" for the live kernel, a directory
 * written by `uprocfs capture`, or the members of an archive that
 * opts->members holds).  On success *@out is the model and, when @report
 * is non-NULL, it lists every file with its text or skip reason.
 *
 * Every file loads on its own: one that does not parse, or that the model
 * cannot hold exactly, is skipped with its path, line and reason, and the
 * rest of the tree loads.  A file the tree lacks is absent from the model
 * too (mach_machine.lacks: served as ENOENT, not in the report).  Files of
 * one process that disagree (a capture copied while the process ran) keep
 * both values where the model holds both (Threads: and the task/
 * directories, VmRSS and stat's rss), else the younger file (mtime, then
 * read order) is skipped, the reason naming both.  On the live /proc a
 * process is read again while its files disagree, and only then so.
 *
 * A tree that is not the live /proc is read only beneath @dir: what a /proc
 * tree never holds there (a symlink, a FIFO, a device) is skipped, not
 * followed or waited on.  Returns 0, or -errno with a message in @err for
 * what stops the whole load (the tree cannot be opened, no memory).
 */
int mach_load_tree(const char *dir, const struct mach_load_opts *opts, struct mach_machine **out,
		   struct mach_load_report *report, char *err, size_t errlen);

/** Free what a report holds. */
void mach_load_report_free(struct mach_load_report *report);

/*
 * What a capture says of itself: the file MACH_CAPTURE_INFO at the root
 * of a tree `uprocfs capture` writes, lines of "key value":
 *   uprocfs-capture 1
 *   kernel_release 6.18.0-1-amd64       uname -r of the captured kernel
 *   time 1764547200.123456789           CLOCK_REALTIME when captured (s.ns)
 *   boottime 10130.210012345            CLOCK_BOOTTIME when captured (s.ns)
 *   hostname build7                     (optional) uname -n
 * Unknown keys are ignored (later versions may add some).  The loader
 * takes the kernel release for the profile, and the clocks where the tree
 * lacks /proc/stat's btime or /proc/uptime, so a served capture shows the
 * machine at the time it was taken.
 */
#define MACH_CAPTURE_INFO "uprocfs-capture"

struct mach_capture_info {
	char kernel_release[64];
	char hostname[65];
	uint64_t time_ns;         /* 0: unknown */
	uint64_t boottime_ns;     /* 0: unknown */
};

/** Parse a MACH_CAPTURE_INFO text; 0 or -EINVAL with "path:line: ..." in @err. */
int mach_capture_info_parse(const char *path, const char *text, size_t len, struct mach_capture_info *ci,
			    char *err, size_t errlen);

/** Write @ci as a MACH_CAPTURE_INFO text into @buf; its length, or -ENOSPC. */
int mach_capture_info_format(const struct mach_capture_info *ci, char *buf, size_t size);


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
 * Load one key of a /proc/sys tree into @ld's machine (its tree is created
 * on first use): @key is its path below /proc/sys ("kernel/hostname"),
 * @mode its permission bits, and @read_rc 0 with what one read from offset
 * 0 gave in @text, or -EIO when the read failed so (an unset key).  A key
 * its owner may not read (0200) is write-only, and not read by the caller.
 * Numbers in the kernel's form load as numbers, other text as a string.
 * 0 with *@skip NULL when the key loaded as read; 0 with *@skip set to a
 * reason when the model holds the key but not what this read said (a
 * write-only or unset key, a new random UUID, a value another file read
 * before shows otherwise); or -EINVAL / -ENOTDIR / -ENOMEM with a message.
 */
int mach_loader_sysctl(struct mach_loader *ld, const char *key, unsigned int mode, int read_rc, const char *text,
		       size_t len, const char **skip, char *err, size_t errlen);

/**
 * Load every key of the /proc/sys tree at @dir under @dirfd (a real procfs
 * when @live, whose values may change between two reads: each key is read
 * twice, and a key that changed is read a third time, kept when it then
 * held still; otherwise a written tree, read beneath @dirfd).  @each (may
 * be NULL) hears of every key: its path under @dirfd ("sys/kernel/hostname"),
 * its mode, NULL or the reason it is skipped, and the text loaded.  0 or -errno with
 * a message in @err.
 */
int mach_loader_sysctl_tree(struct mach_loader *ld, int dirfd, const char *dir, bool live,
			    int (*each)(void *arg, const char *path, unsigned int mode, const char *skip, const char *text,
					size_t len),
			    void *arg, char *err, size_t errlen);

/**
 * Load one file of a /sys subtree (@f says which, as the file table names
 * it) into @ld's machine; @text NULL and @f->attr MACH_SYSA_NONE say that
 * the subtree's root directory exists (an empty /sys/class/thermal).  0
 * with *@skip NULL when loaded as read; 0 with *@skip a reason when the
 * model holds it but not what this read said (cpuinfo_cur_freq beside
 * scaling_cur_freq); -EINVAL or -ENOMEM with "path:line: ..." in @err.
 * What files say of each other (a mask and the ids, a cache's size and
 * its geometry) is checked by mach_loader_finish.
 */
int mach_loader_sys(struct mach_loader *ld, const struct mach_ld_sys_file *f, const char *path, const char *text,
		    size_t len, const char **skip, char *err, size_t errlen);

/**
 * mach_loader_file for instance @inst of a collection kind (fd/3: kind
 * MACH_LD_PID_FD, @inst 3).  Other kinds take @inst 0.
 */
int mach_loader_file_inst(struct mach_loader *ld, enum mach_ld_kind kind, pid_t pid, pid_t tid, uint32_t inst,
			  const char *path, const char *text, size_t len, char *err, size_t errlen);

/**
 * What a collection directory listed for a task: every instance, whether
 * or not its own file could be read (root lists pid 1's fd/ but may not
 * read its links).  @path names the directory in messages.  0, -EINVAL
 * or -ENOMEM.
 */
int mach_loader_listing(struct mach_loader *ld, enum mach_ld_kind kind, pid_t pid, pid_t tid, const char *path,
			const uint32_t *insts, size_t n, char *err, size_t errlen);

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

/** Who a status text describes: ids at the innermost pid namespace level, credentials. */
struct mach_status_who {
	pid_t tgid, tid, sid;       /* sid 0 when the file has no NSsid line */
	uint32_t uid[4], gid[4];    /* real, effective, saved, fs */
	uint64_t cap_eff;
};

/** Parse what a status text says of its task's identity and rights; 0 or -EINVAL with "path:line: ..." in @err. */
int mach_status_who(const char *path, const char *text, size_t len, struct mach_status_who *who, char *err,
		    size_t errlen);

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
