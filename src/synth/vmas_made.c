// SPDX-License-Identifier: MIT
/*
 * vmas_made.c - a synthetic machine's VMAs, made again from the seed when a
 * reader asks for them instead of stored (issue 16: a million tasks in a
 * gigabyte).
 *
 * An mm's VMAs with their smaps counters are some 10 KB of a process's
 * 15; everything that decides them is the process's plan entry, its own
 * and its layout root's streams, the machine-wide catalogues (library
 * paths and inodes, who maps which file) and a few facts fixed when the
 * process was built (its pid, its thread count, its root device).  The
 * maker keeps exactly those: the plan, the sharing table and 16 bytes per
 * process.  Making an mm's VMAs replays its build (sy_replay_mm) on a copy
 * of the generator's state, so any number of readers make VMAs at once.
 *
 * The build still maps every process once: the mm's counters (VmSize,
 * RSS, VmSwap...) and the user stacks of its threads come from the VMAs.
 * It lends them to the mm while the process is built and takes the list
 * back after, so no copy of them is ever made.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "synth_int.h"

/* What the build learned of one process that its replay needs. */
struct mm_input {
	pid_t tgid;
	uint32_t nthreads;        /* when it was built: one user stack each */
	uint32_t root_major, root_minor;
};

struct sy_vma_maker {
	struct mach_vma_maker base;   /* first: the model knows only this */
	struct mach_synth_opts o;
	/*
	 * The generator as it stood before the tasks, m NULL: a replay points
	 * its copy's o at the copy above, so a maker copied elsewhere needs
	 * only tmpl.gen, tmpl.share.group and in set to their copies.
	 */
	struct synth tmpl;
	struct mm_input *in;          /* by plan index, nin of them */
	size_t nin;
	bool owns_plan;               /* tmpl.gen and tmpl.share.group are its to free */
	bool deny_write;              /* the kernel marks executables' mappings VM_DENYWRITE */
};

/*
 * @mm's VMAs and the @len bytes of names at @names (each VMA's name its
 * offset + 1) into one new block at *@out, names after the VMAs: a reader
 * frees all of it with one free().  0 or -ENOMEM.
 */
static int one_block(const struct mach_mm *mm, const char *names, size_t len, struct mach_vma **out)
{
	size_t bytes = mm->nvmas * sizeof(**out);
	struct mach_vma *v = malloc(bytes + len + 1);
	char *at = (char *)v + bytes;

	if (!v)
		return -ENOMEM;
	memcpy(v, mm->vmas, bytes);
	if (len)
		memcpy(at, names, len);
	for (size_t i = 0; i < mm->nvmas; i++)
		if (v[i].name)
			v[i].name = at + ((uintptr_t)v[i].name - 1);
	*out = v;
	return 0;
}

static int make_vmas(const struct mach_vma_maker *base, const struct mach_mm *mm, struct mach_vma **out)
{
	const struct sy_vma_maker *mk = (const struct sy_vma_maker *)base;
	const struct mm_input *in = &mk->in[mm->maker_key];
	struct mach_mm scratch = { .vm_swap = mm->vm_swap, .cmdline_len = mm->cmdline_len,
				   .environ_len = mm->environ_len };
	struct synth *s = malloc(sizeof(*s));
	int rc;

	if (!s)
		return -ENOMEM;
	*s = mk->tmpl;
	s->o = &mk->o;
	s->replay = true;
	s->root_major = in->root_major;
	s->root_minor = in->root_minor;
	/* the list's size is known: no growing it */
	s->vb = malloc(mm->nvmas * sizeof(*s->vb));
	s->vcap = s->vb ? mm->nvmas : 0;
	rc = sy_replay_mm(s, mm->maker_key, in->tgid, in->nthreads, &scratch);
	if (!rc && scratch.nvmas != mm->nvmas)
		rc = -EIO; /* the replay drew differently from the build: a generator bug, never half a file */
	if (!rc)
		rc = one_block(&scratch, s->names, s->names_len, out);
	if (!rc && mk->deny_write)
		sy_deny_write_vmas(*out, mm->nvmas, mm->exe);
	free(s->vb); /* a failure's list; a replay's lent one is scratch.vmas */
	free(scratch.vmas);
	free(s->names);
	free(s);
	return rc;
}

static void release(struct mach_vma_maker *base)
{
	struct sy_vma_maker *mk = (struct sy_vma_maker *)base;

	if (mk->owns_plan) {
		free(mk->tmpl.gen);
		free(mk->tmpl.share.group);
	}
	free(mk->in);
	free(mk);
}

/* @n elements of @size at @src into memory from @take; NULL when it ran out. */
static void *copy_array(const void *src, size_t n, size_t size, void *(*take)(void *ctx, size_t size), void *ctx)
{
	void *d = take(ctx, n && size ? n * size : 1);

	if (d && n)
		memcpy(d, src, n * size);
	return d;
}

/*
 * The plan (48 bytes a process), the sharing table (4) and the inputs
 * (16): what a snapshot carries instead of some 10 KB of VMAs a process.
 */
static struct mach_vma_maker *copy(const struct mach_vma_maker *base, void *(*take)(void *ctx, size_t size),
				   void *ctx)
{
	const struct sy_vma_maker *mk = (const struct sy_vma_maker *)base;
	struct sy_vma_maker *d = copy_array(mk, 1, sizeof(*mk), take, ctx);

	if (!d)
		return NULL;
	d->owns_plan = false;
	d->tmpl.gen = copy_array(mk->tmpl.gen, mk->tmpl.n, sizeof(*mk->tmpl.gen), take, ctx);
	d->tmpl.share.group = copy_array(mk->tmpl.share.group, mk->tmpl.n, sizeof(*mk->tmpl.share.group), take, ctx);
	d->in = copy_array(mk->in, mk->nin, sizeof(*mk->in), take, ctx);
	return d->tmpl.gen && d->tmpl.share.group && d->in ? &d->base : NULL;
}

static const struct mach_vma_maker_ops synth_maker_ops = {
	.make = make_vmas,
	.release = release,
	.copy = copy,
};

/* Every program that links the generator makes its VMAs, a snapshot's too (the preload library). */
__attribute__((constructor)) static void register_maker(void)
{
	mach_vma_maker_register(MACH_VMA_MAKER_SYNTH, &synth_maker_ops);
}

int sy_vma_maker_new(struct synth *s)
{
	struct sy_vma_maker *mk;

	if (s->o->store_vmas)
		return 0;
	if (!(mk = calloc(1, sizeof(*mk))) || !(mk->in = calloc(s->m->nprocs ? s->m->nprocs : 1, sizeof(*mk->in)))) {
		free(mk);
		return -ENOMEM;
	}
	mk->base.kind = MACH_VMA_MAKER_SYNTH;
	mk->nin = s->m->nprocs;
	mk->o = *s->o;
	mk->tmpl = *s;
	mk->tmpl.o = &mk->o;
	mk->tmpl.m = NULL;
	mk->tmpl.vb = NULL;
	mk->tmpl.vn = mk->tmpl.vcap = 0;
	mk->tmpl.vmaker = NULL;
	/* what the build frees and a replay never reads */
	mk->tmpl.user_seen = NULL;
	mk->tmpl.ns = NULL;
	mk->tmpl.netns_of = NULL;
	mk->tmpl.first_prog = NULL;
	s->vmaker = mk;
	s->m->vma_maker = &mk->base;
	return 0;
}

void sy_vma_maker_keep(struct synth *s, size_t idx, const struct mach_process *p)
{
	struct mach_mm *mm = p->mm;

	if (!s->vmaker || !mm || !mm->vmas)
		return;
	s->vmaker->in[idx] = (struct mm_input){ .tgid = p->tgid, .nthreads = p->nthreads,
						.root_major = s->root_major, .root_minor = s->root_minor };
	s->names_len = 0; /* the names lay in the generator's block, the next mm's now */
	if (!s->vb) {
		s->vb = mm->vmas;
		s->vcap = s->vcap_lent;
	} else {
		free(mm->vmas);
	}
	mm->vmas = NULL;
	mm->maker = &s->vmaker->base;
	mm->maker_key = (uint32_t)idx;
}

void sy_vma_maker_deny_write(struct synth *s)
{
	if (s->vmaker)
		s->vmaker->deny_write = true;
}

bool sy_vma_maker_adopt(struct synth *s)
{
	if (!s->vmaker)
		return false;
	s->vmaker->owns_plan = true;
	return true;
}
