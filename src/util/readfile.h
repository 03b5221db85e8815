/* SPDX-License-Identifier: MIT */
/*
 * readfile.h - reading a whole file safely: from a real procfs, or from a
 * tree somebody else wrote (a capture, an archive unpacked by a user).
 *
 * A tree is untrusted: it may hold symlinks out of it, FIFOs that would
 * block open(2) forever, devices, or files far larger than any /proc file.
 * UF_BENEATH resolves the path inside the directory only (no symlink, no
 * "..", no mount crossing), opens without blocking and reads only regular
 * files; every read is bounded before anything is allocated for it.
 */
#ifndef UPROCFS_UTIL_READFILE_H
#define UPROCFS_UTIL_READFILE_H

#include <stddef.h>

/* The largest file read in one piece: the kernel's MAX_RW_COUNT is near 2 GiB, /proc files stay far below. */
#define UF_LIMIT_DEFAULT (256u << 20)

enum uf_flags {
	UF_BENEATH = 1u << 0, /* @path must resolve inside @dirfd, through no symlink; regular files only */
};

/**
 * Read @path (relative to @dirfd) whole into a malloc'd buffer, NUL
 * terminated past *@len.  0, or -errno: -ELOOP (a symlink on the way, with
 * UF_BENEATH), -EXDEV (the path leaves the tree), -ENODEV (not a regular
 * file: FIFO, socket, device), -EISDIR, -EFBIG (more than @limit bytes), or
 * what open(2)/read(2) said.  uf_reason() words each for a message.
 */
int uf_read(int dirfd, const char *path, unsigned int flags, size_t limit, char **text, size_t *len);

/** Open @path under @dirfd as uf_read does (O_RDONLY|O_CLOEXEC); a descriptor or -errno. */
int uf_open(int dirfd, const char *path, unsigned int flags, int oflags);

/**
 * The target of symlink @path (relative to @dirfd) into @buf (not NUL
 * terminated): its length, or -errno (-ENAMETOOLONG when it does not fit,
 * -ENOLINK when @path is no symlink).
 * With UF_BENEATH the directories on the way resolve inside @dirfd as
 * uf_read's do; the link itself is read, never followed.
 */
long uf_readlink(int dirfd, const char *path, unsigned int flags, char *buf, size_t size);

/** A short phrase for an error of uf_read ("a symlink (not followed)", ...). */
const char *uf_reason(int rc);

#endif /* UPROCFS_UTIL_READFILE_H */
