// SPDX-License-Identifier: MIT
/*
 * load_zoneinfo.c - parse /proc/zoneinfo (mm/vmstat.c zoneinfo_show_print)
 * and /proc/buddyinfo (frag_show_print) of Linux 6.18 into the memory nodes
 * of the model.
 *
 * zoneinfo has every zone of every online node, in zone order.  The first
 * populated zone of a node carries the node's stats; each zone has its
 * counters and watermarks and a protection value per zone type (which says
 * how many zone types the kernel has); a populated zone goes on with its
 * stat items, each online CPU's pageset and the node's unreclaimable flag.
 * Which stat lines are printed depends on the configuration: their names
 * and order go to the profile, the same for every zone and node.
 *
 * buddyinfo has a line per populated zone with its free blocks of each
 * order.  Read with zoneinfo, its zones must be zoneinfo's populated ones;
 * read alone, it makes them, and a zone's present pages are then known only
 * to be at least its free pages.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

/* A "Node N, zone NAME" head: the node id and the zone type. */
static int zone_head(struct lex *lx, unsigned int *node, enum mach_zone_type *type)
{
	char name[16];
	uint64_t id;
	size_t pad;
	int rc;

	lex_ctx(lx, NULL);
	if ((rc = lex_expect(lx, "Node ")) || (rc = lex_u64_max(lx, &id, 65535)) ||
	    (rc = lex_expect(lx, ", zone ")))
		return rc;
	pad = lex_skip_spaces(lx);
	if ((rc = ld_word(lx, name, sizeof(name), "a zone name")))
		return rc;
	/* "zone %8s" */
	if (pad + strlen(name) != (strlen(name) < 8 ? 8 : strlen(name)))
		return lex_fail(lx, "zone name \"%s\" after %zu spaces, where the kernel right-aligns it in 8 columns",
				name, pad);
	for (int t = 0; t < MACH_NR_ZONE_TYPES; t++)
		if (!strcmp(name, mach_zone_name((enum mach_zone_type)t))) {
			*node = (unsigned int)id;
			*type = (enum mach_zone_type)t;
			return 0;
		}
	return lex_fail(lx, "unknown zone \"%s\"", name);
}

/* The vmstat id called @name, or -1. */
static int vmstat_id(const char *name)
{
	for (int i = 0; i < MACH_NR_VMSTAT; i++)
		if (!strcmp(mach_vmstat_names[i], name))
			return i;
	return -1;
}

/*
 * Lines "      NAME VALUE\n" into @stat; their names must be @list when it is
 * known (*@n set), else they become it.
 */
static int stat_lines(struct lex *lx, uint64_t *stat, enum mach_vmstat_id *list, unsigned int *n, bool known)
{
	unsigned int k = 0;
	char name[64];
	int rc, id;

	while (lex_accept(lx, "      ")) {
		if ((rc = ld_word(lx, name, sizeof(name), "a counter name")))
			return rc;
		if ((id = vmstat_id(name)) < 0)
			return lex_fail(lx, "unknown counter \"%s\"", name);
		if (known ? k >= *n || list[k] != (enum mach_vmstat_id)id : k >= MACH_NR_VMSTAT)
			return lex_fail(lx, "\"%s\" is not where the other zones have their counters", name);
		list[k++] = (enum mach_vmstat_id)id;
		lex_ctx(lx, mach_vmstat_names[id]);
		/* "%-12s %lu" */
		for (size_t w = strlen(name); w < 13; w++)
			if ((rc = lex_expect(lx, " ")))
				return rc;
		if ((strlen(name) >= 13 && (rc = lex_expect(lx, " "))) ||
		    (rc = lex_u64_max(lx, &stat[id], UINT64_MAX)) || (rc = lex_eol(lx)))
			return rc;
	}
	if (known && k != *n)
		return lex_fail(lx, "%u counters where the other zones have %u", k, *n);
	*n = k;
	return 0;
}

/* "  pages free" to "protection: (...)": *@ntypes is how many protection values there were. */
static int zone_watermarks(struct lex *lx, struct mach_zone *z, unsigned int *ntypes)
{
	static const char *const labels[10] = {
		"  pages free     ", "        boost    ", "        min      ", "        low      ",
		"        high     ", "        promo    ", "        spanned  ", "        present  ",
		"        managed  ", "        cma      ",
	};
	uint64_t *vals[10] = { &z->pages_free, &z->boost, &z->wmark_min, &z->wmark_low, &z->wmark_high,
			       &z->wmark_promo, &z->spanned, &z->present, &z->managed, &z->cma };
	int64_t v;
	int rc;

	for (int i = 0; i < 10; i++) {
		lex_ctx(lx, labels[i]);
		if ((rc = lex_expect(lx, labels[i])) || (rc = lex_u64_max(lx, vals[i], UINT64_MAX)) || (rc = lex_eol(lx)))
			return rc;
	}
	lex_ctx(lx, "protection");
	if ((rc = lex_expect(lx, "        protection: (")))
		return rc;
	for (*ntypes = 0;; ) {
		if ((rc = lex_s64(lx, &v, LONG_MIN, LONG_MAX)))
			return rc;
		if (*ntypes >= MACH_NR_ZONE_TYPES)
			return lex_fail(lx, "more than %d zone types", MACH_NR_ZONE_TYPES);
		z->lowmem_reserve[(*ntypes)++] = (long)v;
		if (!lex_accept(lx, ", "))
			break;
	}
	if ((rc = lex_expect(lx, ")")) || (rc = lex_eol(lx)))
		return rc;
	return 0;
}

static int pageset(struct lex *lx, struct mach_pageset *p)
{
	static const char *const labels[6] = {
		"              count:    ", "              high:     ", "              batch:    ",
		"              high_min: ", "              high_max: ", "  vm stats threshold: ",
	};
	int *vals[6] = { &p->count, &p->high, &p->batch, &p->high_min, &p->high_max, &p->stat_threshold };
	uint64_t cpu;
	int64_t v;
	int rc;

	lex_ctx(lx, "cpu");
	if ((rc = lex_u64_max(lx, &cpu, 65535)) || (rc = lex_eol(lx)))
		return rc;
	p->cpu = (unsigned int)cpu;
	for (int i = 0; i < 6; i++) {
		lex_ctx(lx, labels[i]);
		if ((rc = lex_expect(lx, labels[i])) || (rc = lex_s64(lx, &v, INT32_MIN, INT32_MAX)) ||
		    (rc = lex_eol(lx)))
			return rc;
		*vals[i] = (int)v;
	}
	return 0;
}

/* "  pagesets" through "  start_pfn:": a populated zone's tail. */
static int zone_tail(struct lex *lx, struct mach_mem_node *n, struct mach_zone *z)
{
	uint64_t unrecl;
	int rc;

	lex_ctx(lx, NULL);
	if ((rc = lex_expect(lx, "  pagesets\n")))
		return rc;
	while (lex_accept(lx, "    cpu: ")) {
		struct mach_pageset *p = realloc(z->pagesets, (z->npagesets + 1) * sizeof(*p));

		if (!p)
			return -ENOMEM;
		z->pagesets = p;
		p = &p[z->npagesets++];
		if ((rc = pageset(lx, p)))
			return rc;
		if (z->npagesets > 1 && p->cpu <= p[-1].cpu)
			return lex_fail(lx, "cpu %u after cpu %u", p->cpu, p[-1].cpu);
	}
	lex_ctx(lx, "node_unreclaimable");
	if ((rc = lex_expect(lx, "  node_unreclaimable:  ")) || (rc = lex_u64_max(lx, &unrecl, 1)) ||
	    (rc = lex_eol(lx)))
		return rc;
	lex_ctx(lx, "start_pfn");
	if ((rc = lex_expect(lx, "  start_pfn:           ")) || (rc = lex_u64(lx, &z->start_pfn)) ||
	    (rc = lex_eol(lx)))
		return rc;
	n->unreclaimable = unrecl;
	return 0;
}

struct zi_state {
	struct mach_sys next;
	struct mach_sys_profile prof;
	bool node_known, zone_known;
	unsigned int ntypes;          /* protection values per zone, 0 before the first */
	int last_type;                /* the zone type read last in the current node */
	bool oom;
};

/* The node with id @id: the last one, or a new one after it. */
static struct mach_mem_node *zi_node(struct lex *lx, struct zi_state *st, unsigned int id, enum mach_zone_type t)
{
	struct mach_mem_node *n = st->next.nnodes ? &st->next.nodes[st->next.nnodes - 1] : NULL;

	if (n && n->id == id && (int)t == st->last_type + 1)
		return n;
	if ((n && (id <= n->id || st->last_type + 1 != (int)st->ntypes)) || t != MACH_ZONE_DMA) {
		lex_fail(lx, "node %u, zone %s does not follow the zone before", id, mach_zone_name(t));
		return NULL;
	}
	n = realloc(st->next.nodes, (st->next.nnodes + 1) * sizeof(*n));
	if (!n) {
		st->oom = true;
		return NULL;
	}
	st->next.nodes = n;
	n = &n[st->next.nnodes++];
	memset(n, 0, sizeof(*n));
	n->id = id;
	return n;
}

static int zi_zone(struct lex *lx, struct zi_state *st)
{
	enum mach_zone_type t;
	struct mach_mem_node *n;
	struct mach_zone *z;
	unsigned int node, ntypes;
	bool node_stats, first = true;
	int rc;

	if ((rc = zone_head(lx, &node, &t)) || (rc = lex_eol(lx)))
		return rc;
	if (!(n = zi_node(lx, st, node, t)))
		return st->oom ? -ENOMEM : -EINVAL;
	st->last_type = (int)t;
	z = &n->zones[t];
	for (int i = 0; i < (int)t; i++)
		first &= !mach_zone_populated(&n->zones[i]);
	node_stats = lex_accept(lx, "  per-node stats\n");
	if (node_stats && (rc = stat_lines(lx, n->stat, st->prof.node_items, &st->prof.nnode_items, st->node_known)))
		return rc;
	st->node_known |= node_stats;
	if ((rc = zone_watermarks(lx, z, &ntypes)))
		return rc;
	if (st->ntypes && ntypes != st->ntypes)
		return lex_fail(lx, "%u protection values where other zones have %u", ntypes, st->ntypes);
	st->ntypes = ntypes;
	if (t >= ntypes)
		return lex_fail(lx, "zone %s past the %u zone types", mach_zone_name(t), ntypes);
	if (node_stats != (first && mach_zone_populated(z)))
		return lex_fail(lx, "the node's stats %s the first populated zone", node_stats ? "outside" : "missing in");
	if (!mach_zone_populated(z))
		return 0; /* unpopulated: the record ends at its protection */
	if ((rc = stat_lines(lx, z->stat, st->prof.zone_items, &st->prof.nzone_items, st->zone_known)))
		return rc;
	st->zone_known = true;
	return zone_tail(lx, n, z);
}

/* Keep what buddyinfo said of zones that are there again. */
static void keep_free_areas(const struct mach_sys *old, struct mach_sys *next)
{
	for (unsigned int i = 0; i < next->nnodes; i++)
		for (unsigned int k = 0; k < old->nnodes; k++)
			if (old->nodes[k].id == next->nodes[i].id)
				for (int t = 0; t < MACH_NR_ZONE_TYPES; t++)
					memcpy(next->nodes[i].zones[t].free_area, old->nodes[k].zones[t].free_area,
					       sizeof(next->nodes[i].zones[t].free_area));
}

int ld_parse_zoneinfo(struct lex *lx, struct mach_loader *ld)
{
	struct mach_machine *m = ld->m;
	struct zi_state st = { .prof = m->profile.sys };
	int rc = 0;

	while (!rc && !lex_eof(lx))
		rc = zi_zone(lx, &st);
	if (!rc && st.next.nnodes && st.last_type + 1 != (int)st.ntypes)
		rc = lex_fail(lx, "the last node has %d of the %u zone types", st.last_type + 1, st.ntypes);
	if (rc) {
		mach_sys_nodes_clear(&st.next);
		return rc;
	}
	if (ld_loaded(ld, MACH_LD_BUDDYINFO))
		keep_free_areas(&m->sys, &st.next);
	st.prof.nzone_types = st.ntypes ? st.ntypes : st.prof.nzone_types;
	mach_sys_nodes_clear(&m->sys);
	m->sys.nodes = st.next.nodes;
	m->sys.nnodes = st.next.nnodes;
	m->profile.sys = st.prof;
	return 0;
}

/* One buddyinfo line's counts (after its head) into @free. */
static int free_counts(struct lex *lx, uint64_t free[MACH_NR_PAGE_ORDERS])
{
	int rc;

	if ((rc = lex_expect(lx, " ")))
		return rc;
	for (int o = 0; o < MACH_NR_PAGE_ORDERS; o++) {
		lex_field(lx, o, "free blocks of order");
		if ((rc = lex_u64_width(lx, &free[o], 6)) || (rc = lex_expect(lx, " "))) /* "%6lu " */
			return rc;
	}
	return lex_eol(lx);
}

/* The node with id @id in @s, made (after the others) if @make; NULL if absent or out of memory. */
static struct mach_mem_node *node_of(struct mach_sys *s, unsigned int id, bool make)
{
	struct mach_mem_node *n;

	for (unsigned int i = 0; i < s->nnodes; i++)
		if (s->nodes[i].id == id)
			return &s->nodes[i];
	if (!make || (s->nnodes && s->nodes[s->nnodes - 1].id > id))
		return NULL;
	n = realloc(s->nodes, (s->nnodes + 1) * sizeof(*n));
	if (!n)
		return NULL;
	s->nodes = n;
	n = &n[s->nnodes++];
	memset(n, 0, sizeof(*n));
	n->id = id;
	return n;
}

/* With zoneinfo: every populated zone, in order, has a line. */
static int buddy_onto(struct lex *lx, struct mach_sys *s, unsigned int ntypes)
{
	uint64_t (*counts)[MACH_NR_PAGE_ORDERS] = calloc((size_t)s->nnodes * ntypes + 1, sizeof(*counts));
	unsigned int at = 0, node;
	enum mach_zone_type t;
	int rc = 0;

	if (!counts)
		return -ENOMEM;
	while (!rc && !lex_eof(lx)) {
		if ((rc = zone_head(lx, &node, &t)))
			break;
		while (at < s->nnodes * ntypes && !mach_zone_populated(&s->nodes[at / ntypes].zones[at % ntypes]))
			at++;
		if (at == s->nnodes * ntypes || s->nodes[at / ntypes].id != node || at % ntypes != t)
			rc = lex_fail(lx, "node %u, zone %s is not zoneinfo's next populated zone", node,
				      mach_zone_name(t));
		else
			rc = free_counts(lx, counts[at++]);
	}
	while (!rc && at < s->nnodes * ntypes)
		if (mach_zone_populated(&s->nodes[at / ntypes].zones[at % ntypes]))
			rc = lex_fail(lx, "node %u, zone %s of zoneinfo is missing", s->nodes[at / ntypes].id,
				      mach_zone_name((enum mach_zone_type)(at % ntypes)));
		else
			at++;
	for (unsigned int i = 0; !rc && i < s->nnodes * ntypes; i++)
		memcpy(s->nodes[i / ntypes].zones[i % ntypes].free_area, counts[i], sizeof(counts[i]));
	free(counts);
	return rc;
}

/* buddyinfo alone: the zones it lists, at least as large as their free blocks. */
static int buddy_only(struct lex *lx, struct mach_sys *s, unsigned int ntypes)
{
	struct mach_sys next = { 0 };
	unsigned int node;
	enum mach_zone_type t;
	int rc = 0;

	while (!rc && !lex_eof(lx)) {
		struct mach_mem_node *n;
		struct mach_zone *z;
		uint64_t pages = 0;

		if ((rc = zone_head(lx, &node, &t)))
			break;
		n = node_of(&next, node, true);
		for (unsigned int k = t; n && k < ntypes; k++)
			if (mach_zone_populated(&n->zones[k]))
				n = NULL;
		if (!n || t >= ntypes) {
			rc = lex_fail(lx, "node %u, zone %s out of order", node, mach_zone_name(t));
			break;
		}
		z = &n->zones[t];
		if ((rc = free_counts(lx, z->free_area)))
			break;
		for (int o = 0; o < MACH_NR_PAGE_ORDERS; o++)
			pages += z->free_area[o] << o;
		z->present = pages ? pages : 1;
	}
	if (rc) {
		mach_sys_nodes_clear(&next);
		return rc;
	}
	mach_sys_nodes_clear(s);
	s->nodes = next.nodes;
	s->nnodes = next.nnodes;
	return 0;
}

int ld_parse_buddyinfo(struct lex *lx, struct mach_loader *ld)
{
	struct mach_machine *m = ld->m;
	unsigned int ntypes = m->profile.sys.nzone_types;

	if (ld_loaded(ld, MACH_LD_ZONEINFO))
		return buddy_onto(lx, &m->sys, ntypes);
	return buddy_only(lx, &m->sys, ntypes);
}
