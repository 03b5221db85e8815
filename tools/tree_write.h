/* SPDX-License-Identifier: MIT */
/*
 * tree_write.h - writing a machine's trees to disk: `uprocfs capture` and
 * `uprocfs render --tree`.  /proc goes in DIR/proc, /sys in DIR/sys (a tree
 * written before /sys was served holds /proc at DIR itself; the loader
 * reads both).
 *
 * A tree is written only where there was none: into a fresh temporary
 * directory beside the destination, every file created new (O_EXCL,
 * O_NOFOLLOW, relative to directory descriptors: nothing planted in the
 * destination is followed or overwritten), then renamed into place whole, so
 * a failed write leaves nothing half-written.  An existing non-empty
 * destination is refused unless forced; then it is replaced, not merged
 * (stale pid directories of an earlier capture do not survive).
 */
#ifndef UPROCFS_TOOLS_TREE_WRITE_H
#define UPROCFS_TOOLS_TREE_WRITE_H

#include <stdbool.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "uprocfs/load.h"
#include "uprocfs/machine.h"

struct archive;
struct tw_memory;

/* The deepest directory a file of a tree may lie in (/sys's devices go some 15 down). */
#define TW_DEPTH 48

struct tree_writer {
	char *dest;     /* where the tree goes */
	char *tmp;      /* where it is written meanwhile */
	int tmpfd;      /* the open temporary directory, or the temporary archive file */
	size_t files;
	/* an archive (tree_archive.c) rather than a directory */
	struct archive *ar;
	char *top;      /* the one directory its members lie in: the archive's name without its suffix */
	int64_t mtime;  /* of every member: when the tree was written */
	/* a tree kept in memory (tw_begin_memory) rather than a directory or an archive */
	struct tw_memory *mem;
	/*
	 * The directories of the last file written, open: the next file lies
	 * in most of them (a tree is written in its traversal order), so it
	 * needs no mkdirat and openat of each level again.  dirs[i] is the
	 * directory of rel's first i + 1 components, named dir_names[i].
	 */
	unsigned int ndirs;
	unsigned int umask; /* the process's: a file's mode is set apart only where it clears bits */
	int dirs[TW_DEPTH];
	char dir_names[TW_DEPTH][NAME_MAX + 1];
};

/**
 * Start a tree for @dest: a directory, or when @dest names an archive
 * (tw_archive_suffix) one compressed archive holding the tree under one
 * top directory.  -EEXIST when @dest holds anything and !@force; -errno
 * with a message naming the path in @err.
 */
int tw_begin(struct tree_writer *w, const char *dest, bool force, char *err, size_t errlen);

/** Write one file at @rel ("proc/42/task/43/stat") of the tree; 0 or -errno with a message. */
int tw_file(struct tree_writer *w, const char *rel, const char *text, size_t len, char *err, size_t errlen);

/** tw_file with permission bits @mode (0: 0644): a /proc/sys key keeps the kernel's mode in a tree. */
int tw_file_mode(struct tree_writer *w, const char *rel, const char *text, size_t len, unsigned int mode, char *err,
		 size_t errlen);

/** Write a symlink at @rel pointing at the @len bytes of @target (a /proc link's text). */
int tw_link(struct tree_writer *w, const char *rel, const char *target, size_t len, char *err, size_t errlen);

/**
 * Write @rel, a path as the loader reports it ("42/fd/3" under /proc,
 * "/sys/class/hwmon/hwmon0"), in its tree (proc/, sys/) as the file table
 * says it is, or as @mode says (S_IFLNK: a /sys link of a device, which
 * its path alone does not name): a symlink for a link entry, else a file
 * with permission bits @mode (0: 0644).
 */
int tw_entry(struct tree_writer *w, const char *rel, const char *text, size_t len, unsigned int mode, char *err,
	     size_t errlen);

/**
 * Start a tree kept in memory, @name naming it in messages: written as a
 * directory is, loaded back with tw_load_memory (nothing touches a file
 * system), freed with tw_abort.  0 or -ENOMEM with a message.
 */
int tw_begin_memory(struct tree_writer *w, const char *name, char *err, size_t errlen);

/**
 * Load the tree @w keeps in memory as pfs_load_tree loads the same tree
 * written to a directory (its proc/ and its sys/).  @w keeps the tree.
 */
int tw_load_memory(struct tree_writer *w, struct mach_machine **out, struct mach_load_report *report, char *err,
		   size_t errlen);

/**
 * The members of the tree @w keeps in memory, in the order written (paths
 * beginning "proc/" or "sys/"), *@n of them; NULL and 0 for a tree that is
 * not in memory.  Valid until the next write or tw_abort.
 */
const struct mach_tree_member *tw_memory_members(const struct tree_writer *w, size_t *n);

/**
 * Render @m into a tree in memory and load it back (the round-trip tests):
 * what tw_write_machine and pfs_load_tree of its directory give, without
 * the files.  0 or -errno with a message.
 */
int tw_roundtrip_memory(const struct mach_machine *m, struct mach_machine **out, struct mach_load_report *report,
			char *err, size_t errlen);

/**
 * Put the tree in place (replacing a forced destination); 0 or -errno with
 * a message.  A tree in memory stays where it is: 0.
 */
int tw_commit(struct tree_writer *w, char *err, size_t errlen);

/** Throw away a tree not committed (after a failure). */
void tw_abort(struct tree_writer *w);

/**
 * The archive suffix @name ends with (".tar.zst", ".tar.gz", ".tgz",
 * ".tar.xz", ".tar.bz2", ".tar"), or NULL when it names a directory.
 */
const char *tw_archive_suffix(const char *name);

/** Write what a capture says of itself (MACH_CAPTURE_INFO) at the root of the tree. */
int tw_info(struct tree_writer *w, const struct mach_capture_info *ci, char *err, size_t errlen);

/** Render every loadable file of @m into @w (render --tree, the round-trip tests). */
int tw_machine(struct tree_writer *w, const struct mach_machine *m, char *err, size_t errlen);

/**
 * Write @m's tree at @dest in one go (begin, every file, commit), forcing
 * over an existing destination; 0 or -errno with a message.
 */
int tw_write_machine(const struct mach_machine *m, const char *dest, char *err, size_t errlen);

#endif
