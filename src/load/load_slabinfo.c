// SPDX-License-Identifier: MIT
/*
 * load_slabinfo.c - parse /proc/slabinfo (mm/slab_common.c slab_show,
 * cache_show; Linux 6.18, SLUB).
 *
 * Two header lines of version 2.1, then per cache its name, active and total
 * objects, object size, objects per slab, pages per slab (a power of two),
 * the tunables SLUB leaves at 0, and its slab count printed twice with no
 * shared objects.  Anything SLUB cannot print is refused: the model has no
 * place for it.  Whether a cache is reclaimable is not printed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"

#define SLAB_HEADER \
	"slabinfo - version: 2.1\n" \
	"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>" \
	" : tunables <limit> <batchcount> <sharedfactor>" \
	" : slabdata <active_slabs> <num_slabs> <sharedavail>\n"

static int slab_line(struct lex *lx, struct mach_slab_cache *c)
{
	const char *line = lx->p;
	char name[128];
	uint64_t v[11];
	unsigned int order = 0;
	int rc;

	/* "%-17s %6lu %6lu %6u %4u %4d : tunables %4u %4u %4u : slabdata %6lu %6lu %6lu": those widths exactly */
	static const unsigned char width[11] = { 6, 6, 6, 4, 4, 4, 4, 4, 6, 6, 6 };

	if ((rc = ld_word(lx, name, sizeof(name), "a cache name")))
		return rc;
	for (size_t k = strlen(name); k < 17; k++)
		if ((rc = lex_expect(lx, " ")))
			return rc;
	for (int i = 0; i < 11; i++) {
		static const char *const what[11] = {
			"active_objs", "num_objs", "objsize", "objperslab", "pagesperslab", "limit",
			"batchcount", "sharedfactor", "active_slabs", "num_slabs", "sharedavail",
		};

		lex_ctx(lx, what[i]);
		if ((i == 5 && (rc = lex_expect(lx, " : tunables"))) || (i == 8 && (rc = lex_expect(lx, " : slabdata"))))
			return rc;
		if ((rc = lex_expect(lx, " ")) || (rc = lex_u64_width(lx, &v[i], width[i])))
			return rc;
		if (i >= 2 && i <= 7 && v[i] > UINT32_MAX)
			return lex_fail_at(lx, line, "%s: %s %llu is beyond the kernel's 32 bits", name, what[i],
					   (unsigned long long)v[i]);
	}
	if ((rc = lex_eol(lx)))
		return rc;
	while (order < 31 && (1ull << order) < v[4])
		order++;
	if (v[4] != 1ull << order)
		return lex_fail_at(lx, line, "%s: %llu pages per slab is not a power of two", name,
				   (unsigned long long)v[4]);
	if (v[5] || v[6] || v[7] || v[10] || v[8] != v[9])
		return lex_fail_at(lx, line, "%s: tunables, shared objects or active slabs that SLUB does not print",
				   name);
	c->name = strdup(name);
	if (!c->name)
		return -ENOMEM;
	c->active_objs = v[0];
	c->num_objs = v[1];
	c->size = (unsigned int)v[2];
	c->objs_per_slab = (unsigned int)v[3];
	c->order = order;
	c->nr_slabs = v[9];
	return 0;
}

int ld_parse_slabinfo(struct lex *lx, struct mach_machine *m)
{
	struct mach_sys next = { 0 };
	size_t cap = 0;
	int rc;

	lex_ctx(lx, NULL);
	if ((rc = lex_expect(lx, SLAB_HEADER)))
		return rc;
	while (!rc && !lex_eof(lx)) {
		struct mach_slab_cache *c = VEC_PUSH(next.slabs, next.nslabs, cap);

		if (!c) {
			rc = -ENOMEM;
			break;
		}
		memset(c, 0, sizeof(*c));
		rc = slab_line(lx, c);
	}
	if (!rc && !next.nslabs)
		rc = lex_fail(lx, "no cache: the header is printed by the first");
	if (rc) {
		mach_sys_slabs_clear(&next);
		return rc;
	}
	mach_sys_slabs_clear(&m->sys);
	m->sys.slabs = next.slabs;
	m->sys.nslabs = next.nslabs;
	return 0;
}
