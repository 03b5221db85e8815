// SPDX-License-Identifier: MIT
/*
 * made.c - an mm's VMAs, a namespace's mounts and a process's fd table for
 * whoever reads them: the stored arrays, or the ones its machine's maker
 * makes (a synthetic machine's, replayed from the seed), kept per thread.
 *
 * Why per thread: renderers take a const model and many daemon threads
 * read at once, so the made VMAs cannot go into the mm.  A reader renders
 * one task's file at a time and reads a file in pieces of a page or so:
 * the last mm's VMAs, kept until the thread asks for another mm's, make
 * every piece after the first free.  The key is the mm's (the table's)
 * serial, which no other mm or table ever gets, so a freed mm's VMAs can
 * never be served for a new one at the same address.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "uprocfs/machine.h"

/* One kind of made thing this thread keeps: the last mm's VMAs, or the last table's mounts. */
struct made_slot {
	uint64_t serial;           /* whose they are (0: none) */
	void *block;               /* one block from the maker (make, make_mounts): one free() */
};

struct made_cache {
	struct made_slot vmas, mounts;
	struct made_slot files;    /* block: a struct mach_files, freed with mach_files_free */
};

/* Whether @slot holds what @serial names; a serial of 0 (an mm made by hand) never matches. */
static bool slot_has(const struct made_slot *slot, uint64_t serial)
{
	return serial && slot->serial == serial;
}

/* @made, @serial's block, kept in @slot instead of what it held. */
static void slot_keep(struct made_slot *slot, uint64_t serial, void *made)
{
	free(slot->block);
	slot->block = made;
	slot->serial = serial;
}

static const struct mach_maker_ops *maker_ops[MACH_NR_MAKERS];

void mach_maker_register(enum mach_maker_kind kind, const struct mach_maker_ops *ops)
{
	if ((unsigned int)kind < MACH_NR_MAKERS)
		maker_ops[kind] = ops;
}

const struct mach_maker_ops *mach_maker_ops(const struct mach_maker *mk)
{
	return mk && (unsigned int)mk->kind < MACH_NR_MAKERS ? maker_ops[mk->kind] : NULL;
}

static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static int cache_key_rc;

void mach_vmas_free(struct mach_vma *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].name);
	free(v);
}

static void cache_free(void *p)
{
	struct made_cache *c = p;

	free(c->vmas.block); /* made VMAs are one block, names and all */
	free(c->mounts.block);
	mach_files_free(c->files.block);
	free(c);
}

static void cache_key_make(void)
{
	cache_key_rc = -pthread_key_create(&cache_key, cache_free);
}

/* This thread's cache, made on first use: NULL when there is no memory for it. */
static struct made_cache *thread_cache(void)
{
	struct made_cache *c;

	pthread_once(&cache_once, cache_key_make);
	if (cache_key_rc)
		return NULL;
	c = pthread_getspecific(cache_key);
	if (!c && (c = calloc(1, sizeof(*c))) && pthread_setspecific(cache_key, c)) {
		free(c);
		c = NULL;
	}
	return c;
}

int mach_mm_vmas(const struct mach_mm *mm, const struct mach_vma **out)
{
	const struct mach_maker_ops *ops;
	struct made_cache *c;
	struct mach_vma *made = NULL;
	int rc;

	if (!mm->maker || !mm->nvmas) {
		*out = mm->vmas;
		return 0;
	}
	if (!(c = thread_cache()))
		return -ENOMEM;
	if (!slot_has(&c->vmas, mm->serial)) {
		/* a snapshot's maker in a program without its producer: no VMAs to be had */
		if (!(ops = mach_maker_ops(mm->maker)))
			return -ENOSYS;
		if ((rc = ops->make(mm->maker, mm, &made)))
			return rc;
		slot_keep(&c->vmas, mm->serial, made);
	}
	*out = c->vmas.block;
	return 0;
}

int mach_mnt_table_mounts(const struct mach_mnt_table *t, const struct mach_mount **out)
{
	const struct mach_maker_ops *ops = t->maker ? mach_maker_ops(t->maker) : NULL;
	struct made_cache *c;
	struct mach_mount *made = NULL;
	int rc;

	*out = t->mounts;
	if (!t->maker || !t->n)
		return 0;
	if (!(c = thread_cache()))
		return -ENOMEM;
	if (!slot_has(&c->mounts, t->serial)) {
		if (!ops || !ops->make_mounts)
			return -ENOSYS;
		if ((rc = ops->make_mounts(t->maker, t, &made)))
			return rc;
		slot_keep(&c->mounts, t->serial, made);
	}
	*out = c->mounts.block;
	return 0;
}

int mach_files_fds(const struct mach_files *f, const struct mach_fd **out)
{
	const struct mach_maker_ops *ops = f->maker ? mach_maker_ops(f->maker) : NULL;
	struct made_cache *c;
	struct mach_files *made = NULL;
	int rc;

	*out = f->fds;
	if (!f->maker || !f->nfds)
		return 0;
	if (!(c = thread_cache()))
		return -ENOMEM;
	if (!slot_has(&c->files, f->serial)) {
		if (!ops || !ops->make_files)
			return -ENOSYS;
		if ((rc = ops->make_files(f->maker, f, &made)))
			return rc;
		/* a table is no single block: its fdinfo values and names are its own */
		mach_files_free(c->files.block);
		c->files.block = made;
		c->files.serial = f->serial;
	}
	*out = ((const struct mach_files *)c->files.block)->fds;
	return 0;
}

int mach_files_store(struct mach_files *f)
{
	const struct mach_maker_ops *ops = f->maker ? mach_maker_ops(f->maker) : NULL;
	struct mach_files *made = NULL;
	int rc;

	if (!f->maker)
		return 0;
	if (f->nfds) {
		if (!ops || !ops->make_files)
			return -ENOSYS;
		if ((rc = ops->make_files(f->maker, f, &made)))
			return rc;
		f->fds = made->fds;
		made->fds = NULL;
		mach_files_free(made);
	}
	f->maker = NULL;
	return 0;
}
