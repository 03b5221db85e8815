// SPDX-License-Identifier: MIT
/*
 * test_clone.c - mach_clone_into keeps the whole machine: every file, link
 * and attribute of clones of synthetic machines (several seeds, one moved
 * by the simulator) and of the loaded golden trees renders to the bytes the
 * original gave, after the original was freed with its memory poisoned
 * (M_PERTURB; under ASan, a use after free).  A pointer field added to the
 * model and not copied by the clone makes the copy read freed memory here.
 * The same holds of a second clone sharing the mms' fixed parts with a
 * first one (mach_clone_into_sharing), once the first's arena is gone.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "machine/clone.h"
#include "spec.h"
#include "tap.h"
#include "uprocfs/procfs.h"
#include "uprocfs/sim.h"

#define RESERVE ((size_t)1 << 34)

/* What one file gave: its path, render status, bytes and the attributes the model decides. */
struct file_out {
	char path[256];
	int rc;
	char *text;
	size_t len;
	mode_t mode;
	off_t size;
};

struct outs {
	struct file_out *v;
	size_t n, cap;
};

static int collect(void *arg, const struct pfs_node *n, const struct pfs_ctx *c)
{
	struct outs *o = arg;
	struct file_out *f;
	struct stat st = { 0 };

	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 1024;
		struct file_out *v = realloc(o->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		o->v = v;
		o->cap = cap;
	}
	f = &o->v[o->n++];
	memset(f, 0, sizeof(*f));
	if (pfs_node_path(n, c, f->path, sizeof(f->path)))
		snprintf(f->path, sizeof(f->path), "?");
	f->rc = pfs_render(n, c, &f->text, &f->len);
	st.st_mode = pfs_node_mode(n, c);
	pfs_node_attr(n, c, &st);
	f->mode = st.st_mode;
	f->size = st.st_size;
	return 0;
}

static void outs_free(struct outs *o)
{
	for (size_t i = 0; i < o->n; i++)
		free(o->v[i].text);
	free(o->v);
	memset(o, 0, sizeof(*o));
}

/* Clone @m, free it, and compare every file of the clone with what @m gave; consumes @m. */
/* Whether the clone's files are the original's: the count of those that differ. */
static size_t compare(const char *name, const struct outs *before, const struct mach_machine *c)
{
	struct outs after = { 0 };
	size_t bad = 0, shown = 0;

	pfs_for_each_file(c, PFS_EACH_ALL, collect, &after);
	if (after.n != before->n) {
		diag("%s: %zu files before, %zu in the clone", name, before->n, after.n);
		bad++;
	}
	for (size_t i = 0; i < before->n && i < after.n; i++) {
		const struct file_out *x = &before->v[i], *y = &after.v[i];

		if (!strcmp(x->path, y->path) && x->rc == y->rc && x->len == y->len && x->mode == y->mode &&
		    x->size == y->size && (!x->len || !memcmp(x->text, y->text, x->len)))
			continue;
		if (shown++ < 5)
			diag("%s: %s differs in the clone (rc %d/%d, %zu/%zu bytes)", name, x->path, x->rc, y->rc,
			     x->len, y->len);
		bad++;
	}
	outs_free(&after);
	return bad;
}

/*
 * Clone @m (freed here) and compare.  @shared: clone it twice sharing the
 * mms' fixed parts, drop the first clone and compare the second.
 */
static void check(const char *name, struct mach_machine *m, bool shared)
{
	struct outs before = { 0 };
	struct ua_arena *a = NULL, *first = NULL, *sa = NULL;
	struct mach_clone_shared *sh = NULL;
	struct mach_machine *c;
	size_t bad, mms = 0, hits = 0, nmm = 0, made = 0, kept = 0;
	bool maker = m->maker != NULL;
	size_t tables_made = 0, fd_tables_made = 0;

	for (size_t i = 0; i < m->nmnt_tables; i++)
		tables_made += m->mnt_tables[i].maker != NULL;

	/* what the sharing clones share: every mm and stored fd table (each its own object here) */
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_files *f = m->procs[i].files;

		nmm += (m->procs[i].mm != NULL) + (f && !f->maker);
		fd_tables_made += f && f->maker;
	}
	if (pfs_for_each_file(m, PFS_EACH_ALL, collect, &before)) {
		ok(0, "%s: the original renders", name);
		mach_free(m);
		return;
	}
	if (ua_create(&a, 0, RESERVE) ||
	    (shared && (ua_create(&first, UA_DEFAULT_BASE + RESERVE, RESERVE) ||
			ua_create(&sa, UA_DEFAULT_BASE + 2 * RESERVE, RESERVE) || mach_clone_shared_new(&sh, sa)))) {
		ok(0, "%s: arenas", name);
		goto out;
	}
	if (shared && !mach_clone_into_sharing(first, m, sh)) {
		ok(0, "%s: the first clone fits", name);
		goto out;
	}
	c = shared ? mach_clone_into_sharing(a, m, sh) : mach_clone_into(a, m);
	mach_free(m); /* poisoned: a pointer the clone kept into it reads garbage now */
	m = NULL;
	ua_destroy(first); /* the shared parts must not live in the first clone */
	first = NULL;
	if (!c) {
		ok(0, "%s: the clone fits", name);
		goto out;
	}
	bad = compare(name, &before, c);
	if (maker) {
		/* a synthetic machine's copy carries its maker, not some 10 KB of VMAs a process */
		for (size_t i = 0; i < c->nprocs; i++)
			if (c->procs[i].mm) {
				made += c->procs[i].mm->maker == c->maker && !c->procs[i].mm->vmas;
				kept++;
			}
		ok(c->maker && made == kept, "%s: the clone's %zu mms make their VMAs with its own maker (%zu do)",
		   name, kept, made);
		/* and its containers' mount tables, which the original made too */
		made = 0;
		for (size_t i = 0; i < c->nmnt_tables; i++)
			made += c->mnt_tables[i].maker == c->maker && !c->mnt_tables[i].mounts;
		ok(made == tables_made, "%s: the clone makes the original's %zu made mount tables with its own maker (%zu)",
		   name, tables_made, made);
		/* and its fd tables, which a sharing clone has nothing of to share */
		made = 0;
		for (size_t i = 0; i < c->nprocs; i++)
			made += c->procs[i].files && c->procs[i].files->maker == c->maker && !c->procs[i].files->fds;
		ok(fd_tables_made > 0 && made == fd_tables_made,
		   "%s: the clone makes the original's %zu made fd tables with its own maker (%zu)", name, fd_tables_made,
		   made);
	}
	if (shared) {
		mach_clone_shared_counts(sh, &mms, &hits);
		ok(bad == 0 && mms == nmm && hits == nmm,
		   "%s: all %zu files of a second clone sharing the first's %zu mms and stored fd tables are the original's "
		   "(%zu bytes of its own, %zu shared, %zu differ)",
		   name, before.n, mms, ua_used(a), ua_used(sa), bad);
	} else {
		ok(bad == 0, "%s: all %zu files of the clone are the original's (%zu bytes of arena, %zu differ)",
		   name, before.n, ua_used(a), bad);
	}
out:
	mach_free(m);
	ua_destroy(first);
	ua_destroy(a);
	mach_clone_shared_free(sh);
	ua_destroy(sa);
	outs_free(&before);
}

static struct mach_machine *synth(const char *spec)
{
	struct mach_machine *m = NULL;
	char err[256];

	if (mach_from_spec(spec, &m, err, sizeof(err)))
		diag("%s: %s", spec, err);
	return m;
}

int main(int argc, char **argv)
{
	static const char *const trees[] = { "linux-6.18-hardcases", "linux-6.18-ns-hardcases", "linux-6.18-system",
					     "handmade-schedstat-v17" };
	const char *golden = argc > 1 ? argv[1] : NULL;
	char spec[128];

	mallopt(M_PERTURB, 0xa5);
	/* small machines: each renders every file twice, and the suite runs on two loaded vCPUs */
	for (int seed = 1; seed <= 4; seed++) {
		snprintf(spec, sizeof(spec), "synth:seed=%d,tasks=%d,cpus=%d", seed, 40 + 20 * seed, 2 + seed * 3);
		struct mach_machine *m = synth(spec);

		if (m)
			check(spec, m, false);
		else
			ok(0, "%s builds", spec);
		/* the fixed parts shared between two clones */
		if ((m = synth(spec)))
			check(spec, m, true);
	}
	{
		/* containers: their mount tables are made on demand, in the original and in the clone */
		struct mach_machine *m = synth("synth:seed=5,tasks=250");

		if (m)
			check("synth seed 5 with containers", m, true);
		else
			ok(0, "synth seed 5 builds");
	}
	{
		/* a machine the simulator moved: tasks forked and exited, counters far from their start */
		struct mach_machine *m = synth("synth:seed=11,tasks=80");
		struct mach_sim_opts so;
		struct mach_sim *sim = NULL;
		char err[256];

		mach_sim_defaults(&so);
		if (m && !mach_sim_create(m, &so, &sim, err, sizeof(err)) &&
		    !mach_sim_advance(sim, m->uptime_ns + 10000000000ull)) {
			mach_sim_destroy(sim);
			check("synth seed 11 after 10 s of simulation", m, false);
		} else {
			ok(0, "the simulator moves a machine");
			mach_sim_destroy(sim);
			mach_free(m);
		}
	}
	for (size_t i = 0; golden && i < sizeof(trees) / sizeof(trees[0]); i++) {
		struct mach_machine *m = NULL;
		char dir[1024], err[512];

		snprintf(dir, sizeof(dir), "%s/%s", golden, trees[i]);
		if (pfs_load_tree(dir, NULL, &m, NULL, err, sizeof(err))) {
			ok(0, "%s loads: %s", trees[i], err);
			continue;
		}
		check(trees[i], m, false);
		if (!pfs_load_tree(dir, NULL, &m, NULL, err, sizeof(err)))
			check(trees[i], m, true);
	}
	return tap_done();
}
