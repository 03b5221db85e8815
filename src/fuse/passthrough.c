// SPDX-License-Identifier: MIT
/*
 * passthrough.c - a small file's text read by the kernel itself, without a
 * request: FUSE passthrough (Linux 6.9+), negotiated under Debian 12's
 * libfuse 3.14, which predates it.
 *
 * An open renders the file whole into a memfd, registers it as a backing
 * file and answers FOPEN_PASSTHROUGH with its id: the reader's reads,
 * and the read that finds the end, are served by the kernel from the memfd.
 * A passthrough read never looks at the FUSE inode's size, so st_size stays
 * 0 as procfs's.  A file costs one waited round trip (OPEN) instead of
 * three (OPEN, READ, READ at the end); RELEASE is never waited for.
 *
 * libfuse 3.14 writes neither the INIT reply's passthrough flag nor the
 * OPEN reply's backing id, so the session's I/O goes through two hooks
 * (fuse_session_custom_io): the INIT request tells whether the kernel
 * offers passthrough, and the INIT and OPEN replies get the fields.  The
 * same hooks ask for requests over io_uring and carry the replies of those
 * that came that way into their ring entries (uring.c).
 *
 * What keeps procfs's semantics:
 *  - Only a text every reader gets goes into a memfd (public_text): the
 *    kernel maps the memfd into whoever mmaps the file, names it for every
 *    open of the inode while one is open, and a pooled memfd serves other
 *    files later.  Files with access rules, ptrace-masked renderings (stat
 *    and wchan as root reads them) and hidepid mounts keep requests.
 *  - The kernel lets an inode have one backing file at a time: an open of
 *    an inode already open through passthrough must name the same one, or
 *    fails with EIO.  So the memfd is the inode's; an open whose text is
 *    its text shares it, any other (another reader's rendering, a task
 *    that exited) names it with FOPEN_DIRECT_IO too, which the kernel lets
 *    override passthrough for reads: those reads come to us as before.
 *  - Only texts of one page go this way: any reader takes them in one
 *    read.  Longer ones (maps, a big machine's /proc/stat) cost their
 *    rendering more than their round trips, and a reader that reads them
 *    in pieces must never see two renderings mixed.
 *  - A reader that keeps a file open and reads it again from offset 0
 *    (top's /proc/stat, vmstat's /proc/meminfo) gets a new rendering from
 *    procfs, but its reads never reach us: a refresher renders every file
 *    kept open past its period again and rewrites its memfd when the text
 *    changed.  A read that overlaps that rewrite can see bytes of both
 *    texts (a window of one copy of at most a page per period).
 *  - A numeric sysctl (read only from offset 0) and a file whose read
 *    fails keep direct I/O.
 */
#include <errno.h>
#include <linux/fuse.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "fs_int.h"

/* Linux 6.9's protocol 7.40, newer than the <linux/fuse.h> of Debian 12 */
#define PT_FOPEN_PASSTHROUGH (1u << 7)
#define PT_FOPEN_DIRECT_IO (1u << 0)
#define PT_FOPEN_KEEP_CACHE (1u << 1)
#define PT_STACK_DEPTH 1 /* a memfd's tmpfs is one level below the tree */

struct pt_backing_map {
	int32_t fd;
	uint32_t flags;
	uint64_t padding;
};

#define PT_IOC_BACKING_OPEN _IOW(229, 1, struct pt_backing_map)
#define PT_IOC_BACKING_CLOSE _IOW(229, 2, uint32_t)

/* Texts up to this long go by passthrough: one page, one read for anyone. */
#define PT_MAX_TEXT 4096
/* A kept file is rendered again at most this often (procfs's clock ticks are 10 ms). */
#define PT_REFRESH_MIN_NS 10000000ull
/* ... and not more often than twenty times what rendering it (or a whole pass) takes */
#define PT_REFRESH_COST_FACTOR 20

/* Backing files kept for reuse once their readers closed them */
#define PT_POOL_MAX 256

/* The OPEN reply being sent from this thread carries this backing id (0: none), with direct I/O or not. */
static __thread int32_t reply_backing_id;
static __thread bool reply_direct;

/* ------------------------------------------------------------------ */
/* The session's I/O                                                   */

static ssize_t pt_read(int fd, void *buf, size_t len, void *userdata)
{
	struct pfs_fuse *fs = userdata;
	ssize_t n = read(fd, buf, len);

	if (__builtin_expect(!fs->pt_init_seen, 0) &&
	    n >= (ssize_t)(sizeof(struct fuse_in_header) + offsetof(struct fuse_init_in, flags2))) {
		const struct fuse_in_header *ih = buf;
		const struct fuse_init_in *in = (const void *)(ih + 1);

		if (ih->opcode == FUSE_INIT) {
			bool ext = n >= (ssize_t)(sizeof(*ih) + offsetof(struct fuse_init_in, unused)) &&
				   (in->flags & FS_INIT_EXT);

			fs->pt_init_unique = ih->unique;
			fs->pt_offered = ext && (in->flags2 & FS_FLAGS2_PASSTHROUGH);
			fs->ur_offered = ext && (in->flags2 & FS_FLAGS2_OVER_IO_URING);
			__atomic_store_n(&fs->pt_init_seen, true, __ATOMIC_RELEASE);
		}
	}
	return n;
}

/* The INIT reply: ask for passthrough, and requests over io_uring, when the kernel offers them. */
static void patch_init_reply(struct pfs_fuse *fs, struct iovec *body)
{
	struct fuse_init_out *out = body->iov_base;

	fs->pt_init_done = true;
	if (body->iov_len < offsetof(struct fuse_init_out, unused) + sizeof(out->unused[0]))
		return;
	if (fs->pt_offered && !fs->opts.no_passthrough) {
		out->flags |= FS_INIT_EXT;
		out->flags2 |= FS_FLAGS2_PASSTHROUGH;
		out->unused[0] = PT_STACK_DEPTH; /* max_stack_depth since 7.40 */
		__atomic_store_n(&fs->pt_on, true, __ATOMIC_RELEASE);
	}
	if (fs->opts.io_uring && !fs->ur_offered)
		fprintf(stderr, "uprocfs: the kernel does not offer FUSE over io_uring (Linux 6.14+ with "
				"CONFIG_FUSE_IO_URING; enable it with `echo 1 > "
				"/sys/module/fuse/parameters/enable_uring`): requests go through /dev/fuse\n");
	if (fs->opts.io_uring && fs->ur_offered && !fs_ur_prepare(fs, out->max_write, out->max_pages)) {
		out->flags |= FS_INIT_EXT;
		out->flags2 |= FS_FLAGS2_OVER_IO_URING;
		fs->ur_on = true;
	}
}

static ssize_t pt_writev(int fd, struct iovec *iov, int count, void *userdata)
{
	struct pfs_fuse *fs = userdata;
	bool init_reply = false;
	ssize_t n;

	if (count == 2 && iov[0].iov_len == sizeof(struct fuse_out_header)) {
		const struct fuse_out_header *oh = iov[0].iov_base;

		if (reply_backing_id && iov[1].iov_len == sizeof(struct fuse_open_out) && !oh->error) {
			struct fuse_open_out *o = iov[1].iov_base;

			o->open_flags &= ~(PT_FOPEN_DIRECT_IO | PT_FOPEN_KEEP_CACHE);
			o->open_flags |= PT_FOPEN_PASSTHROUGH | (reply_direct ? PT_FOPEN_DIRECT_IO : 0);
			o->padding = (uint32_t)reply_backing_id; /* backing_id since 7.40 */
			reply_backing_id = 0;
		} else if (__builtin_expect(!fs->pt_init_done, 0) && fs->pt_init_seen &&
			   oh->unique == fs->pt_init_unique) {
			patch_init_reply(fs, &iov[1]);
			init_reply = true;
		}
	}
	/* a request that came on the ring is answered there */
	if (fs_ur_serving())
		return fs_ur_reply(iov, count);
	n = writev(fd, iov, count);
	/* the kernel registers ring entries only once INIT is answered (a failure says so and falls back) */
	if (init_reply && fs->ur_on && n >= 0)
		fs_ur_start(fs);
	return n;
}

int fs_pt_setup(struct pfs_fuse *fs)
{
	static const struct fuse_custom_io io = { .read = pt_read, .writev = pt_writev };

	pthread_condattr_t ca;

	pthread_mutex_init(&fs->pt_lock, NULL);
	/* the refresher's deadlines are on the monotonic clock */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&fs->pt_cond, &ca);
	pthread_condattr_destroy(&ca);
	fs->pt_sync_made = true;
	fs->pt_pool = calloc(PT_POOL_MAX, sizeof(*fs->pt_pool));
	if (!fs->pt_pool)
		return -ENOMEM;
	/* registering a backing file takes CAP_SYS_ADMIN: nobody else could use it */
	if ((fs->opts.no_passthrough && !fs->opts.io_uring) || geteuid() != 0)
		return 0;
	/* the session keeps its descriptor: custom I/O only changes how it is read and written */
	return fuse_session_custom_io(fs->se, &io, fuse_session_fd(fs->se));
}

/* ------------------------------------------------------------------ */
/* Backing files, and the inodes open on them                          */

/*
 * A memfd registered as a backing file.  While an inode is open through
 * passthrough, every open of it must name the same one (the kernel fails
 * any other with EIO), so it is the inode's, shared by the opens whose
 * text is its text; an open whose text differs (another reader, a task
 * that exited) names it too, with FOPEN_DIRECT_IO, which the kernel lets
 * override passthrough for reads: those reads come to us.
 */
struct pt_backing {
	uint64_t ino;                   /* the inode it serves while refs > 0 */
	int fd, id;
	size_t len;                     /* its text's length */
	unsigned int refs;              /* handles opened on it */
	uint64_t rendered_ns, cost_ns;  /* when its text was rendered, and what that took */
};

static size_t live_slot(const struct pfs_fuse *fs, uint64_t ino)
{
	return (size_t)((ino * 0x9e3779b97f4a7c15ull) >> 40) & (fs->pt_live_cap - 1);
}

static struct pt_backing *live_find(const struct pfs_fuse *fs, uint64_t ino)
{
	if (!fs->pt_live_used)
		return NULL;
	for (size_t i = live_slot(fs, ino); fs->pt_live[i]; i = (i + 1) & (fs->pt_live_cap - 1))
		if (fs->pt_live[i]->ino == ino)
			return fs->pt_live[i];
	return NULL;
}

/* Add @b (its inode not in the table); 0 or -ENOMEM. */
static int live_add(struct pfs_fuse *fs, struct pt_backing *b)
{
	size_t i;

	if ((fs->pt_live_used + 1) * 2 > fs->pt_live_cap) {
		size_t cap = fs->pt_live_cap ? fs->pt_live_cap * 2 : 64, old_cap = fs->pt_live_cap;
		struct pt_backing **old = fs->pt_live, **grown = calloc(cap, sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		fs->pt_live = grown;
		fs->pt_live_cap = cap;
		for (size_t j = 0; j < old_cap; j++)
			if (old[j]) {
				for (i = live_slot(fs, old[j]->ino); grown[i]; i = (i + 1) & (cap - 1))
					;
				grown[i] = old[j];
			}
		free(old);
	}
	for (i = live_slot(fs, b->ino); fs->pt_live[i]; i = (i + 1) & (fs->pt_live_cap - 1))
		;
	fs->pt_live[i] = b;
	fs->pt_live_used++;
	return 0;
}

/* Take @b out (linear probing: the entries after it move up into the hole). */
static void live_remove(struct pfs_fuse *fs, const struct pt_backing *b)
{
	size_t mask = fs->pt_live_cap - 1, i = live_slot(fs, b->ino), j;

	while (fs->pt_live[i] != b) {
		if (!fs->pt_live[i])
			return;
		i = (i + 1) & mask;
	}
	fs->pt_live[i] = NULL;
	fs->pt_live_used--;
	for (j = (i + 1) & mask; fs->pt_live[j]; j = (j + 1) & mask) {
		size_t home = live_slot(fs, fs->pt_live[j]->ino);

		/* move it up unless its home lies in (i, j] */
		if (j > i ? (home <= i || home > j) : (home <= i && home > j)) {
			fs->pt_live[i] = fs->pt_live[j];
			fs->pt_live[j] = NULL;
			i = j;
		}
	}
}

/*
 * A backing file for an inode not open by passthrough (under pt_lock):
 * one whose readers have all closed it, from the pool, or a new one.
 * Making one costs ~10 µs (a tmpfs inode, its first page, and freeing
 * both later), rewriting a pooled one under 1 µs.  NULL with @rc set.
 */
static struct pt_backing *backing_get(struct pfs_fuse *fs, int *rc)
{
	struct pt_backing_map map = { 0 };
	struct pt_backing *b;

	if (fs->pt_pool_len)
		return fs->pt_pool[--fs->pt_pool_len];
	b = calloc(1, sizeof(*b));
	if (!b) {
		*rc = -ENOMEM;
		return NULL;
	}
	map.fd = memfd_create("uprocfs", MFD_CLOEXEC);
	if (map.fd < 0) {
		*rc = -errno;
		free(b);
		return NULL;
	}
	b->id = ioctl(fuse_session_fd(fs->se), PT_IOC_BACKING_OPEN, &map);
	if (b->id <= 0) {
		*rc = -errno;
		close(map.fd);
		free(b);
		return NULL;
	}
	b->fd = map.fd;
	return b;
}

/* @b's last reader closed it: back to the pool, or gone when the pool is full (under pt_lock). */
static void backing_put(struct pfs_fuse *fs, struct pt_backing *b)
{
	uint32_t id = (uint32_t)b->id;

	if (fs->pt_pool_len < PT_POOL_MAX) {
		fs->pt_pool[fs->pt_pool_len++] = b;
		return;
	}
	ioctl(fuse_session_fd(fs->se), PT_IOC_BACKING_CLOSE, &id);
	close(b->fd);
	free(b);
}

/* Make @b hold @len bytes of @text and nothing more; 0 or -errno. */
static int fill(struct pt_backing *b, const char *text, size_t len)
{
	if (len && pwrite(b->fd, text, len, 0) != (ssize_t)len) {
		b->len = PT_MAX_TEXT + 1; /* unknown now: truncated next time */
		return -EIO;
	}
	if (len < b->len && ftruncate(b->fd, (off_t)len)) {
		b->len = PT_MAX_TEXT + 1;
		return -errno;
	}
	b->len = len;
	return 0;
}

/* Does @b hold exactly @text? */
static bool holds(const struct pt_backing *b, const char *text, size_t len)
{
	char old[PT_MAX_TEXT];

	return b->len == len && (!len || (pread(b->fd, old, len, 0) == (ssize_t)len && !memcmp(old, text, len)));
}

/* ------------------------------------------------------------------ */
/* Rendering                                                           */

/*
 * Render @h's file whole into @buf (PT_MAX_TEXT bytes and one more, to
 * tell a longer text).  Its length, -E2BIG when longer, -ESRCH when the
 * task is gone, or the read's error.
 */
static ssize_t render_text(struct pfs_fuse *fs, struct handle *h, char *buf)
{
	struct pfs_source *s = fs->src;
	size_t len = 0;
	loff_t pos = 0;
	ssize_t n;

	if (s->ops->enter(s, &h->node, &h->view))
		return -ESRCH;
	do {
		n = seq_read(&h->m, buf + len, PT_MAX_TEXT + 1 - len, &pos);
		if (n > 0)
			len += (size_t)n;
	} while (n > 0 && len <= PT_MAX_TEXT);
	s->ops->leave(s, &h->view);
	if (n < 0)
		return n;
	return len > PT_MAX_TEXT ? -E2BIG : (ssize_t)len;
}

static void refresher_start(struct pfs_fuse *fs);

/*
 * Is @h's text one every reader of the file gets?  Only such a text goes
 * into a memfd: the kernel maps the memfd into whoever mmaps the file
 * (procfs would refuse), a later open of the inode by another reader must
 * name the same memfd, and a pooled memfd serves other files after.  So a
 * rendering shown only to a reader who may ptrace the task, and a read
 * refused at read time, stay with requests.
 */
static bool public_text(const struct handle *h)
{
	return !(h->node.entry->ptrace_masked && h->view.ctx.ptrace_ok) && !h->view.ctx.read_denied;
}

bool fs_pt_open(struct pfs_fuse *fs, fuse_req_t req, fuse_ino_t ino, struct handle *h, struct fuse_file_info *fi)
{
	char text[PT_MAX_TEXT + 1];
	struct pt_backing *b;
	uint64_t t0 = fs_now_ns(), t1;
	ssize_t len = -EINVAL;
	int rc = 0;

	h->pt = NULL;
	/*
	 * Files with an access rule, and numeric sysctls (read only from
	 * offset 0), are never opened this way by anyone: theirs are the
	 * requests' answers.
	 */
	if (!__atomic_load_n(&fs->pt_on, __ATOMIC_ACQUIRE) || __atomic_load_n(&fs->pt_failed, __ATOMIC_RELAXED) ||
	    fs_hiding(fs) || h->node.entry->access || h->whole_at_zero)
		return false;
	if (public_text(h))
		len = render_text(fs, h, text);
	t1 = fs_now_ns();
	pthread_mutex_lock(&fs->pt_lock);
	b = live_find(fs, ino);
	if (b) {
		/* the inode's backing file it must be: shared if it holds this open's text */
		h->pt_direct = len < 0 || !holds(b, text, (size_t)len);
	} else {
		/*
		 * Every other open of the file names a backing file too, even
		 * one that reads by requests (a longer text, root's stat): a
		 * reply without one that the kernel took after another open
		 * made the inode passthrough's would fail with EIO.  Such a
		 * placeholder keeps the public text it held.
		 */
		if (!(b = backing_get(fs, &rc)))
			goto direct;
		b->ino = ino;
		b->rendered_ns = t1;
		b->cost_ns = t1 - t0;
		h->pt_direct = len < 0;
		if ((!h->pt_direct && fill(b, text, (size_t)len)) || live_add(fs, b)) {
			backing_put(fs, b);
			goto direct;
		}
	}
	b->refs++;
	pthread_mutex_unlock(&fs->pt_lock);
	h->pt = b;
	if (!h->pt_direct) {
		refresher_start(fs);
		COUNT(fs, passthrough);
	}
	fi->fh = (uint64_t)(uintptr_t)h;
	fi->direct_io = h->pt_direct;
	fi->keep_cache = 0;
	fi->noflush = 1;
	/* tracked before the reply: RELEASE may come as soon as it is sent */
	fs_track_handle(fs, h);
	reply_backing_id = b->id;
	reply_direct = h->pt_direct;
	fuse_reply_open(req, fi);
	reply_backing_id = 0;
	return true;
direct:
	pthread_mutex_unlock(&fs->pt_lock);
	if (rc && rc != -EMFILE && rc != -ENFILE && rc != -ENOMEM) {
		/* not allowed here (no CAP_SYS_ADMIN in the first user namespace): stop trying */
		fprintf(stderr, "uprocfs: passthrough is not available (%s): files are read through requests\n",
			strerror(-rc));
		__atomic_store_n(&fs->pt_failed, true, __ATOMIC_RELAXED);
	}
	return false;
}

void fs_pt_release(struct pfs_fuse *fs, struct handle *h)
{
	struct pt_backing *b = h->pt;

	if (!b)
		return;
	h->pt = NULL;
	pthread_mutex_lock(&fs->pt_lock);
	/* the last reader's file is gone, and with it the kernel's use of the memfd */
	if (!--b->refs) {
		live_remove(fs, b);
		backing_put(fs, b);
	}
	pthread_mutex_unlock(&fs->pt_lock);
}

/* ------------------------------------------------------------------ */
/* Files kept open                                                     */

/* Render @h's inode's text again and rewrite its memfd if it changed (under handles_lock and pt_lock). */
static void refresh(struct pfs_fuse *fs, struct handle *h)
{
	struct pt_backing *b = h->pt;
	char text[PT_MAX_TEXT + 1];
	uint64_t t0 = fs_now_ns();
	ssize_t len = render_text(fs, h, text);

	b->rendered_ns = fs_now_ns();
	b->cost_ns = b->rendered_ns - t0;
	/* gone, failing or grown past a page: the reader keeps the last text, as of a task that exited */
	if (len < 0 || holds(b, text, (size_t)len))
		return;
	if (!fill(b, text, (size_t)len))
		COUNT(fs, refresh);
}

static void *refresher(void *arg)
{
	struct pfs_fuse *fs = arg;
	uint64_t wait_ns = PT_REFRESH_MIN_NS;
	struct timespec until;

	pthread_mutex_lock(&fs->pt_lock);
	while (!fs->pt_stop) {
		bool advanced;
		uint64_t now;

		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_sec += (time_t)(wait_ns / 1000000000ull);
		until.tv_nsec += (long)(wait_ns % 1000000000ull);
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&fs->pt_cond, &fs->pt_lock, &until);
		if (fs->pt_stop)
			break;
		pthread_mutex_unlock(&fs->pt_lock);
		now = fs_now_ns();
		advanced = false;
		pthread_mutex_lock(&fs->handles_lock);
		for (struct handle *h = fs->handles; h; h = h->next) {
			uint64_t period;

			if (!h->pt || h->pt_direct)
				continue;
			period = PT_REFRESH_COST_FACTOR * h->pt->cost_ns;
			if (period < PT_REFRESH_MIN_NS)
				period = PT_REFRESH_MIN_NS;
			if (now - h->pt->rendered_ns < period)
				continue;
			/* the machine moves only when asked: a reader that only rereads asks nothing */
			if (!advanced && fs->src->ops->advance)
				fs->src->ops->advance(fs->src);
			advanced = true;
			pthread_mutex_lock(&fs->pt_lock);
			refresh(fs, h);
			pthread_mutex_unlock(&fs->pt_lock);
		}
		pthread_mutex_unlock(&fs->handles_lock);
		/* many files kept open: the passes space out, so that they take a twentieth of a CPU at most */
		wait_ns = PT_REFRESH_COST_FACTOR * (fs_now_ns() - now);
		if (wait_ns < PT_REFRESH_MIN_NS)
			wait_ns = PT_REFRESH_MIN_NS;
		pthread_mutex_lock(&fs->pt_lock);
	}
	pthread_mutex_unlock(&fs->pt_lock);
	return NULL;
}

static void refresher_start(struct pfs_fuse *fs)
{
	if (__atomic_load_n(&fs->pt_refresher_started, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&fs->pt_lock);
	if (!fs->pt_refresher_started && !pthread_create(&fs->pt_refresher, NULL, refresher, fs))
		__atomic_store_n(&fs->pt_refresher_started, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&fs->pt_lock);
}

void fs_pt_stop(struct pfs_fuse *fs)
{
	if (!fs->pt_sync_made)
		return;
	pthread_mutex_lock(&fs->pt_lock);
	fs->pt_stop = true;
	pthread_cond_signal(&fs->pt_cond);
	pthread_mutex_unlock(&fs->pt_lock);
	if (fs->pt_refresher_started)
		pthread_join(fs->pt_refresher, NULL);
	fs->pt_refresher_started = false;
}

void fs_pt_destroy(struct pfs_fuse *fs)
{
	if (!fs->pt_sync_made)
		return;
	fs_pt_stop(fs);
	/* their ids end with the connection */
	for (size_t i = 0; i < fs->pt_pool_len; i++) {
		close(fs->pt_pool[i]->fd);
		free(fs->pt_pool[i]);
	}
	free(fs->pt_pool);
	fs->pt_pool = NULL;
	fs->pt_pool_len = 0;
	for (size_t i = 0; i < fs->pt_live_cap; i++)
		if (fs->pt_live[i]) {
			close(fs->pt_live[i]->fd);
			free(fs->pt_live[i]);
		}
	free(fs->pt_live);
	fs->pt_live = NULL;
	fs->pt_live_cap = fs->pt_live_used = 0;
	pthread_cond_destroy(&fs->pt_cond);
	pthread_mutex_destroy(&fs->pt_lock);
	fs->pt_sync_made = false;
}
