// SPDX-License-Identifier: MIT
/*
 * walk_sys.c - reading a /sys tree beside /proc: the live /sys, or the
 * sys/ directory of a captured tree.  Each subtree the file table marks
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

/* One file @rel (@name in directory @dfd) the table serves as @f: read it and load it. */
static int sys_file(struct sys_walk *sw, int dfd, const char *name, const char *rel, const struct mach_ld_sys_file *f)
{
	struct walk *w = sw->w;
	char path[4200], where[4200], *text = NULL, target[SYS_LINK_MAX];
	const char *skip = NULL;
	size_t len = 0;
	long n;
	int rc;

	snprintf(path, sizeof(path), "/sys/%s", rel);
	snprintf(where, sizeof(where), "%s/%s", sw->sysdir, rel);
	if (f->link) {
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

/* The directory @rel beneath the /sys tree, and what it holds that the table serves. */
static int sys_dir(struct sys_walk *sw, const char *rel, unsigned int depth)
{
	struct walk *w = sw->w;
	int dfd = uf_open(sw->sysfd, rel, sw->uf_flags, O_DIRECTORY), rc;
	char **names, sub[4096];
	size_t n;

	if (dfd < 0 && dfd != -ENOENT && dfd != -ENOTDIR)
		snprintf(w->err, w->errlen, "%s/%s: %s", sw->sysdir, rel, strerror(-dfd));
	if (dfd < 0)
		return dfd == -ENOENT || dfd == -ENOTDIR ? 0 : dfd;
	rc = ld_walk_list_names(dup(dfd), &names, &n);
	for (size_t i = 0; i < n && !rc; i++) {
		struct mach_ld_sys_file f;
		struct stat st;

		if (snprintf(sub, sizeof(sub), "%s/%s", rel, names[i]) >= (int)sizeof(sub) ||
		    fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (depth < SYS_DEPTH_MAX && !other_root(w, sub) && !w->sys_classify(w->ld->m, sub, true, NULL))
				rc = sys_dir(sw, sub, depth + 1);
		} else if ((S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) && !w->sys_classify(w->ld->m, sub, false, &f) &&
			   mach_ld_kind_sysfs(f.kind) && f.link == S_ISLNK(st.st_mode)) {
			f.rel = sub;
			rc = sys_file(sw, dfd, names[i], sub, &f);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	close(dfd);
	return rc;
}

int ld_walk_sys(struct walk *w, int sysfd, const char *sysdir, bool live)
{
	struct sys_walk sw = { .w = w, .sysfd = sysfd, .sysdir = sysdir, .uf_flags = live ? 0 : UF_BENEATH };
	int rc = 0;

	for (size_t i = 0; i < w->nfiles && !rc; i++) {
		const struct mach_ld_name *f = &w->files[i];
		struct mach_ld_sys_file root = { .kind = f->kind, .attr = MACH_SYSA_NONE, .rel = f->name };
		const char *skip;
		struct stat st;

		if (!mach_ld_kind_sysfs(f->kind) || fstatat(sysfd, f->name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode))
			continue;
		/* the subtree is there, even with nothing in it the model holds (an empty class/thermal) */
		rc = mach_loader_sys(w->ld, &root, f->name, NULL, 0, &skip, w->err, w->errlen);
		if (!rc)
			rc = sys_dir(&sw, f->name, 0);
	}
	return rc;
}
