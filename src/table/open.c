// SPDX-License-Identifier: MIT
/*
 * open.c - a node of the table against a model: binding it to the task it
 * shows, opening it through the seq_file protocol, rendering it whole, and
 * walking every loadable file of a machine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table_int.h"

int pfs_bind(const struct mach_machine *mach, const struct pfs_node *n, struct pfs_ctx *c)
{
	c->mach = mach;
	c->proc = NULL;
	c->thread = NULL;
	c->arg = n->entry ? n->entry->arg : 0;
	c->inst = n->inst;
	c->whole = true;
	if (n->pid) {
		/* /proc/<tid> of any thread works, as in the kernel, though readdir lists leaders only */
		c->thread = mach_find_any_thread(mach, n->pid, &c->proc);
		if (!c->thread)
			return -ENOENT;
		if (n->tid) {
			if (c->proc->tgid != n->pid)
				return -ENOENT; /* task/ lists the threads of a group leader only */
			c->thread = mach_find_thread(c->proc, n->tid);
			if (!c->thread)
				return -ENOENT;
			c->whole = false;
		}
	}
	if (n->entry && n->scope >= PFS_SCOPE_SYS) {
		if (strchr(n->entry->path, '*') && !pfs_chain_exists(n, c))
			return -ENOENT; /* cpu9/online of a machine of eight */
	} else if (n->entry && pfs_entry_is_star(n->entry) && pfs_coll_is_leaf(n->entry->coll) &&
		   !pfs_coll_ops(n->entry->coll)->has(c, n->inst)) {
		return -ENOENT; /* fd/7 of a task with no fd 7 */
	}
	return pfs_node_exists(n, c) ? 0 : -ENOENT;
}

int pfs_open(struct seq_file *m, const struct pfs_node *n, struct pfs_ctx *ctx)
{
	const struct pfs_entry *e = n->entry;

	if (!e || e->kind == PFS_DIR)
		return -EISDIR;
	if (e->kind == PFS_LINK)
		return -ELOOP; /* symlinks are read with readlink, not opened */
	if (n->pid && (!ctx->proc || !ctx->thread))
		return -EINVAL;
	if ((e->access & PFS_ACC_NEED_NS) && !mach_thread_has_nsproxy(ctx->thread))
		return -EINVAL; /* mounts_open_common: no nsproxy, no mount namespace */
	ctx->arg = e->arg;
	ctx->inst = n->inst;
	if (e->ops)
		return seq_open(m, e->ops, ctx);
	if (e->first_size)
		return seq_single_open_size(m, e->show, ctx, e->first_size(ctx));
	return seq_single_open(m, e->show, ctx);
}

/* A symlink's target as readlink gives it: the text a tree holds for it. */
static int render_link(const struct pfs_node *n, const struct pfs_ctx *ctx_in, char **out, size_t *len)
{
	struct pfs_ctx ctx = *ctx_in;
	char *buf = malloc(PFS_LINK_MAX);
	int rc;

	if (!buf)
		return -ENOMEM;
	ctx.arg = n->entry->arg;
	ctx.inst = n->inst;
	rc = n->entry->readlink(&ctx, buf, PFS_LINK_MAX);
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	*len = strlen(buf);
	return 0;
}

int pfs_render(const struct pfs_node *n, const struct pfs_ctx *ctx_in, char **out, size_t *len)
{
	struct pfs_ctx ctx = *ctx_in;
	struct seq_file m;
	size_t cap = 8192, have = 0;
	char *buf;
	loff_t pos = 0;
	ssize_t got;
	int err;

	if (n->entry && n->entry->kind == PFS_LINK)
		return render_link(n, ctx_in, out, len);
	err = pfs_open(&m, n, &ctx);
	if (err)
		return err;
	buf = malloc(cap);
	if (!buf) {
		seq_release(&m);
		return -ENOMEM;
	}
	for (;;) {
		if (cap - have < 4096) {
			char *bigger = realloc(buf, cap * 2);
			if (!bigger) {
				err = -ENOMEM;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
		got = seq_read(&m, buf + have, cap - have, &pos);
		if (got <= 0) {
			err = (int)got;
			break;
		}
		have += (size_t)got;
	}
	seq_release(&m);
	if (err) {
		free(buf);
		return err;
	}
	/* the loop left at least 4096 bytes unread: room for a NUL, so callers may search the text as a string */
	buf[have] = '\0';
	*out = buf;
	*len = have;
	return 0;
}

int pfs_resolve(const struct mach_machine *mach, const char *path, struct pfs_node *n, struct pfs_ctx *ctx,
		char *err, size_t errlen)
{
	int rc = pfs_parse_path(path, mach, n, err, errlen);

	memset(ctx, 0, sizeof(*ctx));
	if (rc)
		return rc;
	ctx->ptrace_ok = true;
	rc = pfs_bind(mach, n, ctx);
	if (!rc)
		return 0;
	if (n->pid && !mach_find_any_thread(mach, n->pid, &ctx->proc))
		snprintf(err, errlen, "%s: no process %d on this machine", path, (int)n->pid);
	else if (n->tid && !(ctx->proc && ctx->proc->tgid == n->pid && mach_find_thread(ctx->proc, n->tid)))
		snprintf(err, errlen, "%s: no such thread of process %d", path, (int)n->pid);
	else
		snprintf(err, errlen, "%s: not on this machine", path);
	return rc;
}

/*
 * Whether @n has something to write: a link that resolves (a kernel
 * thread's exe does not), an fd whose file the model knows.
 */
static bool node_renders(const struct pfs_node *n, const struct pfs_ctx *c)
{
	if (n->entry->kind == PFS_LINK) {
		struct pfs_ctx lc = *c;
		char buf[PFS_LINK_MAX];

		lc.arg = n->entry->arg;
		lc.inst = n->inst;
		return n->entry->readlink(&lc, buf, sizeof(buf)) == 0;
	}
	return !pfs_coll_is_leaf(n->entry->coll) || pfs_coll_known(n->entry, c, n->inst);
}

/* Every instance of a leaf collection entry @n (fd/N), bound in turn. */
static int each_instance(const struct mach_machine *mach, struct pfs_node *n,
			 int (*fn)(void *arg, const struct pfs_node *n, const struct pfs_ctx *c), void *arg)
{
	struct pfs_ctx c = { .ptrace_ok = true };
	uint64_t pos = 0;
	uint32_t inst;
	int rc;

	n->inst = 0;
	if (pfs_bind(mach, &(struct pfs_node){ .entry = NULL, .scope = n->scope, .pid = n->pid, .tid = n->tid }, &c))
		return 0;
	c.ptrace_ok = true;
	while (pfs_coll_ops(n->entry->coll)->next(&c, 0, &pos, &inst)) {
		struct pfs_ctx ic = { .ptrace_ok = true };

		n->inst = inst;
		if (pfs_bind(mach, n, &ic) || !node_renders(n, &ic))
			continue; /* an fd whose target was never known: nothing to write */
		rc = fn(arg, n, &ic);
		if (rc)
			return rc;
	}
	return 0;
}

/* The loadable files of one scope, for one place in it. */
static int each_in_scope(const struct mach_machine *mach, unsigned int flags, enum pfs_scope scope, pid_t pid,
			 pid_t tid, int (*fn)(void *arg, const struct pfs_node *n, const struct pfs_ctx *c), void *arg)
{
	for (size_t i = 0; i < pfs_nentries; i++) {
		const struct pfs_entry *e = &pfs_entries[i];
		struct pfs_node n = { .entry = e, .scope = scope, .pid = pid, .tid = tid };
		struct pfs_ctx c = { .ptrace_ok = true };
		int rc;

		if (!(e->scopes & PFS_IN(scope)) || e->kind == PFS_DIR)
			continue;
		if (!(flags & PFS_EACH_ALL) && e->load == MACH_LD_NONE)
			continue;
		if (strchr(e->path, '*')) {
			rc = pfs_coll_is_leaf(e->coll) ? each_instance(mach, &n, fn, arg) : 0;
		} else {
			if (pfs_bind(mach, &n, &c) || !node_renders(&n, &c))
				continue;
			if ((e->access & PFS_ACC_NEED_MM) && !c.proc->mm)
				continue; /* opening it fails (ESRCH): a tree has no such file, as the loader reads it */
			rc = fn(arg, &n, &c);
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* The entry of @coll's instances ("*" in the sysctl scope), or NULL. */
static const struct pfs_entry *coll_entry(enum pfs_coll coll)
{
	for (size_t i = 0; i < pfs_nentries; i++)
		if (pfs_entries[i].coll == coll && pfs_entry_is_star(&pfs_entries[i]))
			return &pfs_entries[i];
	return NULL;
}

/*
 * The keys under sysctl directory @dir, depth first in name order: those a
 * read gives back the same (not write-only, not failing, not random).
 */
static int each_sysctl(const struct mach_machine *mach, const struct pfs_entry *keys, uint32_t dir,
		       int (*fn)(void *arg, const struct pfs_node *n, const struct pfs_ctx *c), void *arg)
{
	const struct mach_sysctl_node *d = &mach->sysctl->nodes[dir];
	const struct pfs_coll_ops *ops = pfs_coll_ops(keys->coll);
	int rc = 0;

	for (uint32_t k = 0; k < d->nkids && !rc; k++) {
		uint32_t id = d->kids[k];
		struct pfs_node n = { .entry = keys, .scope = PFS_SCOPE_SYSCTL, .inst = id };
		struct pfs_ctx c = { .ptrace_ok = true };

		if (mach->sysctl->nodes[id].kind == MACH_SYSCTL_DIR)
			rc = each_sysctl(mach, keys, id, fn, arg);
		else if (!pfs_bind(mach, &n, &c) && ops->loadable(&c, id))
			rc = fn(arg, &n, &c);
	}
	return rc;
}

#define SYS_DEPTH_MAX 16

/* The files of /sys below directory @dir, depth first in listing order; not the write-only ones (cgroup.kill). */
static int each_sys(const struct mach_machine *mach, unsigned int flags, const struct pfs_node *dir,
		    unsigned int depth, int (*fn)(void *arg, const struct pfs_node *n, const struct pfs_ctx *c),
		    void *arg)
{
	struct pfs_ctx c = { .ptrace_ok = true };
	struct pfs_listing l;
	int rc;

	if (depth > SYS_DEPTH_MAX || pfs_bind(mach, dir, &c))
		return 0;
	rc = pfs_dir_list(dir, &c, &l);
	for (size_t i = 0; i < l.n && !rc; i++) {
		const struct pfs_node *n = &l.ents[i].node;
		struct pfs_ctx fc = { .ptrace_ok = true };

		if (n->entry->kind == PFS_DIR)
			rc = each_sys(mach, flags, n, depth + 1, fn, arg);
		else if (((flags & PFS_EACH_ALL) || n->entry->load != MACH_LD_NONE) && !pfs_bind(mach, n, &fc) &&
			 (pfs_node_mode(n, &fc) & 0444) && node_renders(n, &fc) &&
			 !(n->entry->refuses && n->entry->refuses(&fc)))
			rc = fn(arg, n, &fc);
	}
	pfs_listing_free(&l);
	return rc;
}

int pfs_for_each_file(const struct mach_machine *mach, unsigned int flags,
		      int (*fn)(void *arg, const struct pfs_node *n, const struct pfs_ctx *c), void *arg)
{
	const struct pfs_entry *keys = coll_entry(PFS_COLL_SYSCTL_KEYS);
	struct pfs_node sys = pfs_tree_root(PFS_SCOPE_SYS);
	int rc = each_in_scope(mach, flags, PFS_SCOPE_GLOBAL, 0, 0, fn, arg);

	if (!rc && keys && mach->sysctl && ((flags & PFS_EACH_ALL) || keys->load != MACH_LD_NONE))
		rc = each_sysctl(mach, keys, 0, fn, arg);

	for (size_t p = 0; !rc && p < mach->nprocs; p++) {
		const struct mach_process *proc = &mach->procs[p];

		rc = each_in_scope(mach, flags, PFS_SCOPE_TGID, proc->tgid, 0, fn, arg);
		for (unsigned int t = 0; !rc && t < proc->nthreads; t++)
			rc = each_in_scope(mach, flags, PFS_SCOPE_TID, proc->tgid, proc->threads[t].tid, fn, arg);
	}
	return rc ? rc : each_sys(mach, flags, &sys, 0, fn, arg);
}
