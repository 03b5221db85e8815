// SPDX-License-Identifier: MIT
/*
 * cg_state.c - what cgroup v2 keeps for each group of a synthetic machine:
 * the memory its tasks charged (their resident pages, the page cache they
 * read, their stacks, page tables and slab), the I/O they submitted, the
 * time of tasks that have gone, limits systemd and the kubelet set, and
 * dying groups left by closed sessions.
 *
 * A group's own charges come from its own processes and its own stream
 * (the group's index), then add up the tree as the kernel's rstat and
 * page counters do, so a parent holds at least what its children hold.
 * The page cache and the I/O are scaled to fit what meminfo and the disks
 * say of the whole machine, the time of gone tasks to fit the CPUs' time
 * left over by the live ones.  Pressure starts at zero: the simulator's
 * PSI groups fill it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "synth_int.h"

#define KEY_CGSTATE 0x600000060ull   /* + group index */

/*
 * The memory.stat items the generator sets, 24 of 68: the build's scratch
 * rows hold only these (a million tasks have 695,000 groups: 133 MB of
 * scratch, not 378), and an item not listed here does not compile.
 */
#define SYNTH_MEMCG_ITEMS(X)                                                                       \
	X(ANON) X(FILE) X(KERNEL) X(KERNEL_STACK) X(PAGETABLES) X(PERCPU) X(SOCK) X(SHMEM)         \
	X(FILE_MAPPED) X(FILE_DIRTY) X(ANON_THP) X(INACTIVE_ANON) X(ACTIVE_ANON) X(INACTIVE_FILE)   \
	X(ACTIVE_FILE) X(SLAB_RECLAIMABLE) X(SLAB_UNRECLAIMABLE) X(WORKINGSET_REFAULT_FILE)        \
	X(WORKINGSET_ACTIVATE_FILE) X(PGFAULT) X(PGMAJFAULT) X(PGREFILL) X(PGACTIVATE)             \
	X(THP_FAULT_ALLOC)

enum row_slot {
#define ROW_SLOT(name) R_##name,
	SYNTH_MEMCG_ITEMS(ROW_SLOT)
#undef ROW_SLOT
	NR_ROW
};

static const enum mach_memcg_item row_item[NR_ROW] = {
#define ROW_ITEM(name) MACH_MEMCG_##name,
	SYNTH_MEMCG_ITEMS(ROW_ITEM)
#undef ROW_ITEM
};

/*
 * A group's memory.stat items while the build adds the tree up (by enum
 * row_slot): one array for all groups, freed once each group's are packed
 * into its state (a group keeps only its nonzero items).
 */
typedef uint64_t memstat_row[NR_ROW];

/* What a group's processes charge it (@s its items), before the tree adds up. */
static void charge_process(struct mach_cg_state *st, uint64_t *s, const struct mach_process *p)
{
	const struct mach_mm *mm = p->mm;

	for (unsigned int t = 0; t < p->nthreads; t++) {
		s[R_PGFAULT] += p->threads[t].minflt;
		s[R_PGMAJFAULT] += p->threads[t].majflt;
		s[R_KERNEL_STACK] += mm ? 16 : 0; /* THREAD_SIZE, KiB */
	}
	s[R_PGFAULT] += p->dead_minflt;
	s[R_PGMAJFAULT] += p->dead_majflt;
	if (!mm)
		return;
	s[R_ANON] += mm->rss_anon / PAGE_KB;
	s[R_FILE_MAPPED] += mm->rss_file / PAGE_KB;
	s[R_SHMEM] += mm->rss_shmem / PAGE_KB;
	s[R_PAGETABLES] += mm->vm_pte / PAGE_KB;
	st->swap_usage += mm->vm_swap / PAGE_KB;
	/* slab objects of its files, sockets and inodes */
	s[R_SLAB_RECLAIMABLE] += (64 + (p->files ? p->files->nfds : 0) * 3ull) * 1024;
	s[R_SLAB_UNRECLAIMABLE] += (24 + (p->files ? p->files->nfds : 0) * 1ull) * 1024;
}

/* The page cache a group's files keep, in pages: some multiple of what it maps (@s its items). */
static uint64_t cache_of(const uint64_t *s, struct rng *r)
{
	return (uint64_t)((double)s[R_FILE_MAPPED] * rng_uniform(r, 0.5, 6.0)) + rng_below(r, 2048);
}

/* The states that follow from the others once the cache is known: LRUs, kernel, file, usage. */
static void derive_memory(struct mach_cg_state *st, uint64_t *s, uint64_t cache, unsigned int ncpus,
			  struct rng *r)
{
	uint64_t anon_lru, file_lru;

	s[R_PERCPU] = 1984ull * ncpus;
	s[R_SOCK] = rng_below(r, 16);
	s[R_FILE] = cache + s[R_FILE_MAPPED] + s[R_SHMEM];
	s[R_FILE_DIRTY] = rng_below(r, 8);
	s[R_ANON_THP] = s[R_ANON] / 512 / 4 * 512;
	anon_lru = s[R_ANON] + s[R_SHMEM];
	file_lru = s[R_FILE] - s[R_SHMEM];
	s[R_ACTIVE_ANON] = anon_lru * 3 / 10;
	s[R_INACTIVE_ANON] = anon_lru - s[R_ACTIVE_ANON];
	s[R_ACTIVE_FILE] = file_lru / 2;
	s[R_INACTIVE_FILE] = file_lru - s[R_ACTIVE_FILE];
	s[R_KERNEL] = s[R_KERNEL_STACK] / PAGE_KB + s[R_PAGETABLES] +
			       (s[R_SLAB_RECLAIMABLE] + s[R_SLAB_UNRECLAIMABLE] +
				s[R_PERCPU]) / MACH_PAGE_SIZE;
	s[R_WORKINGSET_REFAULT_FILE] = rng_below(r, cache / 8 + 1);
	s[R_WORKINGSET_ACTIVATE_FILE] = s[R_WORKINGSET_REFAULT_FILE] / 3;
	s[R_PGACTIVATE] = file_lru / 2 + rng_below(r, 1024);
	s[R_PGREFILL] = rng_below(r, 256);
	s[R_THP_FAULT_ALLOC] = s[R_ANON_THP] / 512;
	st->mem_usage = s[R_ANON] + s[R_FILE] + s[R_KERNEL] + s[R_SOCK];
}

/* What systemd and the kubelet write into a group of this name. */
static void limits(struct mach_cg_state *st, const struct mach_cgroup *g, uint64_t threads_max, struct rng *r)
{
	size_t len = strlen(g->name);

	if (len > 8 && !strcmp(g->name + len - 8, ".service"))
		st->pids_max = (int64_t)(threads_max * 15 / 100); /* DefaultTasksMax=15% */
	if (!strncmp(g->name, "user-", 5) && len > 6 && !strcmp(g->name + len - 6, ".slice"))
		st->pids_max = (int64_t)(threads_max * 33 / 100); /* logind's UserTasksMax */
	if (!strncmp(g->name, "kubepods-besteffort", 19))
		st->shares = 10; /* cpu.weight 1: DIV_ROUND_CLOSEST(1 * 1024, 100) */
	if (strstr(g->name, "-pod") && strncmp(g->name, "kubepods-besteffort", 19)) {
		uint64_t w = rng_range(r, 4, 100);

		st->shares = (unsigned long)((w * 1024 + 50) / 100);
		st->quota_us = (int64_t)rng_range(r, 1, 8) * 50000;
		st->mem_max = rng_range(r, 64, 1024) * 1024; /* 256 MiB .. 4 GiB, pages */
	}
	if (!strcmp(g->name, "docker.service") || !strcmp(g->name, "containerd.service"))
		st->pids_max = MACH_CG_PIDS_MAX;
}

/* The group's own share of the disks: what its processes read and wrote, on the root device. */
static void own_io(struct mach_cg_state *st, const struct mach_taskio *io, uint32_t dev, uint32_t under,
		   const struct mach_sys *sys, struct rng *r)
{
	uint32_t devs[2] = { dev, under };
	unsigned int n = under != MACH_NONE ? 2 : 1;
	uint64_t rsize = rng_range(r, 16, 128) * 1024, wsize = rng_range(r, 8, 64) * 1024;

	if (!io->read_bytes && !io->write_bytes)
		return;
	st->io = calloc(n, sizeof(*st->io));
	if (!st->io)
		return;
	for (unsigned int i = 0; i < n; i++) {
		const struct mach_blkdev *b = &sys->blk[devs[i]];

		st->io[i] = (struct mach_cg_io){ .major = b->major, .minor = b->minor, .rbytes = io->read_bytes,
						 .wbytes = io->write_bytes, .rios = io->read_bytes / rsize + !!io->read_bytes,
						 .wios = io->write_bytes / wsize + !!io->write_bytes };
	}
	st->nio = n;
}

/* The disk the root filesystem is on, and the disk under it (a device-mapper device's), or MACH_NONE. */
static void root_disks(const struct mach_sys *sys, uint32_t *top, uint32_t *under)
{
	int r = sys->root_blk;

	*top = *under = MACH_NONE;
	if (r < 0)
		return;
	*top = sys->blk[r].disk;
	if (sys->blk[r].kind == MACH_BLK_DM && sys->blk[r].slave >= 0)
		*under = sys->blk[sys->blk[r].slave].disk;
}

/* Each group's own state from its processes and its stream; @ms its memory.stat items. */
static int own_states(struct synth *s, memstat_row *ms, uint64_t *cache_total)
{
	struct mach_machine *m = s->m;
	uint64_t threads_max = m->meminfo[MACH_MEMINFO_MEMTOTAL] / 128;
	struct mach_taskio *io = calloc(m->ncgroups, sizeof(*io));
	uint32_t top, under;

	if (!io)
		return -ENOMEM;
	for (size_t g = 0; g < m->ncgroups; g++)
		if (!m->cgroups[g].dead && !(m->cgroups[g].st = mach_cg_state_new())) {
			free(io);
			return -ENOMEM;
		}
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct mach_process *p = &m->procs[i];
		uint32_t g = p->nthreads ? mach_thread_cg2(m, &p->threads[0]) : MACH_NONE;
		struct mach_taskio pio;

		if (g == MACH_NONE || !m->cgroups[g].st)
			continue;
		charge_process(m->cgroups[g].st, ms[g], p);
		mach_process_io(p, &pio);
		io[g].read_bytes += pio.read_bytes;
		io[g].write_bytes += pio.write_bytes;
	}
	root_disks(&m->sys, &top, &under);
	*cache_total = 0;
	for (size_t g = 0; g < m->ncgroups; g++) {
		struct mach_cg_state *st = m->cgroups[g].st;
		struct rng r;

		if (!st)
			continue;
		rng_init(&r, s->o->seed, KEY_CGSTATE + g);
		limits(st, &m->cgroups[g], threads_max, &r);
		ms[g][R_FILE] = cache_of(ms[g], &r); /* held here until scaled */
		*cache_total += ms[g][R_FILE];
		if (top != MACH_NONE)
			own_io(st, &io[g], top, under, &m->sys, &r);
		/* a user slice keeps the groups of closed sessions until their pages go */
		if (!strncmp(m->cgroups[g].name, "user-", 5))
			st->nr_dying_descendants = (uint32_t)rng_below(&r, 4);
	}
	free(io);
	return 0;
}

/* Scale every group's own I/O so that together they stay within what the disks counted. */
static void fit_io(struct mach_machine *m)
{
	for (size_t d = 0; d < m->sys.nblk; d++) {
		const struct mach_blkdev *b = &m->sys.blk[d];
		uint64_t rb = 0, wb = 0, disk_rb = b->st.sectors[MACH_BLK_READ] << 9;
		uint64_t disk_wb = b->st.sectors[MACH_BLK_WRITE] << 9;
		double fr, fw;

		for (size_t g = 1; g < m->ncgroups; g++)
			for (size_t i = 0; m->cgroups[g].st && i < m->cgroups[g].st->nio; i++)
				if (m->cgroups[g].st->io[i].major == b->major && m->cgroups[g].st->io[i].minor == b->minor) {
					rb += m->cgroups[g].st->io[i].rbytes;
					wb += m->cgroups[g].st->io[i].wbytes;
				}
		fr = rb > disk_rb ? (double)disk_rb / (double)rb * 0.9 : 1;
		fw = wb > disk_wb ? (double)disk_wb / (double)wb * 0.9 : 1;
		for (size_t g = 1; g < m->ncgroups; g++)
			for (size_t i = 0; m->cgroups[g].st && i < m->cgroups[g].st->nio; i++) {
				struct mach_cg_io *io = &m->cgroups[g].st->io[i];

				if (io->major != b->major || io->minor != b->minor)
					continue;
				io->rbytes = (uint64_t)((double)io->rbytes * fr) / 512 * 512;
				io->rios = (uint64_t)((double)io->rios * fr);
				io->wbytes = (uint64_t)((double)io->wbytes * fw) / 512 * 512;
				io->wios = (uint64_t)((double)io->wios * fw);
			}
	}
}

/* The CPU time gone tasks left in each service: restarts, short-lived jobs; within what the CPUs spent. */
static void gone_time(struct synth *s)
{
	struct mach_machine *m = s->m;
	uint64_t cpu_user = 0, cpu_sys = 0, live_user = 0, live_sys = 0, want_user = 0, want_sys = 0;
	double fu, fs;

	for (unsigned int c = 0; c < m->ncpus; c++) {
		cpu_user += m->cpus[c].time_ns[MACH_CPU_USER] + m->cpus[c].time_ns[MACH_CPU_NICE];
		cpu_sys += m->cpus[c].time_ns[MACH_CPU_SYSTEM] + m->cpus[c].time_ns[MACH_CPU_IRQ] +
			   m->cpus[c].time_ns[MACH_CPU_SOFTIRQ];
	}
	for (size_t i = 0; i < m->nprocs; i++) {
		live_user += m->procs[i].group_utime_ns;
		live_sys += m->procs[i].group_stime_ns;
	}
	for (size_t g = 1; g < m->ncgroups; g++) {
		struct mach_cg_state *st = m->cgroups[g].st;
		struct rng r;

		if (!st)
			continue;
		rng_init(&r, s->o->seed, KEY_CGSTATE + g + (1ull << 31));
		st->gone_user_ns = rng_below(&r, 4000000000ull);
		st->gone_system_ns = st->gone_user_ns / 3;
		want_user += st->gone_user_ns;
		want_sys += st->gone_system_ns;
	}
	/* half of what the live tasks left of the CPUs' time at most */
	fu = want_user && cpu_user > live_user ? (double)(cpu_user - live_user) / 2 / (double)want_user : 0;
	fs = want_sys && cpu_sys > live_sys ? (double)(cpu_sys - live_sys) / 2 / (double)want_sys : 0;
	for (size_t g = 1; g < m->ncgroups; g++) {
		struct mach_cg_state *st = m->cgroups[g].st;

		if (st && fu < 1)
			st->gone_user_ns = (uint64_t)((double)st->gone_user_ns * fu);
		if (st && fs < 1)
			st->gone_system_ns = (uint64_t)((double)st->gone_system_ns * fs);
	}
}

/* Add @from's io lines into @to's (by device): the parent's blkg counts its children's. */
static int add_io(struct mach_cg_state *to, const struct mach_cg_state *from)
{
	for (size_t i = 0; i < from->nio; i++) {
		const struct mach_cg_io *f = &from->io[i];
		size_t k = 0;

		while (k < to->nio && (to->io[k].major != f->major || to->io[k].minor != f->minor))
			k++;
		if (k == to->nio) {
			struct mach_cg_io *n = realloc(to->io, (to->nio + 1) * sizeof(*n));

			if (!n)
				return -ENOMEM;
			to->io = n;
			n[to->nio++] = (struct mach_cg_io){ .major = f->major, .minor = f->minor };
		}
		to->io[k].rbytes += f->rbytes;
		to->io[k].wbytes += f->wbytes;
		to->io[k].rios += f->rios;
		to->io[k].wios += f->wios;
		to->io[k].dbytes += f->dbytes;
		to->io[k].dios += f->dios;
	}
	return 0;
}

/*
 * A child's hierarchical counters into its parent's (@s_to, @s_from their
 * memory.stat items), as rstat and the page counters propagate them.
 */
static int add_up(struct mach_cg_state *to, uint64_t *s_to, const struct mach_cg_state *from,
		  const uint64_t *s_from)
{
	to->mem_usage += from->mem_usage;
	to->swap_usage += from->swap_usage;
	for (int i = 0; i < NR_ROW; i++)
		s_to[i] += s_from[i];
	for (int e = 0; from->mem_events && e < MACH_NR_MEMCG_EVENTS; e++) {
		int rc = mach_cg_set_mem_event(to, (enum mach_memcg_event)e,
						mach_cg_mem_event(to, (enum mach_memcg_event)e) + from->mem_events[e]);

		if (rc)
			return rc;
	}
	to->gone_user_ns += from->gone_user_ns;
	to->gone_system_ns += from->gone_system_ns;
	to->gone_nice_ns += from->gone_nice_ns;
	to->nr_dying_descendants += from->nr_dying_descendants;
	for (int ss = 0; from->nr_dying_subsys && ss < MACH_NR_SS; ss++) {
		int rc = mach_cg_set_dying_subsys(to, (enum mach_cg_ss)ss,
						  mach_cg_dying_subsys(to, (enum mach_cg_ss)ss) + from->nr_dying_subsys[ss]);

		if (rc)
			return rc;
	}
	return add_io(to, from);
}

/* Group @st's memory.stat from its scratch row @row: 0 or -ENOMEM. */
static int pack_memstat(struct mach_cg_state *st, const uint64_t *row)
{
	uint64_t all[MACH_NR_MEMCG_ITEMS] = { 0 };

	for (int i = 0; i < NR_ROW; i++)
		all[row_item[i]] = row[i];
	return mach_cg_memstat_set(st, all);
}

int sy_build_cgroup_state(struct synth *s)
{
	struct mach_machine *m = s->m;
	uint64_t cache_total, cached = m->meminfo[MACH_MEMINFO_CACHED] / PAGE_KB;
	uint32_t bound = mach_cg_v2_ss(m);
	memstat_row *ms = calloc(m->ncgroups ? m->ncgroups : 1, sizeof(*ms));
	double scale;
	int rc = ms ? own_states(s, ms, &cache_total) : -ENOMEM;

	if (rc)
		goto out;
	fit_io(m);
	gone_time(s);
	/* the page cache of all groups is at most meminfo's, what the mapped pages leave of it */
	scale = cache_total > cached / 2 ? (double)cached / 2 / (double)cache_total : 1;
	for (size_t g = 0; g < m->ncgroups; g++) {
		struct mach_cg_state *st = m->cgroups[g].st;
		struct rng r;

		if (!st)
			continue;
		rng_init(&r, s->o->seed, KEY_CGSTATE + g + (2ull << 31));
		derive_memory(st, ms[g], (uint64_t)((double)ms[g][R_FILE] * scale), m->ncpus, &r);
		/* each dying child still holds the css of every controller its parent gave it */
		for (int ss = 0; ss < MACH_NR_SS; ss++)
			if ((bound & (1u << ss)) && ((m->cgroups[g].subtree_control & (1u << ss)) || ss == MACH_SS_PERF_EVENT))
				rc = rc ?: mach_cg_set_dying_subsys(st, (enum mach_cg_ss)ss, st->nr_dying_descendants);
	}
	/* parents come before children: from the last group back, each adds into its parent, then is final */
	for (size_t g = m->ncgroups; !rc && g-- > 0;) {
		const struct mach_cgroup *cg = &m->cgroups[g];

		if (!cg->st)
			continue;
		if (g && cg->parent != MACH_NONE && m->cgroups[cg->parent].st)
			rc = add_up(m->cgroups[cg->parent].st, ms[cg->parent], cg->st, ms[g]);
		if (!rc)
			rc = pack_memstat(cg->st, ms[g]);
	}
out:
	free(ms);
	return rc;
}
