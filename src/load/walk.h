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

#define ARENA_FIRST ((size_t)1 << 20)
#define ARENA_MAX ((size_t)1 << 30)
#define LD_TRIES 5 /* reads of a changing process or group of files before it is skipped */

struct arena {
	char *buf;
	size_t cap, used;
};

/* One task's net/ files as read, and the inode its ns/net link names (walk_net.c). */
struct ld_netread {
	unsigned int n;
	unsigned char kind[LD_NR_NET];    /* kind - MACH_LD_PID_NET_FIRST, in the order read */
	const char *text[LD_NR_NET];
	size_t len[LD_NR_NET];
	uint32_t ino;                     /* 0: the link was not read */
};

/* A tree held in memory (walk_mem.c): one node per file, directory or symlink. */
struct mt_node {
	const char *name;         /* the last component, NUL-terminated; "" for the root */
	uint32_t nlen;
	char type;                /* 'f', 'd', 'l' (struct mach_tree_member) */
	unsigned int mode;
	int64_t mtime_ns;
	size_t order;             /* the member's index: its place in the archive */
	const char *data;         /* a file's bytes, a link's target (the member's: not copied) */
	size_t len;
	const struct mt_node *parent;
	struct mt_node **kids;    /* a directory's entries, by name */
	uint32_t nkids, cap;
};

struct mt_chunk;

struct mt_tree {
	struct mt_node root;
	struct mt_chunk *chunks;  /* where the nodes and their names live */
};

/**
 * Index @n members as a tree in @t (freed with ld_mem_free).  0, or
 * -EINVAL with a message naming the member (a bad path, a path given
 * twice, a member beneath a file), or -ENOMEM.  The members must outlive
 * the tree.
 */
int ld_mem_build(const struct mach_tree_member *m, size_t n, struct mt_tree *t, char *err, size_t errlen);
void ld_mem_free(struct mt_tree *t);

/**
 * The node at @rel beneath @root ("" or "." for the root itself); -ENOENT,
 * -ELOOP (a symlink on the way: never followed) or -ENOTDIR (a file on the
 * way).
 */
int ld_mem_find(const struct mt_node *root, const char *rel, const struct mt_node **out);

/**
 * A member's bytes (a file's, or a link's target) copied as uf_read gives
 * them: *@text malloc'd and NUL-terminated, its length in *@len; -EFBIG
 * past @limit, -ENOMEM.
 */
int ld_mem_copy(const struct mt_node *node, size_t limit, char **text, size_t *len);

/** A file's bytes as uf_read gives them (-EISDIR, -ELOOP for a symlink, -EFBIG past @limit). */
int ld_mem_file(const struct mt_node *root, const char *rel, size_t limit, const struct mt_node **out);

struct walk {
	struct mach_loader *ld;
	const char *dir;
	int dirfd;                /* the directory read; -1 for a tree in memory */
	const struct mt_node *mem;/* the tree in memory, or NULL */
	bool live, no_tasks;
	bool want_report;         /* keep every file's text: the caller asked for the report */
	pid_t self_tid;           /* live: the thread reading, whose syscall shows its own reads */
	const struct mach_ld_name *files; /* what to read, from the caller (the file table) */
	size_t nfiles;
	unsigned int uf_flags;    /* UF_BENEATH for a tree somebody wrote */
	int (*sys_classify)(const struct mach_machine *m, const char *rel, bool dir, struct mach_ld_sys_file *f); /* the table's, for /sys */
	struct arena arena;
	struct walk_netns *nets;  /* the namespaces built, by their files (walk_net.c) */
	size_t nnets;
	struct ld_report rep;
	char *err;
	size_t errlen;
};

/**
 * Read the /sys subtrees named in w->files (kinds mach_ld_kind_sysfs) from
 * the tree open at @sysfd, or held in memory at @mem (an archive's; then
 * @sysfd is -1), into the loader, and the report.  @sysdir names it in
 * messages; @live: the kernel's, which may change.
 */
int ld_walk_sys(struct walk *w, int sysfd, const struct mt_node *mem, const char *sysdir, bool live);
/** Read the machine-wide files into w->ld's machine, the report, and the machine's lacks. */
int ld_walk_globals(struct walk *w);

/**
 * The namespace a task's net files @r show when another task's showed it
 * with the same bytes (and ns/net inode): 1 + its index in the machine's
 * nets, or 0.
 */
unsigned int ld_walk_net_known(const struct walk *w, const struct ld_netread *r);
/** Remember that the files @r showed namespace @netns (1 + index): 0 or -ENOMEM. */
int ld_walk_net_learn(struct walk *w, const struct ld_netread *r, unsigned int netns);
/** Forget every namespace learned. */
void ld_walk_net_free(struct walk *w);
/** The inode an ns/net link's text ("net:[4026531840]", @len bytes) names; 0 when it names none. */
uint32_t ld_walk_net_ino(const char *link, size_t len);

/** Read, check and build process @pid, and report its files. */
int ld_walk_pid(struct walk *w, pid_t pid);

/**
 * The ids ("42", not "042" or "self") in directory @rel of the tree ("."
 * for its root), ascending, into *@ids.  0, -ENOMEM, or why it could not
 * be listed.
 */
int ld_walk_list_ids(struct walk *w, const char *rel, pid_t **ids, size_t *n);

/** Whether @rel is in the tree: 0 or -errno. */
int ld_walk_exists(struct walk *w, const char *rel);

/**
 * When @rel was last changed (ns since the epoch), and its place in the
 * tree's order (an archive's member index; 0 in a directory): which file
 * of two is the younger.  0 or -errno.
 */
int ld_walk_age(struct walk *w, const char *rel, int64_t *mtime_ns, size_t *order);

/** ld_report_add when the caller wants the report (w->want_report); else 0. */
int ld_walk_report(struct walk *w, const char *path, enum mach_load_status status, const char *reason,
		   const char *text, size_t len);

/** Read the tree of sysctl keys named by @g (/proc/sys) into the loader, and the report. */
int ld_walk_sysctl(struct walk *w, const struct mach_ld_name *g);

/* What a collection directory of one task listed (fd/, fdinfo/). */
struct listing {
	pid_t tid;
	const struct mach_ld_name *f;
	uint32_t *insts;    /* ascending */
	size_t n;
	int fd;             /* the directory, open while the attempt reads */
	const struct mt_node *node; /* or its node, in a tree in memory */
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

/** Close what ld_walk_open_coll opened. */
void ld_walk_close_coll(struct listing *l);

/** Make @a @cap bytes, all touched, and empty it: 0, -EFBIG past ARENA_MAX, or -ENOMEM. */
int ld_arena_grow(struct arena *a, size_t cap);

/** Read @rel into the arena at *@off: 0, -ENOBUFS when it does not fit, or -errno. */
int ld_walk_read(struct walk *w, const char *rel, size_t *off, size_t *len);

/**
 * A file @rel of a tree in memory, in place: *@data the member's bytes
 * (they live as long as the tree), *@len their length.  0 or -errno.
 */
int ld_walk_peek(struct walk *w, const char *rel, const char **data, size_t *len);

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

/**
 * The entries of the directory open at @fd (closed here) but "." and "..",
 * malloc'd, sorted in byte order.  0, -errno or -ENOMEM.
 */
int ld_walk_list_names(int fd, char ***out, size_t *n);

/** Free what ld_walk_list_names gave. */
void ld_walk_free_names(char **names, size_t n);

#endif
