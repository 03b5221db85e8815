// SPDX-License-Identifier: MIT
/*
 * tree_memory.c - the memory side of tree_write.c: a tree kept as the
 * members an archive read whole gives the loader (mach_tree_member), so a
 * machine can be written and loaded back without a file system.  The
 * round-trip tests render thousands of trees: on disk, creating, reading and
 * removing their files was most of their time, all of it in the kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tree_memory.h"
#include "uprocfs/procfs.h"

#define TWM_CHUNK ((size_t)1 << 20)

/* Bytes of member paths and texts; a text larger than a chunk gets one of its own. */
struct twm_chunk {
	struct twm_chunk *next;
	size_t used, cap;
	char data[];
};

struct tw_memory {
	struct mach_tree_member *members;
	size_t n, cap;
	struct twm_chunk *chunks;
	int64_t mtime_ns;         /* every member's: when the tree was begun */
};

/* A copy of @len bytes of @src (NUL-terminated) in the tree's chunks, or NULL. */
static char *twm_copy(struct tw_memory *t, const char *src, size_t len)
{
	struct twm_chunk *c = t->chunks;
	char *dst;

	if (!c || c->cap - c->used < len + 1) {
		size_t cap = len + 1 > TWM_CHUNK / 4 ? len + 1 : TWM_CHUNK;
		struct twm_chunk *fresh = malloc(sizeof(*fresh) + cap);

		if (!fresh)
			return NULL;
		fresh->used = 0;
		fresh->cap = cap;
		/* a chunk of its own goes behind the current one, which still has room */
		if (c && cap != TWM_CHUNK) {
			fresh->next = c->next;
			c->next = fresh;
		} else {
			fresh->next = c;
			t->chunks = fresh;
		}
		c = fresh;
	}
	dst = c->data + c->used;
	memcpy(dst, src, len);
	dst[len] = '\0';
	c->used += len + 1;
	return dst;
}

int twm_begin(struct tree_writer *w, const char *name, char *err, size_t errlen)
{
	struct timespec now;

	memset(w, 0, sizeof(*w));
	w->tmpfd = -1;
	w->mem = calloc(1, sizeof(*w->mem));
	w->dest = strdup(name);
	if (!w->mem || !w->dest) {
		twm_abort(w);
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	w->mem->mtime_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	return 0;
}

int twm_add(struct tree_writer *w, char type, const char *rel, const char *data, size_t len, unsigned int mode,
	    char *err, size_t errlen)
{
	struct tw_memory *t = w->mem;
	struct mach_tree_member *m;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4096;
		struct mach_tree_member *grown = realloc(t->members, cap * sizeof(*grown));

		if (!grown)
			goto nomem;
		t->members = grown;
		t->cap = cap;
	}
	m = &t->members[t->n];
	*m = (struct mach_tree_member){ .type = type, .mode = mode, .mtime_ns = t->mtime_ns, .len = len };
	if (!(m->path = twm_copy(t, rel, strlen(rel))) || !(m->data = twm_copy(t, data, len)))
		goto nomem;
	t->n++;
	w->files++;
	return 0;
nomem:
	snprintf(err, errlen, "%s/%s: out of memory", w->dest, rel);
	return -ENOMEM;
}

const struct mach_tree_member *twm_members(const struct tree_writer *w, size_t *n)
{
	*n = w->mem->n;
	return w->mem->members;
}

void twm_abort(struct tree_writer *w)
{
	struct tw_memory *t = w->mem;

	if (t) {
		while (t->chunks) {
			struct twm_chunk *next = t->chunks->next;

			free(t->chunks);
			t->chunks = next;
		}
		free(t->members);
		free(t);
	}
	free(w->dest);
	memset(w, 0, sizeof(*w));
	w->tmpfd = -1;
}

int twm_load(struct tree_writer *w, struct mach_machine **out, struct mach_load_report *report, char *err,
	     size_t errlen)
{
	struct tw_memory *t = w->mem;
	struct mach_tree_member *proc = NULL, *sys = NULL;
	struct mach_load_opts o = { 0 };
	char *sys_name = NULL;
	size_t nproc = 0, nsys = 0;
	int rc = -ENOMEM;

	/* members in the loader's terms: proc/'s and sys/'s apart, each beneath its own root */
	if (t->n) {
		proc = malloc(t->n * sizeof(*proc));
		sys = malloc(t->n * sizeof(*sys));
	}
	if (asprintf(&sys_name, "%s/sys", w->dest) < 0)
		sys_name = NULL;
	if ((t->n && (!proc || !sys)) || !sys_name) {
		snprintf(err, errlen, "%s: out of memory", w->dest);
		goto out;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct mach_tree_member *m = &t->members[i];

		if (!strncmp(m->path, "proc/", 5)) {
			proc[nproc] = *m;
			proc[nproc++].path += 5;
		} else if (!strncmp(m->path, "sys/", 4)) {
			sys[nsys] = *m;
			sys[nsys++].path += 4;
		} else {
			/* a tree written by tw_machine holds nothing else; a capture's own file is the caller's */
			rc = -EINVAL;
			snprintf(err, errlen, "%s/%s: neither in proc/ nor in sys/", w->dest, m->path);
			goto out;
		}
	}
	o.members = proc;
	o.nmembers = nproc;
	if (nsys) {
		o.sys_members = sys;
		o.nsys_members = nsys;
		o.sys_dir = sys_name;
	}
	rc = pfs_load_tree(w->dest, &o, out, report, err, errlen);
out:
	free(sys_name);
	free(proc);
	free(sys);
	return rc;
}
