// SPDX-License-Identifier: MIT
/*
 * clone.c - a machine copied whole into an arena (clone.h).
 *
 * The copy is built once and only read, so its blocks come from a bump
 * allocator over large chunks of the arena: no header, no lock per block.
 * A machine of 100,000 tasks holds millions of small blocks (names, paths,
 * groups); taking each from the arena's size classes would cost a mutex and
 * a header apiece.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "clone.h"
#include "uprocfs/mach_sysfs.h"

#define CHUNK (1u << 20)

/* An interned object of the original met, and its copy. */
struct seen {
	const void *from;
	void *to;
};

/* Where interned object @from's copy is remembered in @memo (@n slots): a slot by its address. */
static struct seen *seen_slot(struct seen *memo, size_t n, const void *from)
{
	return &memo[((uintptr_t)from >> 4) % n];
}

struct cl {
	struct ua_arena *a;
	char *at, *end;
	bool full;
	struct mach_clone_shared *shared; /* where the mms' fixed parts go, or NULL */
	const struct mach_maker *maker; /* the copy's maker: its mms' VMAs are made, not copied */
	/* interned limit sets met, and their copies: a synthetic machine's processes share a few dozen */
	struct seen rlim_seen[64];
	/* interned credentials met, and their copies: a few thousand at a million tasks */
	struct seen cred_seen[1024];
	/* shared names met (a synthetic machine's interned comms), and their copies */
	struct seen comm_seen[256];
};

/*
 * An mm's fixed parts (struct mach_mm's serial), or an fd table's fds
 * (struct mach_files's: the same counter), copied once into the shared arena.
 */
struct shared_mm {
	uint64_t serial;          /* 0: an empty slot */
	struct mach_vma *vmas;
	char *cmdline, *environ, *exe;
	struct mach_fd *fds;
};

struct mach_clone_shared {
	struct cl c;              /* bump allocation in the shared arena, kept between clones */
	struct shared_mm *tab;    /* open addressing by serial, a power of two long */
	size_t cap, n;
	size_t hits, copies;
};

/* @size bytes, 16-aligned, from the current chunk or a new one. */
static void *take(struct cl *c, size_t size)
{
	size_t bytes = (size + 15) & ~(size_t)15;
	void *p;

	if (!bytes)
		bytes = 16; /* an empty array that exists stays non-NULL */
	if ((size_t)(c->end - c->at) < bytes) {
		size_t chunk = bytes > CHUNK ? bytes : CHUNK;
		char *n = ua_take(c->a, chunk);

		if (!n) {
			c->full = true;
			return NULL;
		}
		c->at = n;
		c->end = n + chunk;
	}
	p = c->at;
	c->at += bytes;
	return p;
}

/* take() for a maker's copy op. */
static void *take_cb(void *ctx, size_t size)
{
	return take(ctx, size);
}

/* A copy of @n elements of @size bytes at @src; NULL stays NULL. */
static void *dup_arr(struct cl *c, const void *src, size_t n, size_t size)
{
	void *d;

	if (!src)
		return NULL;
	d = take(c, n * size);
	if (d && n)
		memcpy(d, src, n * size);
	return d;
}

#define DUP(c, p, n) ((__typeof__(p))dup_arr((c), (p), (n), sizeof(*(p))))
/* A copy of the one struct @type at @p (which may be const). */
#define DUP1(c, type, p) ((type *)dup_arr((c), (p), 1, sizeof(type)))

/* @len bytes of @src and a NUL after them (raw bytes such as a command line may hold NULs). */
static char *dup_bytes(struct cl *c, const char *src, size_t len)
{
	char *d;

	if (!src)
		return NULL;
	d = take(c, len + 1);
	if (d) {
		memcpy(d, src, len);
		d[len] = '\0';
	}
	return d;
}

static char *dup_str(struct cl *c, const char *s)
{
	return s ? dup_bytes(c, s, strlen(s)) : NULL;
}

static void bitmap(struct cl *c, struct mach_bitmap *b)
{
	b->words = DUP(c, b->words, (b->nbits + 63) / 64 ? (b->nbits + 63) / 64 : 1);
}

static void cpus(struct cl *c, struct mach_machine *d)
{
	d->cpus = DUP(c, d->cpus, d->ncpus);
	for (unsigned int i = 0; d->cpus && i < d->ncpus; i++) {
		struct mach_cpu_schedstat *s = &d->cpus[i].sched;

		s->domains = DUP(c, s->domains, s->ndomains);
		for (unsigned int k = 0; s->domains && k < s->ndomains; k++)
			bitmap(c, &s->domains[k].span);
	}
	d->irqs = DUP(c, d->irqs, d->nirqs);
	for (unsigned int i = 0; d->irqs && i < d->nirqs; i++) {
		struct mach_irq *q = &d->irqs[i];

		q->per_cpu = DUP(c, q->per_cpu, d->ncpus);
		q->chip = dup_str(c, q->chip);
		q->flow = dup_str(c, q->flow);
		q->actions = dup_str(c, q->actions);
	}
}

static struct mach_sysctl *sysctl(struct cl *c, const struct mach_sysctl *s)
{
	struct mach_sysctl *d = DUP1(c, struct mach_sysctl, s);

	if (!d)
		return NULL;
	d->nodes = DUP(c, d->nodes, d->n);
	d->cap = d->n;
	for (uint32_t i = 0; d->nodes && i < d->n; i++) {
		struct mach_sysctl_node *nd = &d->nodes[i];

		nd->name = dup_str(c, nd->name);
		nd->vals = DUP(c, nd->vals, nd->nvals);
		nd->str = dup_bytes(c, nd->str, nd->len);
		nd->kids = DUP(c, nd->kids, nd->nkids);
	}
	return d;
}

static struct mach_fs *fs(struct cl *c, const struct mach_fs *s)
{
	struct mach_fs *d = DUP1(c, struct mach_fs, s);

	if (d) {
		d->cwd = dup_str(c, d->cwd);
		d->root = dup_str(c, d->root);
	}
	return d;
}

/*
 * Copy @d's VMAs (and their names), command line, environment and exe path
 * into @c.  VMAs a maker makes stay made on demand when the copy carries a
 * maker of its own (c->maker); without one they are made now and stored.
 */
static void mm_fixed_parts(struct cl *c, struct mach_mm *d)
{
	const struct mach_vma *vmas;

	if (d->maker && c->maker) {
		/* the copy's maker makes them wherever the copy is read */
		d->vmas = NULL;
	} else if (mach_mm_vmas(d, &vmas)) {
		c->full = true;
		d->vmas = NULL;
	} else {
		d->vmas = dup_arr(c, vmas, d->nvmas, sizeof(*vmas));
		d->maker = NULL;
	}
	for (size_t i = 0; d->vmas && i < d->nvmas; i++)
		d->vmas[i].name = dup_str(c, d->vmas[i].name);
	d->maker = d->maker ? c->maker : NULL;
	d->cmdline = dup_bytes(c, d->cmdline, d->cmdline_len);
	d->environ = dup_bytes(c, d->environ, d->environ_len);
	d->exe = dup_str(c, d->exe);
}

static size_t serial_slot(const struct mach_clone_shared *sh, uint64_t serial)
{
	return (size_t)((serial * UINT64_C(0x9e3779b97f4a7c15)) >> 20) & (sh->cap - 1);
}

/* Room for one more entry in @sh's table; false when there is none to be had. */
static bool shared_grow(struct mach_clone_shared *sh)
{
	struct shared_mm *old = sh->tab;
	size_t oldcap = sh->cap, cap;

	if ((sh->n + 1) * 4 < sh->cap * 3)
		return true;
	cap = oldcap ? oldcap * 2 : 1024;
	sh->tab = calloc(cap, sizeof(*sh->tab));
	if (!sh->tab) {
		sh->tab = old;
		return false;
	}
	sh->cap = cap;
	for (size_t i = 0; i < oldcap; i++) {
		size_t k;

		if (!old[i].serial)
			continue;
		for (k = serial_slot(sh, old[i].serial); sh->tab[k].serial; k = (k + 1) & (cap - 1))
			;
		sh->tab[k] = old[i];
	}
	free(old);
	return true;
}

/*
 * The shared entry of @serial: filled already (a clone met it before), or
 * empty (*@fresh), for the caller to copy its parts with @sh->c and then
 * shared_keep them.  NULL when it cannot be shared (no serial, no room).
 */
static struct shared_mm *shared_find(struct mach_clone_shared *sh, uint64_t serial, bool *fresh)
{
	size_t k;

	if (!serial || !shared_grow(sh))
		return NULL;
	for (k = serial_slot(sh, serial); sh->tab[k].serial; k = (k + 1) & (sh->cap - 1))
		if (sh->tab[k].serial == serial) {
			sh->hits++;
			*fresh = false;
			return &sh->tab[k];
		}
	*fresh = true;
	return &sh->tab[k];
}

/* Fill the empty entry @e with @v, copied just now; false when the shared arena ran out meanwhile. */
static bool shared_keep(struct mach_clone_shared *sh, struct shared_mm *e, const struct shared_mm *v)
{
	if (sh->c.full)
		return false; /* what was taken stays unused: the arena is full from now on anyway */
	*e = *v;
	sh->n++;
	sh->copies++;
	return true;
}

/*
 * Point @d's fixed parts at their copy in the shared arena, made now if
 * this is the first clone to meet the mm.  False when it cannot be shared:
 * the caller copies them.
 */
static bool mm_share(struct mach_clone_shared *sh, struct mach_mm *d)
{
	bool fresh;
	struct shared_mm *e = shared_find(sh, d->serial, &fresh);

	if (!e)
		return false;
	if (fresh) {
		mm_fixed_parts(&sh->c, d);
		return shared_keep(sh, e, &(struct shared_mm){ .serial = d->serial, .vmas = d->vmas,
							      .cmdline = d->cmdline, .environ = d->environ,
							      .exe = d->exe });
	}
	d->vmas = e->vmas;
	d->maker = d->vmas ? NULL : sh->c.maker;
	d->cmdline = e->cmdline;
	d->environ = e->environ;
	d->exe = e->exe;
	return true;
}

static struct mach_mm *mm(struct cl *c, const struct mach_mm *s)
{
	struct mach_mm *d = DUP1(c, struct mach_mm, s);

	if (!d)
		return NULL;
	if (!c->shared || !mm_share(c->shared, d)) {
		*d = *s;
		mm_fixed_parts(c, d);
	}
	return d;
}

/* Copy @d's fds (and what each owns) into @c. */
static void files_fds(struct cl *c, struct mach_files *d)
{
	d->fds = DUP(c, d->fds, d->nfds);
	for (unsigned int i = 0; d->fds && i < d->nfds; i++) {
		struct mach_fd *f = &d->fds[i];

		f->name = dup_str(c, f->name);
		f->info = DUP(c, f->info, 1);
		if (f->info) {
			f->info->epoll = DUP(c, f->info->epoll, f->info->nitems);
			f->info->marks = DUP(c, f->info->marks, f->info->nitems);
			f->info->locks = DUP(c, f->info->locks, f->info->nlocks);
		}
	}
}

/* mm_share for an fd table's fds. */
static bool files_share(struct mach_clone_shared *sh, struct mach_files *d)
{
	bool fresh;
	struct shared_mm *e = shared_find(sh, d->serial, &fresh);

	if (!e)
		return false;
	if (fresh) {
		files_fds(&sh->c, d);
		return shared_keep(sh, e, &(struct shared_mm){ .serial = d->serial, .fds = d->fds });
	}
	d->fds = e->fds;
	return true;
}

static struct mach_files *files(struct cl *c, const struct mach_files *s)
{
	struct mach_files *d = DUP1(c, struct mach_files, s);
	const struct mach_fd *made;
	struct mach_files src;

	if (!d)
		return NULL;
	if (d->maker && c->maker) {
		/* made tables stay made when the copy has a maker; else made now and stored */
		d->maker = c->maker;
		return d;
	}
	if (d->maker) {
		if (mach_files_fds(d, &made)) {
			c->full = true; /* the clone fails: a table it could not make is not a table without fds */
			d->maker = NULL;
			return d;
		}
		d->fds = (struct mach_fd *)made; /* copied below: the cast is never written through */
		d->maker = NULL;
	}
	src = *d;
	if (!c->shared || !files_share(c->shared, d)) {
		*d = src;
		files_fds(c, d);
	}
	return d;
}

/* @p's limits in the copy: an interned set copied once per clone, and shared in it as in the original. */
static void process_rlim(struct cl *c, struct mach_process *p)
{
	struct seen *k = seen_slot(c->rlim_seen, sizeof(c->rlim_seen) / sizeof(c->rlim_seen[0]), p->rlim);
	const struct mach_rlimit *from = p->rlim;

	if (!from)
		return;
	if (p->rlim_interned && k->from == from) {
		p->rlim = k->to;
		return;
	}
	p->rlim = DUP(c, p->rlim, MACH_RLIM_NLIMITS);
	if (p->rlim_interned)
		*k = (struct seen){ from, p->rlim };
}

/* @t's credentials in the copy: an interned set copied once per clone (as far as the memo keeps it). */
static void thread_cred(struct cl *c, struct mach_thread *t)
{
	struct seen *k = seen_slot(c->cred_seen, sizeof(c->cred_seen) / sizeof(c->cred_seen[0]), t->cred);
	const struct mach_cred *from = t->cred;

	if (!from)
		return;
	if (t->cred_interned && k->from == from) {
		t->cred = k->to;
		return;
	}
	t->cred = DUP1(c, struct mach_cred, from);
	if (t->cred)
		t->cred->groups = DUP(c, from->groups, from->ngroups);
	if (t->cred_interned)
		*k = (struct seen){ from, t->cred };
}

/* @t's name in the copy: a shared one copied once per clone (as far as the memo keeps it), as the creds. */
static void thread_comm(struct cl *c, struct mach_thread *t)
{
	struct seen *k = seen_slot(c->comm_seen, sizeof(c->comm_seen) / sizeof(c->comm_seen[0]), t->comm);
	bool shared = t->comm && !t->comm_owned;

	t->comm_owned = false; /* the copy's lies in the arena */
	if (!shared) {
		t->comm = dup_str(c, t->comm);
		return;
	}
	if (k->from != t->comm)
		*k = (struct seen){ t->comm, dup_str(c, t->comm) };
	t->comm = k->to;
}

static void process(struct cl *c, struct mach_process *p)
{
	process_rlim(c, p);
	p->mm = p->mm ? mm(c, p->mm) : NULL;
	p->files = p->files ? files(c, p->files) : NULL;
	p->fs = p->fs ? fs(c, p->fs) : NULL;
	p->dead_io = p->dead_io ? DUP1(c, struct mach_taskio, p->dead_io) : NULL;
	p->threads = DUP(c, p->threads, p->nthreads);
	for (unsigned int i = 0; p->threads && i < p->nthreads; i++) {
		struct mach_thread *t = &p->threads[i];

		thread_cred(c, t);
		thread_comm(c, t);
		if (t->ns_levels > 1)
			t->ns_ids.many = DUP(c, t->ns_ids.many, (size_t)MACH_NR_NSIDS * t->ns_levels);
		bitmap(c, &t->cpus_allowed);
		bitmap(c, &t->mems_allowed);
		t->fs = t->fs ? fs(c, t->fs) : NULL;
		t->children = DUP(c, t->children, t->nchildren);
		t->rare = t->rare ? DUP1(c, struct mach_thread_rare, t->rare) : NULL;
	}
}

static void ns_tables(struct cl *c, struct mach_machine *d)
{
	d->nssets = DUP(c, d->nssets, d->nnssets);
	d->cg_roots = DUP(c, d->cg_roots, d->ncg_roots);
	for (size_t i = 0; d->cg_roots && i < d->ncg_roots; i++)
		d->cg_roots[i].name = dup_str(c, d->cg_roots[i].name);
	d->cgroups = DUP(c, d->cgroups, d->ncgroups);
	for (size_t i = 0; d->cgroups && i < d->ncgroups; i++) {
		struct mach_cg_state *st;

		d->cgroups[i].name = dup_str(c, d->cgroups[i].name);
		st = d->cgroups[i].st = d->cgroups[i].st ? DUP1(c, struct mach_cg_state, d->cgroups[i].st) : NULL;
		if (st) {
			size_t nvals = mach_cg_memstat_nvals(st);

			st->memstat_vals = nvals ? DUP(c, st->memstat_vals, nvals) : NULL;
			st->io = DUP(c, st->io, st->nio);
			st->pressure = st->pressure ? DUP(c, st->pressure, MACH_NR_PSI_RES) : NULL;
			st->nr_dying_subsys = DUP(c, st->nr_dying_subsys, MACH_NR_SS);
			st->mem_events = DUP(c, st->mem_events, MACH_NR_MEMCG_EVENTS);
		}
	}
	d->css_sets = DUP(c, d->css_sets, d->ncss_sets);
	d->mnt_tables = DUP(c, d->mnt_tables, d->nmnt_tables);
	for (size_t i = 0; d->mnt_tables && i < d->nmnt_tables; i++) {
		struct mach_mnt_table *t = &d->mnt_tables[i];
		const struct mach_mount *mounts;

		/* made tables stay made when the copy has a maker; else made now and stored */
		if (t->maker && c->maker) {
			t->maker = c->maker;
			continue;
		}
		if (mach_mnt_table_mounts(t, &mounts)) {
			c->full = true;
			mounts = NULL;
		}
		t->mounts = dup_arr(c, mounts, t->n, sizeof(*mounts));
		t->maker = NULL;
		t->serial = 0;
		t->strings = NULL; /* each mount's strings are its own in the copy */
		for (size_t k = 0; t->mounts && k < t->n; k++) {
			struct mach_mount *mt = &t->mounts[k];

			mt->root = dup_str(c, mt->root);
			mt->point = dup_str(c, mt->point);
			mt->fstype = dup_str(c, mt->fstype);
			mt->source = dup_str(c, mt->source);
			mt->fs_opts = dup_str(c, mt->fs_opts);
		}
	}
}

static void sys(struct cl *c, struct mach_sys *s)
{
	s->blk = DUP(c, s->blk, s->nblk);
	for (size_t i = 0; s->blk && i < s->nblk; i++) {
		struct mach_blk_sysfs *b;

		s->blk[i].backing_file = dup_str(c, s->blk[i].backing_file);
		b = s->blk[i].sysfs = s->blk[i].sysfs ? DUP1(c, struct mach_blk_sysfs, s->blk[i].sysfs) : NULL;
		if (b) {
			b->dir = dup_str(c, b->dir);
			b->serial = dup_str(c, b->serial);
			b->dm_uuid = dup_str(c, b->dm_uuid);
		}
	}
	s->swaps = DUP(c, s->swaps, s->nswaps);
	for (size_t i = 0; s->swaps && i < s->nswaps; i++)
		s->swaps[i].path = dup_str(c, s->swaps[i].path);
	s->nodes = DUP(c, s->nodes, s->nnodes);
	for (unsigned int i = 0; s->nodes && i < s->nnodes; i++)
		for (unsigned int z = 0; z < MACH_NR_ZONE_TYPES; z++) {
			struct mach_zone *zn = &s->nodes[i].zones[z];

			zn->pagesets = DUP(c, zn->pagesets, zn->npagesets);
		}
	s->slabs = DUP(c, s->slabs, s->nslabs);
	for (size_t i = 0; s->slabs && i < s->nslabs; i++)
		s->slabs[i].name = dup_str(c, s->slabs[i].name);
	s->kid.cmdline = dup_str(c, s->kid.cmdline);
	s->fstypes = DUP(c, s->fstypes, s->nfstypes);
	s->chrdevs = DUP(c, s->chrdevs, s->nchrdevs);
	s->blkdevs = DUP(c, s->blkdevs, s->nblkdevs);
	s->misc = DUP(c, s->misc, s->nmisc);
	s->cgroup_subsys = DUP(c, s->cgroup_subsys, s->ncgroup_subsys);
	s->locks = DUP(c, s->locks, s->nlocks);
}

/* What /sys adds: nodes' distances, sensors and their channels. */
static void platform(struct cl *c, struct mach_platform *p)
{
	p->nodes = DUP(c, p->nodes, p->nnodes);
	for (unsigned int i = 0; p->nodes && i < p->nnodes; i++)
		p->nodes[i].distance = p->nodes[i].distance ? DUP(c, p->nodes[i].distance, p->nnodes) : NULL;
	p->hwmon = DUP(c, p->hwmon, p->nhwmon);
	for (unsigned int i = 0; p->hwmon && i < p->nhwmon; i++)
		p->hwmon[i].temps = DUP(c, p->hwmon[i].temps, p->hwmon[i].ntemps);
	p->zones = DUP(c, p->zones, p->nzones);
}

/* Kernel functions and stacks tasks wait in (shared by index). */
static void kernel_stacks(struct cl *c, struct mach_machine *d)
{
	d->ksyms = DUP(c, d->ksyms, d->nksyms);
	for (size_t i = 0; d->ksyms && i < d->nksyms; i++) {
		d->ksyms[i].name = dup_str(c, d->ksyms[i].name);
		d->ksyms[i].module = dup_str(c, d->ksyms[i].module);
	}
	d->kstacks = DUP(c, d->kstacks, d->nkstacks);
	for (size_t i = 0; d->kstacks && i < d->nkstacks; i++)
		d->kstacks[i].frames = DUP(c, d->kstacks[i].frames, d->kstacks[i].nframes);
}

/* Network namespaces: flat tables, no pointers below them. */
static void nets(struct cl *c, struct mach_machine *d)
{
	d->nets = DUP(c, d->nets, d->nnets);
	for (unsigned int i = 0; d->nets && i < d->nnets; i++) {
		struct mach_net *n = &d->nets[i];

		n->devs = DUP(c, n->devs, n->ndevs);
		n->inet = DUP(c, n->inet, n->ninet);
		n->inet6 = DUP(c, n->inet6, n->ninet6);
		n->routes = DUP(c, n->routes, n->nroutes);
		n->neigh = DUP(c, n->neigh, n->nneigh);
		n->socks = DUP(c, n->socks, n->nsocks);
		n->sock_paths = DUP(c, n->sock_paths, n->sock_paths_len);
		n->sock_paths_cap = n->sock_paths_len;
		n->softnet = DUP(c, n->softnet, n->nsoftnet);
	}
}

int mach_clone_shared_new(struct mach_clone_shared **out, struct ua_arena *a)
{
	struct mach_clone_shared *sh = calloc(1, sizeof(*sh));

	if (!sh)
		return -ENOMEM;
	sh->c.a = a;
	*out = sh;
	return 0;
}

void mach_clone_shared_free(struct mach_clone_shared *sh)
{
	if (!sh)
		return;
	free(sh->tab);
	free(sh);
}

void mach_clone_shared_counts(const struct mach_clone_shared *sh, size_t *mms, size_t *hits)
{
	*mms = sh->copies;
	*hits = sh->hits;
}

struct mach_machine *mach_clone_into_sharing(struct ua_arena *a, const struct mach_machine *m,
					     struct mach_clone_shared *shared)
{
	struct cl c = { .a = a, .shared = shared };
	struct mach_machine *d = DUP1(&c, struct mach_machine, m);

	if (!d)
		return NULL;
	d->maker = NULL;
	d->interned = NULL; /* the copy's strings lie in the arena, interned ones too */
	if (m->maker && mach_maker_ops(m->maker)) {
		/* a few bytes a process: the copy's mms make their VMAs as the original's do */
		d->maker = mach_maker_ops(m->maker)->copy(m->maker, take_cb, &c);
		if (!d->maker)
			return NULL;
	}
	c.maker = d->maker;
	if (shared)
		shared->c.maker = d->maker; /* the mms it meets first get this clone's */
	cpus(&c, d);
	d->sysctl = d->sysctl ? sysctl(&c, d->sysctl) : NULL;
	d->procs = DUP(&c, d->procs, d->nprocs);
	for (size_t i = 0; d->procs && i < d->nprocs; i++)
		process(&c, &d->procs[i]);
	ns_tables(&c, d);
	sys(&c, &d->sys);
	kernel_stacks(&c, d);
	nets(&c, d);
	platform(&c, &d->platform);
	d->accounts.users = DUP(&c, d->accounts.users, d->accounts.nusers);
	d->accounts.groups = DUP(&c, d->accounts.groups, d->accounts.ngroups);
	return c.full ? NULL : d;
}

struct mach_machine *mach_clone_into(struct ua_arena *a, const struct mach_machine *m)
{
	return mach_clone_into_sharing(a, m, NULL);
}
