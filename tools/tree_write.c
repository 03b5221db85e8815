// SPDX-License-Identifier: MIT
/* tree_write.c - write a /proc-shaped tree safely (tree_write.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tree_archive.h"
#include "tree_memory.h"
#include "tree_write.h"
#include "uprocfs/procfs.h"

/* Remove everything under the directory @fd (not following symlinks), then close it. */
static int remove_under(int fd)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!unlinkat(fd, de->d_name, 0))
			continue;
		if (errno == EISDIR || errno == EPERM) {
			int sub = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub < 0 || remove_under(sub) || unlinkat(fd, de->d_name, AT_REMOVEDIR))
				rc = -errno;
		} else {
			rc = -errno;
		}
	}
	closedir(d);
	return rc;
}

/* Remove the tree at @path; a missing one is fine. */
static int remove_tree(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (remove_under(fd))
		return -errno;
	return rmdir(path) ? -errno : 0;
}

/* 1 when @path is a directory with entries (or no directory), 0 when empty or missing, -ELOOP for a symlink, -errno otherwise. */
static int holds_anything(const char *path)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int any = 0;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	if (!S_ISDIR(st.st_mode))
		return 1;
	d = opendir(path);
	if (!d)
		return -errno;
	while (!any && (de = readdir(d)))
		any = strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return any;
}

int tw_begin(struct tree_writer *w, const char *dest, bool force, char *err, size_t errlen)
{
	size_t len = strlen(dest);
	int full;

	memset(w, 0, sizeof(*w));
	w->tmpfd = -1;
	if (tw_archive_suffix(dest))
		return twa_begin(w, dest, tw_archive_suffix(dest), force, err, errlen);
	while (len > 1 && dest[len - 1] == '/')
		len--;
	full = holds_anything(dest);
	if (full == -ELOOP) {
		/* even with --force: replacing a planted link would leave it behind, renamed, outside our tree */
		snprintf(err, errlen, "%s: a symlink (not followed): give a directory", dest);
		return full;
	}
	if (full < 0) {
		snprintf(err, errlen, "%s: %s", dest, strerror(-full));
		return full;
	}
	if (full && !force) {
		snprintf(err, errlen, "%s: exists and is not empty (give --force to replace it)", dest);
		return -EEXIST;
	}
	w->dest = strndup(dest, len);
	w->tmp = malloc(len + 16);
	if (!w->dest || !w->tmp) {
		tw_abort(w);
		return -ENOMEM;
	}
	snprintf(w->tmp, len + 16, "%s.tmp-XXXXXX", w->dest);
	if (!mkdtemp(w->tmp)) {
		int e = -errno;
		snprintf(err, errlen, "%s: cannot create a temporary directory beside it: %s", dest, strerror(errno));
		free(w->tmp);
		w->tmp = NULL;
		tw_abort(w);
		return e;
	}
	w->umask = umask(0);
	umask(w->umask);
	w->tmpfd = open(w->tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (w->tmpfd >= 0 && fchmod(w->tmpfd, 0755))
		w->tmpfd = -1 - close(w->tmpfd); /* -1, with errno from fchmod */
	if (w->tmpfd < 0) {
		int e = -errno;
		snprintf(err, errlen, "%s: %s", w->tmp, strerror(errno));
		tw_abort(w);
		return e;
	}
	return 0;
}

/* Close the open directories from depth @keep down. */
static void dirs_close(struct tree_writer *w, unsigned int keep)
{
	while (w->ndirs > keep)
		close(w->dirs[--w->ndirs]);
}

/*
 * The directory of @rel's parent under the tree, created as needed: a
 * descriptor the writer keeps (not to be closed), or -errno.  @base is set
 * to rel's last component.
 */
static int parent_dir(struct tree_writer *w, const char *rel, const char **base)
{
	const char *p = rel;
	unsigned int depth = 0;
	int fd = w->tmpfd;

	for (const char *slash; (slash = strchr(p, '/')); p = slash + 1, depth++) {
		size_t len = (size_t)(slash - p);
		int next;

		if (!len || len > NAME_MAX || (len <= 2 && !strncmp(p, "..", len)))
			return -EINVAL;
		if (depth >= TW_DEPTH)
			return -ENAMETOOLONG;
		if (depth < w->ndirs) {
			if (!strncmp(w->dir_names[depth], p, len) && !w->dir_names[depth][len]) {
				fd = w->dirs[depth];
				continue;
			}
			dirs_close(w, depth);
		}
		memcpy(w->dir_names[depth], p, len);
		w->dir_names[depth][len] = '\0';
		if (mkdirat(fd, w->dir_names[depth], 0755) && errno != EEXIST)
			return -errno;
		next = openat(fd, w->dir_names[depth], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			return -errno;
		w->dirs[w->ndirs++] = next;
		fd = next;
	}
	*base = p;
	return fd;
}

int tw_file(struct tree_writer *w, const char *rel, const char *text, size_t len, char *err, size_t errlen)
{
	return tw_file_mode(w, rel, text, len, 0, err, errlen);
}

int tw_file_mode(struct tree_writer *w, const char *rel, const char *text, size_t len, unsigned int mode, char *err,
		 size_t errlen)
{
	const char *base = rel;
	int dfd, fd, rc = 0;

	if (w->ar)
		return twa_file(w, rel, text, len, mode, err, errlen);
	if (w->mem)
		return twm_add(w, 'f', rel, text, len, mode ? mode & 07777 : 0644, err, errlen);
	dfd = parent_dir(w, rel, &base);
	if (dfd < 0) {
		snprintf(err, errlen, "%s/%s: %s", w->dest, rel, strerror(-dfd));
		return dfd;
	}
	mode = mode ? mode & 07777 : 0644;
	fd = openat(dfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 0777);
	/* the kernel's mode, whatever the umask (the open descriptor writes a 0444 key all the same) */
	if (fd >= 0 && ((mode & w->umask) || (mode & ~0777u)) && fchmod(fd, mode)) {
		rc = -errno;
		close(fd);
		snprintf(err, errlen, "%s/%s: %s", w->dest, rel, strerror(-rc));
		return rc;
	}
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s/%s: %s", w->dest, rel, strerror(errno));
		return rc;
	}
	while (len && !rc) {
		ssize_t n = write(fd, text, len);

		if (n < 0 && errno != EINTR)
			rc = -errno;
		if (n > 0) {
			text += n;
			len -= (size_t)n;
		}
	}
	if (close(fd) && !rc)
		rc = -errno;
	if (rc)
		snprintf(err, errlen, "%s/%s: %s", w->dest, rel, strerror(-rc));
	else
		w->files++;
	return rc;
}

int tw_link(struct tree_writer *w, const char *rel, const char *target, size_t len, char *err, size_t errlen)
{
	const char *base = rel;
	char *t = len < 4096 && !memchr(target, '\0', len) ? strndup(target, len) : NULL;
	int dfd, rc = 0;

	if (!t) {
		snprintf(err, errlen, "%s/%s: not a symlink target (%zu bytes)", w->dest, rel, len);
		return -EINVAL;
	}
	if (w->ar || w->mem) {
		rc = w->ar ? twa_link(w, rel, t, err, errlen) : twm_add(w, 'l', rel, t, len, 0777, err, errlen);
		free(t);
		return rc;
	}
	dfd = parent_dir(w, rel, &base);
	if (dfd < 0) {
		snprintf(err, errlen, "%s/%s: %s", w->dest, rel, strerror(-dfd));
		free(t);
		return dfd;
	}
	if (symlinkat(t, dfd, base)) {
		rc = -errno;
		snprintf(err, errlen, "%s/%s: %s", w->dest, rel, strerror(errno));
	} else {
		w->files++;
	}
	free(t);
	return rc;
}

/* Where a file of the report or of a tree goes: proc/X, or sys/X for /sys/X. */
static int tree_path(const char *rel, char *buf, size_t size)
{
	bool sys = !strncmp(rel, "/sys/", 5);

	return snprintf(buf, size, "%s/%s", sys ? "sys" : "proc", sys ? rel + 5 : rel) < (int)size ? 0 : -ENAMETOOLONG;
}

int tw_entry(struct tree_writer *w, const char *rel, const char *text, size_t len, unsigned int mode, char *err,
	     size_t errlen)
{
	struct pfs_node n;
	char perr[64], path[4200];

	if (tree_path(rel, path, sizeof(path))) {
		snprintf(err, errlen, "%s: name too long", rel);
		return -ENAMETOOLONG;
	}
	if ((mode & S_IFMT) == S_IFLNK ||
	    (!pfs_parse_path(rel, NULL, &n, perr, sizeof(perr)) && n.entry && n.entry->kind == PFS_LINK))
		return tw_link(w, path, text, len, err, errlen);
	return tw_file_mode(w, path, text, len, mode, err, errlen);
}

int tw_commit(struct tree_writer *w, char *err, size_t errlen)
{
	char *old = NULL;
	int rc = 0;

	if (w->ar)
		return twa_commit(w, err, errlen);
	if (w->mem)
		return 0;
	dirs_close(w, 0);
	close(w->tmpfd);
	w->tmpfd = -1;
	/* an empty destination directory goes; a forced full one is moved aside first */
	if (rename(w->tmp, w->dest)) {
		if (errno != ENOTEMPTY && errno != EEXIST && errno != ENOTDIR) {
			rc = -errno;
			goto fail;
		}
		if (asprintf(&old, "%s.old-XXXXXX", w->dest) < 0 || !mkdtemp(old) || rmdir(old) ||
		    rename(w->dest, old) || rename(w->tmp, w->dest)) {
			rc = -errno;
			goto fail;
		}
		if (remove_tree(old))
			fprintf(stderr, "uprocfs: could not remove the replaced tree %s\n", old);
	}
	free(old);
	free(w->tmp);
	w->tmp = NULL;
	tw_abort(w);
	return 0;
fail:
	snprintf(err, errlen, "%s: cannot put the tree in place: %s", w->dest, strerror(-rc));
	free(old);
	tw_abort(w);
	return rc;
}

void tw_abort(struct tree_writer *w)
{
	if (w->ar) {
		twa_abort(w);
		return;
	}
	if (w->mem) {
		twm_abort(w);
		return;
	}
	dirs_close(w, 0);
	if (w->tmpfd >= 0)
		close(w->tmpfd);
	if (w->tmp && remove_tree(w->tmp))
		fprintf(stderr, "uprocfs: could not remove %s\n", w->tmp);
	free(w->tmp);
	free(w->dest);
	memset(w, 0, sizeof(*w));
	w->tmpfd = -1;
}

int tw_info(struct tree_writer *w, const struct mach_capture_info *ci, char *err, size_t errlen)
{
	char text[512];
	int n = mach_capture_info_format(ci, text, sizeof(text));

	if (n < 0) {
		snprintf(err, errlen, "%s: the capture's description does not fit", MACH_CAPTURE_INFO);
		return n;
	}
	return tw_file(w, MACH_CAPTURE_INFO, text, (size_t)n, err, errlen);
}

struct each_arg {
	struct tree_writer *w;
	char *err;
	size_t errlen;
};

/* A symlink's target, as readlink gives it, into the tree as a symlink. */
static int write_link(struct each_arg *a, const char *path, const struct pfs_node *n, const struct pfs_ctx *c)
{
	char target[4096];
	int rc = n->entry->readlink(c, target, sizeof(target));

	if (rc == pfs_entry_absent_rc(n->entry))
		return 0; /* nothing to point to: the kernel's readlink fails too */
	if (rc) {
		snprintf(a->err, a->errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	return tw_link(a->w, path, target, strlen(target), a->err, a->errlen);
}

static int write_node(void *arg, const struct pfs_node *n, const struct pfs_ctx *c)
{
	struct each_arg *a = arg;
	char rel[4096], path[4200], *text;
	size_t len;
	int rc = pfs_node_path(n, c, rel, sizeof(rel));

	/* the tree holds /proc in proc/ and /sys in sys/ */
	snprintf(path, sizeof(path), "%s/%s", n->scope >= PFS_SCOPE_SYS ? "sys" : "proc", rel);

	if (!rc && n->entry->kind == PFS_LINK)
		return write_link(a, path, n, c);
	if (!rc)
		rc = pfs_render(n, c, &text, &len);
	if (rc && rc == pfs_entry_absent_rc(n->entry))
		return 0; /* the kernel refuses to open it for this task: no file */
	if (rc) {
		snprintf(a->err, a->errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	rc = tw_file_mode(a->w, path, text, len, pfs_node_mode_needs_machine(n) ? pfs_node_mode(n, c) & 07777 : 0,
			  a->err, a->errlen);
	free(text);
	return rc;
}

int tw_machine(struct tree_writer *w, const struct mach_machine *m, char *err, size_t errlen)
{
	struct each_arg a = { .w = w, .err = err, .errlen = errlen };

	return pfs_for_each_file(m, 0, write_node, &a);
}

int tw_write_machine(const struct mach_machine *m, const char *dest, char *err, size_t errlen)
{
	struct tree_writer w;
	int rc = tw_begin(&w, dest, true, err, errlen);

	if (rc)
		return rc;
	rc = tw_machine(&w, m, err, errlen);
	if (rc) {
		tw_abort(&w);
		return rc;
	}
	return tw_commit(&w, err, errlen);
}

int tw_begin_memory(struct tree_writer *w, const char *name, char *err, size_t errlen)
{
	return twm_begin(w, name, err, errlen);
}

int tw_load_memory(struct tree_writer *w, struct mach_machine **out, struct mach_load_report *report, char *err,
		   size_t errlen)
{
	if (!w->mem) {
		snprintf(err, errlen, "%s: not a tree in memory", w->dest ? w->dest : "tree");
		return -EINVAL;
	}
	return twm_load(w, out, report, err, errlen);
}

const struct mach_tree_member *tw_memory_members(const struct tree_writer *w, size_t *n)
{
	if (!w->mem) {
		*n = 0;
		return NULL;
	}
	return twm_members(w, n);
}

int tw_roundtrip_memory(const struct mach_machine *m, struct mach_machine **out, struct mach_load_report *report,
			char *err, size_t errlen)
{
	struct tree_writer w;
	int rc = tw_begin_memory(&w, "memory", err, errlen);

	if (rc)
		return rc;
	rc = tw_machine(&w, m, err, errlen);
	if (!rc)
		rc = tw_load_memory(&w, out, report, err, errlen);
	tw_abort(&w);
	return rc;
}
