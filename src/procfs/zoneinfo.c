// SPDX-License-Identifier: MIT
/*
 * zoneinfo.c - /proc/zoneinfo.
 *
 * Mirrors mm/vmstat.c zoneinfo_show and zoneinfo_show_print of Linux 6.18
 * over frag_start/next: one record per online node, walking every zone of
 * it, populated or not.  The node's first populated zone carries the
 * per-node stats; an unpopulated zone ends after its protection line; a
 * populated one goes on with its stat items and NUMA events, each CPU's
 * pageset with its stat threshold, the node's unreclaimable flag and the
 * zone's first pfn.
 */
#include <string.h>

#include "render.h"

void *pfs_pgdat_start(struct seq_file *m, loff_t *pos)
{
	const struct pfs_ctx *c = m->private;

	if (*pos < 0 || (size_t)*pos >= c->mach->sys.nnodes)
		return NULL;
	return (void *)&c->mach->sys.nodes[*pos];
}

void *pfs_pgdat_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return pfs_pgdat_start(m, pos);
}

static bool is_zone_first_populated(const struct mach_mem_node *n, const struct mach_zone *z, unsigned int nz)
{
	for (unsigned int i = 0; i < nz; i++)
		if (mach_zone_populated(&n->zones[i]))
			return z == &n->zones[i];
	return false;
}

/* "\n      %-12s %lu", with putters: the name padded to 12 columns, a space, the value */
static void stat_line(struct seq_file *m, enum mach_vmstat_id id, uint64_t v)
{
	const char *name = mach_vmstat_names[id];
	size_t len = strlen(name);

	seq_puts(m, "\n      ");
	seq_write(m, name, len);
	if (len < 12)
		seq_write(m, "            ", 12 - len);
	seq_put_decimal_ull(m, " ", v);
}

static void zone_header(struct seq_file *m, const struct mach_zone *z, unsigned int nz)
{
	seq_printf(m, "\n  pages free     %llu", (unsigned long long)z->pages_free);
	seq_put_decimal_ull(m, "\n        boost    ", z->boost);
	seq_put_decimal_ull(m, "\n        min      ", z->wmark_min);
	seq_put_decimal_ull(m, "\n        low      ", z->wmark_low);
	seq_put_decimal_ull(m, "\n        high     ", z->wmark_high);
	seq_put_decimal_ull(m, "\n        promo    ", z->wmark_promo);
	seq_put_decimal_ull(m, "\n        spanned  ", z->spanned);
	seq_put_decimal_ull(m, "\n        present  ", z->present);
	seq_put_decimal_ull(m, "\n        managed  ", z->managed);
	seq_put_decimal_ull(m, "\n        cma      ", z->cma);
	seq_put_decimal_ll(m, "\n        protection: (", z->lowmem_reserve[0]);
	for (unsigned int i = 1; i < nz; i++)
		seq_put_decimal_ll(m, ", ", z->lowmem_reserve[i]);
	seq_putc(m, ')');
}

static void zone_pagesets(struct seq_file *m, const struct mach_zone *z)
{
	seq_puts(m, "\n  pagesets");
	for (unsigned int i = 0; i < z->npagesets; i++) {
		const struct mach_pageset *p = &z->pagesets[i];

		seq_put_decimal_ll(m, "\n    cpu: ", p->cpu);
		seq_put_decimal_ll(m, "\n              count:    ", p->count);
		seq_put_decimal_ll(m, "\n              high:     ", p->high);
		seq_put_decimal_ll(m, "\n              batch:    ", p->batch);
		seq_put_decimal_ll(m, "\n              high_min: ", p->high_min);
		seq_put_decimal_ll(m, "\n              high_max: ", p->high_max);
		seq_put_decimal_ll(m, "\n  vm stats threshold: ", p->stat_threshold);
	}
}

static void zoneinfo_show_print(struct seq_file *m, const struct mach_mem_node *n, const struct mach_zone *z,
				const struct mach_sys_profile *prof)
{
	seq_printf(m, "Node %d, zone %8s", (int)n->id, mach_zone_name((enum mach_zone_type)(z - n->zones)));
	if (is_zone_first_populated(n, z, prof->nzone_types)) {
		seq_puts(m, "\n  per-node stats");
		for (unsigned int i = 0; i < prof->nnode_items; i++)
			stat_line(m, prof->node_items[i], n->stat[prof->node_items[i]]);
	}
	zone_header(m, z, prof->nzone_types);
	if (!mach_zone_populated(z)) {
		seq_putc(m, '\n');
		return;
	}
	for (unsigned int i = 0; i < prof->nzone_items; i++)
		stat_line(m, prof->zone_items[i], z->stat[prof->zone_items[i]]);
	zone_pagesets(m, z);
	seq_printf(m,
		   "\n  node_unreclaimable:  %u"
		   "\n  start_pfn:           %llu"
		   "\n",
		   (unsigned int)n->unreclaimable, (unsigned long long)z->start_pfn);
}

static int zoneinfo_show(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_sys_profile *prof = &c->mach->profile.sys;
	const struct mach_mem_node *n = v;

	for (unsigned int i = 0; i < prof->nzone_types; i++)
		zoneinfo_show_print(m, n, &n->zones[i], prof);
	return 0;
}

const struct seq_operations pfs_zoneinfo_ops = {
	.start = pfs_pgdat_start,
	.next = pfs_pgdat_next,
	.stop = pfs_seq_stop_nothing,
	.show = zoneinfo_show,
};
