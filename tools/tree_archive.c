// SPDX-License-Identifier: MIT
/*
 * tree_archive.c - a /proc tree written as one compressed archive
 * (tree_archive.h): `uprocfs capture -o FILE.tar.zst`, `render --tree
 * FILE.tar.zst`.
 *
 * The archive is a POSIX (pax) tar, compressed by its suffix, whose
 * members lie under one top directory named after it (cap.tar.zst holds
 * cap/stat, cap/42/status, cap/uprocfs-capture), so that unpacking it
 * makes one directory that loads as the archive does.  No directory
 * members are written: every member names its parents, and tar makes them.
 * Like a directory tree it is written aside (a temporary file beside the
 * destination) and renamed into place when complete.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tree_archive.h"

struct suffix {
	const char *ext;
	int (*filter)(struct archive *);
};

static const struct suffix suffixes[] = {
	{ ".tar.zst", archive_write_add_filter_zstd },
	{ ".tzst", archive_write_add_filter_zstd },
	{ ".tar.gz", archive_write_add_filter_gzip },
	{ ".tgz", archive_write_add_filter_gzip },
	{ ".tar.xz", archive_write_add_filter_xz },
	{ ".txz", archive_write_add_filter_xz },
	{ ".tar.bz2", archive_write_add_filter_bzip2 },
	{ ".tar", archive_write_add_filter_none },
};

const char *tw_archive_suffix(const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t el = strlen(suffixes[i].ext);

		if (len > el && !strcmp(name + len - el, suffixes[i].ext) && name[len - el - 1] != '/')
			return suffixes[i].ext;
	}
	return NULL;
}

/* The archive's top directory: its file name without the suffix. */
static char *top_name(const char *dest, const char *suffix)
{
	const char *base = strrchr(dest, '/');

	base = base ? base + 1 : dest;
	return strndup(base, strlen(base) - strlen(suffix));
}

static int ar_fail(struct tree_writer *w, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s: %s", w->dest, what, w->ar ? archive_error_string(w->ar) : "out of memory");
	return -EIO;
}

int twa_begin(struct tree_writer *w, const char *dest, const char *suffix, bool force, char *err, size_t errlen)
{
	const struct suffix *sf = NULL;
	struct stat st;

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (!strcmp(suffixes[i].ext, suffix))
			sf = &suffixes[i];
	if (!lstat(dest, &st) && !force) {
		snprintf(err, errlen, "%s: exists (give --force to replace it)", dest);
		return -EEXIST;
	}
	if (!lstat(dest, &st) && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: a directory, not an archive to replace", dest);
		return -EISDIR;
	}
	w->dest = strdup(dest);
	w->top = top_name(dest, suffix);
	if (!w->dest || !w->top || asprintf(&w->tmp, "%s.tmp-XXXXXX", dest) < 0) {
		w->tmp = NULL;
		twa_abort(w);
		return -ENOMEM;
	}
	w->tmpfd = mkostemp(w->tmp, O_CLOEXEC);
	if (w->tmpfd < 0 || fchmod(w->tmpfd, 0644)) {
		int rc = -errno;

		snprintf(err, errlen, "%s: cannot create a temporary file beside it: %s", dest, strerror(errno));
		if (w->tmpfd < 0) {
			free(w->tmp);
			w->tmp = NULL;
		}
		twa_abort(w);
		return rc;
	}
	w->mtime = (int64_t)time(NULL);
	w->ar = archive_write_new();
	if (!w->ar || archive_write_set_format_pax_restricted(w->ar) != ARCHIVE_OK || !sf ||
	    sf->filter(w->ar) != ARCHIVE_OK || archive_write_open_fd(w->ar, w->tmpfd) != ARCHIVE_OK) {
		int rc = ar_fail(w, "cannot start the archive", err, errlen);

		twa_abort(w);
		return rc;
	}
	return 0;
}

/* One member's header and bytes. */
static int put_member(struct tree_writer *w, const char *rel, mode_t type, unsigned int mode, const char *target,
		      const char *text, size_t len, char *err, size_t errlen)
{
	struct archive_entry *e = archive_entry_new();
	char *path = NULL;
	int rc = 0;

	if (!e || asprintf(&path, "%s/%s", w->top, rel) < 0) {
		archive_entry_free(e);
		snprintf(err, errlen, "%s: out of memory", w->dest);
		return -ENOMEM;
	}
	archive_entry_set_pathname(e, path);
	archive_entry_set_filetype(e, type);
	archive_entry_set_perm(e, mode);
	archive_entry_set_mtime(e, (time_t)w->mtime, 0);
	if (target)
		archive_entry_set_symlink(e, target);
	else
		archive_entry_set_size(e, (la_int64_t)len);
	if (archive_write_header(w->ar, e) != ARCHIVE_OK ||
	    (len && archive_write_data(w->ar, text, len) != (la_ssize_t)len))
		rc = ar_fail(w, path, err, errlen);
	else
		w->files++;
	archive_entry_free(e);
	free(path);
	return rc;
}

int twa_file(struct tree_writer *w, const char *rel, const char *text, size_t len, unsigned int mode, char *err,
	     size_t errlen)
{
	return put_member(w, rel, AE_IFREG, mode ? mode & 07777 : 0644, NULL, text, len, err, errlen);
}

int twa_link(struct tree_writer *w, const char *rel, const char *target, char *err, size_t errlen)
{
	return put_member(w, rel, AE_IFLNK, 0777, target, NULL, 0, err, errlen);
}

int twa_commit(struct tree_writer *w, char *err, size_t errlen)
{
	int rc = 0;

	if (archive_write_close(w->ar) != ARCHIVE_OK)
		rc = ar_fail(w, "cannot finish the archive", err, errlen);
	else if (fsync(w->tmpfd) || rename(w->tmp, w->dest)) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot put the archive in place: %s", w->dest, strerror(errno));
	} else {
		free(w->tmp);
		w->tmp = NULL; /* in place: nothing to remove */
	}
	twa_abort(w);
	return rc;
}

void twa_abort(struct tree_writer *w)
{
	if (w->ar)
		archive_write_free(w->ar);
	if (w->tmpfd >= 0)
		close(w->tmpfd);
	if (w->tmp)
		unlink(w->tmp);
	free(w->tmp);
	free(w->dest);
	free(w->top);
	memset(w, 0, sizeof(*w));
	w->tmpfd = -1;
}
