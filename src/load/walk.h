/* SPDX-License-Identifier: MIT */
/* walk.h - what the tree walk (walk.c) and its reading (walk_read.c) share. */
#ifndef UPROCFS_LOAD_WALK_H
#define UPROCFS_LOAD_WALK_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../util/readfile.h"
#include "load_int.h"

#define ARENA_MAX ((size_t)1 << 30)
#define LD_TRIES 5 /* reads of a changing process or group of files before it is skipped */

struct arena {
	char *buf;
	size_t cap, used;
};

struct walk {
	struct mach_loader *ld;
	const char *dir;
	int dirfd;
	bool live, no_tasks;
	pid_t self_tid;           /* live: the thread reading, whose syscall shows its own reads */
	const struct mach_ld_name *files; /* what to read, from the caller (the file table) */
	size_t nfiles;
	unsigned int uf_flags;    /* UF_BENEATH for a tree somebody wrote */
	struct arena arena;
	struct ld_report rep;
	char *err;
	size_t errlen;
};

/** Read the tree of sysctl keys named by @g (/proc/sys) into the loader, and the report. */
int ld_walk_sysctl(struct walk *w, const struct mach_ld_name *g);

/* What a collection directory of one task listed (fd/, fdinfo/). */
struct listing {
	pid_t tid;
	const struct mach_ld_name *f;
	uint32_t *insts;    /* ascending */
	size_t n;
	int fd;             /* the directory, open while the attempt reads */
	int rc;             /* why it could not be listed */
};

/**
 * Open the collection directory @rel for @l.  Every directory of an
 * attempt is opened before any is listed, and stays open until its files
 * are read: reading our own /proc/self, the descriptors the walk holds are
 * in every listing alike.  A failure is l->rc.
 */
void ld_walk_open_coll(struct walk *w, struct listing *l, const char *rel);

/** List @l's open directory into l->insts (no new descriptor); -ENOMEM, else 0 with a failure in l->rc. */
int ld_walk_list_coll(struct listing *l);

/** Make @a @cap bytes, all touched, and empty it: 0, -EFBIG past ARENA_MAX, or -ENOMEM. */
int ld_arena_grow(struct arena *a, size_t cap);

/** Read @rel into the arena at *@off: 0, -ENOBUFS when it does not fit, or -errno. */
int ld_walk_read(struct walk *w, const char *rel, size_t *off, size_t *len);

/** The target of the symlink @rel into the arena at *@off, as ld_walk_read. */
int ld_walk_readlink(struct walk *w, const char *rel, size_t *off, size_t *len);

/** @rel as messages name it: under the tree's directory. */
void ld_walk_path(const struct walk *w, const char *rel, char *buf, size_t n);

/** "dir/rel: strerror" in w->err; @rc. */
int ld_walk_error(struct walk *w, const char *rel, int rc);

static inline bool gone(int rc)
{
	return rc == -ENOENT || rc == -ESRCH;
}

static inline bool denied(int rc)
{
	return rc == -EACCES || rc == -EPERM;
}

/* What uf_read refuses to read in a written tree: reported as skipped, with uf_reason. */
static inline bool refused(const struct walk *w, int rc)
{
	return w->uf_flags && (rc == -ELOOP || rc == -EXDEV || rc == -ENODEV || rc == -EISDIR ||
			       rc == -EFBIG || rc == -ENOLINK);
}

/*
 * A slot not read: the reading thread's own syscall file, which shows the
 * very read (a reader is "running" to everyone else).
 */
#define LD_RC_SELF (-EDEADLK)

/* Why a file that exists is not loaded, for the report; NULL when it can be read. */
static inline const char *unreadable(const struct walk *w, int rc)
{
	if (denied(rc))
		return "permission denied";
	if (rc == LD_RC_SELF)
		return "the reader's own syscall, schedstat or smaps, which its reading changes";
	_Static_assert(UF_LIMIT_DEFAULT == 256u << 20, "the message below names the limit");
	if (rc == -EFBIG && refused(w, rc))
		return "larger than the read limit of 256 MiB (UF_LIMIT_DEFAULT)";
	return refused(w, rc) ? uf_reason(rc) : NULL;
}

#endif
