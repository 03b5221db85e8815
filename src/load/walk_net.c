// SPDX-License-Identifier: MIT
/*
 * walk_net.c - the network namespaces a walk has built, by the bytes of
 * the net/ files that showed them.
 *
 * Every task of a namespace shows the same /proc/<pid>/net files, and a
 * capture holds them once per task: a 2,000-process tree has thousands of
 * copies of one namespace's tables, each many kilobytes.  A task whose
 * net files are, file for file, the bytes another task's were (and whose
 * ns/net link, where it was read, names the same inode) shows the
 * namespace built from them: its files are not parsed again, and it takes
 * that namespace (ld_task.net_ref).  Bytes that differ (a live namespace
 * read a moment later, its counters moved) are parsed as before, and are
 * another namespace of the model, as ld_commit_nets has it.
 *
 * In a tree held in memory the bytes stay where they are, and an archive
 * read whole shares one copy of identical members (capture_read.c), so
 * the same pointer usually settles it; files on disk are copied for the
 * comparison.  At most WN_MAX namespaces are remembered, the oldest
 * forgotten first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"
#include "walk.h"

#define WN_MAX 64

/* One namespace the walk built, and the net files that showed it. */
struct walk_netns {
	struct ld_netread r;
	char *copy;               /* the files' bytes when they are not the tree's own, else NULL */
	unsigned int netns;       /* 1 + its index in the machine's nets */
};

static bool same_files(const struct ld_netread *a, const struct ld_netread *b)
{
	if (a->n != b->n || a->ino != b->ino)
		return false;
	for (unsigned int k = 0; k < a->n; k++)
		if (a->kind[k] != b->kind[k] || a->len[k] != b->len[k])
			return false;
	for (unsigned int k = 0; k < a->n; k++)
		if (a->text[k] != b->text[k] && memcmp(a->text[k], b->text[k], a->len[k]))
			return false;
	return true;
}

unsigned int ld_walk_net_known(const struct walk *w, const struct ld_netread *r)
{
	if (!r->n)
		return 0;
	/* the likeliest is the one learned last */
	for (size_t i = w->nnets; i-- > 0;)
		if (same_files(&w->nets[i].r, r))
			return w->nets[i].netns;
	return 0;
}

int ld_walk_net_learn(struct walk *w, const struct ld_netread *r, unsigned int netns)
{
	struct walk_netns e = { .r = *r, .netns = netns };
	size_t total = 0;

	if (!r->n || !netns || ld_walk_net_known(w, r))
		return 0;
	if (!w->mem) {
		char *p;

		for (unsigned int k = 0; k < r->n; k++)
			total += r->len[k];
		if (!(e.copy = p = malloc(total ? total : 1)))
			return -ENOMEM;
		for (unsigned int k = 0; k < r->n; k++) {
			memcpy(p, r->text[k], r->len[k]);
			e.r.text[k] = p;
			p += r->len[k];
		}
	}
	if (w->nnets == WN_MAX) {
		free(w->nets[0].copy);
		memmove(&w->nets[0], &w->nets[1], (WN_MAX - 1) * sizeof(w->nets[0]));
		w->nnets--;
	} else if (!w->nets && !(w->nets = calloc(WN_MAX, sizeof(*w->nets)))) {
		free(e.copy);
		return -ENOMEM;
	}
	w->nets[w->nnets++] = e;
	return 0;
}

void ld_walk_net_free(struct walk *w)
{
	for (size_t i = 0; i < w->nnets; i++)
		free(w->nets[i].copy);
	free(w->nets);
	w->nets = NULL;
	w->nnets = 0;
}

uint32_t ld_walk_net_ino(const char *link, size_t len)
{
	uint64_t v = 0;
	size_t i = 5;

	if (len < 7 || memcmp(link, "net:[", 5) || link[len - 1] != ']')
		return 0;
	for (; i < len - 1 && link[i] >= '0' && link[i] <= '9' && v <= UINT32_MAX; i++)
		v = v * 10 + (uint64_t)(link[i] - '0');
	return i == len - 1 && v <= UINT32_MAX ? (uint32_t)v : 0;
}
