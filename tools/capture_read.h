/* SPDX-License-Identifier: MIT */
/*
 * capture_read.h - a capture as people take them, opened for loading: the
 * live /proc, a directory (written by `uprocfs capture`, copied with cp,
 * or a sosreport-style tree with proc/ and sys/ under its root), or an
 * archive of any of those in any format libarchive reads (.tar.zst,
 * .tar.gz, .zip, ...), read whole into memory, never unpacked to disk.
 *
 * An archive comes from somebody else: it is refused, with the member
 * named, when a member's path leaves it (absolute, ".."), when it holds a
 * device, FIFO, socket or hard link, when a symlink in the /proc tree
 * points out of it (other than the links /proc itself holds: fd/N, cwd,
 * exe, ns/...), when a member is larger than the loader reads of one file
 * (UF_LIMIT_DEFAULT), or when it is damaged or truncated.
 */
#ifndef UPROCFS_TOOLS_CAPTURE_READ_H
#define UPROCFS_TOOLS_CAPTURE_READ_H

#include <stddef.h>

#include "uprocfs/load.h"

/*
 * The most an archive may unpack to in memory, its members' distinct bytes
 * (members with the same bytes share them), and the most it may unpack to
 * at all: a 2,000-process capture unpacks to 1.6 GiB, 0.4 GiB of it
 * distinct (every task holds its namespace's net/ tables).
 */
#define CAPTURE_TOTAL_LIMIT ((size_t)4 << 30)
#define CAPTURE_UNPACK_LIMIT ((size_t)64 << 30)
/* Members an archive may hold. */
#define CAPTURE_MEMBERS_LIMIT ((size_t)16 << 20)

/** An archive read into memory. */
struct capture_archive {
	struct mach_tree_member *m;  /* beneath the /proc tree's root, its prefix taken off */
	size_t n;
	struct mach_tree_member *sys_m; /* beneath the sys/ beside a proc/ root, its prefix taken off */
	size_t sys_n;
	char *name;                  /* the archive and the root inside it, for messages */
	char *sys_name;              /* the archive and its sys/, when it has one */
	void *blocks;                /* where the members' bytes live */
};

/**
 * Read the archive @path (or, when @data is not NULL, the @len bytes at
 * @data, named @path) and find its /proc tree: at the top, in its one top
 * directory, or in proc/ beneath either (a sosreport).  0, or -errno with
 * a message naming the member in @err.
 */
int capture_archive_read(const char *path, const void *data, size_t len, struct capture_archive *a, char *err,
			 size_t errlen);

void capture_archive_free(struct capture_archive *a);

/**
 * Load the capture at @path as mach_load_tree does a directory (pfs_load_tree):
 * a directory (its proc/ when it is a sosreport-style tree), or an archive.
 */
int capture_load(const char *path, const struct mach_load_opts *opts, struct mach_machine **out,
		 struct mach_load_report *report, char *err, size_t errlen);

#endif
