// SPDX-License-Identifier: MIT
/*
 * intern.c - the generator's interned strings (struct mach_str_block):
 * each distinct fd path, cwd, environment, command line and exe path of
 * the built processes kept once (issue 16: a million tasks in a gigabyte).
 *
 * Every builder (the build's worker threads each have their own struct
 * synth) keeps its own blocks and its own table of what they hold, so no
 * lock is taken: a string two workers both meet is kept twice, which costs
 * a few kilobytes.  When a builder is done its blocks go to the machine and
 * its table is freed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "synth_int.h"

#define BLOCK_BYTES (64u * 1024 - 64)  /* most blocks: a malloc of 64 KiB */

struct slot {
	const char *at;            /* NULL: empty */
	uint32_t len;
	uint32_t hash;
};

struct sy_intern {
	struct mach_str_block *blocks;  /* the newest first: where new strings go */
	struct slot *slots;             /* open addressing, a power of two long */
	size_t cap, used;
};

/* A 64-bit mix of @len bytes at @p, eight at a time: the table's hash, not a checksum. */
static uint64_t hash_bytes(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = len * UINT64_C(0x9e3779b97f4a7c15);

	for (; len >= 8; b += 8, len -= 8) {
		uint64_t w;

		memcpy(&w, b, 8);
		h = (h ^ w) * UINT64_C(0xff51afd7ed558ccd);
		h ^= h >> 32;
	}
	if (len) {
		uint64_t w = 0;

		memcpy(&w, b, len);
		h = (h ^ w) * UINT64_C(0xc4ceb9fe1a85ec53);
	}
	return h ^ (h >> 29);
}

static int grow_table(struct sy_intern *in)
{
	size_t cap = in->cap ? in->cap * 2 : 1024;
	struct slot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < in->cap; i++) {
		size_t k = in->slots[i].hash & (cap - 1);

		if (!in->slots[i].at)
			continue;
		while (slots[k].at)
			k = (k + 1) & (cap - 1);
		slots[k] = in->slots[i];
	}
	free(in->slots);
	in->slots = slots;
	in->cap = cap;
	return 0;
}

/*
 * Room for @len bytes in the newest block (a new one when it is full),
 * 8-aligned so that a struct of 64-bit fields (a limits set) may lie
 * there too: where they go, or NULL.
 */
static char *room(struct sy_intern *in, size_t len)
{
	struct mach_str_block *b = in->blocks;
	char *at;

	if (b)
		b->used = (b->used + 7) & ~(size_t)7;
	if (!b || b->used > b->cap || b->cap - b->used < len) {
		size_t cap = len > BLOCK_BYTES ? len : BLOCK_BYTES;

		if (!(b = malloc(sizeof(*b) + cap)))
			return NULL;
		b->cap = cap;
		b->used = 0;
		b->next = in->blocks;
		in->blocks = b;
	}
	at = b->bytes + b->used;
	b->used += len;
	return at;
}

char *sy_intern(struct synth *s, const void *bytes, size_t len)
{
	struct sy_intern *in = s->intern;
	uint64_t h = hash_bytes(bytes, len);
	size_t k;
	char *at;

	if (len > UINT32_MAX)
		return NULL;
	if (!in && !(in = s->intern = calloc(1, sizeof(*in))))
		return NULL;
	if ((in->used + 1) * 2 > in->cap && grow_table(in))
		return NULL;
	for (k = h & (in->cap - 1); in->slots[k].at; k = (k + 1) & (in->cap - 1))
		if (in->slots[k].hash == (uint32_t)h && in->slots[k].len == len && !memcmp(in->slots[k].at, bytes, len))
			return (char *)in->slots[k].at;
	/* a NUL after the bytes: a path is then a C string where it lies */
	if (!(at = room(in, len + 1)))
		return NULL;
	memcpy(at, bytes, len);
	at[len] = '\0';
	in->slots[k] = (struct slot){ .at = at, .len = (uint32_t)len, .hash = (uint32_t)h };
	in->used++;
	return at;
}

int sy_thread_cred(struct synth *s, struct mach_thread *t, const struct mach_cred *want)
{
	struct mach_cred c;
	char *at;

	/* field by field onto zeroes: the bytes compared must not include stray padding */
	memset(&c, 0, sizeof(c));
	memcpy(c.uid, want->uid, sizeof(c.uid));
	memcpy(c.gid, want->gid, sizeof(c.gid));
	c.ngroups = want->ngroups;
	if (want->ngroups && !(c.groups = (uint32_t *)sy_intern(s, want->groups, want->ngroups * sizeof(uint32_t))))
		return -ENOMEM;
	c.cap_inh = want->cap_inh;
	c.cap_prm = want->cap_prm;
	c.cap_eff = want->cap_eff;
	c.cap_bnd = want->cap_bnd;
	c.cap_amb = want->cap_amb;
	c.no_new_privs = want->no_new_privs;
	c.seccomp_mode = want->seccomp_mode;
	c.seccomp_filters = want->seccomp_filters;
	c.ssb = want->ssb;
	c.sib = want->sib;
	c.loginuid = want->loginuid;
	c.sessionid = want->sessionid;
	c.personality = want->personality;
	c.x86_features = want->x86_features;
	c.x86_features_locked = want->x86_features_locked;
	if (!(at = sy_intern(s, &c, sizeof(c))))
		return -ENOMEM;
	if (t->cred && !t->cred_interned) {
		free(t->cred->groups);
		free(t->cred);
	}
	t->cred = (struct mach_cred *)(void *)at;
	t->cred_interned = true;
	return 0;
}

char *sy_intern_str(struct synth *s, const char *str)
{
	return sy_intern(s, str, strlen(str));
}

void sy_intern_forget(struct synth *s)
{
	s->intern = NULL;
	memset(s->env_memo, 0, sizeof(s->env_memo));
}

void sy_intern_finish(struct synth *s)
{
	struct sy_intern *in = s->intern;
	struct mach_str_block *last;

	if (!in)
		return;
	if (in->blocks && s->m) {
		for (last = in->blocks; last->next; last = last->next)
			;
		last->next = s->m->interned;
		s->m->interned = in->blocks;
	} else {
		for (struct mach_str_block *b = in->blocks, *next; b; b = next) {
			next = b->next;
			free(b);
		}
	}
	free(in->slots);
	free(in);
	sy_intern_forget(s); /* the environments it remembers lay in those blocks */
}
