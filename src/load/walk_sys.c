// SPDX-License-Identifier: MIT
/*
 * walk_sys.c - reading a /sys tree beside /proc: the live /sys, or the
 * sys/ directory of a captured tree, or an archive's sys/ held in memory.
 * Each subtree the file table marks
 * (a mach_ld_name of a /sys kind: "devices/system/cpu") is walked depth
 * first, in name order; the table's classifier says which directories it
 * serves (only those are entered) and what each file is.  Symlinks are
 * read with readlink, never followed.  A file the kernel refuses to show
 * (EACCES for a 0400 file read as a user, EIO or EINVAL from a driver's
 * show) is reported as skipped with the reason.
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

#define SYS_DEPTH_MAX 12
#define SYS_LINK_MAX 4096
#define SYS_FILE_MAX (1u << 20)

struct sys_walk {
	struct walk *w;
	int sysfd;
	const struct mt_node *mem; /* the archive's sys/, or NULL */
	const char *sysdir;       /* for messages */
	unsigned int uf_flags;
};

/* Why a file that exists is not loaded, or NULL: the kernel refused to show it. */
static const char *refusal(int rc)
{
	if (rc == -EACCES || rc == -EPERM)
		return "permission denied";
	if (rc == -EIO || rc == -EINVAL || rc == -EOPNOTSUPP || rc == -ENODATA || rc == -EAGAIN)
		return "its driver refused to show it";
	return NULL;
}

/*
 * One file @rel (@name in directory @dfd, or the member @node) the table
 * serves as @f: read it and load it.
 */
static int sys_file(struct sys_walk *sw, int dfd, const struct mt_node *node, const char *name, const char *rel,
		    const struct mach_ld_sys_file *f)
{
	struct walk *w = sw->w;
	char path[4200], where[4200], *text = NULL, target[SYS_LINK_MAX];
	const char *skip = NULL;
	size_t len = 0;
	long n;
	int rc;

	snprintf(path, sizeof(path), "/sys/%s", rel);
	snprintf(where, sizeof(where), "%s/%s", sw->sysdir, rel);
	if (node) {
		rc = ld_mem_copy(node, SYS_FILE_MAX, &text, &len);
		if (!rc && f->link) {
			/* a link's target is a path: what readlink would give, within its buffer */
			rc = len < sizeof(target) && !memchr(text, '\0', len) ? 0 : -ENAMETOOLONG;
			if (!rc)
				memcpy(target, text, len + 1);
		}
	} else if (f->link) {
		n = uf_readlink(dfd, name, sw->uf_flags, target, sizeof(target));
		rc = n < 0 ? (int)n : 0;
		len = n < 0 ? 0 : (size_t)n;
	} else {
		rc = uf_read(dfd, name, sw->uf_flags, SYS_FILE_MAX, &text, &len);
	}
	if (rc == -ENOENT)
		return 0; /* gone meanwhile (a device left) */
	if (rc && (refusal(rc) || refused(w, rc)))
		return ld_report_add(&w->rep, path, MACH_LOAD_SKIPPED, refusal(rc) ? refusal(rc) : uf_reason(rc), NULL, 0);
	if (rc) {
		snprintf(w->err, w->errlen, "%s: %s", where, strerror(-rc));
		return rc;
	}
	rc = mach_loader_sys(w->ld, f, where, f->link ? target : text, len, &skip, w->err, w->errlen);
	if (!rc)
		rc = ld_report_add(&w->rep, path, skip ? MACH_LOAD_SKIPPED : MACH_LOAD_OK, skip, f->link ? target : text,
				   skip ? 0 : len);
	/* a capture writes it back as a link: its path alone does not say so (/sys/block/vda needs the machine) */
	if (!rc && f->link)
		w->rep.files[w->rep.n - 1].mode = S_IFLNK | 0777;
	free(text);
	return rc;
}

/* Whether @rel roots a subtree of its own (walked as itself, not inside the one that holds it). */
static bool other_root(const struct walk *w, const char *rel)
{
	for (size_t i = 0; i < w->nfiles; i++)
		if (mach_ld_kind_sysfs(w->files[i].kind) && !strcmp(w->files[i].name, rel))
			return true;
	return false;
}

static int sys_dir(struct sys_walk *sw, const char *rel, unsigned int depth);

/* One entry @name (or the member @node) of directory @rel: a directory to enter, or a file the table serves. */
static int sys_entry(struct sys_walk *sw, int dfd, const struct mt_node *node, const char *name, const char *rel,
		     unsigned int depth)
{
	struct walk *w = sw->w;
	struct mach_ld_sys_file f;
	char sub[4096];
	bool is_dir, is_reg, is_link;
	struct stat st;

	if (snprintf(sub, sizeof(sub), "%s/%s", rel, name) >= (int)sizeof(sub))
		return 0;
	if (node) {
		is_dir = node->type == 'd';
		is_reg = node->type == 'f';
		is_link = node->type == 'l';
	} else {
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
			return 0;
		is_dir = S_ISDIR(st.st_mode);
		is_reg = S_ISREG(st.st_mode);
		is_link = S_ISLNK(st.st_mode);
	}
	if (is_dir)
		return depth < SYS_DEPTH_MAX && !other_root(w, sub) && !w->sys_classify(w->ld->m, sub, true, NULL)
			       ? sys_dir(sw, sub, depth + 1) : 0;
	if ((is_reg || is_link) && !w->sys_classify(w->ld->m, sub, false, &f) && mach_ld_kind_sysfs(f.kind) &&
	    f.link == is_link) {
		f.rel = sub;
		return sys_file(sw, dfd, node, name, sub, &f);
	}
	return 0;
}

/* The directory @rel of an archive's /sys held in memory. */
static int sys_mem_dir(struct sys_walk *sw, const char *rel, unsigned int depth)
{
	const struct mt_node *d;
	int rc = ld_mem_find(sw->mem, rel, &d);

	if (rc)
		return rc == -ENOENT || rc == -ENOTDIR || rc == -ELOOP ? 0 : rc;
	if (d->type != 'd')
		return 0;
	for (uint32_t i = 0; i < d->nkids && !rc; i++)
		rc = sys_entry(sw, -1, d->kids[i], d->kids[i]->name, rel, depth);
	return rc;
}

/* The directory @rel beneath the /sys tree, and what it holds that the table serves. */
static int sys_dir(struct sys_walk *sw, const char *rel, unsigned int depth)
{
	struct walk *w = sw->w;
	int dfd, rc;
	char **names;
	size_t n;

	if (sw->mem)
		return sys_mem_dir(sw, rel, depth);
	dfd = uf_open(sw->sysfd, rel, sw->uf_flags, O_DIRECTORY);

	if (dfd < 0 && dfd != -ENOENT && dfd != -ENOTDIR)
		snprintf(w->err, w->errlen, "%s/%s: %s", sw->sysdir, rel, strerror(-dfd));
	if (dfd < 0)
		return dfd == -ENOENT || dfd == -ENOTDIR ? 0 : dfd;
	rc = ld_walk_list_names(dup(dfd), &names, &n);
	for (size_t i = 0; i < n && !rc; i++)
		rc = sys_entry(sw, dfd, NULL, names[i], rel, depth);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	close(dfd);
	return rc;
}

int ld_walk_sys(struct walk *w, int sysfd, const struct mt_node *mem, const char *sysdir, bool live)
{
	struct sys_walk sw = { .w = w, .sysfd = sysfd, .mem = mem, .sysdir = sysdir,
			       .uf_flags = live ? 0 : UF_BENEATH };
	int rc = 0;

	for (size_t i = 0; i < w->nfiles && !rc; i++) {
		const struct mach_ld_name *f = &w->files[i];
		struct mach_ld_sys_file root = { .kind = f->kind, .attr = MACH_SYSA_NONE, .rel = f->name };
		const struct mt_node *node;
		const char *skip;
		struct stat st;

		if (!mach_ld_kind_sysfs(f->kind))
			continue;
		if (mem ? ld_mem_find(mem, f->name, &node) || node->type != 'd'
			: fstatat(sysfd, f->name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode))
			continue;
		/* the subtree is there, even with nothing in it the model holds (an empty class/thermal) */
		rc = mach_loader_sys(w->ld, &root, f->name, NULL, 0, &skip, w->err, w->errlen);
		if (!rc)
			rc = sys_dir(&sw, f->name, 0);
	}
	return rc;
}
