/* SPDX-License-Identifier: MIT */
/*
 * backend.h - what the in-process transport serves /proc and /sys from: the
 * file table and the renderers over a copy of the served machine mapped into
 * the reading process (see arena.h), so a file is read with no syscall.
 *
 * Every call takes an absolute, normalised path.  A return of PLB_PASS
 * means "not ours": the caller does the real syscall, which reaches the FUSE
 * mount (the run's own processes, /proc/self, files the copy cannot answer).
 */
#ifndef UPROCFS_PRELOAD_BACKEND_H
#define UPROCFS_PRELOAD_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#define PLB_PASS 1

struct plb_dirent {
	char name[64];
	unsigned char type;   /* DT_DIR, DT_REG, DT_LNK */
	ino_t ino;
};

/** Start the backend from the environment (UPROCFS_PRELOAD); false when there is nothing to serve from. */
bool plb_init(void);

/** Whether @path is under a tree the backend serves (/proc, /sys): worth normalising and asking. */
bool plb_candidate(const char *path);

/** stat(2) of @path (@follow: stat, else lstat).  0, -errno or PLB_PASS. */
int plb_stat(const char *path, bool follow, struct stat *st);

/**
 * The whole text of file @path as open(2) would give it to this process (its
 * access rules applied), in a malloc'd *@text.  0, -errno or PLB_PASS.
 */
int plb_render(const char *path, char **text, size_t *len);

/** readlink(2) of @path; the length, -errno or PLB_PASS (as a negative... see preload.c). */
int plb_readlink(const char *path, char *buf, size_t size, size_t *len);

/** The entries of directory @path (with "." and ".."), malloc'd.  0, -errno or PLB_PASS. */
int plb_list(const char *path, struct plb_dirent **ents, size_t *n);

#endif
