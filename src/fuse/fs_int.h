/* SPDX-License-Identifier: MIT */
/* fs_int.h - what the parts of the FUSE filesystem share. */
#ifndef UPROCFS_FUSE_FS_INT_H
#define UPROCFS_FUSE_FS_INT_H

#define FUSE_USE_VERSION 312

#include <fuse_lowlevel.h>
#include <liburing.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "node.h"
#include "uprocfs/pfs_fuse.h"

/*
 * Entries and attributes stay valid this long in the kernel's caches.  A
 * model keeps its tasks, so its names are stable and every lookup the
 * kernel can answer itself is a request spared (ps opens four files in each
 * of thousands of pid directories); a live mirror's tasks come and go.
 */
#define CACHE_TIMEOUT_STABLE 60.0
#define CACHE_TIMEOUT_LIVE 1.0

struct caller {
	pid_t host_tid;
	pid_t ns_tgid, ns_tid;   /* 0: not a caller we can mirror */
	uint64_t seen_ns;
};

#define CALLER_SLOTS 64

struct pfs_fuse {
	struct fuse_session *se;
	struct pfs_source *src;
	struct pfs_fuse_opts opts;
	char *mountpoint;
	bool mounted;
	bool signals_set;
	double cache_timeout;
	struct timespec mount_time;
	pthread_mutex_t callers_lock;
	struct caller callers[CALLER_SLOTS];
	pthread_mutex_t handles_lock;
	struct handle *handles;
	struct dir_handle *dir_handles; /* under handles_lock */
	struct pfs_fuse_stats stats;
	/* passthrough.c: what INIT negotiated, the inodes open that way, the refresher */
	bool pt_init_seen, pt_init_done, pt_offered, pt_on, pt_failed;
	uint64_t pt_init_unique;
	bool pt_sync_made, pt_stop, pt_refresher_started;
	/* under pt_lock: the inodes open through passthrough, by nodeid, and backing files no reader holds */
	struct pt_backing **pt_live, **pt_pool;
	size_t pt_live_cap, pt_live_used, pt_pool_len;
	pthread_mutex_t pt_lock;
	pthread_cond_t pt_cond;
	pthread_t pt_refresher;
	/* uring.c: requests over io_uring, a queue per CPU */
	bool ur_offered, ur_on, ur_stop;
	struct ur_queue *ur_q;
	unsigned int ur_nq, ur_registered;
	size_t ur_payload;
	struct io_uring ur_spare;      /* to give the rings up from when a queue cannot register */
	bool ur_spare_made;
};

/* An open kernfs directory: its children as they were at opendir, in hash order. */
struct dir_handle {
	struct dir_handle *prev, *next; /* every open one, as the file handles */
	struct pfs_listing l;
};

/* One open file. */
struct handle {
	struct handle *prev, *next; /* every open handle: an aborted connection never releases them */
	struct seq_file m;
	struct pfs_node node;
	struct pfs_view view;
	bool started;
	bool whole_at_zero;         /* a numeric sysctl: reads past offset 0 give nothing */
	/*
	 * Opened through passthrough: its inode's backing file; with
	 * pt_direct, that of a text other than this open's, whose reads come
	 * to us as direct I/O.
	 */
	struct pt_backing *pt;
	bool pt_direct;
};

/*
 * INIT flags of protocols newer than Debian 12's <linux/fuse.h> (7.40
 * passthrough, 7.42 io_uring), which passthrough.c and uring.c negotiate.
 */
#define FS_INIT_EXT (1u << 30)                       /* FUSE_INIT_EXT: flags2 is read */
#define FS_FLAGS2_PASSTHROUGH (1u << (37 - 32))      /* FUSE_PASSTHROUGH */
#define FS_FLAGS2_OVER_IO_URING (1u << (41 - 32))    /* FUSE_OVER_IO_URING */

/** CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t fs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define COUNT(fs, field) __atomic_add_fetch(&(fs)->stats.field, 1, __ATOMIC_RELAXED)

/** Decode inode @ino into @n, finding the pid of a thread's leaf again; -1 when it is none of ours. */
int fs_node(struct pfs_fuse *fs, fuse_req_t req, uint64_t ino, struct pfs_node *n);

/** Who sends @req, as the served machine numbers it, with the credentials to check. */
void fs_reader(struct pfs_fuse *fs, fuse_req_t req, struct pfs_reader *r);

/**
 * A directory whose entry has an access rule (fdinfo/: ptrace read): may
 * the sender of @req open and search it?  0, -EACCES or -ENOENT.
 */
int fs_dir_access(struct pfs_fuse *fs, fuse_req_t req, const struct pfs_node *dir);

/** Attributes of node @n for the sender of @req; 0 or -ENOENT. */
int fs_node_stat(struct pfs_fuse *fs, fuse_req_t req, const struct pfs_node *n, struct stat *st);

/** Entry timeout of @n: links that differ per reader (self) are never cached. */
double fs_entry_timeout(const struct pfs_fuse *fs, const struct pfs_node *n);

/** Add @h to the open handles (freed at unmount if never released). */
void fs_track_handle(struct pfs_fuse *fs, struct handle *h);

/**
 * Install the session I/O that negotiates passthrough and io_uring
 * (passthrough.c, uring.c); nothing when the mount's options or the
 * process's privileges rule both out.  0 or -errno.
 */
int fs_pt_setup(struct pfs_fuse *fs);

/**
 * Answer the open of @ino (handle @h, opened) by passthrough if the kernel
 * and the file allow it: true when the reply was sent, false to go on with
 * direct I/O.
 */
bool fs_pt_open(struct pfs_fuse *fs, fuse_req_t req, fuse_ino_t ino, struct handle *h, struct fuse_file_info *fi);

/** Drop @h's backing file, if it has one (its RELEASE came). */
void fs_pt_release(struct pfs_fuse *fs, struct handle *h);

/** Make the rings and buffers, before INIT is answered (sized by its max_write, max_pages); 0 or -errno. */
int fs_ur_prepare(struct pfs_fuse *fs, uint32_t max_write, uint16_t max_pages);

/** Start a thread per ring, once INIT is answered: they register their entries and serve; 0 or -errno. */
int fs_ur_start(struct pfs_fuse *fs);

/** Is this thread serving a request that came on a ring? */
bool fs_ur_serving(void);

/** Put libfuse's reply (@iov: the out header, then the arguments) into the entry being served. */
ssize_t fs_ur_reply(struct iovec *iov, int count);

/** Stop the ring threads and free the rings (after the unmount). */
void fs_ur_destroy(struct pfs_fuse *fs);

/** Stop the refresher (before the handles go). */
void fs_pt_stop(struct pfs_fuse *fs);

/** Stop the refresher and free what passthrough holds. */
void fs_pt_destroy(struct pfs_fuse *fs);

/** Free every handle still open (an aborted connection never releases them). */
void fs_free_handles(struct pfs_fuse *fs);

/** Whether hidepid or subset=pid is on: then answers depend on the reader and are not cached. */
bool fs_hiding(const struct pfs_fuse *fs);

/**
 * May the sender of @req see node @n under the mount's hidepid and subset
 * options?  0, -ENOENT (hidden) or -EPERM (listed but not enterable).
 */
int fs_visible(struct pfs_fuse *fs, fuse_req_t req, const struct pfs_node *n);

/** hidepid=noaccess: may the sender of @req enter /proc/@pid?  0 or -EPERM. */
int fs_may_enter(struct pfs_fuse *fs, fuse_req_t req, pid_t pid);

/** Fill in the handlers that refuse every change, as a read-only procfs does. */
void fs_refusing_ops(struct fuse_lowlevel_ops *ops);

void fs_op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name);
void fs_op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_op_readlink(fuse_req_t req, fuse_ino_t ino);
void fs_op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi);
void fs_op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_op_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void fs_op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi);
void fs_op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi);

#endif
