/* SPDX-License-Identifier: MIT */
/*
 * tree_archive.h - the archive side of tree_write.c: a /proc tree written
 * as one compressed archive (libarchive), for tree_write.c only.
 */
#ifndef UPROCFS_TOOLS_TREE_ARCHIVE_H
#define UPROCFS_TOOLS_TREE_ARCHIVE_H

#include "tree_write.h"

/** tw_begin for an archive @dest ending with @suffix. */
int twa_begin(struct tree_writer *w, const char *dest, const char *suffix, bool force, char *err, size_t errlen);
/** A regular member at @rel with the bytes @text. */
int twa_file(struct tree_writer *w, const char *rel, const char *text, size_t len, unsigned int mode, char *err,
	     size_t errlen);
/** A symlink member at @rel pointing at @target (NUL-terminated). */
int twa_link(struct tree_writer *w, const char *rel, const char *target, char *err, size_t errlen);
/** Finish the archive and rename it into place. */
int twa_commit(struct tree_writer *w, char *err, size_t errlen);
/** Throw the unfinished archive away. */
void twa_abort(struct tree_writer *w);

#endif
