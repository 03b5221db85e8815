// SPDX-License-Identifier: MIT
/*
 * attr.c - callers, attributes, lookup and readlink.
 *
 * A FUSE request carries the calling thread's id in the pid namespace of
 * whoever mounted the tree, the namespace of the procfs that describes
 * callers; its status names the thread group.  Task directories belong to
 * the task's effective uid and carry its start time, as fs/proc/base.c sets
 * them; everything else is root's, dated at mount time.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../source/mirror.h"
#include "fs_int.h"

/* The caller's ids in the mounting namespace, cached a second per host thread id. */
static void caller_ids(struct pfs_fuse *fs, pid_t host_tid, pid_t *tgid, pid_t *tid)
{
	struct caller *slot = &fs->callers[(unsigned int)host_tid % CALLER_SLOTS];
	uint64_t now = fs_now_ns();
	pid_t g = 0, t = 0;

	pthread_mutex_lock(&fs->callers_lock);
	if (slot->host_tid == host_tid && now - slot->seen_ns < 1000000000ull) {
		*tgid = slot->ns_tgid;
		*tid = slot->ns_tid;
		pthread_mutex_unlock(&fs->callers_lock);
		return;
	}
	pthread_mutex_unlock(&fs->callers_lock);
	if (mirror_translate_tid(fs->opts.caller_proc_fd, host_tid, &g, &t))
		g = t = 0;
	pthread_mutex_lock(&fs->callers_lock);
	*slot = (struct caller){ .host_tid = host_tid, .ns_tgid = g, .ns_tid = t, .seen_ns = now };
	pthread_mutex_unlock(&fs->callers_lock);
	*tgid = g;
	*tid = t;
}

void fs_reader(struct pfs_fuse *fs, fuse_req_t req, struct pfs_reader *r)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);

	/* root holds CAP_SYS_PTRACE, CAP_SYS_ADMIN and CAP_SYS_NICE unless it dropped them */
	*r = (struct pfs_reader){ .uid = ctx->uid, .gid = ctx->gid, .cap_sys_ptrace = ctx->uid == 0,
				  .cap_sys_admin = ctx->uid == 0, .cap_sys_nice = ctx->uid == 0 };
	if (fs->opts.caller_proc_fd >= 0 && ctx->pid > 0)
		caller_ids(fs, ctx->pid, &r->pid, &r->tid);
}

int fs_node(struct pfs_fuse *fs, fuse_req_t req, uint64_t ino, struct pfs_node *n)
{
	struct pfs_reader r;

	if (node_from_ino(ino, n))
		return -1;
	if (!n->entry)
		*n = pfs_tree_root(fs->opts.tree); /* FUSE's root is this mount's tree */
	if (node_needs_tgid(n)) {
		fs_reader(fs, req, &r);
		n->pid = fs->src->ops->tgid_of(fs->src, &r, n->tid);
		if (!n->pid)
			return -1;
	}
	return 0;
}

/* The mode of a node whose instances have their own (/proc/sys), read through a view of it. */
static int machine_mode(struct pfs_fuse *fs, const struct pfs_node *n, struct stat *st)
{
	struct pfs_source *s = fs->src;
	struct pfs_view v;
	char err[128];
	int rc;

	/* no reader: the mode of a key the reader may not open is still shown */
	rc = s->ops->open(s, NULL, n, &v, err, sizeof(err));
	if (!rc)
		rc = s->ops->enter(s, n, &v);
	if (!rc) {
		st->st_mode = pfs_node_mode(n, &v.ctx);
		s->ops->leave(s, &v);
	}
	s->ops->close(s, &v);
	return rc == -ESRCH ? -ENOENT : rc;
}

int fs_dir_access(struct pfs_fuse *fs, fuse_req_t req, const struct pfs_node *dir)
{
	struct pfs_source *s = fs->src;
	struct pfs_reader r;
	struct pfs_view v;
	char err[256];
	int rc;

	if (!dir->entry || dir->entry->kind != PFS_DIR || !dir->entry->access || !dir->pid)
		return 0;
	fs_reader(fs, req, &r);
	rc = s->ops->open(s, &r, dir, &v, err, sizeof(err));
	s->ops->close(s, &v);
	return rc;
}

/* A kernfs directory's link count: 2 and its subdirectories, counted on the machine through a view. */
static int kernfs_nlink(struct pfs_fuse *fs, const struct pfs_node *n, struct stat *st)
{
	struct pfs_source *s = fs->src;
	struct pfs_view v;
	char err[128];
	int rc;

	rc = s->ops->open(s, NULL, n, &v, err, sizeof(err));
	if (!rc)
		rc = s->ops->enter(s, n, &v);
	if (!rc) {
		st->st_nlink = 2 + pfs_dir_subdirs(n, &v.ctx);
		s->ops->leave(s, &v);
	}
	s->ops->close(s, &v);
	return rc == -ESRCH ? -ENOENT : rc;
}

int fs_node_stat(struct pfs_fuse *fs, fuse_req_t req, const struct pfs_node *n, struct stat *st)
{
	struct pfs_reader r;
	int rc;

	memset(st, 0, sizeof(*st));
	st->st_ino = node_ino(n);
	st->st_mode = pfs_node_mode(n, NULL);
	st->st_nlink = pfs_node_is_dir(n) ? 2 : 1;
	st->st_size = pfs_node_size(n); /* sysfs: a page per attribute, so lseek(SEEK_END) gives 4096 */
	st->st_atim = st->st_mtim = st->st_ctim = fs->mount_time;
	if (pfs_node_is_dir(n) && pfs_dir_hashed(n)) {
		rc = n->entry ? fs->src->ops->exists(fs->src, NULL, n) : 0;
		return rc ? rc : kernfs_nlink(fs, n, st);
	}
	if (!n->entry)
		return 0;
	rc = fs_visible(fs, req, n);
	if (rc)
		return rc;
	fs_reader(fs, req, &r);
	rc = fs->src->ops->exists(fs->src, &r, n);
	if (!rc && pfs_node_mode_needs_machine(n))
		rc = machine_mode(fs, n, st);
	if (rc || !n->pid)
		return rc;
	return fs->src->ops->task_attr(fs->src, &r, n, st);
}

double fs_entry_timeout(const struct pfs_fuse *fs, const struct pfs_node *n)
{
	/* self and thread-self differ per reader */
	if (n->entry && n->entry->kind == PFS_LINK && !n->pid)
		return 0;
	/* what a hiding mount shows depends on the reader */
	if (fs_hiding(fs) && n->pid)
		return 0;
	/* real processes come and go */
	if (fs->src->volatile_from && n->pid >= fs->src->volatile_from)
		return 0;
	return fs->cache_timeout;
}

static void reply_negative(struct pfs_fuse *fs, fuse_req_t req, const struct pfs_node *n, int rc)
{
	/*
	 * A cached negative entry spares the next identical lookup, unless
	 * another reader may see it, or a real process may take that pid.
	 */
	struct fuse_entry_param e = { .ino = 0, .entry_timeout = n ? fs_entry_timeout(fs, n) : fs->cache_timeout };

	if (rc && rc != -ENOENT)
		fuse_reply_err(req, -rc);
	else
		fuse_reply_entry(req, &e);
}

/* The child @name of @dir: named entries (/proc/sys) are looked up in the machine, through a view. */
static int child_of(struct pfs_fuse *fs, fuse_req_t req, const struct pfs_node *dir, const char *name,
		    struct pfs_node *out)
{
	struct pfs_source *s = fs->src;
	struct pfs_reader r;
	struct pfs_view v;
	char err[128];
	int rc;

	if (!pfs_dir_needs_machine(dir))
		return pfs_child(dir, name, NULL, out);
	fs_reader(fs, req, &r);
	rc = s->ops->open(s, &r, dir, &v, err, sizeof(err));
	if (!rc)
		rc = s->ops->enter(s, dir, &v);
	if (!rc) {
		rc = pfs_child(dir, name, &v.ctx, out);
		s->ops->leave(s, &v);
	}
	s->ops->close(s, &v);
	return rc;
}

void fs_op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct fuse_entry_param e;
	struct pfs_node p, c;

	int rc;

	COUNT(fs, lookup);
	if (fs_node(fs, req, parent, &p) || child_of(fs, req, &p, name, &c)) {
		reply_negative(fs, req, NULL, 0);
		return;
	}
	/* fdinfo/: the kernel checks ptrace access on the directory before any name in it */
	rc = fs_dir_access(fs, req, &p);
	if (rc) {
		fuse_reply_err(req, rc == -EACCES ? EACCES : ENOENT);
		return;
	}
	memset(&e, 0, sizeof(e));
	rc = fs_node_stat(fs, req, &c, &e.attr);
	if (rc) {
		reply_negative(fs, req, &c, rc);
		return;
	}
	e.ino = node_ino(&c);
	e.attr_timeout = fs_entry_timeout(fs, &c) ? fs->cache_timeout : 0;
	e.entry_timeout = fs_entry_timeout(fs, &c);
	fuse_reply_entry(req, &e);
}

void fs_op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct pfs_node n;
	struct stat st;
	int rc;

	(void)fi;
	COUNT(fs, getattr);
	rc = fs_node(fs, req, ino, &n) ? -ENOENT : fs_node_stat(fs, req, &n, &st);
	if (rc)
		fuse_reply_err(req, -rc);
	else
		fuse_reply_attr(req, &st, S_ISLNK(st.st_mode) || !fs_entry_timeout(fs, &n) ? 0 : fs->cache_timeout);
}

void fs_op_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct pfs_source *s = fs->src;
	struct pfs_reader r;
	struct pfs_view v;
	struct pfs_node n;
	char target[4096], err[256];
	int rc;

	COUNT(fs, readlink);
	if (fs_node(fs, req, ino, &n) || !n.entry || n.entry->kind != PFS_LINK) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	fs_reader(fs, req, &r);
	rc = s->ops->open(s, &r, &n, &v, err, sizeof(err));
	if (!rc) {
		rc = s->ops->enter(s, &n, &v);
		if (!rc) {
			rc = n.entry->readlink(&v.ctx, target, sizeof(target));
			s->ops->leave(s, &v);
		}
	}
	s->ops->close(s, &v);
	if (rc)
		fuse_reply_err(req, rc == -ESRCH ? ENOENT : -rc);
	else
		fuse_reply_readlink(req, target);
}
