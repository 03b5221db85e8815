// SPDX-License-Identifier: MIT
/*
 * maker.c - a synthetic machine's VMAs and containers' mount tables, made
 * again from the seed when a reader asks for them instead of stored
 * (issue 16: a million tasks in a gigabyte).
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
 *
 * A container's or pod's mount table (some 25 mounts, 3 KB) is its
 * template filled with ids, devices and names drawn from its owner's
 * stream: the maker keeps the table's plan and its shim (20 bytes a
 * table), and once per machine what the tables read besides (RAM for
 * tmpfs sizes, the disks' filesystems for the files bound in).  At a
 * million tasks a Kubernetes node has some 450,000 of them, a quarter of
 * the model.  The host's, devtmpfs's and services' tables stay stored:
 * there are a handful and they read the whole machine.
 *
 * A process's fd table (10 fds a process, 48 bytes each, and their fdinfo
 * values) is drawn from its own stream, its program, its ids and its
 * parent's, and the sockets the network gives it, which are themselves a
 * function of the plan and every process's ids (sy_net_proc_sockets).  The
 * maker keeps those ids (20 bytes a process), each process's network
 * namespace (2) and each namespace's first process of every program.  The
 * build measures each table (FDSize, the count fd/ reports) and drops its
 * fds; a table the build changes after (an fd opened to hold a lock) is
 * made again then and stored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns_int.h"

/* What the build learned of one process that its replay needs. */
struct mm_input {
	pid_t tgid;
	uint32_t nthreads;        /* when it was built: one user stack each */
	uint32_t root_major, root_minor;
};

/* A made mount table: its plan and its shim's plan index. */
struct mnt_input {
	struct sy_mnt_plan plan;
	uint32_t shim;
};

/*
 * A disk's filesystem as a made table binds files from it: struct
 * sy_blockfs without the pointers into the program that built it, which a
 * copy in another program (a snapshot) could not follow.
 */
struct mnt_disk {
	bool present, has_opts;
	uint32_t major, minor;
	char dev[sizeof(((struct sy_blockfs *)0)->dev)];
	char opts[128];
};

struct sy_maker {
	struct mach_maker base;   /* first: the model knows only this */
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
	/* mount tables: by made table (struct mach_mnt_table.maker_key), nmnt_in of them */
	struct mnt_input *mnt_in;
	size_t nmnt_in;
	size_t nfirst_prog;           /* tmpl.first_prog's entries: a row of NR_PROGS per network namespace */
	uint64_t ram_kb;              /* MemTotal: what tmpfs sizes follow */
	struct mnt_disk disks[SY_NR_BLOCKFS];
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

static int make_vmas(const struct mach_maker *base, const struct mach_mm *mm, struct mach_vma **out)
{
	const struct sy_maker *mk = (const struct sy_maker *)base;
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

/* The @t->n mounts of @t and their strings copied into one new block at *@out: 0 or -ENOMEM. */
static int mounts_block(const struct mach_mnt_table *t, struct mach_mount **out)
{
	size_t bytes = t->n * sizeof(**out), len = 0;
	struct mach_mount *v;
	char *at;

	for (size_t i = 0; i < t->n; i++) {
		const char *str[] = { t->mounts[i].root, t->mounts[i].point, t->mounts[i].fstype,
				      t->mounts[i].source, t->mounts[i].fs_opts };

		for (size_t k = 0; k < sizeof(str) / sizeof(str[0]); k++)
			len += str[k] ? strlen(str[k]) + 1 : 0;
	}
	if (!(v = malloc(bytes + len + 1)))
		return -ENOMEM;
	memcpy(v, t->mounts, bytes);
	at = (char *)v + bytes;
	for (size_t i = 0; i < t->n; i++) {
		char **str[] = { &v[i].root, &v[i].point, &v[i].fstype, &v[i].source, &v[i].fs_opts };

		for (size_t k = 0; k < sizeof(str) / sizeof(str[0]); k++) {
			size_t n;

			if (!*str[k])
				continue;
			n = strlen(*str[k]) + 1;
			*str[k] = memcpy(at, *str[k], n);
			at += n;
		}
	}
	*out = v;
	return 0;
}

static int make_mounts(const struct mach_maker *base, const struct mach_mnt_table *t, struct mach_mount **out)
{
	const struct sy_maker *mk = (const struct sy_maker *)base;
	struct mach_mnt_table made = { 0 };
	const struct mnt_input *in;
	struct synth *s;
	int rc;

	if (t->maker_key >= mk->nmnt_in)
		return -EINVAL;
	in = &mk->mnt_in[t->maker_key];
	if (!(s = malloc(sizeof(*s))))
		return -ENOMEM;
	*s = mk->tmpl;
	s->o = &mk->o;
	for (size_t i = 0; i < SY_NR_BLOCKFS; i++) {
		const struct mnt_disk *d = &mk->disks[i];

		s->blockfs[i] = (struct sy_blockfs){ .present = d->present, .major = d->major, .minor = d->minor,
						     .opts = d->has_opts ? d->opts : NULL };
		memcpy(s->blockfs[i].dev, d->dev, sizeof(d->dev));
	}
	rc = ns_fill_container(s, &in->plan, in->shim, mk->ram_kb, &made);
	if (!rc && made.n != t->n)
		rc = -EIO; /* a generator bug: never half a file */
	if (!rc)
		rc = mounts_block(&made, out);
	mach_mnt_table_clear(&made);
	free(s);
	return rc;
}

static int make_files(const struct mach_maker *base, const struct mach_files *f, struct mach_files **out)
{
	const struct sy_maker *mk = (const struct sy_maker *)base;
	struct mach_files *made;
	struct synth *s;
	int rc;

	if (f->maker_key >= mk->tmpl.n)
		return -EINVAL;
	if (!(s = malloc(sizeof(*s))) || !(made = calloc(1, sizeof(*made)))) {
		free(s);
		return -ENOMEM;
	}
	*s = mk->tmpl;
	s->o = &mk->o;
	s->replay = true;
	rc = sy_make_files(s, f->maker_key, made);
	if (!rc && made->nfds != f->nfds)
		rc = -EIO; /* the replay drew differently from the build: a generator bug, never half a file */
	made->max_fds = f->max_fds;
	made->serial = f->serial;
	if (rc)
		mach_files_free(made);
	else
		*out = made;
	free(s);
	return rc;
}

static void release(struct mach_maker *base)
{
	struct sy_maker *mk = (struct sy_maker *)base;

	if (mk->owns_plan) {
		free(mk->tmpl.gen);
		free(mk->tmpl.share.group);
		free(mk->tmpl.ids);
		free(mk->tmpl.netns_of);
		free(mk->tmpl.first_prog);
	}
	free(mk->in);
	free(mk->mnt_in);
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
 * The plan (48 bytes a process), the sharing table (4), the inputs (16),
 * the ids (20) and network namespaces (2): what a snapshot carries instead
 * of some 10 KB of VMAs and 0.5 KB of fds a process.
 */
static struct mach_maker *copy(const struct mach_maker *base, void *(*take)(void *ctx, size_t size),
				   void *ctx)
{
	const struct sy_maker *mk = (const struct sy_maker *)base;
	struct sy_maker *d = copy_array(mk, 1, sizeof(*mk), take, ctx);

	if (!d)
		return NULL;
	d->owns_plan = false;
	d->tmpl.gen = copy_array(mk->tmpl.gen, mk->tmpl.n, sizeof(*mk->tmpl.gen), take, ctx);
	d->tmpl.share.group = copy_array(mk->tmpl.share.group, mk->tmpl.n, sizeof(*mk->tmpl.share.group), take, ctx);
	d->in = copy_array(mk->in, mk->nin, sizeof(*mk->in), take, ctx);
	d->mnt_in = copy_array(mk->mnt_in, mk->nmnt_in, sizeof(*mk->mnt_in), take, ctx);
	d->tmpl.ids = copy_array(mk->tmpl.ids, mk->tmpl.n, sizeof(*mk->tmpl.ids), take, ctx);
	d->tmpl.netns_of = mk->tmpl.netns_of ? copy_array(mk->tmpl.netns_of, mk->tmpl.n, sizeof(*mk->tmpl.netns_of),
							  take, ctx) : NULL;
	d->tmpl.first_prog = mk->tmpl.first_prog ? copy_array(mk->tmpl.first_prog, mk->nfirst_prog,
							      sizeof(*mk->tmpl.first_prog), take, ctx) : NULL;
	return d->tmpl.gen && d->tmpl.share.group && d->in && d->mnt_in && d->tmpl.ids &&
			       (d->tmpl.netns_of || !mk->tmpl.netns_of) && (d->tmpl.first_prog || !mk->tmpl.first_prog) ?
		       &d->base : NULL;
}

static const struct mach_maker_ops synth_maker_ops = {
	.make = make_vmas,
	.make_mounts = make_mounts,
	.make_files = make_files,
	.release = release,
	.copy = copy,
};

/* Every program that links the generator makes its VMAs, a snapshot's too (the preload library). */
__attribute__((constructor)) static void register_maker(void)
{
	mach_maker_register(MACH_MAKER_SYNTH, &synth_maker_ops);
}

int sy_maker_new(struct synth *s)
{
	struct sy_maker *mk;

	if (s->o->store_vmas && s->o->store_mounts && s->o->store_fds)
		return 0;
	if (!(mk = calloc(1, sizeof(*mk))) || !(mk->in = calloc(s->m->nprocs ? s->m->nprocs : 1, sizeof(*mk->in)))) {
		free(mk);
		return -ENOMEM;
	}
	mk->base.kind = MACH_MAKER_SYNTH;
	mk->nin = s->m->nprocs;
	mk->o = *s->o;
	mk->tmpl = *s;
	mk->tmpl.o = &mk->o;
	mk->tmpl.m = NULL;
	mk->tmpl.vb = NULL;
	mk->tmpl.vn = mk->tmpl.vcap = 0;
	mk->tmpl.maker = NULL;
	sy_intern_forget(&mk->tmpl); /* a replay interns nothing: it makes no strings the model keeps */
	/* what the build frees and a replay never reads */
	mk->tmpl.user_seen = NULL;
	mk->tmpl.ns = NULL;
	mk->tmpl.sock_fds = NULL;
	/* the ids, namespaces and first programs fd tables read stay: the maker owns them once adopted */
	mk->nfirst_prog = (size_t)(1 + s->ncontainers) * NR_PROGS;
	s->maker = mk;
	s->m->maker = &mk->base;
	return 0;
}

void sy_maker_keep_vmas(struct synth *s, size_t idx, const struct mach_process *p)
{
	struct mach_mm *mm = p->mm;

	if (!sy_vmas_made(s) || !mm || !mm->vmas)
		return;
	s->maker->in[idx] = (struct mm_input){ .tgid = p->tgid, .nthreads = p->nthreads,
						.root_major = s->root_major, .root_minor = s->root_minor };
	s->names_len = 0; /* the names lay in the generator's block, the next mm's now */
	if (!s->vb) {
		s->vb = mm->vmas;
		s->vcap = s->vcap_lent;
	} else {
		free(mm->vmas);
	}
	mm->vmas = NULL;
	mm->maker = &s->maker->base;
	mm->maker_key = (uint32_t)idx;
}

void sy_maker_keep_files(struct synth *s, size_t idx, struct mach_files *f)
{
	mach_files_drop_fds(f);
	f->maker = &s->maker->base;
	f->maker_key = (uint32_t)idx;
}

void sy_maker_deny_write(struct synth *s)
{
	if (s->maker)
		s->maker->deny_write = true;
}

bool sy_maker_adopt(struct synth *s)
{
	if (!s->maker)
		return false;
	s->maker->owns_plan = true;
	return true;
}

int sy_maker_mounts_begin(struct synth *s, bool *made)
{
	struct sy_maker *mk = s->maker;

	*made = false;
	if (!mk || s->o->store_mounts)
		return 0;
	if (!(mk->mnt_in = calloc(s->m->nmnt_tables ? s->m->nmnt_tables : 1, sizeof(*mk->mnt_in))))
		return -ENOMEM;
	mk->ram_kb = s->m->meminfo[MACH_MEMINFO_MEMTOTAL];
	for (size_t i = 0; i < SY_NR_BLOCKFS; i++) {
		const struct sy_blockfs *b = &s->blockfs[i];
		struct mnt_disk *d = &mk->disks[i];

		*d = (struct mnt_disk){ .present = b->present, .has_opts = b->opts != NULL, .major = b->major,
					.minor = b->minor };
		memcpy(d->dev, b->dev, sizeof(d->dev));
		if (b->opts && (size_t)snprintf(d->opts, sizeof(d->opts), "%s", b->opts) >= sizeof(d->opts))
			return -EOVERFLOW; /* a longer option string in devices.c wants a bigger field here */
	}
	*made = true;
	return 0;
}

void sy_maker_keep_mounts(struct synth *s, const struct sy_mnt_plan *mp, size_t shim, struct mach_mnt_table *t)
{
	struct sy_maker *mk = s->maker;

	mk->mnt_in[mk->nmnt_in] = (struct mnt_input){ .plan = *mp, .shim = (uint32_t)shim };
	t->n = ns_mnt_count(s, (enum sy_mnt_kind)mp->kind);
	t->maker = &mk->base;
	t->maker_key = (uint32_t)mk->nmnt_in++;
	t->serial = mach_new_serial();
}
