// SPDX-License-Identifier: MIT
/*
 * walk_globals.c - the machine-wide files of a tree walk (walk.h).
 *
 * Files that say things of each other (mach_ld_group: meminfo's SwapTotal
 * and the swaps, diskstats' devices and partitions', zoneinfo's zones and
 * buddyinfo's) are read back to back and parsed together.  On the live
 * /proc they may change between two reads: when they disagree, the group is
 * read again, up to LD_TRIES times, as a process's files are; a disagreement
 * that survives an identical re-read is a real one.  A group that keeps
 * changing is reported as skipped, with the reason.  Files of their own
 * group are read once each, in table order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "walk.h"

/* One file of one attempt at a group. */
struct gslot {
	const struct mach_ld_name *f;
	size_t off, len;
	int rc;
};

/* Read the group's files back to back: 0, -ENOBUFS (grow the arena), or an error. */
static int group_read(struct walk *w, struct gslot *g, size_t n)
{
	w->arena.used = 0;
	for (size_t i = 0; i < n; i++) {
		g[i].rc = ld_walk_read(w, g[i].f->name, &g[i].off, &g[i].len);
		if (g[i].rc == -ENOBUFS)
			return -ENOBUFS;
	}
	for (size_t i = 0; i < n; i++) {
		int rc = g[i].rc;

		if (rc && !(rc == -ENOENT && !mach_ld_required(g[i].f->kind)) && !unreadable(w, rc))
			return ld_walk_error(w, g[i].f->name, rc);
	}
	return 0;
}

/* 64-bit FNV-1a of what an attempt read. */
static uint64_t group_hash(const struct walk *w, const struct gslot *g, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++) {
		const unsigned char *p = (const unsigned char *)w->arena.buf + g[i].off;

		h = (h ^ (uint64_t)(unsigned int)g[i].rc) * 1099511628211ull;
		for (size_t k = 0; !g[i].rc && k < g[i].len; k++)
			h = (h ^ p[k]) * 1099511628211ull;
	}
	return h;
}

static int group_parse(struct walk *w, const struct gslot *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char path[4200];
		int rc;

		if (g[i].rc)
			continue;
		ld_walk_path(w, g[i].f->name, path, sizeof(path));
		rc = mach_loader_file(w->ld, g[i].f->kind, 0, 0, path, w->arena.buf + g[i].off, g[i].len, w->err,
				      w->errlen);
		if (rc)
			return rc;
	}
	return 0;
}

static int group_report(struct walk *w, const struct gslot *g, size_t n, const char *skip)
{
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		const char *why = skip ? skip : unreadable(w, g[i].rc);

		if (g[i].rc == -ENOENT)
			continue;
		if (why)
			rc = ld_report_add(&w->rep, g[i].f->name, MACH_LOAD_SKIPPED, why, NULL, 0);
		else
			rc = ld_report_add(&w->rep, g[i].f->name, MACH_LOAD_OK, NULL, w->arena.buf + g[i].off,
					   g[i].len);
	}
	return rc;
}

/* Read, parse and report one group; again while it changes under the reads. */
static int group_load(struct walk *w, struct gslot *g, size_t n)
{
	const char *skip = NULL;
	uint64_t prev = 0, h;
	int rc, tries = 0;

	for (;;) {
		rc = group_read(w, g, n);
		if (rc == -ENOBUFS) {
			if ((rc = ld_arena_grow(&w->arena, w->arena.cap * 2)))
				return rc == -EFBIG ? ld_walk_error(w, g[0].f->name, rc) : rc;
			continue;
		}
		if (rc)
			return rc;
		h = group_hash(w, g, n);
		rc = group_parse(w, g, n);
		if (rc != -EINVAL || !w->live || (tries && h == prev))
			break;
		prev = h;
		if (++tries >= LD_TRIES) {
			skip = "kept changing while read";
			rc = 0;
			break;
		}
	}
	return rc ? rc : group_report(w, g, n, skip);
}

int ld_walk_globals(struct walk *w)
{
	struct gslot *g = calloc(w->nfiles ? w->nfiles : 1, sizeof(*g));
	bool *done = calloc(w->nfiles ? w->nfiles : 1, sizeof(*done));
	int rc = g && done ? 0 : -ENOMEM;

	w->ld->m->profile.has_schedstat = false;
	for (size_t i = 0; i < w->nfiles && !rc; i++) {
		unsigned int group = mach_ld_group(w->files[i].kind);
		size_t n = 0;

		if (done[i] || mach_ld_kind_per_task(w->files[i].kind))
			continue;
		for (size_t k = i; k < w->nfiles; k++)
			if (k == i || (group && !done[k] && mach_ld_group(w->files[k].kind) == group)) {
				done[k] = true;
				g[n++] = (struct gslot){ .f = &w->files[k] };
			}
		rc = group_load(w, g, n);
	}
	free(g);
	free(done);
	return rc;
}
