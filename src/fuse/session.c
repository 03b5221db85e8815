// SPDX-License-Identifier: MIT
/*
 * session.c - the FUSE session: mounting, the request loop, unmounting.
 *
 * The filesystem serves the file table (procfs.h) from a source (source.h):
 * /proc semantics as fs/proc/{root,base,generic}.c give them, and nothing
 * but what the table declares (anything else is ENOENT).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fs_int.h"

static void op_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	/* readdir with attributes: ps and top stat every pid directory they list */
	if (conn->capable & FUSE_CAP_READDIRPLUS)
		conn->want |= FUSE_CAP_READDIRPLUS;
	conn->want &= ~(unsigned int)FUSE_CAP_READDIRPLUS_AUTO;
	/* Pages of a file must never be cached: its content changes on every open. */
	conn->want &= ~(unsigned int)FUSE_CAP_AUTO_INVAL_DATA;
}

static struct fuse_lowlevel_ops pfs_ops = {
	.init = op_init,
	.lookup = fs_op_lookup,
	.getattr = fs_op_getattr,
	.readlink = fs_op_readlink,
	.open = fs_op_open,
	.read = fs_op_read,
	.release = fs_op_release,
	.opendir = fs_op_opendir,
	.releasedir = fs_op_releasedir,
	.readdir = fs_op_readdir,
	.readdirplus = fs_op_readdirplus,
};

/* ------------------------------------------------------------------ */
/* Lifetime                                                            */

static int check_fuse_available(const char *mountpoint, char *err, size_t errlen)
{
	struct stat st;

	if (access("/dev/fuse", R_OK | W_OK)) {
		snprintf(err, errlen, "/dev/fuse is not available (%s): load the fuse module or run "
				      "where FUSE is allowed", strerror(errno));
		return -ENODEV;
	}
	if (getuid() != 0 && access("/usr/bin/fusermount3", X_OK) && access("/bin/fusermount3", X_OK)) {
		snprintf(err, errlen, "fusermount3 not found: install the Debian package fuse3");
		return -ENOENT;
	}
	if (stat(mountpoint, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a directory to mount on", mountpoint);
		return -ENOTDIR;
	}
	return 0;
}

int pfs_fuse_create(struct pfs_fuse **out, struct pfs_source *src, const struct pfs_fuse_opts *o,
		    char *err, size_t errlen)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct pfs_fuse *fs;
	char opts[256];
	int rc;

	char fdpath[32];

	if (o->mounted_fd >= 0) {
		/* libfuse takes "/dev/fd/N" to mean: already mounted, serve this descriptor */
		snprintf(fdpath, sizeof(fdpath), "/dev/fd/%d", o->mounted_fd);
	} else {
		rc = check_fuse_available(o->mountpoint, err, errlen);
		if (rc)
			return rc;
	}
	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return -ENOMEM;
	fs->src = src;
	fs->opts = *o;
	fs->mountpoint = strdup(o->mountpoint);
	pthread_mutex_init(&fs->callers_lock, NULL);
	pthread_mutex_init(&fs->handles_lock, NULL);
	clock_gettime(CLOCK_REALTIME, &fs->mount_time);
	fs->cache_timeout = src->stable ? CACHE_TIMEOUT_STABLE : CACHE_TIMEOUT_LIVE;
	snprintf(opts, sizeof(opts), "ro,fsname=uprocfs,subtype=uprocfs,default_permissions%s",
		 o->allow_other ? ",allow_other" : "");
	if (fuse_opt_add_arg(&args, "uprocfs") || fuse_opt_add_arg(&args, "-o") ||
	    fuse_opt_add_arg(&args, opts) || (o->debug && fuse_opt_add_arg(&args, "-d"))) {
		rc = -ENOMEM;
		goto fail;
	}
	fs_refusing_ops(&pfs_ops);
	fs->se = fuse_session_new(&args, &pfs_ops, sizeof(pfs_ops), fs);
	fuse_opt_free_args(&args);
	if (!fs->se) {
		snprintf(err, errlen, "cannot start a FUSE session (see the message above)");
		rc = -EIO;
		goto fail;
	}
	if (fuse_session_mount(fs->se, o->mounted_fd >= 0 ? fdpath : o->mountpoint)) {
		snprintf(err, errlen, "cannot mount on %s (is fuse3 installed, and may you mount there?)",
			 o->mountpoint);
		rc = -EPERM;
		goto fail;
	}
	fs->mounted = o->mounted_fd < 0; /* a descriptor mounted elsewhere is not ours to unmount */
	rc = fs_pt_setup(fs);
	if (rc) {
		snprintf(err, errlen, "cannot set up the FUSE session's I/O: %s", strerror(-rc));
		goto fail;
	}
	*out = fs;
	return 0;
fail:
	fuse_opt_free_args(&args);
	pfs_fuse_destroy(fs);
	return rc;
}

int pfs_fuse_loop(struct pfs_fuse *fs)
{
	struct fuse_loop_config *cfg = fuse_loop_cfg_create();
	int rc;

	if (!cfg)
		return -ENOMEM;
	fuse_loop_cfg_set_max_threads(cfg, fs->opts.max_threads ? fs->opts.max_threads : 8);
	/* keep every worker: creating and ending threads per burst costs more than they do */
	fuse_loop_cfg_set_idle_threads(cfg, fs->opts.max_threads ? fs->opts.max_threads : 8);
	fuse_loop_cfg_set_clone_fd(cfg, 1); /* a /dev/fuse descriptor per worker: no shared queue lock */
	rc = fuse_session_loop_mt(fs->se, cfg);
	fuse_loop_cfg_destroy(cfg);
	/*
	 * An unmount from outside ends the connection: a reader of /dev/fuse
	 * then sees ENODEV, or ECONNABORTED when a lazy unmount's last open
	 * file closed first.  Either is the normal end of serving.
	 */
	if (rc == -ECONNABORTED || rc == -ENODEV)
		rc = 0;
	return rc < 0 ? rc : 0;
}

void pfs_fuse_exit(struct pfs_fuse *fs)
{
	fuse_session_exit(fs->se);
}

int pfs_fuse_set_signal_handlers(struct pfs_fuse *fs)
{
	if (fuse_set_signal_handlers(fs->se))
		return -EIO;
	fs->signals_set = true;
	return 0;
}

int pfs_fuse_daemonize(bool foreground)
{
	return fuse_daemonize(foreground) ? -EIO : 0;
}

void pfs_fuse_unmount(struct pfs_fuse *fs)
{
	fuse_session_exit(fs->se);
	if (fs->mounted) {
		fs->mounted = false;
		fuse_session_unmount(fs->se);
	}
}

int pfs_fuse_mount_fd(int fuse_fd, const char *target, bool allow_other)
{
	char opts[160];

	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=%u,group_id=%u,default_permissions%s",
		 fuse_fd, (unsigned int)getuid(), (unsigned int)getgid(), allow_other ? ",allow_other" : "");
	if (mount("uprocfs", target, "fuse.uprocfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, opts))
		return -errno;
	return 0;
}

void pfs_fuse_destroy(struct pfs_fuse *fs)
{
	if (!fs)
		return;
	fs_pt_destroy(fs); /* its refresher reads the handles */
	if (fs->se) {
		if (fs->mounted)
			fuse_session_unmount(fs->se);
		fs_ur_destroy(fs); /* its threads end once the connection has */
		if (fs->signals_set)
			fuse_remove_signal_handlers(fs->se);
		fuse_session_destroy(fs->se);
	}
	fs_free_handles(fs);
	pthread_mutex_destroy(&fs->handles_lock);
	pthread_mutex_destroy(&fs->callers_lock);
	free(fs->mountpoint);
	free(fs);
}

void pfs_fuse_get_stats(struct pfs_fuse *fs, struct pfs_fuse_stats *st)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	*st = fs->stats;
}
