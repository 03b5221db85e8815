/* SPDX-License-Identifier: MIT */
/*
 * tree_memory.h - the memory side of tree_write.c: a tree kept as loader
 * members (tree_memory.c), for tree_write.c only.
 */
#ifndef UPROCFS_TOOLS_TREE_MEMORY_H
#define UPROCFS_TOOLS_TREE_MEMORY_H

#include "tree_write.h"

/** tw_begin_memory. */
int twm_begin(struct tree_writer *w, const char *name, char *err, size_t errlen);
/** A member of @type ('f' a file, 'l' a symlink) at @rel holding a copy of @data. */
int twm_add(struct tree_writer *w, char type, const char *rel, const char *data, size_t len, unsigned int mode,
	    char *err, size_t errlen);
/** tw_load_memory. */
int twm_load(struct tree_writer *w, struct mach_machine **out, struct mach_load_report *report, char *err,
	     size_t errlen);
/** tw_memory_members. */
const struct mach_tree_member *twm_members(const struct tree_writer *w, size_t *n);
/** Free the tree and reset @w. */
void twm_abort(struct tree_writer *w);

#endif
