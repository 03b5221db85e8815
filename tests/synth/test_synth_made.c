// SPDX-License-Identifier: MIT
/*
 * test_synth_made.c - what a synthetic machine makes on demand (an mm's
 * VMAs, a container's mount table, a process's fd table) is what its
 * build made (issue 16).
 *
 * Each machine is built twice from one spec: with synth:vmas=stored and
 * mounts=stored, which keep what the build made, and with the defaults,
 * which drop them and replay the build of one mm or table when a reader
 * asks.  Every field of every VMA of every mm must match, names and smaps
 * counters included, on the shapes where the replay could drift: swap
 * spread over anonymous mappings, a JVM's huge pages, an old kernel's
 * VM_DENYWRITE, containers' root devices, and machines big enough to
 * build on several threads.  So must every field of every mount of every
 * table, strings by content, and every fd of every table, with its name,
 * fdinfo values and locks.  Then several threads make VMAs and tables
 * at once, each in its own order.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "test_vmas.h"
#include "uprocfs/mach_sys.h"
#include "uprocfs/machine.h"

#define READERS 4

/* Whether @a and @b are the same VMA: every field, names by content. */
static bool vma_same(const struct mach_vma *a, const struct mach_vma *b)
{
	struct mach_vma x = *a, y = *b;

	if ((a->name == NULL) != (b->name == NULL) || (a->name && strcmp(a->name, b->name)))
		return false;
	x.name = y.name = NULL;
	return !memcmp(&x, &y, sizeof(x));
}

/* The mms of @made that differ from @stored's (the first few named), or -1 when the machines do. */
static long compare(const struct mach_machine *made, const struct mach_machine *stored, size_t *nmade)
{
	long bad = 0;

	*nmade = 0;
	if (made->nprocs != stored->nprocs)
		return -1;
	for (size_t i = 0; i < made->nprocs; i++) {
		const struct mach_mm *a = made->procs[i].mm, *b = stored->procs[i].mm;
		const struct mach_vma *va;
		size_t k = 0;

		if (!a || !b) {
			bad += (a == NULL) != (b == NULL);
			continue;
		}
		*nmade += a->maker && !a->vmas;
		if (a->nvmas != b->nvmas || b->maker || mach_mm_vmas(a, &va)) {
			bad++;
			continue;
		}
		while (k < a->nvmas && vma_same(&va[k], &b->vmas[k]))
			k++;
		if (k < a->nvmas && bad++ < 3)
			diag("pid %d: VMA %zu (%llx) differs", (int)made->procs[i].tgid, k,
			     (unsigned long long)b->vmas[k].start);
	}
	return bad;
}

static bool str_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether @a and @b are the same mount: every field, strings by content. */
static bool mount_same(const struct mach_mount *a, const struct mach_mount *b)
{
	struct mach_mount x = *a, y = *b;

	if (!str_same(a->root, b->root) || !str_same(a->point, b->point) || !str_same(a->fstype, b->fstype) ||
	    !str_same(a->source, b->source) || !str_same(a->fs_opts, b->fs_opts))
		return false;
	x.root = x.point = x.fstype = x.source = x.fs_opts = NULL;
	y.root = y.point = y.fstype = y.source = y.fs_opts = NULL;
	return !memcmp(&x, &y, sizeof(x));
}

/* The mount tables of @made that differ from @stored's (the first few named), or -1 when the machines do. */
static long compare_mounts(const struct mach_machine *made, const struct mach_machine *stored, size_t *nmade)
{
	long bad = 0;

	*nmade = 0;
	if (made->nmnt_tables != stored->nmnt_tables)
		return -1;
	for (size_t i = 0; i < made->nmnt_tables; i++) {
		const struct mach_mnt_table *a = &made->mnt_tables[i], *b = &stored->mnt_tables[i];
		const struct mach_mount *ma;
		size_t k = 0;

		*nmade += a->maker && !a->mounts;
		if (a->n != b->n || a->ns_ino != b->ns_ino || b->maker || mach_mnt_table_mounts(a, &ma)) {
			bad++;
			continue;
		}
		while (k < a->n && mount_same(&ma[k], &b->mounts[k]))
			k++;
		if (k < a->n && bad++ < 3)
			diag("mount table %zu: mount %zu (%s) differs", i, k, b->mounts[k].point);
	}
	return bad;
}

/* Whether @a and @b hold the same @n items at @x and @y (both NULL when none). */
static bool items_same(const void *x, const void *y, size_t n, size_t size)
{
	return (x == NULL) == (y == NULL) && (!x || !memcmp(x, y, n * size));
}

/* Whether @a and @b are the same lock, field by field (a lock's padding is nobody's). */
static bool lock_same(const struct mach_file_lock *a, const struct mach_file_lock *b)
{
	return a->id == b->id && a->level == b->level && a->cls == b->cls && a->lease == b->lease &&
	       a->type == b->type && a->pid == b->pid && a->has_inode == b->has_inode &&
	       a->dev_major == b->dev_major && a->dev_minor == b->dev_minor && a->ino == b->ino &&
	       a->start == b->start && a->end == b->end && a->fd == b->fd;
}

/* Whether the @n locks at @a and @b are the same. */
static bool locks_same(const struct mach_file_lock *a, const struct mach_file_lock *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!lock_same(&a[i], &b[i]))
			return false;
	return true;
}

/* Whether @a and @b are the same fd: every field, its name by content, its fdinfo values and locks. */
static bool fd_same(const struct mach_fd *a, const struct mach_fd *b)
{
	const struct mach_fd_info *ia = mach_fd_info(a), *ib = mach_fd_info(b);
	struct mach_fd x = *a, y = *b;

	if (!str_same(a->name, b->name))
		return false;
	/* a made table owns its names, a stored one points into the machine's interned strings */
	x.name = y.name = NULL;
	x.info = y.info = NULL;
	x.name_interned = y.name_interned = false;
	return !memcmp(&x, &y, sizeof(x)) && !memcmp(&ia->u, &ib->u, sizeof(ia->u)) && ia->nitems == ib->nitems &&
	       ia->nlocks == ib->nlocks && items_same(ia->epoll, ib->epoll, ia->nitems, sizeof(*ia->epoll)) &&
	       items_same(ia->marks, ib->marks, ia->nitems, sizeof(*ia->marks)) &&
	       locks_same(ia->locks, ib->locks, ia->nlocks);
}

/* The fd tables of @made that differ from @stored's (the first few named), or -1 when the machines do. */
static long compare_fds(const struct mach_machine *made, const struct mach_machine *stored, size_t *nmade,
			size_t *nfds)
{
	long bad = 0;

	*nmade = *nfds = 0;
	if (made->nprocs != stored->nprocs)
		return -1;
	for (size_t i = 0; i < made->nprocs; i++) {
		const struct mach_files *a = made->procs[i].files, *b = stored->procs[i].files;
		const struct mach_fd *fa;
		size_t k = 0;

		if (!a || !b) {
			bad += (a == NULL) != (b == NULL);
			continue;
		}
		*nmade += a->maker && !a->fds;
		*nfds += a->nfds;
		if (a->nfds != b->nfds || a->max_fds != b->max_fds || b->maker || mach_files_fds(a, &fa)) {
			bad++;
			continue;
		}
		while (k < a->nfds && fd_same(&fa[k], &b->fds[k]))
			k++;
		if (k < a->nfds && bad++ < 3)
			diag("pid %d: fd %d differs", (int)made->procs[i].tgid, b->fds[k].fd);
	}
	return bad;
}

struct reader {
	const struct mach_machine *made, *stored;
	size_t first, step;
	long bad;
};

/* Walk the mms from reader's own start and stride, so threads make different mms at once. */
static void *read_all(void *arg)
{
	struct reader *r = arg;
	size_t n = r->made->nprocs;

	for (size_t j = 0; j < n; j++) {
		size_t i = (r->first + j * r->step) % n;
		const struct mach_mm *a = r->made->procs[i].mm, *b = r->stored->procs[i].mm;
		const struct mach_files *fa = r->made->procs[i].files, *fb = r->stored->procs[i].files;
		const struct mach_vma *va;
		const struct mach_fd *fds;

		/* a table before the mm: each kind's made one is kept apart */
		if (fa && fa->nfds) {
			if (mach_files_fds(fa, &fds)) {
				r->bad++;
				continue;
			}
			for (size_t k = 0; k < fa->nfds; k++)
				r->bad += !fd_same(&fds[k], &fb->fds[k]);
		}
		if (!a)
			continue;
		if (mach_mm_vmas(a, &va)) {
			r->bad++;
			continue;
		}
		for (size_t k = 0; k < a->nvmas; k++)
			r->bad += !vma_same(&va[k], &b->vmas[k]);
		/* a table between two mms: each kind's made one is kept apart */
		if (i < r->made->nmnt_tables) {
			const struct mach_mnt_table *ta = &r->made->mnt_tables[i], *tb = &r->stored->mnt_tables[i];
			const struct mach_mount *ma;

			if (mach_mnt_table_mounts(ta, &ma)) {
				r->bad++;
				continue;
			}
			for (size_t k = 0; k < ta->n; k++)
				r->bad += !mount_same(&ma[k], &tb->mounts[k]);
		}
	}
	return NULL;
}

static void test_threads(const struct mach_machine *made, const struct mach_machine *stored, const char *spec)
{
	static const size_t steps[READERS] = { 1, 7, 13, 31 };
	struct reader r[READERS];
	pthread_t t[READERS];
	bool started[READERS];
	long bad = 0;

	for (int i = 0; i < READERS; i++) {
		r[i] = (struct reader){ .made = made, .stored = stored, .first = (size_t)i * 101, .step = steps[i] };
		started[i] = !pthread_create(&t[i], NULL, read_all, &r[i]);
	}
	for (int i = 0; i < READERS; i++) {
		if (started[i])
			pthread_join(t[i], NULL);
		else
			read_all(&r[i]);
		bad += r[i].bad;
	}
	is_i64(bad, 0, "%s: %d threads making VMAs, mount and fd tables at once each see the stored ones", spec,
	       READERS);
}

/* @spec built made and stored; @min_tables: how many mount tables at least the made one must make. */
static void test_spec(const char *spec, bool threads, size_t min_tables)
{
	struct mach_synth_opts o;
	struct mach_machine *made = NULL, *stored = NULL;
	char err[256];
	size_t nmade, ntables, nfds;
	long bad;

	mach_synth_defaults(&o);
	if (mach_synth_parse(&o, spec, err, sizeof(err))) {
		ok(0, "%s: %s", spec, err);
		return;
	}
	o.store_vmas = o.store_mounts = o.store_fds = false;
	if (mach_synth_build(&o, &made, err, sizeof(err)) ||
	    (o.store_vmas = o.store_mounts = o.store_fds = true, mach_synth_build(&o, &stored, err, sizeof(err)))) {
		ok(0, "%s: %s", spec, err);
		mach_free(made);
		return;
	}
	bad = compare(made, stored, &nmade);
	ok(bad == 0 && nmade > made->nprocs / 2 && made->maker && !stored->maker,
	   "%s: the VMAs made of %zu mms are the ones the build made (%ld differ)", spec, nmade, bad);
	bad = compare_mounts(made, stored, &ntables);
	ok(bad == 0 && ntables >= min_tables && ntables < made->nmnt_tables,
	   "%s: the %zu mount tables made of %zu are the ones the build made (%ld differ)", spec, ntables,
	   made->nmnt_tables, bad);
	bad = compare_fds(made, stored, &ntables, &nfds);
	/* the tables holding locks stay stored; kernel threads' and zombies' hold nothing to make */
	ok(bad == 0 && ntables > made->nprocs / 3 && nfds > ntables,
	   "%s: the %zu fd tables made (%zu fds) are the ones the build made (%ld differ)", spec, ntables, nfds, bad);
	/* /proc/locks and the fds holding its locks: the tables holding them stayed stored */
	bad = made->sys.nlocks == stored->sys.nlocks ? 0 : -1;
	for (size_t i = 0; !bad && i < made->sys.nlocks; i++)
		bad += !lock_same(&made->sys.locks[i], &stored->sys.locks[i]);
	ok(bad == 0, "%s: the %zu locks are the stored machine's, fds and all (%ld differ)", spec, made->sys.nlocks,
	   bad);
	if (threads)
		test_threads(made, stored, spec);
	mach_free(made);
	mach_free(stored);
}

/* The oldest kernel the generator speaks: before 5.15, exec'd files' VMAs are VM_DENYWRITE. */
static void test_old_kernel(void)
{
	size_t n;
	const unsigned int *k = mach_synth_kernels(&n);
	char spec[64];

	snprintf(spec, sizeof(spec), "seed=4,kernel=%u.%u", k[0] / 100, k[0] % 100);
	test_spec(spec, false, 1);
}

static void test_parse(void)
{
	struct mach_synth_opts o;
	char err[256];

	mach_synth_defaults(&o);
	ok(!o.store_vmas, "VMAs are made on demand by default");
	ok(!mach_synth_parse(&o, "vmas=stored", err, sizeof(err)) && o.store_vmas, "vmas=stored keeps them");
	ok(!mach_synth_parse(&o, "vmas=made", err, sizeof(err)) && !o.store_vmas, "vmas=made makes them");
	ok(mach_synth_parse(&o, "vmas=kept", err, sizeof(err)) == -EINVAL &&
		   strstr(err, "vmas=\"kept\": expected made or stored"),
	   "vmas=kept is refused by name: %s", err);
	ok(mach_synth_parse(&o, "vmas=made,vmas=stored", err, sizeof(err)) == -EINVAL && strstr(err, "given twice"),
	   "vmas twice is refused: %s", err);
	mach_synth_defaults(&o);
	ok(!o.store_mounts, "mount tables are made on demand by default");
	ok(!mach_synth_parse(&o, "mounts=stored", err, sizeof(err)) && o.store_mounts && !o.store_vmas,
	   "mounts=stored keeps them, VMAs still made");
	ok(!mach_synth_parse(&o, "mounts=made,vmas=stored", err, sizeof(err)) && !o.store_mounts && o.store_vmas,
	   "mounts=made,vmas=stored: each key its own");
	ok(mach_synth_parse(&o, "mounts=on", err, sizeof(err)) == -EINVAL &&
		   strstr(err, "mounts=\"on\": expected made or stored"),
	   "mounts=on is refused by name: %s", err);
	ok(mach_synth_parse(&o, "mounts=made,mounts=made", err, sizeof(err)) == -EINVAL && strstr(err, "given twice"),
	   "mounts twice is refused: %s", err);
	mach_synth_defaults(&o);
	ok(!o.store_fds, "fd tables are made on demand by default");
	ok(!mach_synth_parse(&o, "fds=stored", err, sizeof(err)) && o.store_fds && !o.store_vmas && !o.store_mounts,
	   "fds=stored keeps them, VMAs and mounts still made");
	ok(mach_synth_parse(&o, "fds=kept", err, sizeof(err)) == -EINVAL &&
		   strstr(err, "fds=\"kept\": expected made or stored"),
	   "fds=kept is refused by name: %s", err);
}

/* Each of vmas=, mounts= and fds= stored alone: the others still made, and all read as the build made them. */
static void test_mixed(void)
{
	static const char *const specs[] = { "seed=2,tasks=600,vmas=stored", "seed=2,tasks=600,mounts=stored",
					     "seed=2,tasks=600,fds=stored" };
	struct mach_synth_opts o;
	struct mach_machine *m = NULL, *stored = NULL;
	char err[256];

	mach_synth_defaults(&o);
	if (mach_synth_parse(&o, "seed=2,tasks=600,vmas=stored,mounts=stored,fds=stored", err, sizeof(err)) ||
	    mach_synth_build(&o, &stored, err, sizeof(err))) {
		ok(0, "all stored: %s", err);
		return;
	}
	ok(stored->maker == NULL, "vmas=stored,mounts=stored,fds=stored: the machine has no maker");
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		size_t nmms, ntables, nfd_tables, nfds;
		long bad_vmas, bad_mounts, bad_fds;

		mach_synth_defaults(&o);
		if (mach_synth_parse(&o, specs[i], err, sizeof(err)) || mach_synth_build(&o, &m, err, sizeof(err))) {
			ok(0, "%s: %s", specs[i], err);
			continue;
		}
		bad_vmas = compare(m, stored, &nmms);
		bad_mounts = compare_mounts(m, stored, &ntables);
		bad_fds = compare_fds(m, stored, &nfd_tables, &nfds);
		ok(bad_vmas == 0 && bad_mounts == 0 && bad_fds == 0 && (o.store_vmas ? nmms == 0 : nmms > 0) &&
			   (o.store_mounts ? ntables == 0 : ntables > 0) && (o.store_fds ? nfd_tables == 0 : nfd_tables > 0),
		   "%s: %zu mms, %zu mount tables and %zu fd tables made, every one as stored (%ld, %ld, %ld differ)",
		   specs[i], nmms, ntables, nfd_tables, bad_vmas, bad_mounts, bad_fds);
		mach_free(m);
		m = NULL;
	}
	mach_free(stored);
}

int main(void)
{
	plan(0);
	test_parse();
	/* 200 tasks plan no container: its tables are the host's and services', all stored */
	test_spec("seed=1", true, 0);
	test_spec("seed=2,mem=1,tasks=600", false, 10);
	test_spec("seed=3,cpus=64,tasks=2000,threads=3000", true, 20);
	test_old_kernel();
	/* past the parallel build's threshold: the build's workers lend and take back their own lists */
	test_spec("seed=5,cpus=32,tasks=25000", true, 1000);
	test_mixed();
	return tap_done();
}
