// SPDX-License-Identifier: MIT
/*
 * readdir.c - directory listings: ".", "..", the table's entries for the
 * directory in table order, then the instances of its collection (pids or
 * tids) ascending, as fs/proc lists them; a /proc/sys directory's
 * subdirectories and keys together, in name order, as the sysctl tree does.
 *
 * A listing's offset is the position of the next entry: fixed entries count
 * up from 1, instances are ID_OFFSET_BASE + id, so a listing resumed after
 * the task set changed goes on after the last id it returned.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs_int.h"

#define ID_OFFSET_BASE (1ull << 32)
#define ID_BATCH 256

struct dirbuf {
	struct pfs_fuse *fs;
	fuse_req_t req;
	char *buf;
	size_t size, used;
	bool plus, full;
};

/* Add one entry; false when the reply buffer is full. */
static bool dir_add(struct dirbuf *d, const char *name, const struct pfs_node *n, off_t next)
{
	size_t room = d->size - d->used, len;

	if (d->plus) {
		struct fuse_entry_param e;

		memset(&e, 0, sizeof(e));
		if (strcmp(name, ".") && strcmp(name, "..")) {
			if (fs_node_stat(d->fs, d->req, n, &e.attr))
				return true; /* vanished meanwhile: leave it out */
			e.ino = node_ino(n);
			e.attr_timeout = fs_entry_timeout(d->fs, n) ? d->fs->cache_timeout : 0;
			e.entry_timeout = fs_entry_timeout(d->fs, n);
		} else {
			e.attr.st_ino = node_ino(n);
			e.attr.st_mode = S_IFDIR;
		}
		len = fuse_add_direntry_plus(d->req, d->buf + d->used, room, name, &e, next);
	} else {
		struct stat st = { .st_ino = node_ino(n), .st_mode = pfs_node_mode(n, NULL) & S_IFMT };

		len = fuse_add_direntry(d->req, d->buf + d->used, room, name, &st, next);
	}
	if (len > room) {
		d->full = true;
		return false;
	}
	d->used += len;
	return true;
}

/* ".", ".." and the table's entries, from offset @off; false when the buffer filled. */
static bool list_fixed(struct dirbuf *d, const struct pfs_node *dir, uint64_t off)
{
	struct pfs_source *s = d->fs->src;
	struct pfs_reader r;
	unsigned int pos = 0;
	const char *name;
	struct pfs_node n;

	fs_reader(d->fs, d->req, &r);
	for (uint64_t i = 0;; i++) {
		if (i < 2) {
			name = i ? ".." : ".";
			n = *dir;
		} else if (!pfs_dir_next(dir, NULL, &pos, &name, &n)) {
			return true;
		}
		if (i < off)
			continue;
		if (i >= 2 && (s->ops->exists(s, &r, &n) || fs_visible(d->fs, d->req, &n) == -ENOENT))
			continue; /* absent on this machine (a profile without schedstat, ...), or hidden */
		if (!dir_add(d, name, &n, (off_t)(i + 1)))
			return false;
	}
}

/* The pids or tids of @dir from offset @off on. */
static void list_ids(struct dirbuf *d, const struct pfs_node *dir, const struct pfs_entry *coll, uint64_t off)
{
	struct pfs_source *s = d->fs->src;
	pid_t after = off > ID_OFFSET_BASE ? (pid_t)(off - ID_OFFSET_BASE) : 0, ids[ID_BATCH];
	struct pfs_reader r;
	size_t n;

	fs_reader(d->fs, d->req, &r);
	while (!d->full && (n = s->ops->list_ids(s, &r, dir, after, ids, ID_BATCH)) > 0) {
		for (size_t i = 0; i < n; i++) {
			struct pfs_node child = { .entry = coll, .scope = dir->entry ? dir->scope : PFS_SCOPE_GLOBAL,
						  .pid = dir->pid, .tid = dir->tid };
			char num[16];

			if (coll->coll == PFS_COLL_PIDS)
				child.pid = ids[i];
			else
				child.tid = ids[i];
			after = ids[i];
			if (fs_visible(d->fs, d->req, &child) == -ENOENT)
				continue;
			snprintf(num, sizeof(num), "%d", (int)ids[i]);
			if (!dir_add(d, num, &child, (off_t)(ID_OFFSET_BASE + (uint64_t)ids[i])))
				return;
		}
	}
}

/*
 * The instances of a collection with instances of its own (fd numbers,
 * /proc/sys entries) from offset @off on, read through a view of the
 * directory.  Offsets are ID_OFFSET_BASE + the listing cursor; fd numbers
 * instead use the instance plus one, so a listing resumed after the table
 * changed goes on after the last fd it returned, as fs/proc/fd.c does.
 */
static bool list_instances(struct dirbuf *d, const struct pfs_node *dir, const struct pfs_entry *coll,
			   uint64_t base, uint64_t off)
{
	/* NULL @coll: every collection of a directory whose collections share one cursor (/proc/sys) */
	const struct pfs_coll_ops *ops = pfs_coll_ops(coll ? coll->coll : pfs_dir_coll(dir, 0)->coll);
	struct pfs_source *s = d->fs->src;
	uint64_t pos = 0, offs[ID_BATCH];
	struct pfs_node nodes[ID_BATCH];
	char names[ID_BATCH][64];
	struct pfs_reader r;
	struct pfs_view v;
	size_t n = 0;
	char err[128];

	fs_reader(d->fs, d->req, &r);
	/* a batch under the view, then the entries: their attributes come from the source too */
	if (!s->ops->open(s, &r, dir, &v, err, sizeof(err)) && !s->ops->enter(s, dir, &v)) {
		while (n < ID_BATCH &&
		       (coll ? pfs_dir_next_instance(dir, coll, &v.ctx, &pos, &nodes[n], names[n], sizeof(names[n]))
			     : pfs_dir_next_merged(dir, &v.ctx, &pos, &nodes[n], names[n], sizeof(names[n])))) {
			offs[n] = base + (ops->numeric ? nodes[n].inst + 1ull : pos);
			if (offs[n] > off)
				n++;
		}
		s->ops->leave(s, &v);
	}
	s->ops->close(s, &v);
	for (size_t i = 0; i < n; i++)
		if (!dir_add(d, names[i], &nodes[i], (off_t)offs[i]))
			return false;
	return n < ID_BATCH;
}

/* Whether any of the table's entries of @dir exists for the reader. */
static bool any_fixed(struct pfs_fuse *fs, fuse_req_t req, const struct pfs_node *dir)
{
	unsigned int pos = 0;
	struct pfs_reader r;
	const char *name;
	struct pfs_node n;

	fs_reader(fs, req, &r);
	while (pfs_dir_next(dir, NULL, &pos, &name, &n))
		if (!fs->src->ops->exists(fs->src, &r, &n) && fs_visible(fs, req, &n) != -ENOENT)
			return true;
	return false;
}

static void do_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, bool plus)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct dirbuf d = { .fs = fs, .req = req, .size = size, .plus = plus };
	const struct pfs_entry *coll;
	struct pfs_node dir;
	bool more;

	COUNT(fs, readdir);
	if (fs_node(fs, req, ino, &dir) || !pfs_node_is_dir(&dir)) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	if (off < 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (dir.entry && dir.entry->empty_list_err && !any_fixed(fs, req, &dir)) {
		fuse_reply_err(req, -dir.entry->empty_list_err);
		return;
	}
	d.buf = malloc(size ? size : 1);
	if (!d.buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	more = (uint64_t)off >= ID_OFFSET_BASE || list_fixed(&d, &dir, (uint64_t)off);
	if (more && pfs_dir_merged(&dir)) {
		list_instances(&d, &dir, NULL, ID_OFFSET_BASE, (uint64_t)off);
	} else if (more) {
		/* each collection of the directory in turn, in its own range of offsets */
		for (unsigned int k = 0; (coll = pfs_dir_coll(&dir, k)); k++) {
			uint64_t base = ID_OFFSET_BASE * (k + 1);

			if ((uint64_t)off >= base + ID_OFFSET_BASE)
				continue;
			if (coll->coll == PFS_COLL_PIDS || coll->coll == PFS_COLL_TIDS)
				list_ids(&d, &dir, coll, (uint64_t)off);
			else if (!list_instances(&d, &dir, coll, base, (uint64_t)off))
				break;
			if (d.full)
				break;
		}
	}
	fuse_reply_buf(req, d.buf, d.used);
	free(d.buf);
}

void fs_op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	(void)fi;
	do_readdir(req, ino, size, off, false);
}

void fs_op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	(void)fi;
	do_readdir(req, ino, size, off, true);
}

void fs_op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct pfs_node n;
	struct stat st;

	int rc = fs_node(fs, req, ino, &n) ? -ENOENT : fs_node_stat(fs, req, &n, &st);

	if (!rc && !S_ISDIR(st.st_mode))
		rc = -ENOTDIR;
	/* hidepid=noaccess: a process directory is listed but may not be entered */
	if (!rc && n.pid)
		rc = fs_may_enter(fs, req, n.pid);
	if (!rc)
		rc = fs_dir_access(fs, req, &n);
	if (rc) {
		fuse_reply_err(req, -rc);
		return;
	}
	fuse_reply_open(req, fi);
}
