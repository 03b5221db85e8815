// SPDX-License-Identifier: MIT
/*
 * served_set.c - the set of files a machine serves, compared by count and
 * an order-free digest of the paths; named one by one only when they
 * differ (a lookup per path costs more than the walk).
 */
#include <stdint.h>
#include <stdio.h>

#include "served_set.h"
#include "tap.h"
#include "uprocfs/procfs.h"

struct served {
	size_t n;
	uint64_t digest;
	const char *spec, *lacking;   /* with @other: name what @other lacks, "after the round trip" */
	const struct mach_machine *other;
	size_t shown;
};

/* FNV-1a, folded: summed over paths, so the digest does not depend on the walk's order */
static uint64_t path_hash(const char *p)
{
	uint64_t h = 14695981039346656037ull;

	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	return h ^ (h >> 29);
}

static int count_served(void *arg, const struct pfs_node *n, const struct pfs_ctx *c)
{
	struct served *s = arg;
	char rel[4096], path[4200], err[128];
	struct pfs_node back;

	if (pfs_node_path(n, c, rel, sizeof(rel)))
		return 0;
	snprintf(path, sizeof(path), "/%s/%s", n->scope >= PFS_SCOPE_SYS ? "sys" : "proc", rel);
	s->n++;
	s->digest += path_hash(path);
	if (s->other && pfs_resolve(s->other, path, &back, &(struct pfs_ctx){ 0 }, err, sizeof(err)) &&
	    s->shown++ < 5)
		diag("%s: %s is not served %s", s->spec, path, s->lacking);
	return 0;
}

bool served_same(const char *spec, const struct mach_machine *m, const struct mach_machine *back)
{
	struct served a = { 0 }, b = { 0 };

	pfs_for_each_file(m, PFS_EACH_ALL, count_served, &a);
	pfs_for_each_file(back, PFS_EACH_ALL, count_served, &b);
	if (a.n == b.n && a.digest == b.digest)
		return true;
	diag("%s: %zu files served before the round trip, %zu after", spec, a.n, b.n);
	pfs_for_each_file(m, PFS_EACH_ALL, count_served,
			  &(struct served){ .spec = spec, .other = back, .lacking = "after the round trip" });
	pfs_for_each_file(back, PFS_EACH_ALL, count_served,
			  &(struct served){ .spec = spec, .other = m, .lacking = "by the machine written" });
	return false;
}
