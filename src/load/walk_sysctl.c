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

static bool same(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && !memcmp(a, b, alen);
}

/*
 * Read key @name of directory @dfd (or the key @k held in memory):
 * *@text (malloc'd) and *@len, or a -errno; on the live kernel until two
 * reads agree, *@moved when they never did.
 */
static int read_key(struct sysctl_walk *sw, int dfd, const struct mt_node *k, const char *name, char **text,
		    size_t *len, bool *moved)
{
	char *again;
	size_t alen;
	int rc = k ? ld_mem_copy(k, SYSCTL_FILE_MAX, text, len) : uf_read(dfd, name, sw->uf_flags, SYSCTL_FILE_MAX, text, len);

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
static int walk_key(struct sysctl_walk *sw, int dfd, const struct mt_node *k, const char *name, const char *key,
		    const char *path, mode_t mode)
{
	const char *skip = NULL;
	char *text = NULL;
	size_t len = 0;
	bool moved = false;
	int rc = 0;

	if (mode & S_IRUSR)
		rc = read_key(sw, dfd, k, name, &text, &len, &moved);
	if (rc == -ENOENT && sw->live)
		return 0; /* gone meanwhile: a device left */
	if (rc == -EACCES || rc == -EPERM)
		return sw->each ? sw->each(sw->arg, path, mode, "permission denied", NULL, 0) : 0;
	if (rc && rc != -EIO) {
		snprintf(sw->err, sw->errlen, "%s: %s", path, uf_reason(rc));
		return rc;
	}
	rc = mach_loader_sysctl(sw->ld, key, mode, rc, text, len, &skip, sw->err, sw->errlen);
	if (rc == -EINVAL || rc == -ENOTDIR) {
		/* one key the model cannot hold: the rest of the tree still loads; this one reads as unset */
		int64_t id = mach_sysctl_find(sw->ld->m->sysctl, key);

		if (id > 0 && sw->ld->m->sysctl->nodes[id].kind != MACH_SYSCTL_DIR)
			mach_sysctl_set_kind(sw->ld->m->sysctl, (uint32_t)id, MACH_SYSCTL_UNSET);
		free(text);
		return sw->each ? sw->each(sw->arg, path, mode, sw->err, NULL, 0) : 0;
	}
	if (!rc && moved && !skip)
		skip = "changes between reads";
	if (!rc && sw->each)
		rc = sw->each(sw->arg, path, mode, skip, text, len);
	free(text);
	return rc;
}

/* One entry of a directory being walked: a name, and what fstatat (or the tree in memory) says of it. */
struct sentry {
	const char *name;
	mode_t mode;                /* type and permission bits; 0: gone meanwhile */
	const struct mt_node *node; /* in memory, or NULL */
};

/* The directory @rel of @dirfd (or of @dnode, in memory): its entries, sorted by name, into *@out. */
static int open_dir(struct sysctl_walk *sw, int dirfd, const struct mt_node *dnode, const char *rel, int *dfd,
		    const struct mt_node **node, char ***names, size_t *n)
{
	int rc;

	*dfd = -1;
	*node = NULL;
	*names = NULL;
	*n = 0;
	if (dnode) {
		rc = ld_mem_find(dnode, rel, node);
		if (!rc && (*node)->type != 'd')
			rc = (*node)->type == 'l' ? -ELOOP : -ENOTDIR;
		return rc;
	}
	*dfd = uf_open(dirfd, rel, sw->uf_flags, O_DIRECTORY);
	if (*dfd < 0)
		return *dfd;
	return ld_walk_list_names(dup(*dfd), names, n);
}

static struct sentry dir_entry(int dfd, const struct mt_node *node, char **names, size_t i)
{
	struct sentry e = { 0 };
	struct stat st;

	if (node) {
		const struct mt_node *k = node->kids[i];

		e.name = k->name;
		e.node = k;
		e.mode = (k->type == 'd' ? S_IFDIR : k->type == 'f' ? S_IFREG : S_IFLNK) | (k->mode & 07777);
		return e;
	}
	e.name = names[i];
	if (!fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW))
		e.mode = st.st_mode;
	return e;
}

/*
 * The tree under directory @rel of @dirfd (or of @dnode, in memory): @key
 * is its path below the tree's root ("" for the root), @path its path
 * under the walk's root.
 */
static int walk_dir(struct sysctl_walk *sw, int dirfd, const struct mt_node *dnode, const char *rel, const char *key,
		    unsigned int depth, const char *path)
{
	const struct mt_node *node;
	char **names, sub_key[4096], sub_path[4200];
	size_t n;
	int dfd, rc = open_dir(sw, dirfd, dnode, rel, &dfd, &node, &names, &n);

	if (rc) {
		snprintf(sw->err, sw->errlen, "%s: %s", path, uf_reason(rc));
		ld_walk_free_names(names, n);
		if (dfd >= 0)
			close(dfd);
		return rc == -ENOENT && sw->live ? 0 : rc;
	}
	if (node)
		n = node->nkids;
	for (size_t i = 0; i < n && !rc; i++) {
		struct sentry e = dir_entry(dfd, node, names, i);

		snprintf(sub_key, sizeof(sub_key), "%s%s%s", key, *key ? "/" : "", e.name);
		snprintf(sub_path, sizeof(sub_path), "%s/%s", path, e.name);
		if (!e.mode)
			continue; /* gone meanwhile */
		if (S_ISDIR(e.mode) && depth < SYSCTL_DEPTH_MAX) {
			uint32_t id;

			rc = mach_sysctl_make(sw->ld->m->sysctl, sub_key, true, &id);
			if (rc == -ENOTDIR && sw->each)
				rc = sw->each(sw->arg, sub_path, e.mode & 07777, "a directory where the tree has a key",
					      NULL, 0);
			else if (rc)
				snprintf(sw->err, sw->errlen, "%s: %s", sub_path,
					 rc == -ENOTDIR ? "a directory where the tree has a key" : strerror(-rc));
			else
				rc = walk_dir(sw, dfd, node, e.name, sub_key, depth + 1, sub_path);
		} else if (S_ISREG(e.mode)) {
			rc = walk_key(sw, dfd, e.node, e.name, sub_key, sub_path, e.mode & 07777);
		} else if (sw->each) {
			rc = sw->each(sw->arg, sub_path, e.mode & 07777, "not a regular file or directory", NULL, 0);
		}
	}
	ld_walk_free_names(names, n && !node ? n : 0);
	if (dfd >= 0)
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
	return walk_dir(&sw, dirfd, NULL, dir, "", 0, dir);
}

/* The walk's report: every key, loaded or skipped with its reason, and its mode (a capture keeps it). */
static int report_key(void *arg, const char *path, unsigned int mode, const char *skip, const char *text, size_t len)
{
	struct walk *w = arg;
	int rc = ld_walk_report(w, path, skip ? MACH_LOAD_SKIPPED : MACH_LOAD_OK, skip, text, skip ? 0 : len);

	if (!rc && w->want_report)
		w->rep.files[w->rep.n - 1].mode = mode;
	return rc;
}

int ld_walk_sysctl(struct walk *w, const struct mach_ld_name *g)
{
	struct sysctl_walk sw = { .ld = w->ld, .live = w->live, .uf_flags = w->uf_flags, .each = report_key,
				  .arg = w, .err = w->err, .errlen = w->errlen };
	struct mach_machine *m = w->ld->m;
	int rc;

	if (!m->sysctl && !(m->sysctl = mach_sysctl_new()))
		return -ENOMEM;
	rc = walk_dir(&sw, w->dirfd, w->mem, g->name, "", 0, g->name);
	if (rc == -ENOENT && !w->live)
		return 0; /* a tree captured without /proc/sys: the machine keeps its identity keys */
	return rc;
}
