// SPDX-License-Identifier: MIT
/*
 * sys_node.c - /sys/devices/system/node (drivers/base/node.c): the node
 * lists (print_nodes_state), and each node's cpumap, cpulist, distance,
 * meminfo (node_read_meminfo, hugetlb_report_node_meminfo) and numastat.
 * c->inst is the node's id.
 */
#include <errno.h>
#include <stdlib.h>

#include "render.h"

/* Whether node @k (an index of m->platform.nodes) is in the list the entry's arg names. */
static bool in_list(const struct mach_machine *m, unsigned int k, unsigned int which)
{
	const struct mach_node_files *n = &m->platform.nodes[k];

	switch (which) {
	case MACH_SYSA_NODES_HAS_CPU:
		for (unsigned int i = 0; i < m->ncpus; i++)
			if (m->cpus[i].online && m->cpus[i].topo.node == (int)n->id)
				return true;
		return false;
	case MACH_SYSA_NODES_HAS_MEMORY: return n->has_memory;
	case MACH_SYSA_NODES_HAS_NORMAL: return n->has_normal_memory;
	case MACH_SYSA_NODES_HAS_GI: return false;
	default: return true; /* possible and online: the nodes the machine has */
	}
}

int pfs_show_sys_nodes(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_machine *mach = c->mach;
	unsigned int nbits = mach->max_numnodes ? mach->max_numnodes : MACH_MAX_NUMNODES_DEFAULT;
	uint64_t *w = calloc((nbits + 63) / 64, sizeof(uint64_t));

	(void)v;
	if (!w)
		return -ENOMEM;
	for (unsigned int k = 0; k < mach->platform.nnodes; k++)
		if (mach->platform.nodes[k].id < nbits && in_list(mach, k, c->arg))
			w[mach->platform.nodes[k].id / 64] |= UINT64_C(1) << (mach->platform.nodes[k].id % 64);
	seq_put_bitmap_list(m, w, nbits);
	seq_putc(m, '\n');
	free(w);
	return 0;
}

int pfs_show_sys_node_cpus(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	uint64_t *w = calloc(mach_cpumask_words(c->mach->nr_cpu_ids) + 1, sizeof(uint64_t));

	(void)v;
	if (!w)
		return -ENOMEM;
	mach_node_cpus(c->mach, (int)c->inst, w);
	if (c->arg == MACH_SYSA_NODE_CPULIST)
		seq_put_bitmap_list(m, w, c->mach->nr_cpu_ids);
	else
		seq_put_bitmap(m, w, c->mach->nr_cpu_ids);
	seq_putc(m, '\n');
	free(w);
	return 0;
}

int pfs_show_sys_node_distance(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	int k = mach_node_index(c->mach, c->inst);

	(void)v;
	if (k < 0)
		return -ENOENT;
	for (unsigned int j = 0; j < c->mach->platform.nnodes; j++)
		seq_put_decimal_ull(m, j ? " " : NULL, c->mach->platform.nodes[k].distance[j]);
	seq_putc(m, '\n');
	return 0;
}

/* One "Node N Label:   value kB" line: the label padded to 16, the value right in 8. */
static void mem_line(struct seq_file *m, unsigned int id, const char *label, uint64_t kb)
{
	seq_put_decimal_ull(m, "Node ", id);
	seq_putc(m, ' ');
	seq_setwidth(m, 16);
	seq_puts(m, label);
	seq_pad(m, 0);
	seq_put_decimal_ull_width(m, NULL, kb, 8);
	seq_puts(m, " kB\n");
}

int pfs_show_sys_node_meminfo(struct seq_file *m, void *v)
{
	static const struct {
		const char *label;
		int item;           /* enum mach_node_mem, or -1..-4: MemUsed, Active, Inactive, Slab */
	} lines[] = {
		{ "MemTotal:", MACH_NODE_MEMTOTAL }, { "MemFree:", MACH_NODE_MEMFREE }, { "MemUsed:", -1 },
		{ "SwapCached:", MACH_NODE_SWAPCACHED }, { "Active:", -2 }, { "Inactive:", -3 },
		{ "Active(anon):", MACH_NODE_ACTIVE_ANON }, { "Inactive(anon):", MACH_NODE_INACTIVE_ANON },
		{ "Active(file):", MACH_NODE_ACTIVE_FILE }, { "Inactive(file):", MACH_NODE_INACTIVE_FILE },
		{ "Unevictable:", MACH_NODE_UNEVICTABLE }, { "Mlocked:", MACH_NODE_MLOCKED },
		{ "Dirty:", MACH_NODE_DIRTY }, { "Writeback:", MACH_NODE_WRITEBACK },
		{ "FilePages:", MACH_NODE_FILEPAGES }, { "Mapped:", MACH_NODE_MAPPED },
		{ "AnonPages:", MACH_NODE_ANONPAGES }, { "Shmem:", MACH_NODE_SHMEM },
		{ "KernelStack:", MACH_NODE_KERNELSTACK_KB }, { "PageTables:", MACH_NODE_PAGETABLES },
		{ "SecPageTables:", MACH_NODE_SECPAGETABLES }, { "NFS_Unstable:", MACH_NODE_NFS_UNSTABLE },
		{ "Bounce:", MACH_NODE_BOUNCE }, { "WritebackTmp:", MACH_NODE_WRITEBACKTMP },
		{ "KReclaimable:", MACH_NODE_KRECLAIMABLE }, { "Slab:", -4 },
		{ "SReclaimable:", MACH_NODE_SRECLAIMABLE }, { "SUnreclaim:", MACH_NODE_SUNRECLAIM },
		{ "AnonHugePages:", MACH_NODE_ANONHUGE }, { "ShmemHugePages:", MACH_NODE_SHMEMHUGE },
		{ "ShmemPmdMapped:", MACH_NODE_SHMEMPMDMAPPED }, { "FileHugePages:", MACH_NODE_FILEHUGE },
		{ "FilePmdMapped:", MACH_NODE_FILEPMDMAPPED },
	};
	static const char *const huge[] = { "HugePages_Total:", "HugePages_Free: ", "HugePages_Surp: " };
	const struct pfs_ctx *c = m->private;
	int k = mach_node_index(c->mach, c->inst);
	const uint64_t *n;

	(void)v;
	if (k < 0)
		return -ENOENT;
	n = c->mach->platform.nodes[k].mem;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		int it = lines[i].item;
		uint64_t pages = it >= 0 ? n[it]
				 : it == -1 ? n[MACH_NODE_MEMTOTAL] - n[MACH_NODE_MEMFREE]
				 : it == -2 ? n[MACH_NODE_ACTIVE_ANON] + n[MACH_NODE_ACTIVE_FILE]
				 : it == -3 ? n[MACH_NODE_INACTIVE_ANON] + n[MACH_NODE_INACTIVE_FILE]
					    : n[MACH_NODE_SRECLAIMABLE] + n[MACH_NODE_SUNRECLAIM];

		/* the kernel stack is counted in kB already */
		mem_line(m, c->inst, lines[i].label, it == MACH_NODE_KERNELSTACK_KB ? pages : pages * 4);
	}
	for (int h = 0; h < 3; h++) {
		seq_put_decimal_ull(m, "Node ", c->inst);
		seq_putc(m, ' ');
		seq_puts(m, huge[h]);
		seq_put_decimal_ull_width(m, " ", n[MACH_NODE_HUGEPAGES_TOTAL + h], 5);
		seq_putc(m, '\n');
	}
	return 0;
}

int pfs_show_sys_node_numastat(struct seq_file *m, void *v)
{
	static const char *const names[MACH_NR_NODE_NUMA] = { "numa_hit ", "numa_miss ", "numa_foreign ",
							       "interleave_hit ", "local_node ", "other_node " };
	const struct pfs_ctx *c = m->private;
	int k = mach_node_index(c->mach, c->inst);

	(void)v;
	if (k < 0)
		return -ENOENT;
	for (int i = 0; i < MACH_NR_NODE_NUMA; i++) {
		seq_puts(m, names[i]);
		seq_put_decimal_ull(m, NULL, c->mach->platform.nodes[k].numa[i]);
		seq_putc(m, '\n');
	}
	return 0;
}
