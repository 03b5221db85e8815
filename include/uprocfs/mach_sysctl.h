/* SPDX-License-Identifier: MIT */
/*
 * mach_sysctl.h - the /proc/sys tree of a machine (part of the model,
 * included by machine.h): directories and keys with the kernel's modes and
 * typed values, as `sysctl -a` walks them.
 *
 * Nodes are numbered: node 0 is /proc/sys itself, and a node's number is
 * what the file table's /proc/sys collections carry as their instance.  A
 * directory keeps its children sorted by name in byte order, which is the
 * order the kernel lists them in.  Numbers are typed (one vector of signed
 * or unsigned values per key, as the proc_dointvec family prints them,
 * TAB-separated); everything else is a string.  A few keys show what
 * another part of the model holds (the release, pid_max, the last pid,
 * the file count): their values are read from there, so they agree.
 */
#ifndef UPROCFS_MACH_SYSCTL_H
#define UPROCFS_MACH_SYSCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** What a /proc/sys node is, and how a read of it ends. */
enum mach_sysctl_kind {
	MACH_SYSCTL_DIR,        /* a directory, mode 0555 */
	MACH_SYSCTL_NUMS,       /* proc_dointvec & co: decimals separated by TABs, then a newline */
	MACH_SYSCTL_STRING,     /* proc_dostring and the other text handlers: the text, then a newline */
	MACH_SYSCTL_EMPTY,      /* a read gives no bytes at all (vm/stat_refresh) */
	MACH_SYSCTL_UNSET,      /* a read fails with EIO (net/ipv6/conf/<if>/stable_secret until set) */
	MACH_SYSCTL_WRITE_ONLY, /* mode 0200: root's open for reading fails with EACCES (vm/drop_caches) */
};

/** Where a key's value lives: its own, or a part of the model that other files show too. */
enum mach_sysctl_src {
	MACH_SYSCTL_OWN,
	MACH_SYSCTL_SRC_OSRELEASE,   /* kernel/osrelease: profile.kernel_release */
	MACH_SYSCTL_SRC_PID_MAX,     /* kernel/pid_max: mach_machine.pid_max */
	MACH_SYSCTL_SRC_NS_LAST_PID, /* kernel/ns_last_pid: mach_machine.last_pid (loadavg's last field) */
	MACH_SYSCTL_SRC_FILE_NR,     /* fs/file-nr: files in use, 0, and fs/file-max */
	MACH_SYSCTL_SRC_RANDOM_UUID, /* kernel/random/uuid: a new random UUID on every read, kept nowhere */
};

/** One directory or key. */
struct mach_sysctl_node {
	char *name;
	uint32_t parent;          /* the directory; /proc/sys (node 0) is its own parent */
	uint16_t mode;            /* permission bits as the kernel shows them (directories 0555) */
	uint8_t kind;             /* enum mach_sysctl_kind */
	uint8_t src;              /* enum mach_sysctl_src */
	bool is_signed;           /* NUMS: the values are signed (proc_dointvec) rather than unsigned */
	uint32_t nvals;           /* NUMS: how many values */
	uint64_t *vals;           /* NUMS: the values (two's complement when is_signed) */
	char *str;                /* STRING: the text without its final newline (may hold newlines) */
	size_t len;
	uint32_t nkids;           /* DIR: the children, sorted by name */
	uint32_t *kids;
};

/** A machine's /proc/sys. */
struct mach_sysctl {
	uint32_t n, cap;
	struct mach_sysctl_node *nodes;
	/*
	 * fs/file-nr's first field: the files allocated (get_nr_files).  The
	 * one place to connect the per-process file tables: once the model
	 * has every process's open files, it is their sum.
	 */
	uint64_t nr_files;
};

/** A tree holding only /proc/sys; NULL on ENOMEM. */
struct mach_sysctl *mach_sysctl_new(void);

/** Free a tree and its nodes. */
void mach_sysctl_free(struct mach_sysctl *t);

/** The child @name (@len bytes) of directory @dir: its number, or -1. */
int64_t mach_sysctl_lookup(const struct mach_sysctl *t, uint32_t dir, const char *name, size_t len);

/** The node at @path ("kernel/hostname", relative to /proc/sys; "" is the root): its number, or -1. */
int64_t mach_sysctl_find(const struct mach_sysctl *t, const char *path);

/** @id's path relative to /proc/sys ("kernel/hostname"); 0, -ENOENT or -ENAMETOOLONG. */
int mach_sysctl_path(const struct mach_sysctl *t, uint32_t id, char *buf, size_t size);

/**
 * The node at @path, created with the directories above it when missing
 * (a key created is an empty string of mode 0644).  A key already there
 * keeps its number and loses its value.  0 with its number in *@id,
 * -ENOTDIR when a directory would have to be a key or the reverse,
 * -EINVAL for an empty component, -ENOMEM.
 */
int mach_sysctl_make(struct mach_sysctl *t, const char *path, bool dir, uint32_t *id);

/** Make @id a NUMS key of @n values (copied); 0 or -ENOMEM. */
int mach_sysctl_set_nums(struct mach_sysctl *t, uint32_t id, const uint64_t *vals, uint32_t n, bool is_signed);

/** Make @id a STRING key of @len bytes (copied); 0 or -ENOMEM. */
int mach_sysctl_set_string(struct mach_sysctl *t, uint32_t id, const char *s, size_t len);

/** Make @id a key of kind @kind that holds no value (EMPTY, UNSET, WRITE_ONLY). */
void mach_sysctl_set_kind(struct mach_sysctl *t, uint32_t id, enum mach_sysctl_kind kind);

/** The source of the key at @path: MACH_SYSCTL_OWN unless another part of the model holds it. */
enum mach_sysctl_src mach_sysctl_src_of(const char *path);

#endif
