// SPDX-License-Identifier: MIT
/*
 * sys_slabs.c - a synthetic machine's slab caches, adding up to meminfo's
 * SReclaimable and SUnreclaim the way SLUB's accounting makes them.
 *
 * meminfo counts the pages of every slab, by whether its cache is
 * reclaimable (SLAB_RECLAIM_ACCOUNT: dentries, inodes, buffer heads, radix
 * tree nodes); slabinfo shows each cache's slabs of 1 << order pages.  So
 * the caches' pages come to the meminfo lines less what slabinfo cannot
 * show (per-CPU partial slabs in flight, caches merged under another name):
 * a percent or two.  The caches of tasks hold what the tasks need (one
 * task_struct per thread, an mm_struct per address space, a vm_area_struct
 * per mapping); the rest goes to the filesystem and kmalloc caches by
 * weight.  Caches print newest first, as slab_caches lists them; their
 * geometry (object size, objects per slab, order) is the reference VM's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "synth_int.h"

enum slab_src { SRC_WEIGHT, SRC_THREADS, SRC_PROCS, SRC_MMS, SRC_VMAS, SRC_NONE };

#define REC 1u

static const struct slab_def {
	const char *name;
	unsigned short size, per_slab;
	unsigned char order, flags, src;
	float weight;     /* SRC_WEIGHT: share of its class; else objects per source item */
} defs[] = {
	{ "ovl_inode", 704, 23, 2, REC, SRC_WEIGHT, 0.004f },
	{ "squashfs_inode_cache", 704, 23, 2, REC, SRC_WEIGHT, 0.002f },
	{ "fuse_inode", 896, 18, 2, REC, SRC_WEIGHT, 0.0005f },
	{ "xfs_inode", 1024, 16, 2, REC, SRC_NONE, 0 },
	{ "jbd2_journal_head", 120, 34, 0, 0, SRC_WEIGHT, 0.002f },
	{ "ext4_inode_cache", 1128, 14, 2, REC, SRC_WEIGHT, 0.27f },
	{ "ext4_allocation_context", 168, 24, 0, 0, SRC_WEIGHT, 0.001f },
	{ "ext4_io_end", 64, 64, 0, 0, SRC_WEIGHT, 0.0005f },
	{ "extent_status", 40, 102, 0, REC, SRC_WEIGHT, 0.05f },
	{ "mb_cache_entry", 56, 73, 0, REC, SRC_WEIGHT, 0.0005f },
	{ "pid_namespace", 344, 23, 1, 0, SRC_WEIGHT, 0.0005f },
	{ "UDPv6", 1472, 22, 3, 0, SRC_WEIGHT, 0.002f },
	{ "TCPv6", 2496, 13, 3, 0, SRC_WEIGHT, 0.004f },
	{ "TCP", 2368, 13, 3, 0, SRC_WEIGHT, 0.006f },
	{ "UDP", 1344, 12, 2, 0, SRC_WEIGHT, 0.002f },
	{ "eventpoll_epi", 128, 32, 0, 0, SRC_THREADS, 0.5f },
	{ "request_queue", 984, 16, 2, 0, SRC_WEIGHT, 0.0005f },
	{ "biovec-max", 4096, 8, 3, 0, SRC_WEIGHT, 0.004f },
	{ "uid_cache", 128, 32, 0, 0, SRC_WEIGHT, 0.0002f },
	{ "sock_inode_cache", 832, 19, 2, REC, SRC_WEIGHT, 0.01f },
	{ "skbuff_head_cache", 256, 16, 0, 0, SRC_WEIGHT, 0.008f },
	{ "file_lock_cache", 192, 21, 0, 0, SRC_WEIGHT, 0.0002f },
	{ "buffer_head", 104, 39, 0, REC, SRC_WEIGHT, 0.10f },
	{ "task_delay_info", 256, 16, 0, 0, SRC_THREADS, 1.0f },
	{ "mem_cgroup", 2240, 14, 3, 0, SRC_WEIGHT, 0.002f },
	{ "proc_dir_entry", 192, 21, 0, 0, SRC_WEIGHT, 0.002f },
	{ "proc_inode_cache", 696, 23, 2, REC, SRC_WEIGHT, 0.02f },
	{ "seq_file", 120, 34, 0, 0, SRC_WEIGHT, 0.0002f },
	{ "sigqueue", 80, 51, 0, 0, SRC_WEIGHT, 0.0002f },
	{ "bdev_cache", 1536, 21, 3, 0, SRC_WEIGHT, 0.0008f },
	{ "shmem_inode_cache", 752, 21, 2, REC, SRC_WEIGHT, 0.012f },
	{ "kernfs_node_cache", 136, 30, 0, 0, SRC_WEIGHT, 0.05f },
	{ "mnt_cache", 384, 21, 1, 0, SRC_WEIGHT, 0.002f },
	{ "filp", 192, 21, 0, 0, SRC_THREADS, 6.0f },
	{ "inode_cache", 624, 13, 1, REC, SRC_WEIGHT, 0.02f },
	{ "dentry", 192, 21, 0, REC, SRC_WEIGHT, 0.36f },
	{ "names_cache", 4096, 8, 3, 0, SRC_WEIGHT, 0.002f },
	{ "net_namespace", 4288, 7, 3, 0, SRC_WEIGHT, 0.002f },
	{ "lsm_inode_cache", 32, 128, 0, 0, SRC_WEIGHT, 0.03f },
	{ "lsm_file_cache", 24, 170, 0, 0, SRC_THREADS, 6.0f },
	{ "nsproxy", 72, 56, 0, 0, SRC_WEIGHT, 0.0002f },
	{ "vm_area_struct", 192, 21, 0, 0, SRC_VMAS, 1.1f },
	{ "files_cache", 704, 23, 2, 0, SRC_PROCS, 1.05f },
	{ "signal_cache", 1152, 14, 2, 0, SRC_PROCS, 1.1f },
	{ "sighand_cache", 2112, 15, 3, 0, SRC_PROCS, 1.1f },
	{ "task_struct", 5888, 5, 3, 0, SRC_THREADS, 1.05f },
	{ "anon_vma_chain", 64, 64, 0, 0, SRC_VMAS, 0.7f },
	{ "anon_vma", 104, 39, 0, 0, SRC_VMAS, 0.4f },
	{ "pid", 192, 21, 0, 0, SRC_THREADS, 1.1f },
	{ "perf_event", 1352, 12, 2, 0, SRC_WEIGHT, 0.0004f },
	{ "trace_event_file", 96, 42, 0, 0, SRC_WEIGHT, 0.004f },
	{ "ftrace_event_field", 56, 73, 0, 0, SRC_WEIGHT, 0.008f },
	{ "pool_workqueue", 512, 16, 1, 0, SRC_WEIGHT, 0.002f },
	{ "radix_tree_node", 584, 14, 1, REC, SRC_WEIGHT, 0.12f },
	{ "task_group", 704, 23, 2, 0, SRC_WEIGHT, 0.001f },
	{ "maple_node", 256, 16, 0, 0, SRC_VMAS, 0.15f },
	{ "mm_struct", 1600, 20, 3, 0, SRC_MMS, 1.1f },
	{ "vmap_area", 72, 56, 0, 0, SRC_WEIGHT, 0.01f },
	{ "kmalloc-cg-4k", 4096, 8, 3, 0, SRC_WEIGHT, 0.008f },
	{ "kmalloc-cg-1k", 1024, 16, 2, 0, SRC_WEIGHT, 0.004f },
	{ "kmalloc-cg-256", 256, 16, 0, 0, SRC_WEIGHT, 0.002f },
	{ "kmalloc-cg-64", 64, 64, 0, 0, SRC_WEIGHT, 0.002f },
	{ "kmalloc-cg-32", 32, 128, 0, 0, SRC_WEIGHT, 0.002f },
	{ "dma-kmalloc-512", 512, 16, 1, 0, SRC_NONE, 0 },
	{ "dma-kmalloc-64", 64, 64, 0, 0, SRC_NONE, 0 },
	{ "kmalloc-rcl-256", 256, 16, 0, REC, SRC_NONE, 0 },
	{ "kmalloc-rcl-128", 128, 32, 0, REC, SRC_WEIGHT, 0.003f },
	{ "kmalloc-rcl-96", 96, 42, 0, REC, SRC_WEIGHT, 0.01f },
	{ "kmalloc-8k", 8192, 4, 3, 0, SRC_WEIGHT, 0.01f },
	{ "kmalloc-4k", 4096, 8, 3, 0, SRC_WEIGHT, 0.05f },
	{ "kmalloc-2k", 2048, 16, 3, 0, SRC_WEIGHT, 0.03f },
	{ "kmalloc-1k", 1024, 16, 2, 0, SRC_WEIGHT, 0.04f },
	{ "kmalloc-512", 512, 16, 1, 0, SRC_WEIGHT, 0.12f },
	{ "kmalloc-256", 256, 16, 0, 0, SRC_WEIGHT, 0.02f },
	{ "kmalloc-128", 128, 32, 0, 0, SRC_WEIGHT, 0.12f },
	{ "kmalloc-64", 64, 64, 0, 0, SRC_WEIGHT, 0.03f },
	{ "kmalloc-32", 32, 128, 0, 0, SRC_WEIGHT, 0.02f },
	{ "kmalloc-16", 16, 256, 0, 0, SRC_WEIGHT, 0.01f },
	{ "kmalloc-8", 8, 512, 0, 0, SRC_WEIGHT, 0.005f },
	{ "kmalloc-192", 192, 21, 0, 0, SRC_WEIGHT, 0.08f },
	{ "kmalloc-96", 96, 42, 0, 0, SRC_WEIGHT, 0.02f },
	{ "kmem_cache_node", 128, 32, 0, 0, SRC_WEIGHT, 0.0005f },
	{ "kmem_cache", 256, 16, 0, 0, SRC_WEIGHT, 0.001f },
};

#define NR_DEFS (sizeof(defs) / sizeof(defs[0]))

/* Fill @c with @objs objects, as many slabs as they need. */
static void fill(struct mach_slab_cache *c, uint64_t objs, struct rng *r)
{
	c->nr_slabs = (objs + c->objs_per_slab - 1) / c->objs_per_slab;
	c->num_objs = c->nr_slabs * c->objs_per_slab;
	c->active_objs = objs;
	if (c->num_objs > objs && rng_chance(r, 0.3))
		c->active_objs = c->num_objs; /* the last slab full: all of them in use */
}

/* The objects one source item makes: threads, processes, address spaces, mappings. */
static uint64_t source_count(const struct synth *s, enum slab_src src)
{
	const struct mach_machine *m = s->m;
	uint64_t n = 0;

	switch (src) {
	case SRC_THREADS:
		return s->nr_threads + 64;
	case SRC_PROCS:
		return m->nprocs + 16;
	case SRC_MMS:
	case SRC_VMAS:
		for (size_t i = 0; i < m->nprocs; i++)
			if (m->procs[i].mm)
				n += src == SRC_MMS ? 1 : m->procs[i].mm->nvmas;
		return n + 8;
	default:
		return 0;
	}
}

/* Spread @pages over the weighted caches of class @rec, whole slabs, never more. */
static void spread(struct synth *s, struct rng *r, uint64_t pages, bool rec)
{
	struct mach_sys *sys = &s->m->sys;
	double sum = 0;

	for (size_t i = 0; i < NR_DEFS; i++)
		if (defs[i].src == SRC_WEIGHT && (bool)(defs[i].flags & REC) == rec)
			sum += defs[i].weight;
	for (size_t i = 0; i < NR_DEFS && sum > 0; i++) {
		struct mach_slab_cache *c = &sys->slabs[i];
		uint64_t slabs;

		if (defs[i].src != SRC_WEIGHT || (bool)(defs[i].flags & REC) != rec)
			continue;
		slabs = (uint64_t)((double)pages * defs[i].weight / sum) >> c->order;
		c->nr_slabs = slabs;
		c->num_objs = slabs * c->objs_per_slab;
		c->active_objs = c->num_objs - (uint64_t)((double)c->num_objs * rng_uniform(r, 0, rec ? 0.1 : 0.3));
	}
}

int sy_build_slabs(struct synth *s)
{
	struct mach_machine *m = s->m;
	struct mach_sys *sys = &m->sys;
	uint64_t rec = m->meminfo[MACH_MEMINFO_SRECLAIMABLE] / 4, unrec = m->meminfo[MACH_MEMINFO_SUNRECLAIM] / 4;
	uint64_t tasks = 0;
	struct rng r;

	rng_init(&r, s->o->seed, KEY_SLABS);
	sys->slabs = calloc(NR_DEFS, sizeof(*sys->slabs));
	if (!sys->slabs)
		return -ENOMEM;
	sys->nslabs = NR_DEFS;
	for (size_t i = 0; i < NR_DEFS; i++) {
		struct mach_slab_cache *c = &sys->slabs[i];

		if (!(c->name = strdup(defs[i].name)))
			return -ENOMEM;
		c->size = defs[i].size;
		c->objs_per_slab = defs[i].per_slab;
		c->order = defs[i].order;
		c->reclaimable = defs[i].flags & REC;
		if (defs[i].src == SRC_WEIGHT || defs[i].src == SRC_NONE)
			continue;
		fill(c, (uint64_t)((double)source_count(s, (enum slab_src)defs[i].src) * defs[i].weight), &r);
		tasks += c->nr_slabs << c->order;
	}
	/* on a small machine the tasks' caches may want more than SUnreclaim: scale them down */
	for (size_t i = 0; i < NR_DEFS && tasks > unrec / 2; i++) {
		struct mach_slab_cache *c = &sys->slabs[i];

		if (defs[i].src != SRC_WEIGHT && defs[i].src != SRC_NONE)
			fill(c, c->active_objs * (unrec / 2) / tasks, &r);
	}
	tasks = 0;
	for (size_t i = 0; i < NR_DEFS; i++)
		if (defs[i].src != SRC_WEIGHT && defs[i].src != SRC_NONE)
			tasks += sys->slabs[i].nr_slabs << sys->slabs[i].order;
	/* what slabinfo cannot show: a percent or two of each class */
	spread(s, &r, (uint64_t)((double)rec * rng_uniform(&r, 0.975, 0.995)), true);
	spread(s, &r, (uint64_t)((double)(unrec - tasks) * rng_uniform(&r, 0.975, 0.995)), false);
	return 0;
}
