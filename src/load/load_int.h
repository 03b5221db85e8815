/* SPDX-License-Identifier: MIT */
/*
 * load_int.h - what the loader's parsers hand each other.
 *
 * Global files (stat, meminfo, ...) parse straight into the machine.  The
 * per-pid files parse into records (one per file, typed values only), which
 * pid_assemble.c checks against each other and turns into one struct
 * mach_process: a process is built only from files that agree.
 */
#ifndef UPROCFS_LOAD_INT_H
#define UPROCFS_LOAD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lex.h"
#include "uprocfs/load.h"
#include "uprocfs/machine.h"

/* Widest bitmaps accepted: far above NR_CPUS=8192 and MAX_NUMNODES=1024. */
#define LD_MAX_CPU_BITS 65536u
#define LD_MAX_NODE_BITS 65536u

#define LD_PF_KTHREAD 0x00200000u /* task->flags: PF_KTHREAD */

/* ------------------------------------------------------------------ */
/* /proc/<pid>/status                                                   */

enum ld_st {
	ST_NAME, ST_UMASK, ST_STATE, ST_TGID, ST_NGID, ST_PID, ST_PPID, ST_TRACERPID,
	ST_UID, ST_GID, ST_FDSIZE, ST_GROUPS, ST_NSTGID, ST_NSPID, ST_NSPGID, ST_NSSID,
	ST_KTHREAD,
	ST_VMPEAK, ST_VMSIZE, ST_VMLCK, ST_VMPIN, ST_VMHWM, ST_VMRSS, ST_RSSANON, ST_RSSFILE,
	ST_RSSSHMEM, ST_VMDATA, ST_VMSTK, ST_VMEXE, ST_VMLIB, ST_VMPTE, ST_VMPMD, ST_VMSWAP,
	ST_HUGETLB, ST_COREDUMP, ST_THP, ST_UNTAG,
	ST_THREADS, ST_SIGQ, ST_SIGPND, ST_SHDPND, ST_SIGBLK, ST_SIGIGN, ST_SIGCGT,
	ST_CAPINH, ST_CAPPRM, ST_CAPEFF, ST_CAPBND, ST_CAPAMB, ST_NNP, ST_SECCOMP,
	ST_SECCOMP_FILTERS, ST_SSB, ST_SIB, ST_CPUS, ST_CPUS_LIST, ST_MEMS, ST_MEMS_LIST,
	ST_VCSW, ST_NVCSW, ST_X86, ST_X86_LOCKED,
	ST_NR
};

/* Optional status lines that the kernel profile decides. */
enum ld_dec {
	DEC_UMASK, DEC_NGID, DEC_NS, DEC_KTHREAD, DEC_HUGETLB, DEC_COREDUMP, DEC_THP,
	DEC_UNTAG, DEC_SECCOMP, DEC_SECCOMP_FILTERS, DEC_SIB, DEC_MEMS, DEC_X86,
	/* lines older kernels lack (and VmPMD, which only 4.0-4.14 print) */
	DEC_VMPIN, DEC_RSS, DEC_VMPMD, DEC_CAPAMB, DEC_NNP, DEC_SSB,
	/* not a line: whether an empty Groups: list prints a space (4.10+) */
	DEC_GROUPS_SPACE,
	/* decided by /proc/<pid>/stat: fields 45-47 (3.3+), 48-52 (3.5+), wchan an address (< 4.4) */
	DEC_STAT_BRK, DEC_STAT_ARGS, DEC_STAT_WCHAN_ADDR,
	LD_NR_DEC, DEC_NONE = -1
};

/* Flags of a status line. */
#define STF_PROC 0x1u   /* one value per process: every thread's status must agree */
#define STF_MM   0x2u   /* printed only for a task with an mm */

struct ld_st_def {
	const char *label;       /* "VmRSS:" */
	unsigned char kind;
	unsigned char flags;     /* STF_* */
	signed char dec;         /* enum ld_dec, or DEC_NONE */
};
extern const struct ld_st_def ld_st_defs[ST_NR];

struct ld_status {
	char *path;
	bool present[ST_NR];
	unsigned int line[ST_NR];
	uint64_t v[ST_NR][4];            /* scalar values of each line */
	char name[MACH_COMM_MAX];        /* Name:, unescaped */
	unsigned int ngroups;
	uint32_t *groups;
	signed char groups_space;        /* an empty Groups: list: 1 "\t ", 0 "\t"; -1 a list */
	unsigned int ns_levels;
	pid_t ns[4][MACH_NS_LEVELS_MAX]; /* tgid, pid, pgid, sid */
	struct mach_bitmap cpus, mems;   /* as wide as their text allows (hi) */
	unsigned int cpus_lo, cpus_hi, mems_lo, mems_hi;
};

/* ------------------------------------------------------------------ */
/* /proc/<pid>/stat                                                     */

/* The fields of a stat line, numbered as proc(5) numbers them. */
enum ld_stat_field {
	LD_STAT_PID = 1, LD_STAT_COMM, LD_STAT_STATE, LD_STAT_PPID, LD_STAT_PGRP,
	LD_STAT_SESSION, LD_STAT_TTY_NR, LD_STAT_TPGID, LD_STAT_FLAGS, LD_STAT_MINFLT,
	LD_STAT_CMINFLT, LD_STAT_MAJFLT, LD_STAT_CMAJFLT, LD_STAT_UTIME, LD_STAT_STIME,
	LD_STAT_CUTIME, LD_STAT_CSTIME, LD_STAT_PRIORITY, LD_STAT_NICE, LD_STAT_NUM_THREADS,
	LD_STAT_ITREALVALUE, LD_STAT_STARTTIME, LD_STAT_VSIZE, LD_STAT_RSS, LD_STAT_RSSLIM,
	LD_STAT_STARTCODE, LD_STAT_ENDCODE, LD_STAT_STARTSTACK, LD_STAT_KSTKESP,
	LD_STAT_KSTKEIP, LD_STAT_SIGNAL, LD_STAT_BLOCKED, LD_STAT_SIGIGNORE, LD_STAT_SIGCATCH,
	LD_STAT_WCHAN, LD_STAT_NSWAP, LD_STAT_CNSWAP, LD_STAT_EXIT_SIGNAL, LD_STAT_PROCESSOR,
	LD_STAT_RT_PRIORITY, LD_STAT_POLICY, LD_STAT_DELAYACCT_BLKIO_TICKS, LD_STAT_GUEST_TIME,
	LD_STAT_CGUEST_TIME, LD_STAT_START_DATA, LD_STAT_END_DATA, LD_STAT_START_BRK,
	LD_STAT_ARG_START, LD_STAT_ARG_END, LD_STAT_ENV_START, LD_STAT_ENV_END,
	LD_STAT_EXIT_CODE,
	LD_STAT_FIELDS = LD_STAT_EXIT_CODE
};

/* Which part of the model a stat field describes. */
enum ld_sf_scope {
	SF_THREAD,  /* the task itself */
	SF_PROC,    /* the thread group: every stat of the process agrees */
	SF_MM,      /* the mm: every stat agrees */
	SF_AGG,     /* whole-process sum in /proc/<pid>/stat, the task's own in task/ */
	SF_ZERO,    /* always 0 */
	SF_SPECIAL, /* pid, comm, state, exit_signal, exit_code */
};

struct ld_sf_def {
	const char *name;
	bool is_signed;
	unsigned char scope;
	bool ptrace;   /* masked when the reader may not ptrace the task */
	bool ticks;    /* clock ticks (converted to ns) */
};
extern const struct ld_sf_def ld_sf_defs[LD_STAT_FIELDS + 1];

struct ld_stat {
	char *path;
	char comm[MACH_COMM_MAX];
	enum mach_task_state state;
	uint64_t f[LD_STAT_FIELDS + 1];     /* by field number; signed ones as two's complement */
	unsigned int nfields;               /* 44, 47 or 52: the kernel's (the rest read 0) */
	unsigned int line[LD_STAT_FIELDS + 1];
};

static inline int64_t ld_sf_s(const struct ld_stat *s, enum ld_stat_field n)
{
	return (int64_t)s->f[n];
}

/* ------------------------------------------------------------------ */
/* statm, maps, cmdline, comm                                           */

/* The fields of a statm line, from 0. */
enum ld_statm_field {
	LD_STATM_SIZE, LD_STATM_RESIDENT, LD_STATM_SHARED, LD_STATM_TEXT, LD_STATM_LIB,
	LD_STATM_DATA, LD_STATM_DT, LD_STATM_FIELDS
};
extern const char *const ld_statm_names[LD_STATM_FIELDS];

struct ld_statm {
	char *path;
	uint64_t v[LD_STATM_FIELDS]; /* pages */
};

struct ld_maps {
	char *path;
	size_t n;
	struct mach_vma *vmas;
};

struct ld_bytes {
	char *path;
	size_t len;
	char *buf;   /* cmdline: raw bytes; comm: the name, NUL-terminated */
};

/* ------------------------------------------------------------------ */
/* cgroup, cpuset, mounts, mountinfo, mountstats, ns/ (load_cgroup.c,   */
/* load_mounts.c, pid_ns.c)                                              */

/** One line of /proc/<pid>/cgroup. */
struct ld_cg_line {
	int id;                  /* hierarchy id */
	uint32_t ss_mask;        /* v1 controllers (1u << MACH_SS_*) */
	char *name;              /* name=, or NULL */
	char *path;              /* the group's path, without " (deleted)" */
	bool deleted;
	unsigned int line;
};

struct ld_cgroup {
	char *path;
	size_t n;
	struct ld_cg_line *l;
};

/** One mount as mountinfo shows it (source "none" kept as text: mountstats tells). */
struct ld_mountinfo {
	char *path;
	size_t n;
	struct mach_mount *m;
};

/** One line of mounts or mountstats, its fields unescaped. */
struct ld_mnt_line {
	char *source;            /* mountstats: NULL for "no device" */
	char *point;
	char *fstype;
	char *opts;              /* mounts: the options field, as printed */
	unsigned int line;
};

struct ld_mountlist {
	char *path;
	size_t n;
	struct ld_mnt_line *l;
};

/** What a task's namespace, control group and mount files said. */
struct ld_nsrec {
	struct ld_cgroup *cgroup;
	struct ld_bytes *cpuset;           /* the path, NUL-terminated */
	struct ld_mountinfo *mountinfo;
	struct ld_mountlist *mounts, *mountstats;
	uint32_t ino[MACH_NR_NS];          /* 0: not read */
	char *ino_path[MACH_NR_NS];
	mach_ld_set absent;                /* read, and the kernel said the task has none */
};

/** Whether records of @kind live in struct ld_nsrec. */
static inline bool ld_kind_nsrec(enum mach_ld_kind kind)
{
	return kind >= MACH_LD_PID_CGROUP && kind <= MACH_LD_PID_NS_TIME_FOR_CHILDREN;
}

/** -EINVAL with a message naming @path and the line when @text holds a NUL byte; else 0. */
int ld_refuse_nul(const char *path, const char *text, size_t len, char *err, size_t errlen);
int ld_parse_cgroup(struct lex *lx, struct ld_cgroup *cg);
int ld_parse_cpuset(struct lex *lx, struct ld_bytes *b);
int ld_parse_mountinfo(struct lex *lx, struct ld_mountinfo *mi);
int ld_parse_mounts(struct lex *lx, struct ld_mountlist *ml);
int ld_parse_mountstats(struct lex *lx, struct ld_mountlist *ml);
/** "net:[4026531833]" for namespace type @t. */
int ld_parse_ns_link(struct lex *lx, enum mach_ns_type t, uint32_t *ino);

void ld_cgroup_free(struct ld_cgroup *cg);
void ld_mountinfo_free(struct ld_mountinfo *mi);
void ld_mountlist_free(struct ld_mountlist *ml);
void ld_nsrec_free(struct ld_nsrec *r);

/* ------------------------------------------------------------------ */
/* fd/, fdinfo/, cwd, root, exe and the small files of fs/proc/base.c    */
/* (load_fd.c, load_fdinfo.c, load_pid_misc.c, pid_records_misc.c,      */
/* pid_assemble_misc.c)                                                 */

/* One fd's files: what the link says, and what fdinfo says. */
struct ld_fd {
	uint32_t fd;
	char *link_path;          /* fd/<n>, NULL: not read */
	char *info_path;          /* fdinfo/<n>, NULL: not read */
	struct mach_fd link;      /* kind, name, deleted; ino of a pipe, socket or pseudo file */
	struct mach_fd info;      /* pos, flags, cloexec, mnt_id, ino, locks, type and its lines */
	unsigned int ino_line;    /* fdinfo's "ino:" line, for messages */
};

struct ld_fds {
	bool listed_fd, listed_info; /* the directories were listed: every fd is here */
	size_t n, cap;
	struct ld_fd *v;          /* in the order read; sorted when assembled */
};

/* A symlink of the fs_struct or the mm: cwd, root, exe. */
struct ld_link {
	char *path;
	char *target;             /* without " (deleted)" */
	bool deleted;
};

/* The files holding one number, by kind. */
enum ld_num {
	LD_NUM_OOM_SCORE, LD_NUM_OOM_SCORE_ADJ, LD_NUM_OOM_ADJ, LD_NUM_LOGINUID, LD_NUM_SESSIONID,
	LD_NUM_PERSONALITY, LD_NUM_TIMERSLACK, LD_NR_NUMS
};

struct ld_numfile {
	char *path;
	int64_t v;                /* oom_* signed; the others fit below 2^63 or are refused */
	uint64_t u;               /* the unsigned ones in full */
};

struct ld_io {
	char *path;
	struct mach_taskio io;
};

struct ld_limits {
	char *path;
	struct mach_rlimit rlim[MACH_RLIM_NLIMITS];
};

struct ld_autogroup {
	char *path;
	uint64_t id;              /* 0: an empty file (the root autogroup) */
	int nice;
};

/* Everything of this block one task's directory said. */
struct ld_misc {
	struct ld_fds fds;
	struct ld_link *link[3];  /* cwd, root, exe */
	struct ld_numfile *num[LD_NR_NUMS];
	struct ld_io *io;
	struct ld_limits *limits;
	struct ld_autogroup *autogroup;
};

/* The parsers: 0 or -EINVAL/-ENOMEM with "path:line: ..." in lx->err. */
int ld_parse_fd_link(struct lex *lx, struct mach_fd *f);
int ld_parse_fdinfo(struct lex *lx, struct mach_fd *f, unsigned int *ino_line);
/** The type-specific lines after the fixed ones and the locks (load_fdinfo.c). */
int ld_parse_fdinfo_tail(struct lex *lx, struct mach_fd *f);
int ld_parse_path_link(struct lex *lx, struct ld_link *l);
int ld_parse_io(struct lex *lx, struct ld_io *io);
int ld_parse_limits(struct lex *lx, struct ld_limits *l);
int ld_parse_autogroup(struct lex *lx, struct ld_autogroup *a);
int ld_parse_num(struct lex *lx, enum ld_num which, struct ld_numfile *n);

/* The records (pid_records_misc.c). */
/** Whether @kind's records are this block's. */
bool ld_misc_kind(enum mach_ld_kind kind);
/** Parse one file of this block into @m, replacing what the slot held; 0 or -errno. */
int ld_misc_file(struct ld_misc *m, enum mach_ld_kind kind, uint32_t inst, const char *path, const char *text,
		 size_t len, char *err, size_t errlen);
/** Note what a collection directory listed. */
int ld_misc_listing(struct ld_misc *m, enum mach_ld_kind kind, const uint32_t *insts, size_t n);
void ld_misc_clear(struct ld_misc *m);

/* ------------------------------------------------------------------ */
/* /proc/<pid>/net (load_net.h)                                         */

#define LD_NR_NET (MACH_LD_PID_NET_LAST - MACH_LD_PID_NET_FIRST + 1)
struct ld_net_file;

/* ------------------------------------------------------------------ */
/* One process's records                                                */

struct ld_mmsched;

struct ld_task {
	pid_t tid;
	struct ld_mmsched *mms;    /* smaps, smaps_rollup, schedstat, wchan, stack, syscall, children */
	struct ld_status *status;
	struct ld_stat *stat;
	struct ld_statm *statm;
	struct ld_maps *maps;
	struct ld_bytes *cmdline;
	struct ld_bytes *comm;
	struct ld_nsrec *nsr;      /* cgroup, cpuset, mounts*, ns/: NULL until one is read */
	struct ld_misc misc;      /* open files, links, io, limits, ... */
	struct ld_net_file *net[LD_NR_NET]; /* by kind - MACH_LD_PID_NET_FIRST */
	/* its net files, not parsed, are the bytes another task's were: 1 + the machine's namespace they showed */
	unsigned int net_ref;
};

/*
 * What smaps files decided of the kernel profile (pid_smaps_asm.c): the
 * first file decides the lines and formats, the first whose values show
 * it what Locked counts.  The loader's owns its paths; a process's are its
 * records', until ld_smaps_commit takes them.
 */
struct ld_smaps_dec {
	bool lines;               /* prof but for locked is decided */
	/*
	 * How much of prof.locked is decided: 0 nothing; 1 only whether it is
	 * MACH_SMAPS_LOCKED_ALL (records of mappings with pss, none locked); 2
	 * all (a rollup over locked mappings tells the 4.19-4.20 rule too).
	 */
	unsigned char locked;
	struct mach_smaps_profile prof;
	const char *by, *locked_by;
};

struct ld_pid {
	pid_t tgid;
	struct ld_task whole;      /* /proc/<pid>/... */
	size_t ntasks, cap;
	struct ld_task *tasks;     /* task/<tid>/..., any order */
	bool tasks_complete;       /* the records hold every thread (Threads: can be checked) */
	/*
	 * The files will not be read again (a written tree, or the live
	 * kernel's last try): where two files disagree on values the model
	 * holds apart (Threads: and the task/ directories, VmRSS and stat's
	 * rss), keep each file's own instead of failing.
	 */
	bool tolerant;
	struct ld_smaps_dec smaps; /* what this process's smaps would decide */
};

/* ------------------------------------------------------------------ */
/* The machine-wide state of one load                                   */

struct ld_bound {
	unsigned int lo, hi;      /* hi == 0: no upper bound yet */
	char *lo_by, *hi_by;      /* the files that set them */
};

/* CPU numbers in ascending order, as a file listed them. */
struct ld_cpu_ids {
	unsigned int *id, n;
};

struct ld_decision {
	signed char val;          /* -1 undecided, 0 absent, 1 present */
	char *by;
};

struct mach_loader {
	struct mach_machine *m;
	size_t npids, cap;
	struct ld_pid **pids;     /* mach_loader_file's records until mach_loader_finish */
	struct ld_decision dec[LD_NR_DEC];
	struct ld_bound cpus, mems;
	struct ld_cpu_ids sched_cpus; /* the CPUs /proc/schedstat listed in this session */
	unsigned int prev_nr_cpu_ids, prev_max_numnodes;
	bool have_loadavg;        /* this session read /proc/loadavg: kernel/ns_last_pid must agree with it */
	mach_ld_set globals;         /* 1 << kind of each machine-wide file parsed in this session */
	struct ld_sys *sys;          /* /sys files checked at finish (load_platform.c), or NULL */
	struct ld_blame *blame;   /* where the assembly names the files of a disagreement, or NULL */
	struct ld_smaps_dec smaps;   /* by, locked_by: owned */
};

/** Free the session's /sys state. */
void ld_sys_free(struct ld_sys *s);
/** Check what the /sys files of the session said of each other and of /proc's; 0 or -EINVAL. */
int ld_sys_finish(struct mach_loader *ld, char *err, size_t errlen);

/* What one process adds to the machine-wide state when it is accepted. */
struct ld_commit {
	struct ld_decision dec[LD_NR_DEC];   /* by: borrowed from the records */
	struct ld_bound cpus, mems;          /* by: owned (ld_commit_clear) */
	/* network namespaces the threads showed: thread i's is nets[net_of[i] - 1] (0: none) */
	unsigned int nnets;
	struct mach_net *nets;
	unsigned int *net_of;
	unsigned int *net_at;                /* or, when not 0, the machine's net_at[i] - 1 (ld_task.net_ref) */
};

/* ------------------------------------------------------------------ */
/* Parsers: 0 or -EINVAL/-ENOMEM with "path:line: ..." in lx->err        */

int ld_parse_status(struct lex *lx, pid_t tgid, pid_t tid, struct ld_status *st);
int ld_parse_pid_stat(struct lex *lx, pid_t tid, struct ld_stat *st);
int ld_parse_statm(struct lex *lx, struct ld_statm *st);
int ld_parse_maps(struct lex *lx, struct ld_maps *mp);
/** One maps line (also each smaps record's first): the header fields and the name, through the newline. */
int ld_parse_map_line(struct lex *lx, struct mach_vma *v);
int ld_parse_cmdline(struct lex *lx, struct ld_bytes *b);
int ld_parse_comm(struct lex *lx, struct ld_bytes *b);

/*
 * /proc/stat; @sched, when schedstat was read in this session, are its CPUs,
 * which must be exactly the online CPUs stat lists (one line per online CPU).
 */
int ld_parse_stat(struct lex *lx, struct mach_machine *m, const struct ld_cpu_ids *sched);
int ld_parse_meminfo(struct lex *lx, struct mach_machine *m);
int ld_parse_vmstat(struct lex *lx, struct mach_machine *m);
/**
 * Start extra key @n of @keys (meminfo's or vmstat's names outside the
 * vocabulary) as @name (@len bytes): refused when too long, repeated or one
 * too many (@what names the kind: "line", "counter").  0 or -EINVAL.
 */
int ld_extra_key_new(struct lex *lx, struct mach_extra_key *keys, unsigned int n, const char *name, size_t len,
		     const char *esc, const char *what);
int ld_parse_loadavg(struct lex *lx, struct mach_machine *m);
/** /proc/interrupts and /proc/softirqs, after stat: -EAGAIN when they disagree with its totals. */
int ld_parse_interrupts(struct lex *lx, struct mach_machine *m);
int ld_parse_softirqs(struct lex *lx, struct mach_machine *m);
int ld_parse_uptime(struct lex *lx, struct mach_machine *m);
int ld_parse_pressure(struct lex *lx, struct mach_machine *m, enum mach_psi_res res);
/* schedstat also bounds nr_cpu_ids: by its CPUs and by the widths of its domain spans */
/*
 * /proc/schedstat; its CPUs go to @listed.  With @stat_known (stat read in
 * this session) they must be exactly the machine's online CPUs.
 */
int ld_parse_schedstat(struct lex *lx, struct mach_machine *m, struct ld_bound *cpus, bool stat_known,
		       struct ld_cpu_ids *listed);

/* ------------------------------------------------------------------ */
/* The rest of the machine (mach_sys.h): each parser replaces its part   */
/* of m->sys whole, and checks what files of this session said before   */

/** Whether machine-wide file @kind was parsed into @ld's machine in this session. */
static inline bool ld_loaded(const struct mach_loader *ld, enum mach_ld_kind kind)
{
	return ld->globals & MACH_LD_BIT(kind);
}

/**
 * What lock_get_status prints after "ID: " and a waiter's "-> ": class,
 * type, pid, inode and range, to the end of the line (/proc/locks, and
 * fdinfo's "lock:" lines).  l->fd is set to -1.
 */
int ld_parse_lock_status(struct lex *lx, struct mach_file_lock *l);

int ld_parse_diskstats(struct lex *lx, struct mach_loader *ld);
int ld_parse_partitions(struct lex *lx, struct mach_loader *ld);
int ld_parse_swaps(struct lex *lx, struct mach_loader *ld);
int ld_parse_zoneinfo(struct lex *lx, struct mach_loader *ld);
int ld_parse_buddyinfo(struct lex *lx, struct mach_loader *ld);
int ld_parse_slabinfo(struct lex *lx, struct mach_machine *m);
int ld_parse_version(struct lex *lx, struct mach_machine *m);
int ld_parse_kcmdline(struct lex *lx, struct mach_machine *m);
int ld_parse_filesystems(struct lex *lx, struct mach_machine *m);
int ld_parse_cgroups(struct lex *lx, struct mach_machine *m);
int ld_parse_devices(struct lex *lx, struct mach_machine *m);
int ld_parse_misc(struct lex *lx, struct mach_machine *m);
int ld_parse_locks(struct lex *lx, struct mach_machine *m);

/* ------------------------------------------------------------------ */
/* /sys trees: a file's path below /sys says what it is                 */

/** A file of /sys/block, /sys/class/block, /sys/dev/block or a block device's directory (@path below /sys). */
int ld_parse_sys_block(struct lex *lx, struct mach_loader *ld, const char *path);
/** A file of /sys/fs/cgroup: cgroup v2 (@path below /sys). */
int ld_parse_sys_cgroup(struct lex *lx, struct mach_loader *ld, const char *path);
/** A pressure file's "some" and "full" lines into @out (psi_show). */
int ld_parse_psi(struct lex *lx, struct mach_pressure *out);
/**
 * Refine the CPUs' times, within what /proc/stat printed of them, so the
 * root cgroup's cpu.stat prints @user, @sys, @nice and @usage (µs):
 * -EAGAIN when no times /proc/stat allows print so (they moved between the reads).
 */
int ld_cpu_fit_cgroup(struct mach_machine *m, uint64_t usage, uint64_t user, uint64_t sys, uint64_t nice);

/** The bytes up to a space, tab or newline into @buf (NUL-terminated): 0, or -EINVAL naming @what. */
int ld_word(struct lex *lx, char *buf, size_t size, const char *what);
/** The rest of the line (not its newline) into @buf: 0, or -EINVAL naming @what. */
int ld_rest_of_line(struct lex *lx, char *buf, size_t size, const char *what);

/* ------------------------------------------------------------------ */
/* Records                                                              */

void ld_status_free(struct ld_status *s);
void ld_maps_free(struct ld_maps *mp);
void ld_bytes_free(struct ld_bytes *b);
void ld_task_clear(struct ld_task *t);
/** Empty records of process @tgid; NULL on ENOMEM. */
struct ld_pid *ld_pid_new(pid_t tgid);
void ld_pid_free(struct ld_pid *lp);
/** The task/<tid> slot of @lp, created if needed; NULL on ENOMEM. */
struct ld_task *ld_pid_task(struct ld_pid *lp, pid_t tid);

/**
 * Parse one per-task file of kind @kind into @lp: /proc/<pid>/X when @tid
 * is 0, task/<tid>/X otherwise, replacing what that slot held.  @path names
 * the file in messages.
 */
int ld_pid_file(struct ld_pid *lp, enum mach_ld_kind kind, pid_t tid, uint32_t inst, const char *path,
		const char *text, size_t len, char *err, size_t errlen);

/**
 * Record that reading @kind of task @tid (0: /proc/<pid>/) gave the error
 * the kernel gives a task that has none of it (struct mach_ld_name
 * absent_rc); the assembly checks that the task is one that has none.
 * 0 or -ENOMEM.
 */
int ld_pid_absent(struct ld_pid *lp, enum mach_ld_kind kind, pid_t tid);

/** Parse one ns-record file of @kind into @t (a fresh slot); 0 or -EINVAL/-ENOMEM. */
int ld_nsrec_parse(struct ld_task *t, enum mach_ld_kind kind, const char *path, struct lex *lx);
/** Swap the record of @kind between @a and @b (either's nsr may be made); 0 or -ENOMEM. */
int ld_nsrec_swap(struct ld_task *a, struct ld_task *b, enum mach_ld_kind kind);

/* ------------------------------------------------------------------ */
/* Comparisons between records (pid_compare.c)                          */

/*
 * The files a failed check blames: both of a disagreement, or every file
 * of a sum.  The tree walk skips the younger of them and builds again.
 */
#define LD_BLAME_MAX 32
struct ld_blame {
	const char *path[LD_BLAME_MAX]; /* the records' paths (borrowed) */
	unsigned int n;
};

/* Where a message goes; every check returns its error code. */
struct ld_msg {
	char *err;
	size_t errlen;
	struct ld_blame *blame;   /* NULL: nobody listens */
};

/** Name @path (a record's) among the files a failing check blames. */
void ld_blame_add(const struct ld_msg *ms, const char *path);

/** Write the message into @ms; @rc. */
int ld_say(const struct ld_msg *ms, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/** -EINVAL with "A:LA: WHAT is VA, but B:LB says VB". */
int ld_disagree(const struct ld_msg *ms, const char *a, unsigned int la, const char *b,
		unsigned int lb, const char *what, const char *va, const char *vb);
int ld_disagree_u(const struct ld_msg *ms, const char *a, unsigned int la, const char *b,
		  unsigned int lb, const char *what, uint64_t va, uint64_t vb);
int ld_disagree_s(const struct ld_msg *ms, const char *a, unsigned int la, const char *b,
		  unsigned int lb, const char *what, int64_t va, int64_t vb);
/** The values quoted and escaped. */
int ld_disagree_str(const struct ld_msg *ms, const char *a, unsigned int la, const char *b,
		    unsigned int lb, const char *what, const char *va, const char *vb);
/** "field 35 (wchan)" into @buf, as messages name a stat field; @buf. */
const char *ld_sf_what(enum ld_stat_field n, char buf[64]);

/** Every status line @mask selects (STF_*, 0: all) is equal in @a and @b. */
int ld_status_cmp(const struct ld_msg *ms, const struct ld_status *a, const struct ld_status *b,
		  unsigned int mask);
/** The PROC and MM fields agree; all but exit_code for the leader's two files (@leader_pair). */
int ld_stat_cmp(const struct ld_msg *ms, const struct ld_stat *a, const struct ld_stat *b,
		bool leader_pair);
int ld_statm_cmp(const struct ld_msg *ms, const struct ld_statm *a, const struct ld_statm *b);
int ld_maps_cmp(const struct ld_msg *ms, const struct ld_maps *a, const struct ld_maps *b);
/** Byte for byte; @what ("names", "command lines") for the message. */
int ld_bytes_cmp(const struct ld_msg *ms, const struct ld_bytes *a, const struct ld_bytes *b,
		 const char *what);

/** How far stat's rss may stray from VmRSS, in pages; UINT64_MAX when the CPUs are unknown. */
uint64_t ld_rss_slack(const struct mach_machine *m);
/** A thread's status and one of its stat files agree (rss within @slack pages). */
int ld_status_vs_stat(const struct ld_msg *ms, const struct ld_status *s, const struct ld_stat *t,
		      uint64_t slack);
/** The mm's lines of status (VmSize, VmRSS) vs stat's vsize and rss, of any two threads of a process. */
int ld_mm_status_vs_stat(const struct ld_msg *ms, const struct ld_status *s, const struct ld_stat *t,
			 uint64_t slack);
/** statm agrees with the Vm lines of @s. */
int ld_statm_vs_status(const struct ld_msg *ms, const struct ld_statm *m,
		       const struct ld_status *s);
/** The fields a stat prints as 0 without an mm (!@has_mm) or without ptrace access (@hidden). */
int ld_stat_zeros(const struct ld_msg *ms, const struct ld_stat *t, bool hidden, bool has_mm);

/* ------------------------------------------------------------------ */
/* Assembly (pid_assemble.c)                                            */

/*
 * Check a process's records against each other and build @out (zeroed by
 * the caller).  0; -EINVAL when files disagree; -ENOTSUP when they agree with
 * the kernel but the model cannot hold them; -ENOMEM.  Records are consumed
 * (their bitmaps, groups, vmas, cmdline move into @out).
 */
int ld_assemble(const struct mach_loader *ld, struct ld_pid *lp, struct mach_process *out,
		struct ld_commit *cm, char *err, size_t errlen);

/**
 * The namespace, control group and mount files of a process whose threads
 * are built (@out): check them against each other and against the task
 * states, then enter what they say in the machine's tables and point the
 * threads at it.  0, -EINVAL naming the disagreement (nothing entered), or
 * -ENOMEM.
 */
int ld_ns_build(const struct ld_msg *ms, const struct mach_loader *ld, struct ld_pid *lp, struct mach_process *out);

/* The steps of this block's records (pid_assemble_misc.c), after the mm is built. */
/** Check fd/, fdinfo/, cwd, root, exe, io, limits and the rest against each other and build them. */
int ld_assemble_misc(const struct mach_loader *ld, struct ld_pid *lp, struct mach_process *out,
		     const struct ld_msg *ms);

/** Merge @cm into @ld; 0 or -ENOMEM. */
int ld_commit(struct mach_loader *ld, const struct ld_commit *cm);
/**
 * The namespaces of @cm into @m, each shared with an equal one already
 * there, and @p's threads pointed at them: 0 or -ENOMEM.  The nets move.
 */
int ld_commit_nets(struct mach_machine *m, struct ld_commit *cm, struct mach_process *p);
/** Build the namespace of each of the process's threads into @cm (net_assemble.c). */
int ld_assemble_nets(const struct mach_loader *ld, struct ld_pid *lp, const struct mach_process *p,
		     struct ld_commit *cm, const struct ld_msg *ms);
/** Free what @cm owns. */
void ld_commit_clear(struct ld_commit *cm);
/** What an accepted process's smaps decided (@lp->smaps) becomes the session's and the machine's profile. */
int ld_smaps_commit(struct mach_loader *ld, const struct ld_pid *lp);

/** Raise a lower bound / lower an upper bound, remembering who did it. */
void ld_bound_lo(struct ld_bound *b, unsigned int lo, const char *by);
void ld_bound_hi(struct ld_bound *b, unsigned int hi, const char *by);

/* ------------------------------------------------------------------ */
/* The session (session.c)                                              */

/**
 * Build @lp's process into the machine (replacing one with its tgid): what
 * ld_assemble returns, and -ENOMEM with a message.  @lp stays the caller's.
 */
int ld_add_process(struct mach_loader *ld, struct ld_pid *lp, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* The report (report.c)                                                */

struct ld_report {
	size_t n, cap;
	struct mach_load_file *files;
};

/** Append a file to @r (@text copied when OK); 0 or -ENOMEM. */
int ld_report_add(struct ld_report *r, const char *path, enum mach_load_status status,
		  const char *reason, const char *text, size_t len);

/** The CPU with id @id in @m (created, online, if @create); NULL if absent or ENOMEM. */
struct mach_cpu *ld_cpu(struct mach_machine *m, unsigned int id, bool create);

#endif
