/* SPDX-License-Identifier: MIT */
/*
 * tar_read.h - the members of a tar stream, read straight from the bytes
 * libarchive's filters decompress (capture_read.c): its general readers
 * spend, per member, more than the member's bytes cost; a capture has a
 * few hundred thousand small members.
 *
 * ustar and v7 headers, GNU long names and links ('L', 'K'), pax extended
 * headers (path, linkpath, size, mtime) and base-256 numbers.  Anything
 * else (sparse files, multi-volume parts, a header whose checksum fails
 * before any member) is -ENOTSUP: the caller reads the archive with
 * libarchive's own readers, which know more formats and say what is wrong.
 */
#ifndef UPROCFS_TOOLS_TAR_READ_H
#define UPROCFS_TOOLS_TAR_READ_H

#include <stddef.h>
#include <stdint.h>

struct archive;

/* One member's header. */
struct tar_member {
	const char *path;         /* as the archive names it (the reader's memory, until the next member) */
	char type;                /* 'f' file, 'd' directory, 'l' symlink, 'h' hard link, 'o' device, FIFO, ... */
	const char *link;         /* 'l', 'h': the target */
	unsigned int mode;        /* permission bits */
	int64_t mtime_ns;
	uint64_t size;            /* 'f': its bytes, read with tar_data */
};

struct tar_reader;

/**
 * A reader of the tar stream that @ar (opened with the raw format, its
 * single entry's header read) decompresses: NULL on ENOMEM.
 */
struct tar_reader *tar_open(struct archive *ar);
void tar_close(struct tar_reader *t);

/**
 * The next member's header into @m: 0; 1 at the end of the archive;
 * -ENOTSUP when the stream is no tar this reader knows (@first: no member
 * was read yet) or holds an entry it does not read; -EINVAL when damaged
 * or truncated; -ENOMEM.  A member's data it was not asked for is skipped.
 */
int tar_next(struct tar_reader *t, struct tar_member *m);

/**
 * The current file member's @n (its size) bytes: *@data where they lie
 * in the stream's current block (valid until the next call), or copied
 * into @dst when they span blocks.  0, or -EINVAL (truncated, a read error).
 */
int tar_data(struct tar_reader *t, char *dst, size_t n, const char **data);

/** What went wrong, for a message. */
const char *tar_error(const struct tar_reader *t);

#endif
