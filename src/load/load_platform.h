/* SPDX-License-Identifier: MIT */
/*
 * load_platform.h - what the parsers of the platform's /sys files
 * (load_platform*.c) share: the session's deferred checks and the forms
 * sysfs prints in.
 */
#ifndef UPROCFS_LOAD_PLATFORM_H
#define UPROCFS_LOAD_PLATFORM_H

#include "lex.h"
#include "load_int.h"

/* A file checked once every file is in: a mask against the ids, a size against a geometry. */
struct ld_sys_check {
	enum mach_ld_kind kind;   /* its tree's; MACH_LD_SYS_BLOCK: a file parsed again by its path */
	unsigned int attr;        /* enum mach_sys_attr */
	uint32_t inst;
	char *path;
	char *text;
	size_t len;
};

/* The session's /sys state (mach_loader.sys). */
struct ld_sys {
	size_t n, cap;
	struct ld_sys_check *checks;
	bool cpu_lists;           /* a CPU list was read: the CPUs' topology is the loaded one */
	uint64_t freq_attrs;      /* which machine-wide cpufreq files a policy has set (bit: attr - FREQ_AFFECTED) */
	unsigned int nr_cpus_kernel; /* kernel_max + 1, 0 unread */
	bool final;               /* the session is finishing: no block file waits any more (load_sys_block.c) */
	struct ld_sys_net *net;   /* what was read of each network device (load_sys_net.c) */
	/* per group (mach->cgroups index): its cgroup.threads was read, which orders its tasks */
	uint8_t *cg_threads;
	size_t ncg_threads;
};

/** The session's /sys state, created on first use; NULL on ENOMEM. */
struct ld_sys *ld_sys_of(struct mach_loader *ld);
/** Keep @text of @f for ld_sys_finish; 0 or -ENOMEM. */
int ld_sys_defer(struct mach_loader *ld, const struct mach_ld_sys_file *f, const char *path, const char *text,
		 size_t len);
/** A cpulist or nodelist ("0-3,8\n", or "\n") into @b (allocated), ids below @maxbits; the whole text. */
int ld_sys_list(struct lex *lx, struct mach_bitmap *b, unsigned int maxbits);
/** One decimal in [@min, @max] and a newline: the whole text. */
int ld_sys_number(struct lex *lx, int64_t *v, int64_t min, int64_t max);
/** One line of text into @buf (what "%s\n" printed): the whole text. */
int ld_sys_word(struct lex *lx, char *buf, size_t size, const char *what);

/* The trees: load_platform_cpu.c, load_platform_misc.c */
int ld_sys_cpu(struct lex *lx, struct mach_loader *ld, const struct mach_ld_sys_file *f, const char **skip);
int ld_sys_node(struct lex *lx, struct mach_loader *ld, const struct mach_ld_sys_file *f, const char **skip);
int ld_sys_hwmon(struct lex *lx, struct mach_loader *ld, const struct mach_ld_sys_file *f, const char **skip);
int ld_sys_thermal(struct lex *lx, struct mach_loader *ld, const struct mach_ld_sys_file *f);
int ld_sys_thp(struct lex *lx, struct mach_loader *ld, const struct mach_ld_sys_file *f);
/** A file of the network devices' (load_sys_net.c); ld_sys_net_free frees its session state. */
int ld_sys_net(struct lex *lx, struct mach_loader *ld, const struct mach_ld_sys_file *f, const char **skip);
struct ld_sys_net;
void ld_sys_net_free(struct ld_sys_net *s);
/** The deferred checks of each tree. */
int ld_sys_check_cpu(struct mach_loader *ld, const struct ld_sys_check *c, char *err, size_t errlen);
int ld_sys_check_node(struct mach_loader *ld, const struct ld_sys_check *c, char *err, size_t errlen);
/** A block device's file kept for the session's end (load_sys_tree.c), parsed again by its path. */
int ld_sys_block_again(struct mach_loader *ld, const struct ld_sys_check *c, char *err, size_t errlen);

#endif
