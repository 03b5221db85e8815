// SPDX-License-Identifier: MIT
/*
 * refuse.c - everything that would change the tree, answered as a read-only
 * procfs answers it.
 *
 * The tree is mounted read-only, so the kernel refuses most mutations with
 * EROFS before they reach us; these handlers answer whatever still arrives
 * (through another mount of the same connection, or an older kernel) the
 * same way, instead of libfuse's ENOSYS.  Seeking for data or holes and
 * fsync are EINVAL on procfs files; extended attributes are unsupported.
 */
#include <errno.h>

#include "fs_int.h"

static void refuse(fuse_req_t req, int err)
{
	fuse_reply_err(req, err);
}

static void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set, struct fuse_file_info *fi)
{
	(void)ino, (void)attr, (void)to_set, (void)fi;
	refuse(req, EROFS);
}

static void op_mknod(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode, dev_t rdev)
{
	(void)parent, (void)name, (void)mode, (void)rdev;
	refuse(req, EROFS);
}

static void op_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	(void)parent, (void)name, (void)mode;
	refuse(req, EROFS);
}

static void op_remove(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	(void)parent, (void)name;
	refuse(req, EROFS);
}

static void op_symlink(fuse_req_t req, const char *link, fuse_ino_t parent, const char *name)
{
	(void)link, (void)parent, (void)name;
	refuse(req, EROFS);
}

static void op_rename(fuse_req_t req, fuse_ino_t parent, const char *name, fuse_ino_t newparent,
		      const char *newname, unsigned int flags)
{
	(void)parent, (void)name, (void)newparent, (void)newname, (void)flags;
	refuse(req, EROFS);
}

static void op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent, const char *newname)
{
	(void)ino, (void)newparent, (void)newname;
	refuse(req, EROFS);
}

static void op_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode, struct fuse_file_info *fi)
{
	(void)parent, (void)name, (void)mode, (void)fi;
	refuse(req, EROFS);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	(void)ino, (void)buf, (void)size, (void)off, (void)fi;
	refuse(req, EBADF); /* opened read-only: write(2) on such a descriptor */
}

static void op_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
	(void)ino, (void)datasync, (void)fi;
	refuse(req, EINVAL);
}

static void op_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name, const char *value, size_t size,
			int flags)
{
	(void)ino, (void)name, (void)value, (void)size, (void)flags;
	refuse(req, EROFS);
}

static void op_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name, size_t size)
{
	(void)ino, (void)name, (void)size;
	refuse(req, ENOTSUP);
}

static void op_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	(void)ino;
	if (size)
		fuse_reply_buf(req, NULL, 0); /* no attributes */
	else
		fuse_reply_xattr(req, 0);
}

static void op_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	(void)ino, (void)name;
	refuse(req, EROFS);
}

static void op_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence, struct fuse_file_info *fi)
{
	/* FUSE sends only SEEK_DATA and SEEK_HOLE here; procfs's seq_lseek takes neither */
	(void)ino, (void)off, (void)whence, (void)fi;
	refuse(req, EINVAL);
}

static void op_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t offset, off_t length,
			 struct fuse_file_info *fi)
{
	(void)ino, (void)mode, (void)offset, (void)length, (void)fi;
	refuse(req, EBADF);
}

void fs_refusing_ops(struct fuse_lowlevel_ops *ops)
{
	ops->setattr = op_setattr;
	ops->mknod = op_mknod;
	ops->mkdir = op_mkdir;
	ops->unlink = op_remove;
	ops->rmdir = op_remove;
	ops->symlink = op_symlink;
	ops->rename = op_rename;
	ops->link = op_link;
	ops->create = op_create;
	ops->write = op_write;
	ops->fsync = op_fsync;
	ops->fsyncdir = op_fsync;
	ops->setxattr = op_setxattr;
	ops->getxattr = op_getxattr;
	ops->listxattr = op_listxattr;
	ops->removexattr = op_removexattr;
	ops->lseek = op_lseek;
	ops->fallocate = op_fallocate;
}
