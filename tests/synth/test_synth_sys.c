// SPDX-License-Identifier: MIT
/*
 * test_synth_sys.c - the rest of a synthetic machine agrees with itself and
 * with meminfo and vmstat, as the kernel's accounting makes them agree.
 *
 * For seeds 1..50 and a few shapes: the swap areas make SwapTotal and
 * SwapFree; block devices are ordered and named as genhd lists them, the
 * root is 254:0 and the command line and the journal thread name it; the top
 * devices' sectors are twice pgpgin/pgpgout, a disk counts its partitions, a
 * PV what its LVs move; zones' managed pages make MemTotal, their free pages
 * MemFree, their buddy lists their free pages, their counters vmstat's;
 * slab caches come to just under meminfo's Slab lines; locks name live
 * processes.  Property checks count violations and report one ok() each,
 * with the first few violations as diagnostics.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"
#include "tap.h"
#include "test_fds.h"
#include "uprocfs/machine.h"

enum prop { P_SWAP, P_BLK, P_ROOT, P_DISKIO, P_ZONES, P_BUDDY, P_ZONESTAT, P_WMARK, P_SLAB, P_KERNEL, P_LOCKFD, NR_PROPS };

static const char *const prop_names[NR_PROPS] = {
	[P_SWAP] = "swaps: SwapTotal and SwapFree are the areas' pages; a partition's device exists",
	[P_BLK] = "block devices: disks then their partitions, genhd names, unique numbers, within the disk",
	[P_ROOT] = "the root is 254:0; cmdline's root= and the journal thread name it",
	[P_DISKIO] = "top devices' sectors = 2 x pgpgin/pgpgout; disk = sum of partitions; PV = its LVs",
	[P_ZONES] = "zones: managed pages make MemTotal, free pages MemFree and vmstat's nr_free_pages",
	[P_BUDDY] = "buddy lists: free blocks make each zone's free pages, orders 9-10 its free_pages_blocks",
	[P_ZONESTAT] = "zone and node counters add up to vmstat's",
	[P_WMARK] = "watermarks ordered, protection from the reserve ratios, a pageset per online CPU",
	[P_SLAB] = "slab caches: whole slabs, and 95-100% of SReclaimable and SUnreclaim",
	[P_KERNEL] = "version names the release; locks: ids ascending, live owners; cgroups counted",
	[P_LOCKFD] = "every lock held is an fd's lock: /proc/locks and the owners' fdinfo lock: lines agree",
};

static unsigned long fails[NR_PROPS], checks[NR_PROPS];
static const char *cur = "";

static void __attribute__((format(printf, 3, 4))) check(enum prop p, int cond, const char *fmt, ...)
{
	va_list ap;
	char msg[256];

	checks[p]++;
	if (cond)
		return;
	if (fails[p]++ < 4) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		diag("%s: %s: %s", cur, prop_names[p], msg);
	}
}

#define MI(id) m->meminfo[MACH_MEMINFO_##id]
#define VM(id) m->vmstat[MACH_VMSTAT_##id]

static void check_swaps(const struct mach_machine *m)
{
	uint64_t pages = 0, used = 0;

	for (size_t i = 0; i < m->sys.nswaps; i++) {
		const struct mach_swap *si = &m->sys.swaps[i];

		pages += si->pages;
		used += si->inuse_pages;
		check(P_SWAP, si->is_file || (si->blkdev >= 0 && !strcmp(si->path + 5, m->sys.blk[si->blkdev].name)),
		      "%s", si->path);
	}
	check(P_SWAP, MI(SWAPTOTAL) == pages * 4 && MI(SWAPTOTAL) - MI(SWAPFREE) == used * 4,
	      "SwapTotal %llu, SwapFree %llu", (unsigned long long)MI(SWAPTOTAL), (unsigned long long)MI(SWAPFREE));
}

static void check_blk(const struct mach_machine *m)
{
	const struct mach_sys *sys = &m->sys;

	for (size_t i = 0; i < sys->nblk; i++) {
		const struct mach_blkdev *b = &sys->blk[i], *d = &sys->blk[b->disk];
		char want[48];

		for (size_t k = 0; k < i; k++)
			check(P_BLK, strcmp(sys->blk[k].name, b->name) &&
					     (sys->blk[k].major != b->major || sys->blk[k].minor != b->minor),
			      "%s twice", b->name);
		if (!b->partno) {
			check(P_BLK, b->disk == i, "%s is its own disk", b->name);
			continue;
		}
		snprintf(want, sizeof(want), "%s%s%u", d->name, d->name[strlen(d->name) - 1] <= '9' ? "p" : "",
			 b->partno);
		check(P_BLK, b->disk < i && !strcmp(want, b->name) && b->start_sect + b->nr_sects <= d->nr_sects &&
				     (i == b->disk + 1 || sys->blk[i - 1].partno < b->partno),
		      "%s of %s", b->name, d->name);
	}
}

static void check_root(const struct mach_machine *m)
{
	const struct mach_sys *sys = &m->sys;
	const struct mach_blkdev *root = sys->root_blk >= 0 ? &sys->blk[sys->root_blk] : NULL;
	const char *arg = sys->kid.cmdline ? strstr(sys->kid.cmdline, "root=/dev/") : NULL;
	char want[96], jbd2[80];
	bool other = false;

	check(P_ROOT, root && root->major == 254 && root->minor == 0, "root is not 254:0");
	if (!root)
		return;
	if (root->kind == MACH_BLK_DM)
		snprintf(want, sizeof(want), "root=/dev/mapper/%s ", root->dm_name);
	else
		snprintf(want, sizeof(want), "root=/dev/%s ", root->name);
	check(P_ROOT, arg && !strncmp(arg, want, strlen(want)), "cmdline %s", sys->kid.cmdline);
	snprintf(jbd2, sizeof(jbd2), "jbd2/%s-8", root->name);
	/* a machine too small for all of boot's kernel threads may have none */
	for (size_t i = 0; i < m->nprocs; i++)
		other |= !strncmp(m->procs[i].threads[0].comm, "jbd2/", 5) && strcmp(m->procs[i].threads[0].comm, jbd2);
	check(P_ROOT, !other, "a jbd2 thread not named %s", jbd2);
}

static void check_diskio(const struct mach_machine *m)
{
	const struct mach_sys *sys = &m->sys;
	uint64_t rd = 0, wr = 0, hz_up = m->uptime_ns / (1000000000ull / m->profile.sys.hz);

	for (size_t i = 0; i < sys->nblk; i++) {
		const struct mach_blkdev *b = &sys->blk[i];
		struct mach_blk_stats sum = { 0 }, lv = { 0 };
		bool parts = false, lvs = false;

		if (mach_blk_is_top(sys, i)) {
			rd += b->st.sectors[MACH_BLK_READ];
			wr += b->st.sectors[MACH_BLK_WRITE];
		}
		for (size_t k = 0; k < sys->nblk; k++) {
			const struct mach_blkdev *c = &sys->blk[k];

			for (int g = 0; g < MACH_NR_BLK_GROUPS; g++) {
				if (c->partno && c->disk == i) {
					parts = true;
					sum.ios[g] += c->st.ios[g];
					sum.sectors[g] += c->st.sectors[g];
					sum.merges[g] += c->st.merges[g];
				}
				if (c->kind == MACH_BLK_DM && c->slave == (int)i) {
					lvs = true;
					lv.sectors[g] += c->st.sectors[g];
				}
			}
		}
		for (int g = 0; g < MACH_NR_BLK_GROUPS; g++) {
			check(P_DISKIO, !parts || (sum.ios[g] == b->st.ios[g] && sum.sectors[g] == b->st.sectors[g] &&
						   sum.merges[g] == b->st.merges[g]),
			      "%s group %d is not its partitions' sum", b->name, g);
			check(P_DISKIO, !lvs || g == MACH_BLK_FLUSH || lv.sectors[g] == b->st.sectors[g],
			      "%s group %d is not its LVs' sum", b->name, g);
		}
		check(P_DISKIO, b->st.io_ticks <= hz_up && !b->st.in_flight[0] && !b->st.in_flight[1],
		      "%s io_ticks %llu", b->name, (unsigned long long)b->st.io_ticks);
	}
	check(P_DISKIO, rd == 2 * VM(PGPGIN) && wr == 2 * VM(PGPGOUT), "top sectors %llu/%llu, pgpgin %llu/%llu",
	      (unsigned long long)rd, (unsigned long long)wr, (unsigned long long)VM(PGPGIN),
	      (unsigned long long)VM(PGPGOUT));
}

static void check_zone(const struct mach_machine *m, const struct mach_mem_node *n, const struct mach_zone *z, int t)
{
	uint64_t pages = 0, blocks = 0, reserve = 0;
	static const unsigned int ratio[] = { 256, 256, 32, 0, 0 };

	for (int o = 0; o < MACH_NR_PAGE_ORDERS; o++) {
		pages += z->free_area[o] << o;
		blocks += o >= 9 ? z->free_area[o] << o : 0;
	}
	check(P_BUDDY, pages == z->pages_free && pages == z->stat[MACH_VMSTAT_NR_FREE_PAGES] &&
			       blocks == z->stat[MACH_VMSTAT_NR_FREE_PAGES_BLOCKS],
	      "node %u zone %d: buddy %llu, free %llu", n->id, t, (unsigned long long)pages,
	      (unsigned long long)z->pages_free);
	check(P_WMARK, z->wmark_min <= z->wmark_low && z->wmark_low <= z->wmark_high &&
			       z->wmark_high <= z->wmark_promo && z->managed <= z->present && z->present <= z->spanned,
	      "node %u zone %d", n->id, t);
	for (int j = t + 1; j < (int)m->profile.sys.nzone_types; j++) {
		reserve += n->zones[j].managed;
		check(P_WMARK, z->lowmem_reserve[j] == (long)(ratio[t] && z->managed ? reserve / ratio[t] : 0),
		      "node %u zone %d protection %d", n->id, t, j);
	}
	if (mach_zone_populated(z))
		check(P_WMARK, z->npagesets >= 1 && z->npagesets <= m->ncpus, "node %u zone %d pagesets", n->id, t);
}

static void check_zones(const struct mach_machine *m)
{
	const struct mach_sys *sys = &m->sys;
	const struct mach_sys_profile *prof = &m->profile.sys;
	uint64_t managed = 0, free = 0, zone_sum[MACH_NR_VMSTAT] = { 0 }, node_sum[MACH_NR_VMSTAT] = { 0 };

	check(P_ZONES, sys->nnodes >= 1, "no nodes");
	for (unsigned int i = 0; i < sys->nnodes; i++) {
		const struct mach_mem_node *n = &sys->nodes[i];

		for (int t = 0; t < (int)prof->nzone_types; t++) {
			managed += n->zones[t].managed;
			free += n->zones[t].pages_free;
			for (unsigned int k = 0; k < prof->nzone_items; k++)
				zone_sum[prof->zone_items[k]] += n->zones[t].stat[prof->zone_items[k]];
			check_zone(m, n, &n->zones[t], t);
		}
		for (unsigned int k = 0; k < prof->nnode_items; k++)
			node_sum[prof->node_items[k]] += n->stat[prof->node_items[k]];
	}
	check(P_ZONES, managed * 4 == MI(MEMTOTAL) && free * 4 == MI(MEMFREE) && free == VM(NR_FREE_PAGES),
	      "managed %llu free %llu", (unsigned long long)managed, (unsigned long long)free);
	for (unsigned int k = 0; k < prof->nzone_items; k++)
		check(P_ZONESTAT, zone_sum[prof->zone_items[k]] == m->vmstat[prof->zone_items[k]], "%s",
		      mach_vmstat_names[prof->zone_items[k]]);
	for (unsigned int k = 0; k < prof->nnode_items; k++)
		check(P_ZONESTAT, node_sum[prof->node_items[k]] == m->vmstat[prof->node_items[k]], "%s",
		      mach_vmstat_names[prof->node_items[k]]);
}

static void check_slabs(const struct mach_machine *m)
{
	uint64_t rec = 0, unrec = 0;

	for (size_t i = 0; i < m->sys.nslabs; i++) {
		const struct mach_slab_cache *c = &m->sys.slabs[i];
		uint64_t kb = (c->nr_slabs << c->order) * 4;

		*(c->reclaimable ? &rec : &unrec) += kb;
		check(P_SLAB, c->num_objs == c->nr_slabs * c->objs_per_slab && c->active_objs <= c->num_objs, "%s",
		      c->name);
	}
	check(P_SLAB, m->sys.nslabs && !strcmp(m->sys.slabs[m->sys.nslabs - 1].name, "kmem_cache"), "kmem_cache last");
	check(P_SLAB, rec <= MI(SRECLAIMABLE) && rec >= MI(SRECLAIMABLE) * 95 / 100, "reclaimable %llu of %llu kB",
	      (unsigned long long)rec, (unsigned long long)MI(SRECLAIMABLE));
	check(P_SLAB, unrec <= MI(SUNRECLAIM) && unrec >= MI(SUNRECLAIM) * 95 / 100, "unreclaimable %llu of %llu kB",
	      (unsigned long long)unrec, (unsigned long long)MI(SUNRECLAIM));
}

static void check_kernel(const struct mach_machine *m)
{
	const struct mach_sys *sys = &m->sys;

	check(P_KERNEL, !strcmp(sys->kid.sysname, "Linux") && sys->kid.uts_version[0] == '#' && sys->kid.cmdline,
	      "identity");
	check(P_KERNEL, sys->nfstypes && sys->nchrdevs && sys->nmisc && sys->nblkdevs, "registries");
	for (size_t i = 0; i < sys->nblk; i++) {
		bool reg = false;

		for (size_t k = 0; k < sys->nblkdevs; k++)
			reg |= sys->blkdevs[k].major == sys->blk[i].major;
		check(P_KERNEL, reg, "%s: major %u not in /proc/devices", sys->blk[i].name, sys->blk[i].major);
	}
	for (size_t i = 0; i < sys->ncgroup_subsys; i++)
		check(P_KERNEL, sys->cgroup_subsys[i].num_cgroups >= 4 && sys->cgroup_subsys[i].enabled, "cgroups");
	for (size_t i = 0; i < sys->nlocks; i++) {
		const struct mach_file_lock *l = &sys->locks[i];

		check(P_KERNEL, l->level ? i && l->id == l[-1].id : !i || l->id > l[-1].id, "lock %zu id", i);
		check(P_KERNEL, l->pid == -1 ? l->cls == MACH_LOCK_OFDLCK : mach_find_process(m, l->pid) != NULL,
		      "lock %zu owner %d", i, l->pid);
	}
}

/* The fd of @pid whose file @l locks, or NULL. */
static const struct mach_fd *lock_fd(const struct mach_machine *m, const struct mach_file_lock *l)
{
	const struct mach_process *p = l->pid > 0 ? mach_find_process(m, l->pid) : NULL;

	for (size_t i = 0; !p && l->fd >= 0 && i < m->nprocs; i++)
		for (unsigned int j = 0; m->procs[i].files && j < m->procs[i].files->nfds; j++)
			if (m->procs[i].files->fds[j].ino == l->ino && m->procs[i].files->fds[j].fd == l->fd)
				p = &m->procs[i];
	for (unsigned int j = 0; p && p->files && j < p->files->nfds; j++)
		if (p->files->fds[j].fd == l->fd)
			return &p->files->fds[j];
	return NULL;
}

/*
 * A lock is held through an open file: each /proc/locks line that is not a
 * waiter is one of its owner's fd's locks (same inode, class and range),
 * a waiter's process has the file open, and each fd's lock is listed.
 */
static void check_lock_fds(const struct mach_machine *m)
{
	size_t held = 0, listed = 0;

	for (size_t i = 0; i < m->sys.nlocks; i++) {
		const struct mach_file_lock *l = &m->sys.locks[i];
		const struct mach_fd *f = lock_fd(m, l);
		const struct mach_fd_info *in = f ? mach_fd_info(f) : NULL;
		bool found = false;

		check(P_LOCKFD, f && f->ino == l->ino, "lock %zu (pid %d, fd %d): no open file", i, l->pid, l->fd);
		for (unsigned int k = 0; in && !l->level && k < in->nlocks; k++)
			found |= in->locks[k].cls == l->cls && in->locks[k].start == l->start && in->locks[k].end == l->end &&
				 in->locks[k].ino == l->ino && in->locks[k].dev_minor == l->dev_minor;
		check(P_LOCKFD, l->level || found, "lock %zu not among fd %d's locks", i, l->fd);
		listed += !l->level;
	}
	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int j = 0; m->procs[i].files && j < m->procs[i].files->nfds; j++)
			held += mach_fd_info(&m->procs[i].files->fds[j])->nlocks;
	check(P_LOCKFD, held == listed, "fds hold %zu locks, /proc/locks lists %zu", held, listed);
}

static void run(const char *spec)
{
	struct mach_machine *m = NULL;
	char err[256];

	cur = spec;
	if (mach_from_spec(spec, &m, err, sizeof(err)) || test_store_fds(m)) {
		ok(0, "%s builds and makes its fd tables: %s", spec, err);
		mach_free(m);
		return;
	}
	check_swaps(m);
	check_blk(m);
	check_root(m);
	check_diskio(m);
	check_zones(m);
	check_slabs(m);
	check_kernel(m);
	check_lock_fds(m);
	mach_free(m);
}

int main(void)
{
	static const char *const shapes[] = {
		"synth:cpus=1,tasks=40", "synth:cpus=64,tasks=2000,seed=4", "synth:cpus=256,tasks=3000,seed=8",
		"synth:cpus=2,tasks=5,mem=1,seed=13", "synth:cpus=96,tasks=5000,threads=20000,seed=99",
	};
	char spec[64];

	plan(0);
	for (int seed = 1; seed <= 50; seed++) {
		snprintf(spec, sizeof(spec), "synth:seed=%d", seed);
		run(spec);
	}
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		run(shapes[i]);
	for (int p = 0; p < NR_PROPS; p++)
		ok(fails[p] == 0 && checks[p] > 0, "%s (%lu checks, %lu failed)", prop_names[p], checks[p], fails[p]);
	return tap_done();
}
