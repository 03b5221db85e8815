// SPDX-License-Identifier: MIT
/*
 * walk_sysctl.c - reading a /proc/sys tree: its directories depth first in
 * name order, as `sysctl -a` walks them, each key into the model
 * (mach_loader_sysctl).
 *
 * On the live kernel some keys change between two reads (file-nr, the
 * dentry and inode counts, entropy_avail, a new UUID each time): every key
 * is read twice, and one that changed a third time; it is kept when the
 * last two reads agree, and otherwise reported as skipped with the reason,
 * holding the last value read.  Keys its owner may not read (0200) are not
 * read at all, as sysctl -a does not open them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util/readfile.h"
#include "../util/vec.h"
#include "walk.h"

#define SYSCTL_DEPTH_MAX 16
#define SYSCTL_FILE_MAX (1u << 20)

struct sysctl_walk {
	struct mach_loader *ld;
	bool live;
	unsigned int uf_flags;
	int (*each)(void *arg, const char *path, unsigned int mode, const char *skip, const char *text, size_t len);
	void *arg;
	char *err;
	size_t errlen;
};

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in directory @fd (closed here), sorted in byte order; NULL-terminated in *@out. */
static int list_names(int fd, char ***out, size_t *n)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;
	size_t cap = 0;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (!d) {
		rc = -errno;
		close(fd);
		return rc;
	}
	while (!rc && (de = readdir(d))) {
		char **slot;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		slot = VEC_PUSH(*out, *n, cap);
		if (!slot || !(*slot = strdup(de->d_name)))
			rc = -ENOMEM;
		if (slot && rc)
			--*n;
	}
	closedir(d);
	if (!rc && *n)
		qsort(*out, *n, sizeof(**out), name_cmp);
	return rc;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool same(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && !memcmp(a, b, alen);
}

/*
 * Read key @name of directory @dfd: *@text (malloc'd) and *@len, or a
 * -errno; on the live kernel until two reads agree, *@moved when they never
 * did.
 */
static int read_key(struct sysctl_walk *sw, int dfd, const char *name, char **text, size_t *len, bool *moved)
{
	char *again;
	size_t alen;
	int rc = uf_read(dfd, name, sw->uf_flags, SYSCTL_FILE_MAX, text, len);

	*moved = false;
	for (int tries = 0; !rc && sw->live && tries < 2; tries++) {
		rc = uf_read(dfd, name, sw->uf_flags, SYSCTL_FILE_MAX, &again, &alen);
		if (rc) {
			free(*text);
			*text = NULL;
			break;
		}
		*moved = !same(*text, *len, again, alen);
		free(*text);
		*text = again;
		*len = alen;
		if (!*moved)
			break;
	}
	return rc;
}

/* One key: @key is its path under the tree's directory, @path the same under the walk's root. */
static int walk_key(struct sysctl_walk *sw, int dfd, const char *name, const char *key, const char *path,
		    mode_t mode)
{
	const char *skip = NULL;
	char *text = NULL;
	size_t len = 0;
	bool moved = false;
	int rc = 0;

	if (mode & S_IRUSR)
		rc = read_key(sw, dfd, name, &text, &len, &moved);
	if (rc == -ENOENT && sw->live)
		return 0; /* gone meanwhile: a device left */
	if (rc == -EACCES || rc == -EPERM)
		return sw->each ? sw->each(sw->arg, path, mode, "permission denied", NULL, 0) : 0;
	if (rc && rc != -EIO) {
		snprintf(sw->err, sw->errlen, "%s: %s", path, uf_reason(rc));
		return rc;
	}
	rc = mach_loader_sysctl(sw->ld, key, mode, rc, text, len, &skip, sw->err, sw->errlen);
	if (!rc && moved && !skip)
		skip = "changes between reads";
	if (!rc && sw->each)
		rc = sw->each(sw->arg, path, mode, skip, text, len);
	free(text);
	return rc;
}

/*
 * The tree under directory @rel of @dirfd: @key is its path below the
 * tree's root ("" for the root), @path its path under the walk's root.
 */
static int walk_dir(struct sysctl_walk *sw, int dirfd, const char *rel, const char *key, unsigned int depth,
		    const char *path)
{
	int dfd = uf_open(dirfd, rel, sw->uf_flags, O_DIRECTORY), rc;
	char **names, sub_key[4096], sub_path[4200];
	size_t n;

	if (dfd < 0) {
		snprintf(sw->err, sw->errlen, "%s: %s", path, uf_reason(dfd));
		return dfd == -ENOENT && sw->live ? 0 : dfd;
	}
	rc = list_names(dup(dfd), &names, &n);
	for (size_t i = 0; i < n && !rc; i++) {
		struct stat st;

		snprintf(sub_key, sizeof(sub_key), "%s%s%s", key, *key ? "/" : "", names[i]);
		snprintf(sub_path, sizeof(sub_path), "%s/%s", path, names[i]);
		if (fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW))
			continue; /* gone meanwhile */
		if (S_ISDIR(st.st_mode) && depth < SYSCTL_DEPTH_MAX) {
			uint32_t id;

			rc = mach_sysctl_make(sw->ld->m->sysctl, sub_key, true, &id);
			if (rc)
				snprintf(sw->err, sw->errlen, "%s: %s", sub_path,
					 rc == -ENOTDIR ? "a directory where the tree has a key" : strerror(-rc));
			else
				rc = walk_dir(sw, dfd, names[i], sub_key, depth + 1, sub_path);
		} else if (S_ISREG(st.st_mode)) {
			rc = walk_key(sw, dfd, names[i], sub_key, sub_path, st.st_mode & 07777);
		} else if (sw->each) {
			rc = sw->each(sw->arg, sub_path, st.st_mode & 07777, "not a regular file or directory", NULL, 0);
		}
	}
	free_names(names, n);
	close(dfd);
	return rc;
}

int mach_loader_sysctl_tree(struct mach_loader *ld, int dirfd, const char *dir, bool live,
			    int (*each)(void *arg, const char *path, unsigned int mode, const char *skip, const char *text,
					size_t len),
			    void *arg, char *err, size_t errlen)
{
	struct sysctl_walk sw = { .ld = ld, .live = live, .uf_flags = live ? 0 : UF_BENEATH, .each = each,
				  .arg = arg, .err = err, .errlen = errlen };
	struct mach_machine *m = ld->m;

	if (!m->sysctl && !(m->sysctl = mach_sysctl_new()))
		return -ENOMEM;
	return walk_dir(&sw, dirfd, dir, "", 0, dir);
}

/* The walk's report: every key, loaded or skipped with its reason, and its mode (a capture keeps it). */
static int report_key(void *arg, const char *path, unsigned int mode, const char *skip, const char *text, size_t len)
{
	struct walk *w = arg;
	int rc = ld_report_add(&w->rep, path, skip ? MACH_LOAD_SKIPPED : MACH_LOAD_OK, skip, text, skip ? 0 : len);

	if (!rc)
		w->rep.files[w->rep.n - 1].mode = mode;
	return rc;
}

int ld_walk_sysctl(struct walk *w, const struct mach_ld_name *g)
{
	int rc = mach_loader_sysctl_tree(w->ld, w->dirfd, g->name, w->live, report_key, w, w->err, w->errlen);

	if (rc == -ENOENT && !w->live)
		return 0; /* a tree captured without /proc/sys */
	return rc;
}
