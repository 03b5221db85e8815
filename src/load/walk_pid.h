/* SPDX-License-Identifier: MIT */
/*
 * walk_pid.h - what reading one process (walk_pid.c) and parsing its files
 * (walk_parse.c) share: the slots of an attempt at a pid.
 */
#ifndef UPROCFS_LOAD_WALK_PID_H
#define UPROCFS_LOAD_WALK_PID_H

#include "walk.h"

/* One file of one attempt at a pid. */
struct slot {
	char rel[80];
	pid_t tid;          /* 0: /proc/<pid>/X, else task/<tid>/X */
	const struct mach_ld_name *f;
	uint32_t inst;      /* a collection's instance (fd/<inst>) */
	size_t off, len;
	const char *ext;    /* a tree in memory: the member's bytes, read in place (else the arena's at off) */
	int rc;
	char *why;          /* left out of the last build: why (malloc'd) */
	int net;            /* a net/ file or ns/net link: its task's netgroup, else -1 */
};

/* One task's net/ files in a build: the walk may know the namespace they show (walk_net.c). */
struct netgroup {
	pid_t tid;          /* 0: /proc/<pid>/net */
	bool usable;        /* every net file of it read and kept */
	unsigned int known; /* 1 + the machine's namespace they show, 0: parse them */
	struct ld_netread r;
};

/* The bytes slot @x read. */
static inline const char *slot_text(const struct walk *w, const struct slot *x)
{
	return x->ext ? x->ext : w->arena.buf + x->off;
}

/* One attempt at reading a process: its threads, then its files. */
struct attempt {
	pid_t pid;
	pid_t *tids;
	size_t ntids;
	bool listed;        /* task/ was listed: the tids are every thread */
	int tasks_rc;       /* why it was not */
	struct slot *s;
	size_t n, cap;
	struct listing *l;
	size_t nl, lcap;
};

/*
 * The live kernel said the task has none of this file (a zombie's
 * mountinfo: EINVAL).  Not of a collection's entry: an fd/N that vanished
 * was closed since the listing.
 */
static inline bool absent(const struct walk *w, const struct slot *x)
{
	return w->live && x->rc && x->rc == x->f->absent_rc && !mach_ld_kind_coll(x->f->kind);
}

/* Whether slot @x goes into the build: read, and not left out. */
static inline bool usable(const struct walk *w, const struct slot *x)
{
	return !x->rc && !x->why && !absent(w, x);
}

/**
 * The net/ files of each task of @a, grouped (slot->net), each group matched
 * against the namespaces the walk built before: 0 or -ENOMEM.
 */
int ld_walk_net_groups(const struct walk *w, struct attempt *a, struct netgroup **gs, size_t *ng);

/**
 * Parse @a's usable files into @lp, but for net files whose namespace the
 * walk knows (@gs) and copies of files parsed already.  On a final build a
 * file that does not parse is left out with its error, and its copies with
 * it; otherwise its error is returned.
 */
int ld_walk_parse_slots(struct walk *w, struct attempt *a, struct ld_pid *lp, bool final, const struct netgroup *gs,
			size_t ng);

/** After a build of @a: the namespace each parsed group of @gs showed, for the tasks to come. */
int ld_walk_net_groups_learn(struct walk *w, const struct attempt *a, const struct netgroup *gs, size_t ng);

#endif
