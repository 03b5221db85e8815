// SPDX-License-Identifier: MIT
/*
 * file.c - open, read and release: each open is its own seq_file snapshot,
 * read with direct I/O (st_size is 0, as procfs says), and a read at offset
 * 0 regenerates it (top reads /proc/stat again after lseek 0).
 *
 * Why not the page cache (measured, issue 16): a cached read stops at the
 * inode's i_size, which FUSE takes from st_size, and st_size must stay 0
 * as procfs's.  No-open mode (ENOSYS from open, FUSE_CAP_NO_OPEN_SUPPORT)
 * spares the OPEN and RELEASE requests but reads every file as empty for
 * that reason, and pushing text with notify_store moves i_size for every
 * stat() while also letting two readers' renderings mix in one page cache.
 * Direct I/O keeps one rendering per open, so the floor is one OPEN and
 * one READ round trip per file; passthrough (passthrough.c), where the
 * kernel has it, takes a small file's READs away too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs_int.h"

static void free_handle(struct pfs_fuse *fs, struct handle *h)
{
	seq_release(&h->m);
	fs->src->ops->close(fs->src, &h->view);
	free(h);
}

void fs_track_handle(struct pfs_fuse *fs, struct handle *h)
{
	pthread_mutex_lock(&fs->handles_lock);
	h->prev = NULL;
	h->next = fs->handles;
	if (fs->handles)
		fs->handles->prev = h;
	fs->handles = h;
	pthread_mutex_unlock(&fs->handles_lock);
}

static void untrack_handle(struct pfs_fuse *fs, struct handle *h)
{
	pthread_mutex_lock(&fs->handles_lock);
	if (h->prev)
		h->prev->next = h->next;
	else
		fs->handles = h->next;
	if (h->next)
		h->next->prev = h->prev;
	pthread_mutex_unlock(&fs->handles_lock);
}

void fs_free_handles(struct pfs_fuse *fs)
{
	while (fs->handles) {
		struct handle *h = fs->handles;

		fs->handles = h->next;
		free_handle(fs, h);
	}
	while (fs->dir_handles) {
		struct dir_handle *d = fs->dir_handles;

		fs->dir_handles = d->next;
		pfs_listing_free(&d->l);
		free(d);
	}
}

/* Open @h's view and seq_file: the source finds the task and checks access. */
static int open_handle(struct pfs_fuse *fs, fuse_req_t req, struct handle *h, char *err, size_t errlen)
{
	struct pfs_source *s = fs->src;
	struct pfs_reader r;
	int rc;

	fs_reader(fs, req, &r);
	if (s->ops->advance)
		s->ops->advance(s);
	rc = s->ops->open(s, &r, &h->node, &h->view, err, errlen);
	if (rc)
		return rc;
	rc = s->ops->enter(s, &h->node, &h->view);
	if (rc)
		return -ENOENT; /* it exited since open found it */
	rc = pfs_open(&h->m, &h->node, &h->view.ctx);
	h->whole_at_zero = pfs_node_whole_at_zero(&h->node, &h->view.ctx);
	if (!rc && pfs_node_fstype(&h->node) == PFS_FST_CGROUP && !(h->node.entry->mode & 0444)) {
		/* cgroupfs lets root open a write-only file; its read has no show to call */
		h->view.ctx.read_denied = true;
		h->view.ctx.read_err = EINVAL;
	}
	s->ops->leave(s, &h->view);
	return rc;
}

void fs_op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct handle *h;
	char err[256] = "";
	int rc;

	COUNT(fs, open);
	h = calloc(1, sizeof(*h));
	if (!h) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (fs_node(fs, req, ino, &h->node)) {
		free(h);
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (pfs_node_is_dir(&h->node) || h->node.entry->kind != PFS_FILE) {
		free(h);
		fuse_reply_err(req, EISDIR);
		return;
	}
	if ((fi->flags & O_ACCMODE) != O_RDONLY ||
	    (pfs_node_fstype(&h->node) == PFS_FST_SYSFS && !(h->node.entry->mode & 0444))) {
		/* nothing here accepts writes (yet); kernfs refuses a read of a file with no read bit, even root's */
		free(h);
		fuse_reply_err(req, EACCES);
		return;
	}
	rc = open_handle(fs, req, h, err, sizeof(err));
	if (rc) {
		/* refusals the kernel makes too (a zombie's mounts: EINVAL) are no news */
		if (rc != -ESRCH && rc != -ENOENT && rc != -EACCES && rc != pfs_entry_absent_rc(h->node.entry))
			fprintf(stderr, "uprocfs: open %s: %s\n", h->node.entry->path, err[0] ? err : strerror(-rc));
		free_handle(fs, h);
		fuse_reply_err(req, -rc);
		return;
	}
	if (fs_pt_open(fs, req, ino, h, fi))
		return;
	fs_track_handle(fs, h);
	fi->fh = (uint64_t)(uintptr_t)h;
	fi->direct_io = 1;  /* st_size is 0: every read must reach us */
	fi->keep_cache = 0;
	fi->noflush = 1;    /* nothing to flush: spare close() a round trip */
	fuse_reply_open(req, fi);
}

void fs_op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;
	struct pfs_source *s = fs->src;
	char stackbuf[16384], *buf = stackbuf;
	loff_t pos = off;
	ssize_t n;
	int rc;

	(void)ino;
	COUNT(fs, read);
	if (off < 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (off > 0 && h->whole_at_zero) {
		/* the proc_dointvec family answers only a read from the start */
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	/* a read at 0 regenerates: the clock moves first */
	if (off == 0 && s->ops->advance)
		s->ops->advance(s);
	if (h->view.ctx.read_denied) {
		/* the kernel checks these in show(): the open succeeded, every read fails */
		fuse_reply_err(req, h->view.ctx.read_err ? h->view.ctx.read_err : EACCES);
		return;
	}
	if (size > sizeof(stackbuf)) {
		buf = malloc(size);
		if (!buf) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
	}
	/* The model may have moved since the last read: the source finds the task again. */
	rc = s->ops->enter(s, &h->node, &h->view);
	if (rc) {
		if (h->started)
			fuse_reply_buf(req, NULL, 0); /* it exited: end of file */
		else
			fuse_reply_err(req, ESRCH);
	} else {
		n = seq_read(&h->m, buf, size, &pos);
		s->ops->leave(s, &h->view);
		h->started = true;
		if (n < 0)
			fuse_reply_err(req, (int)-n);
		else
			fuse_reply_buf(req, buf, (size_t)n);
	}
	if (buf != stackbuf)
		free(buf);
}

void fs_op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;

	(void)ino;
	COUNT(fs, release);
	untrack_handle(fs, h); /* first: the refresher may be rewriting its memfd */
	fs_pt_release(fs, h);
	free_handle(fs, h);
	fuse_reply_err(req, 0);
}
