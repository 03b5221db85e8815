// SPDX-License-Identifier: MIT
/*
 * walk.c - build a machine model from a /proc tree (mach_load_tree).
 *
 * mach_load_tree walks a directory, or the members of an archive held in
 * memory (walk_mem.c): the global files first, then every process (pids
 * ascending) with its files and those of its task/<tid>/ directories
 * (walk_pid.c).  Every file loads on its own.  A machine-wide file that
 * does not parse, or that disagrees with the file of its group read before
 * it, is left out with the reason, and the machine-wide files are loaded
 * again into a fresh machine without it, so that nothing it half-said
 * stays in the model.  A file the tree lacks is absent from the machine
 * (mach_machine.lacks), not an error.
 *
 * On the live /proc the counters of a group of files (stat, softirqs,
 * interrupts; meminfo and swaps; ...) move between two reads: the group is
 * read back to back and again while its files disagree.  In a captured
 * tree, files do not change; what a /proc tree never holds (a FIFO, a
 * device, a symlink where a file belongs) is not read but reported as
 * skipped, with the reason; the links a capture wrote are read, never
 * followed.  A capture's MACH_CAPTURE_INFO gives the kernel release and the
 * clocks at the time it was taken.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "../util/readfile.h"
#include "load_int.h"
#include "uprocfs/load.h"
#include "walk.h"

/* stat, softirqs and interrupts are three small files: cheap to read again while an IPI lands between them */
#define GROUP_TRIES 20
/* a pass that loses a file starts again without it: at most once per machine-wide file */
#define MAX_PASSES (MACH_LD_NR_KINDS + 1)

/* One file of a group of machine-wide files read together. */
struct gslot {
	const struct mach_ld_name *f;
	size_t off, len;
	int rc;
	bool ok;           /* parsed, and agreed with the group's first file */
	const char *skip;  /* why it is not loaded, "" when the tree has none, or NULL */
};

/* What the passes over the machine-wide files have learnt. */
struct gstate {
	mach_ld_set out;                 /* left out: each failed in an earlier pass */
	char *why[MACH_LD_NR_KINDS];     /* why */
	mach_ld_set loaded;              /* loaded in this pass */
};

/* Read every file of the group back to back; 0, or -errno of the arena. */
static int group_read(struct walk *w, struct gslot *g, size_t n)
{
	int rc;

	for (;;) {
		w->arena.used = 0;
		rc = 0;
		for (size_t k = 0; k < n && rc != -ENOBUFS; k++) {
			rc = ld_walk_read(w, g[k].f->name, &g[k].off, &g[k].len);
			g[k].rc = rc == -ENOBUFS ? 0 : rc;
		}
		if (rc != -ENOBUFS)
			return 0;
		rc = ld_arena_grow(&w->arena, w->arena.cap * 2);
		if (rc)
			return rc;
	}
}

/* 64-bit FNV-1a of what one read of a group gave, to tell counters that moved from a real disagreement. */
static uint64_t group_hash(const struct walk *w, const struct gslot *g, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t k = 0; k < n; k++) {
		const unsigned char *p = (const unsigned char *)w->arena.buf + g[k].off;

		h = (h ^ (uint64_t)(unsigned int)g[k].rc) * 1099511628211ull;
		for (size_t i = 0; !g[k].rc && i < g[k].len; i++)
			h = (h ^ p[i]) * 1099511628211ull;
	}
	return h;
}

/* Parse slot @x: 0, -EAGAIN when it disagrees with the files before it, or an error. */
static int group_parse_one(struct walk *w, struct gslot *x)
{
	char path[4200];

	ld_walk_path(w, x->f->name, path, sizeof(path));
	return mach_loader_file(w->ld, x->f->kind, 0, 0, path, w->arena.buf + x->off, x->len, w->err,
				w->errlen);
}

/* Why a file of the group is not parsed at all, or NULL. */
static const char *group_unread(const struct walk *w, const struct gstate *gs, const struct gslot *x)
{
	if (gs->out & MACH_LD_BIT(x->f->kind))
		return gs->why[x->f->kind];
	if (gone(x->rc))
		return ""; /* the machine has none: absent */
	if (unreadable(w, x->rc))
		return unreadable(w, x->rc);
	return x->rc ? strerror(-x->rc) : NULL;
}

/* File @x failed for good: leave it out of the next pass, with the message. */
static int fail_file(struct walk *w, struct gstate *gs, const struct gslot *x)
{
	enum mach_ld_kind k = x->f->kind;

	free(gs->why[k]);
	gs->why[k] = strdup(w->err);
	gs->out |= MACH_LD_BIT(k);
	return gs->why[k] ? -ECANCELED : -ENOMEM;
}

/*
 * Parse what one read gave: the first file, then the others that agree
 * with it.  @final: the last attempt, so a file that disagrees is left out
 * (and the files before it parsed again without it) instead of -EAGAIN.
 * @same: this read gave the bytes the one before gave, so a check of a
 * file against the first that fails (-EINVAL) is a real disagreement, not
 * counters that moved between the reads.  -ECANCELED: a file failed for
 * good, the pass starts again without it.
 */
static int group_parse(struct walk *w, struct gstate *gs, struct gslot *g, size_t n, bool final, bool same)
{
	int rc;

	for (size_t k = 0; k < n; k++) {
		struct gslot *x = &g[k];

		x->ok = false;
		if ((x->skip = group_unread(w, gs, x)))
			continue;
		rc = group_parse_one(w, x);
		if (rc == -EINVAL && k && w->live && !same)
			rc = -EAGAIN;
		if (rc == -EAGAIN && k && final && w->live) {
			x->skip = "kept changing while read: it never agreed with the file read before it";
			for (size_t j = 0; j < k; j++)
				if (g[j].ok && (rc = group_parse_one(w, &g[j])))
					return rc == -EINVAL || rc == -EAGAIN ? fail_file(w, gs, &g[j]) : rc;
			continue;
		}
		if (rc == -EAGAIN && w->live && !final)
			return rc;
		if (rc == -EINVAL || rc == -EAGAIN)
			return fail_file(w, gs, x);
		if (rc)
			return rc;
		x->ok = true;
	}
	return 0;
}

/* The files of the group led by file @lead, read and parsed until they agree, into the report. */
static int load_group(struct walk *w, struct gstate *gs, size_t lead, bool *done)
{
	struct gslot g[8];
	uint64_t h = 0;
	size_t n = 0;
	int rc = 0;

	for (size_t i = lead; i < w->nfiles && n < 8; i++) {
		const struct mach_ld_name *f = &w->files[i];

		if (!done[i] && (i == lead || mach_ld_group(f->kind) == w->files[lead].kind)) {
			g[n++] = (struct gslot){ .f = f };
			done[i] = true;
		}
	}
	for (int tries = 1; !rc; tries++) {
		uint64_t prev = h;

		rc = group_read(w, g, n);
		if (w->live)
			h = group_hash(w, g, n);
		if (!rc)
			rc = group_parse(w, gs, g, n, !w->live || tries >= GROUP_TRIES, tries > 1 && h == prev);
		if (rc != -EAGAIN)
			break;
		rc = 0;
	}
	for (size_t k = 0; k < n && !rc; k++) {
		if (g[k].ok)
			gs->loaded |= MACH_LD_BIT(g[k].f->kind);
		if (g[k].skip && !g[k].skip[0])
			continue; /* absent */
		rc = ld_walk_report(w, g[k].f->name, g[k].ok ? MACH_LOAD_OK : MACH_LOAD_SKIPPED, g[k].skip,
				    w->arena.buf + g[k].off, g[k].ok ? g[k].len : 0);
	}
	return rc;
}

/* One pass over the machine-wide files into w->ld's machine: 0, -ECANCELED (again without a file), -errno. */
static int globals_pass(struct walk *w, struct gstate *gs)
{
	bool *done = calloc(w->nfiles ? w->nfiles : 1, sizeof(*done));
	int rc = 0;

	if (!done)
		return -ENOMEM;
	gs->loaded = 0;
	w->ld->m->profile.has_schedstat = false;
	for (size_t i = 0; i < w->nfiles && !rc; i++) {
		const struct mach_ld_name *g = &w->files[i];

		if (mach_ld_kind_per_task(g->kind) || mach_ld_kind_sysfs(g->kind) || done[i])
			continue; /* /sys subtrees are read after (walk_sys.c) */
		if (mach_ld_kind_tree(g->kind))
			rc = ld_walk_sysctl(w, g);
		else
			rc = load_group(w, gs, i, done);
	}
	free(done);
	return rc;
}

/* A fresh machine and session for another pass; the report starts over. */
static int restart(struct walk *w)
{
	struct mach_machine *m = mach_new();
	struct mach_loader *ld = m ? mach_loader_new(m) : NULL;
	struct mach_load_report r = { w->rep.n, w->rep.files };

	if (!ld) {
		mach_free(m);
		return -ENOMEM;
	}
	mach_free(w->ld->m);
	mach_loader_free(w->ld);
	w->ld = ld;
	mach_load_report_free(&r);
	w->rep = (struct ld_report){ 0 };
	return 0;
}

/* The capture's own description, when the tree has one: 0 (*@have set when read), or -ENOMEM. */
static int read_info(struct walk *w, struct mach_capture_info *ci, bool *have)
{
	size_t off, len;
	int rc;

	*have = false;
	if (w->live)
		return 0;
	for (;;) {
		w->arena.used = 0;
		rc = ld_walk_read(w, MACH_CAPTURE_INFO, &off, &len);
		if (rc != -ENOBUFS)
			break;
		if ((rc = ld_arena_grow(&w->arena, w->arena.cap * 2)))
			return rc == -EFBIG ? 0 : rc;
	}
	if (rc)
		return 0; /* none (a sosreport, a tree copied by hand) */
	if (mach_capture_info_parse(MACH_CAPTURE_INFO, w->arena.buf + off, len, ci, w->err, w->errlen)) {
		/* not what a capture writes: said in the report, and the tree loads without it */
		return ld_walk_report(w, MACH_CAPTURE_INFO, MACH_LOAD_SKIPPED, w->err, NULL, 0) == -ENOMEM ? -ENOMEM
													       : 0;
	}
	*have = true;
	return 0;
}

/* What the capture says of the kernel, before its files say more. */
static void info_kernel(struct mach_machine *m, const struct mach_capture_info *ci)
{
	if (ci->kernel_release[0])
		memcpy(m->profile.kernel_release, ci->kernel_release, sizeof(m->profile.kernel_release));
}

/* The clocks at the capture where the tree lacks /proc/stat (btime) or /proc/uptime. */
static void info_clocks(struct mach_machine *m, const struct mach_capture_info *ci, mach_ld_set loaded)
{
	if (!(loaded & MACH_LD_BIT(MACH_LD_UPTIME)) && ci->boottime_ns)
		m->uptime_ns = ci->boottime_ns;
	if (!(loaded & MACH_LD_BIT(MACH_LD_STAT)) && ci->time_ns > ci->boottime_ns && ci->boottime_ns)
		m->btime = (ci->time_ns - ci->boottime_ns) / 1000000000u;
}

int ld_walk_globals(struct walk *w)
{
	struct mach_capture_info ci = { 0 };
	struct gstate gs = { 0 };
	bool have_info;
	int rc = read_info(w, &ci, &have_info);

	for (int pass = 0; !rc; pass++) {
		if (have_info)
			info_kernel(w->ld->m, &ci);
		rc = globals_pass(w, &gs);
		if (rc != -ECANCELED || pass + 1 >= MAX_PASSES)
			break;
		rc = restart(w);
		if (!rc && have_info)
			rc = read_info(w, &ci, &have_info); /* its report line, if any, went with the rest */
	}
	if (!rc) {
		if (have_info)
			info_clocks(w->ld->m, &ci, gs.loaded);
		for (size_t i = 0; i < w->nfiles; i++) {
			enum mach_ld_kind k = w->files[i].kind;

			if (!mach_ld_kind_per_task(k) && !mach_ld_kind_tree(k) && !mach_ld_kind_sysfs(k) &&
			    !(gs.loaded & MACH_LD_BIT(k)))
				w->ld->m->lacks |= MACH_LD_BIT(k);
		}
	}
	for (int k = 0; k < MACH_LD_NR_KINDS; k++)
		free(gs.why[k]);
	return rc == -ECANCELED ? 0 : rc;
}

/* The pids to load: the given ones (each must be in the tree), or every one the root lists. */
static int list_pids(struct walk *w, const struct mach_load_opts *opts, pid_t **out, size_t *n)
{
	int rc;

	*out = NULL;
	*n = 0;
	if (opts && opts->npids) {
		*out = malloc(opts->npids * sizeof(pid_t));
		if (!*out)
			return -ENOMEM;
		for (size_t i = 0; i < opts->npids; i++) {
			char rel[32];

			if (opts->pids[i] <= 0) {
				snprintf(w->err, w->errlen, "pid %d: not a process id", (int)opts->pids[i]);
				return -EINVAL;
			}
			snprintf(rel, sizeof(rel), "%d", (int)opts->pids[i]);
			if ((rc = ld_walk_exists(w, rel)))
				return ld_walk_error(w, rel, rc);
			(*out)[i] = opts->pids[i];
		}
		for (size_t i = 0; i < opts->npids; i++) {
			/* sorted, duplicates dropped: a handful, so insertion */
			pid_t v = (*out)[i];
			size_t j = *n;

			while (j && (*out)[j - 1] > v)
				j--;
			if (j && (*out)[j - 1] == v)
				continue;
			memmove(&(*out)[j + 1], &(*out)[j], (*n - j) * sizeof(pid_t));
			(*out)[j] = v;
			(*n)++;
		}
		return 0;
	}
	rc = ld_walk_list_ids(w, ".", out, n);
	return rc && rc != -ENOMEM ? ld_walk_error(w, ".", rc) : rc;
}

/* "@a/@b", malloc'd; NULL on ENOMEM. */
static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", a, b);
	return p;
}

/*
 * Open the trees to read: the /proc tree (w->dirfd, or the index of an
 * archive's members in memory; a tree written with /sys beside /proc holds
 * it in proc/) and the /sys beside it (*@sysfd, -1 for none): its sys/, or
 * opts->sys_dir; an archive's sys/ is indexed in @systree.
 */
static int walk_open(struct walk *w, const struct mach_load_opts *opts, struct mt_tree *tree,
		     struct mt_tree *systree, int *sysfd, char **sysdir)
{
	const char *dir = w->dir;
	struct statfs sfs;
	struct stat st;
	int rc, rootfd;

	if (opts->members) {
		rc = ld_mem_build(opts->members, opts->nmembers, tree, w->err, w->errlen);
		if (rc == -EINVAL) {
			char msg[1024];

			snprintf(msg, sizeof(msg), "%s: %s", w->dir, w->err);
			snprintf(w->err, w->errlen, "%s", msg);
		}
		w->mem = &tree->root;
		w->uf_flags = UF_BENEATH;
		w->sys_classify = opts->sys_classify;
		if (!rc && opts->sys_members && opts->sys_classify) {
			rc = ld_mem_build(opts->sys_members, opts->nsys_members, systree, w->err, w->errlen);
			*sysdir = strdup(opts->sys_dir ? opts->sys_dir : "sys");
			if (!rc && !*sysdir)
				rc = -ENOMEM;
		}
		return rc;
	}
	rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		rc = -errno;
		snprintf(w->err, w->errlen, "%s: %s", dir, strerror(-rc));
		return rc;
	}
	/* the live kernel's files change between reads; a captured tree's do not */
	w->live = !fstatfs(rootfd, &sfs) && sfs.f_type == PROC_SUPER_MAGIC;
	w->self_tid = w->live ? gettid() : 0;
	w->uf_flags = w->live ? 0 : UF_BENEATH;
	w->dirfd = rootfd;
	w->sys_classify = opts->sys_classify;
	if (!w->live && !fstatat(rootfd, "proc", &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode)) {
		w->dirfd = openat(rootfd, "proc", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		w->dir = join(dir, "proc");
		if (w->dirfd < 0 || !w->dir) {
			rc = w->dirfd < 0 ? -errno : -ENOMEM;
			close(rootfd);
			snprintf(w->err, w->errlen, "%s/proc: %s", dir, strerror(-rc));
			return rc;
		}
		if (!opts->sys_dir && !fstatat(rootfd, "sys", &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode)) {
			*sysfd = openat(rootfd, "sys", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			*sysdir = join(dir, "sys");
		}
		close(rootfd);
	}
	if (opts->sys_dir) {
		*sysfd = open(opts->sys_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		*sysdir = strdup(opts->sys_dir);
		if (*sysfd < 0) {
			snprintf(w->err, w->errlen, "%s: %s", opts->sys_dir, strerror(errno));
			return -errno;
		}
	}
	if (*sysfd >= 0 && (!opts->sys_classify || !*sysdir)) {
		close(*sysfd);
		*sysfd = -1;
		if (opts->sys_classify)
			return -ENOMEM;
	}
	return 0;
}

int mach_load_tree(const char *dir, const struct mach_load_opts *opts, struct mach_machine **out,
		   struct mach_load_report *report, char *err, size_t errlen)
{
	struct mt_tree tree = { 0 }, systree = { 0 };
	struct walk w;
	struct mach_machine *m = NULL;
	pid_t *pids = NULL;
	size_t npids = 0;
	char *sysdir = NULL;
	struct statfs sfs;
	int rc, sysfd = -1;

	*out = NULL;
	if (report)
		memset(report, 0, sizeof(*report));
	memset(&w, 0, sizeof(w));
	w.dir = dir;
	w.err = err;
	w.errlen = errlen;
	w.dirfd = -1;
	w.want_report = report != NULL;
	if (!opts || !opts->files || !opts->nfiles) {
		snprintf(err, errlen, "%s: no files to read were named (pfs_load_tree names them)", dir);
		return -EINVAL;
	}
	w.no_tasks = opts->no_tasks;
	w.files = opts->files;
	w.nfiles = opts->nfiles;
	m = mach_new();
	w.ld = m ? mach_loader_new(m) : NULL;
	if (!w.ld) {
		mach_free(m);
		rc = -ENOMEM;
		goto out;
	}
	rc = walk_open(&w, opts, &tree, &systree, &sysfd, &sysdir);
	if (!rc)
		rc = ld_arena_grow(&w.arena, ARENA_FIRST);
	if (!rc)
		rc = ld_walk_globals(&w);
	if (!rc)
		rc = list_pids(&w, opts, &pids, &npids);
	for (size_t i = 0; i < npids && !rc; i++)
		rc = ld_walk_pid(&w, pids[i]);
	if (!rc)
		rc = mach_loader_finish(w.ld, err, errlen);
	/* /sys in a session of its own: a group's cgroup.procs names the tasks /proc gave */
	if (!rc && (sysfd >= 0 || opts->sys_members)) {
		rc = ld_walk_sys(&w, sysfd, opts->sys_members ? &systree.root : NULL, sysdir,
				 sysfd >= 0 && !fstatfs(sysfd, &sfs) && sfs.f_type == SYSFS_MAGIC);
		if (!rc)
			rc = mach_loader_finish(w.ld, err, errlen);
	}
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", dir);
	if (w.dirfd >= 0)
		close(w.dirfd);
	if (sysfd >= 0)
		close(sysfd);
	if (w.dir != dir)
		free((char *)w.dir);
	free(sysdir);
	if (w.mem)
		ld_mem_free(&tree);
	ld_mem_free(&systree);
	free(pids);
	free(w.arena.buf);
	ld_walk_net_free(&w);
	m = w.ld ? w.ld->m : NULL;
	mach_loader_free(w.ld);
	if (rc || !report) {
		struct mach_load_report r = { w.rep.n, w.rep.files };

		mach_load_report_free(&r);
	} else {
		report->nfiles = w.rep.n;
		report->files = w.rep.files;
	}
	if (rc) {
		mach_free(m);
		return rc;
	}
	*out = m;
	return 0;
}
