/* SPDX-License-Identifier: MIT */
/*
 * node.h - inode numbers of the served tree.
 *
 * Inodes carry everything needed to find their node again, so the daemon
 * keeps no per-inode state and forget is free: a kind, an index (a file of
 * the table or a directory), a tid and a pid, each pid below 2^24 (the
 * kernel's pid_max limit is 2^22).
 */
#ifndef UPROCFS_FUSE_NODE_H
#define UPROCFS_FUSE_NODE_H

#include <stdint.h>
#include <sys/types.h>

enum node_kind {
	NODE_ROOT = 0,     /* ino 1 */
	NODE_GDIR,         /* a directory of global files: pressure, sys, sys/kernel, tty */
	NODE_GFILE,        /* a global file or link of the table */
	NODE_PID_DIR,      /* /proc/<pid> */
	NODE_PID_SUBDIR,   /* /proc/<pid>/ns */
	NODE_PID_FILE,     /* /proc/<pid>/<file> */
	NODE_TASK_DIR,     /* /proc/<pid>/task */
	NODE_TID_DIR,      /* /proc/<pid>/task/<tid> */
	NODE_TID_SUBDIR,   /* /proc/<pid>/task/<tid>/ns */
	NODE_TID_FILE,     /* /proc/<pid>/task/<tid>/<file> */
	NR_NODE_KINDS
};

#define NODE_PID_BITS 24u
#define NODE_PID_MASK ((1u << NODE_PID_BITS) - 1)

struct node {
	enum node_kind kind;
	unsigned int index; /* table index (files) or directory index */
	pid_t pid, tid;
};

static inline uint64_t node_ino(const struct node *n)
{
	if (n->kind == NODE_ROOT)
		return 1;
	return (uint64_t)n->kind << 56 | (uint64_t)(n->index & 0xff) << 48 |
	       (uint64_t)((uint32_t)n->tid & NODE_PID_MASK) << 24 | ((uint32_t)n->pid & NODE_PID_MASK);
}

/** Decode @ino; -1 when it cannot be one of ours. */
static inline int node_from_ino(uint64_t ino, struct node *n)
{
	if (ino == 1) {
		*n = (struct node){ .kind = NODE_ROOT };
		return 0;
	}
	n->kind = (enum node_kind)(ino >> 56);
	n->index = (unsigned int)(ino >> 48) & 0xff;
	n->tid = (pid_t)((ino >> 24) & NODE_PID_MASK);
	n->pid = (pid_t)(ino & NODE_PID_MASK);
	if (n->kind == NODE_ROOT || n->kind >= NR_NODE_KINDS)
		return -1;
	return 0;
}

#endif
