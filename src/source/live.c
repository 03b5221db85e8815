// SPDX-License-Identifier: MIT
/*
 * live.c - the live kernel as a source (`--machine live`): every open reads
 * the kernel's files of that node through the loader and renders them again,
 * so what is served is what the model makes of the kernel's text, never the
 * text passed through.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mirror.h"
#include "source_int.h"

struct live_source {
	struct pfs_source base;
	int proc_fd;
};

static int live_fd(struct pfs_source *s)
{
	return ((struct live_source *)s)->proc_fd;
}

static int live_exists(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *n)
{
	struct mach_machine *m = NULL;
	struct pfs_ctx c = { 0 };
	char err[256];
	int rc;

	(void)r;
	if (n->scope != PFS_SCOPE_SYSCTL)
		return src_mirror_exists(live_fd(s), n);
	/* a /proc/sys node is a number in the tree as loaded: load it to find the node */
	rc = mirror_load_globals(live_fd(s), PFS_NEEDS(MACH_LD_SYSCTL), &m, err, sizeof(err));
	if (!rc)
		rc = pfs_bind(m, n, &c);
	mach_free(m);
	return rc ? -ENOENT : 0;
}

static int live_task_attr(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *n,
			  struct stat *st)
{
	struct stat real;
	char path[256];

	/* the kernel's own owner of this very entry: task_dump_owner differs between entries */
	(void)r;
	if (pfs_node_path(n, NULL, path, sizeof(path)) || fstatat(live_fd(s), path, &real, AT_SYMLINK_NOFOLLOW))
		return -ENOENT;
	st->st_uid = real.st_uid;
	st->st_gid = real.st_gid;
	st->st_atim = st->st_mtim = st->st_ctim = real.st_mtim;
	/* an fd link's mode is its file's open mode; fd/'s size the number of fds */
	st->st_mode = real.st_mode;
	st->st_size = real.st_size;
	return 0;
}

static size_t live_list_ids(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *dir,
			    pid_t after, pid_t *ids, size_t max)
{
	(void)r;
	return src_list_real_ids(live_fd(s), dir, after, ids, max);
}

/*
 * What the kernel refuses us (root, serving) it refuses every reader: pid
 * 1's maps where its user namespace is not ours, say.  The loader reads such
 * files as optional, so ask the kernel first: at open (0 or -errno), and
 * for what it checks only when read, the errno of the first read in
 * *@read_err.
 */
static int daemon_may_read(int procfd, const struct pfs_node *n, int *read_err)
{
	char path[256], target[8];
	int fd;

	*read_err = 0;
	if (!n->entry || pfs_node_path(n, NULL, path, sizeof(path)))
		return 0;
	if (n->entry->kind == PFS_DIR && !n->entry->access)
		return 0;
	if (n->entry->kind == PFS_LINK) {
		if (readlinkat(procfd, path, target, sizeof(target)) < 0 && (errno == EACCES || errno == EPERM))
			return -errno;
		return 0;
	}
	fd = openat(procfd, path, O_RDONLY | O_CLOEXEC | (n->entry->kind == PFS_DIR ? O_DIRECTORY : 0));
	if (fd < 0)
		return errno == EACCES || errno == EPERM ? -errno : 0;
	if ((n->entry->access & PFS_ACC_AT_READ) && read(fd, target, 1) < 0 &&
	    (errno == EACCES || errno == EPERM))
		*read_err = errno;
	close(fd);
	return 0;
}

static int live_open(struct pfs_source *s, const struct pfs_reader *r, const struct pfs_node *n,
		     struct pfs_view *v, char *err, size_t errlen)
{
	int rc, read_err;

	memset(v, 0, sizeof(*v));
	v->ctx.caller_pid = r ? r->pid : 0;
	v->ctx.caller_tid = r ? r->tid : 0;
	rc = daemon_may_read(live_fd(s), n, &read_err);
	if (rc)
		return rc;
	if (n->pid)
		rc = mirror_load_task(live_fd(s), n->pid, n->tid, node_needs(n), node_own(n), node_inst(n), &v->own,
				      err, errlen);
	else
		rc = mirror_load_globals(live_fd(s), node_needs(n), &v->own, err, errlen);
	if (rc)
		return rc == -ESRCH ? -ENOENT : rc; /* gone since the lookup */
	rc = pfs_bind(v->own, n, &v->ctx);
	if (!rc && r)
		rc = pfs_access_check(n, r, &v->ctx);
	else if (!rc)
		v->ctx.ptrace_ok = true;
	if (!rc && read_err && !v->ctx.read_denied) {
		v->ctx.read_denied = true;
		v->ctx.read_err = read_err;
	}
	return rc;
}

static int live_enter(struct pfs_source *s, const struct pfs_node *n, struct pfs_view *v)
{
	(void)s;
	(void)n;
	(void)v;
	return 0; /* what open loaded stays as it was */
}

static void live_leave(struct pfs_source *s, struct pfs_view *v)
{
	(void)s;
	(void)v;
}

static void live_close(struct pfs_source *s, struct pfs_view *v)
{
	(void)s;
	mach_free(v->own);
	v->own = NULL;
}

static void live_destroy(struct pfs_source *s)
{
	free(s);
}

static pid_t live_tgid_of(struct pfs_source *s, const struct pfs_reader *r, pid_t tid)
{
	pid_t tgid, ns_tid;

	(void)r;
	return mirror_translate_tid(live_fd(s), tid, &tgid, &ns_tid) ? 0 : tgid;
}

static int live_control(struct pfs_source *s, int (*fn)(void *arg, struct mach_machine *m), void *arg)
{
	(void)s;
	(void)fn;
	(void)arg;
	return -EOPNOTSUPP; /* the kernel's tasks are the kernel's to signal */
}

static const struct pfs_source_ops live_ops = {
	.exists = live_exists,
	.task_attr = live_task_attr,
	.list_ids = live_list_ids,
	.open = live_open,
	.enter = live_enter,
	.leave = live_leave,
	.close = live_close,
	.control = live_control,
	.tgid_of = live_tgid_of,
	.destroy = live_destroy,
};

int pfs_live_source_new(int proc_fd, struct pfs_source **out)
{
	struct live_source *ls = calloc(1, sizeof(*ls));

	if (!ls)
		return -ENOMEM;
	ls->base.ops = &live_ops;
	ls->base.stable = false;
	ls->proc_fd = proc_fd;
	*out = &ls->base;
	return 0;
}
