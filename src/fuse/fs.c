// SPDX-License-Identifier: MIT
/*
 * fs.c - the low-level FUSE filesystem over the file table.
 *
 * /proc semantics as the kernel gives them (fs/proc/{root,base,generic}.c):
 * files have st_size 0 and are read with direct I/O, so each read(2) reaches
 * us and the whole file comes in the first read of any size; every open is
 * its own seq_file snapshot, and a read at offset 0 regenerates it (top reads
 * /proc/stat again after lseek 0); pid directories list ascending and belong
 * to the task's effective uid.  The reader sees itself: /proc/self and
 * /proc/<its pid> describe the calling process, mirrored from the real procfs
 * of its namespace.  Paths resolve only through the file table; anything
 * else is ENOENT.
 */
#define FUSE_USE_VERSION 312

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mirror.h"
#include "node.h"
#include "uprocfs/pfs_fuse.h"
#include "uprocfs/procfs.h"

#define MAX_DIRS 16
#define DIRNAME_MAX 32
/*
 * Entries and attributes stay valid this long in the kernel's caches.  A
 * simulated machine keeps its tasks, so its names are stable and every
 * lookup the kernel can answer itself is a request spared (ps opens four
 * files in each of thousands of pid directories); a live mirror's tasks
 * come and go.
 */
#define CACHE_TIMEOUT_STABLE 60.0
#define CACHE_TIMEOUT_LIVE 1.0
#define CACHE_TIMEOUT (fs->cache_timeout)
/* A living model is brought up to date at most this often. */
#define ADVANCE_EVERY_NS 2000000ull
/* readdir offsets: fixed entries count up from 1, pids from here */
#define PID_OFFSET_BASE (1ull << 32)

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
	bool mounted_elsewhere;   /* mounted by another namespace: not ours to unmount */
	bool signals_set;
	double cache_timeout;
	pthread_rwlock_t lock;        /* the model: readers render, advance writes */
	pthread_mutex_t advance_lock;
	uint64_t last_advance_ns;
	struct timespec mount_time;
	unsigned int ngdirs, npdirs;  /* directories derived from the table's names */
	char gdirs[MAX_DIRS][DIRNAME_MAX];
	char pdirs[MAX_DIRS][DIRNAME_MAX];
	pthread_mutex_t callers_lock;
	struct caller callers[CALLER_SLOTS];
	pthread_mutex_t handles_lock;
	struct handle *handles;
	struct pfs_fuse_stats stats;
};

/* One open file. */
struct handle {
	struct handle *prev, *next; /* every open handle: an aborted connection never releases them */
	struct seq_file m;
	struct pfs_ctx ctx;
	const struct pfs_file *file;
	pid_t pid, tid;               /* the task shown (0 for global files) */
	struct machine *own;          /* a mirrored machine this handle owns, or NULL */
	bool started;
};

#define COUNT(fs, field) __atomic_add_fetch(&(fs)->stats.field, 1, __ATOMIC_RELAXED)

static uint64_t boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* Directories of the table                                            */

static void add_dir(char dirs[][DIRNAME_MAX], unsigned int *n, const char *name, size_t len)
{
	if (len >= DIRNAME_MAX || *n >= MAX_DIRS)
		return;
	for (unsigned int i = 0; i < *n; i++)
		if (strlen(dirs[i]) == len && !strncmp(dirs[i], name, len))
			return;
	memcpy(dirs[*n], name, len);
	dirs[*n][len] = '\0';
	(*n)++;
}

/* Every prefix of a table name with a '/' is a directory. */
static void collect_dirs(struct pfs_fuse *fs)
{
	for (size_t i = 0; i < pfs_nfiles; i++) {
		const char *name = pfs_files[i].name;

		for (const char *s = strchr(name, '/'); s; s = strchr(s + 1, '/')) {
			if (pfs_files[i].scope == PFS_SCOPE_GLOBAL)
				add_dir(fs->gdirs, &fs->ngdirs, name, (size_t)(s - name));
			else
				add_dir(fs->pdirs, &fs->npdirs, name, (size_t)(s - name));
		}
	}
}

/* The path of directory @n's child @name, relative to its scope. */
static int child_path(const struct pfs_fuse *fs, const struct node *n, const char *name, char *buf,
		      size_t size)
{
	const char *dir = NULL;
	int len;

	if (n->kind == NODE_GDIR)
		dir = n->index < fs->ngdirs ? fs->gdirs[n->index] : NULL;
	else if (n->kind == NODE_PID_SUBDIR || n->kind == NODE_TID_SUBDIR)
		dir = n->index < fs->npdirs ? fs->pdirs[n->index] : NULL;
	len = dir ? snprintf(buf, size, "%s/%s", dir, name) : snprintf(buf, size, "%s", name);
	return len < 0 || (size_t)len >= size ? -ENAMETOOLONG : 0;
}

/* ------------------------------------------------------------------ */
/* Callers                                                             */

/*
 * Who is asking.  A FUSE request carries the calling thread's id in the pid
 * namespace of whoever mounted the tree, which is the namespace of the
 * procfs that describes callers; its status names the thread group.
 */
static void identify_caller(struct pfs_fuse *fs, fuse_req_t req, pid_t *tgid, pid_t *tid)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);
	uint64_t now = boottime_ns();
	struct caller *slot;
	pid_t g = 0, t = 0;

	*tgid = *tid = 0;
	if (fs->opts.caller_proc_fd < 0 || ctx->pid <= 0)
		return;
	slot = &fs->callers[(unsigned int)ctx->pid % CALLER_SLOTS];
	pthread_mutex_lock(&fs->callers_lock);
	if (slot->host_tid == ctx->pid && now - slot->seen_ns < 1000000000ull) {
		*tgid = slot->ns_tgid;
		*tid = slot->ns_tid;
		pthread_mutex_unlock(&fs->callers_lock);
		return;
	}
	pthread_mutex_unlock(&fs->callers_lock);
	if (mirror_translate_tid(fs->opts.caller_proc_fd, ctx->pid, &g, &t))
		g = t = 0;
	pthread_mutex_lock(&fs->callers_lock);
	*slot = (struct caller){ .host_tid = ctx->pid, .ns_tgid = g, .ns_tid = t, .seen_ns = now };
	pthread_mutex_unlock(&fs->callers_lock);
	*tgid = g;
	*tid = t;
}

static bool is_caller_pid(struct pfs_fuse *fs, fuse_req_t req, pid_t pid)
{
	pid_t g, t;

	if (fs->opts.caller_proc_fd < 0)
		return false;
	identify_caller(fs, req, &g, &t);
	return g > 0 && g == pid;
}

/* ------------------------------------------------------------------ */
/* Attributes                                                          */

/* The model's process and thread of a node, under the read lock. */
static int find_task(const struct machine *m, pid_t pid, pid_t tid, const struct mach_process **p,
		     const struct mach_thread **t)
{
	*t = mach_find_any_thread(m, pid, p);
	if (!*t)
		return -ENOENT;
	if (tid) {
		if ((*p)->tgid != pid)
			return -ENOENT; /* task/ lists the threads of a group leader only */
		*t = mach_find_thread(*p, tid);
		if (!*t)
			return -ENOENT;
	}
	return 0;
}

static void fill_times(struct stat *st, const struct timespec *ts)
{
	st->st_atim = st->st_mtim = st->st_ctim = *ts;
}

/* Attributes of the task part of a node: owner and time, as the kernel sets them. */
static int task_owner(struct pfs_fuse *fs, fuse_req_t req, pid_t pid, pid_t tid, struct stat *st)
{
	const struct machine *m = fs->src->mach;
	const struct mach_process *p;
	const struct mach_thread *t;

	if (fs->src->live_proc_fd >= 0) {
		struct stat real;
		char path[32];

		snprintf(path, sizeof(path), tid ? "%d/task/%d" : "%d", (int)pid, (int)tid);
		if (fstatat(fs->src->live_proc_fd, path, &real, 0))
			return -ENOENT;
		st->st_uid = real.st_uid;
		st->st_gid = real.st_gid;
		fill_times(st, &real.st_mtim);
		return 0;
	}
	if (is_caller_pid(fs, req, pid)) {
		const struct fuse_ctx *ctx = fuse_req_ctx(req);
		st->st_uid = ctx->uid;
		st->st_gid = ctx->gid;
		fill_times(st, &fs->mount_time);
		return 0;
	}
	if (find_task(m, pid, tid, &p, &t))
		return -ENOENT;
	/* Kernel threads and undumpable tasks belong to root; others to the euid. */
	st->st_uid = t->kthread ? 0 : t->uid[1];
	st->st_gid = t->kthread ? 0 : t->gid[1];
	struct timespec start = {
		.tv_sec = (time_t)(m->btime + t->start_time_ns / 1000000000u),
		.tv_nsec = (long)(t->start_time_ns % 1000000000u),
	};
	fill_times(st, &start);
	return 0;
}

/* Optional global files: those the served kernel has. */
static bool global_file_exists(struct pfs_fuse *fs, const struct pfs_file *pf)
{
	const struct machine *m = fs->src->mach;

	if (pf->scope != PFS_SCOPE_GLOBAL || pfs_is_link(pf))
		return true;
	if (fs->src->live_proc_fd >= 0)
		return !faccessat(fs->src->live_proc_fd, pf->name, F_OK, 0);
	if (!strcmp(pf->name, "schedstat"))
		return m->profile.has_schedstat;
	if (pf->show == pfs_show_pressure)
		return m->pressure[pf->arg].present;
	return true;
}

static int node_stat(struct pfs_fuse *fs, fuse_req_t req, const struct node *n, struct stat *st)
{
	const struct pfs_file *f = NULL;
	int rc = 0;

	memset(st, 0, sizeof(*st));
	st->st_ino = node_ino(n);
	st->st_nlink = 1;
	fill_times(st, &fs->mount_time);
	switch (n->kind) {
	case NODE_ROOT:
	case NODE_GDIR:
		st->st_mode = S_IFDIR | 0555;
		st->st_nlink = 2;
		if (n->kind == NODE_GDIR && n->index >= fs->ngdirs)
			return -ENOENT;
		return 0;
	case NODE_GFILE:
		if (n->index >= pfs_nfiles || pfs_files[n->index].scope != PFS_SCOPE_GLOBAL)
			return -ENOENT;
		f = &pfs_files[n->index];
		if (!global_file_exists(fs, f))
			return -ENOENT;
		st->st_mode = pfs_is_link(f) ? f->mode : S_IFREG | (f->mode & 07777);
		return 0;
	case NODE_PID_DIR:
	case NODE_TID_DIR:
		st->st_mode = S_IFDIR | 0555;
		st->st_nlink = 2;
		break;
	case NODE_TASK_DIR:
		st->st_mode = S_IFDIR | 0555;
		st->st_nlink = 2;
		break;
	case NODE_PID_SUBDIR:
	case NODE_TID_SUBDIR:
		if (n->index >= fs->npdirs)
			return -ENOENT;
		st->st_mode = S_IFDIR | 0511; /* ns/ is dr-x--x--x */
		st->st_nlink = 2;
		break;
	case NODE_PID_FILE:
	case NODE_TID_FILE:
		if (n->index >= pfs_nfiles || pfs_files[n->index].scope != PFS_SCOPE_PID)
			return -ENOENT;
		f = &pfs_files[n->index];
		st->st_mode = pfs_is_link(f) ? f->mode : S_IFREG | (f->mode & 07777);
		break;
	default:
		return -ENOENT;
	}
	pthread_rwlock_rdlock(&fs->lock);
	rc = task_owner(fs, req, n->pid, n->tid, st);
	pthread_rwlock_unlock(&fs->lock);
	return rc;
}

static void reply_entry(struct pfs_fuse *fs, fuse_req_t req, const struct node *n)
{
	struct fuse_entry_param e;
	int rc;

	memset(&e, 0, sizeof(e));
	rc = node_stat(fs, req, n, &e.attr);
	if (rc) {
		/* a cached negative entry spares the next identical lookup */
		e.ino = 0;
		e.entry_timeout = CACHE_TIMEOUT;
		fuse_reply_entry(req, &e);
		return;
	}
	e.ino = node_ino(n);
	e.attr_timeout = CACHE_TIMEOUT;
	/* self and thread-self differ per reader: never cache them */
	e.entry_timeout = S_ISLNK(e.attr.st_mode) && n->kind == NODE_GFILE ? 0 : CACHE_TIMEOUT;
	fuse_reply_entry(req, &e);
}

/* ------------------------------------------------------------------ */
/* Lookup                                                              */

static pid_t parse_pid(const char *s)
{
	long v = 0;

	if (!*s || (*s == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (long)NODE_PID_MASK)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v > 0 && v <= (long)NODE_PID_MASK ? (pid_t)v : -1;
}

static int find_dir(char dirs[][DIRNAME_MAX], unsigned int n, const char *path)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(dirs[i], path))
			return (int)i;
	return -1;
}

static int file_index(enum pfs_scope scope, const char *path)
{
	const struct pfs_file *f = pfs_lookup(scope, path);
	return f ? (int)(f - pfs_files) : -1;
}

static int lookup_child(struct pfs_fuse *fs, const struct node *parent, const char *name, struct node *child)
{
	char path[96];
	int idx;

	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return -ENOENT; /* the kernel resolves these itself */
	*child = (struct node){ .pid = parent->pid, .tid = parent->tid };
	switch (parent->kind) {
	case NODE_ROOT: {
		pid_t pid = parse_pid(name);
		if (pid > 0) {
			child->kind = NODE_PID_DIR;
			child->pid = pid;
			return 0;
		}
	}
		/* fall through */
	case NODE_GDIR:
		if (child_path(fs, parent, name, path, sizeof(path)))
			return -ENOENT;
		if ((idx = find_dir(fs->gdirs, fs->ngdirs, path)) >= 0) {
			child->kind = NODE_GDIR;
			child->index = (unsigned int)idx;
		} else if ((idx = file_index(PFS_SCOPE_GLOBAL, path)) >= 0) {
			child->kind = NODE_GFILE;
			child->index = (unsigned int)idx;
		} else {
			return -ENOENT;
		}
		return 0;
	case NODE_PID_DIR:
		if (!strcmp(name, "task")) {
			child->kind = NODE_TASK_DIR;
			return 0;
		}
		/* fall through */
	case NODE_TID_DIR:
	case NODE_PID_SUBDIR:
	case NODE_TID_SUBDIR: {
		bool in_tid = parent->kind == NODE_TID_DIR || parent->kind == NODE_TID_SUBDIR;
		if (child_path(fs, parent, name, path, sizeof(path)))
			return -ENOENT;
		if ((parent->kind == NODE_PID_DIR || parent->kind == NODE_TID_DIR) &&
		    (idx = find_dir(fs->pdirs, fs->npdirs, path)) >= 0) {
			child->kind = in_tid ? NODE_TID_SUBDIR : NODE_PID_SUBDIR;
			child->index = (unsigned int)idx;
			return 0;
		}
		if ((idx = file_index(PFS_SCOPE_PID, path)) < 0)
			return -ENOENT;
		child->kind = in_tid ? NODE_TID_FILE : NODE_PID_FILE;
		child->index = (unsigned int)idx;
		return 0;
	}
	case NODE_TASK_DIR: {
		pid_t tid = parse_pid(name);
		if (tid <= 0)
			return -ENOENT;
		child->kind = NODE_TID_DIR;
		child->tid = tid;
		return 0;
	}
	default:
		return -ENOENT;
	}
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct node p, c;

	COUNT(fs, lookup);
	if (node_from_ino(parent, &p) || lookup_child(fs, &p, name, &c)) {
		struct fuse_entry_param e = { .ino = 0, .entry_timeout = CACHE_TIMEOUT };
		fuse_reply_entry(req, &e);
		return;
	}
	reply_entry(fs, req, &c);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct stat st;
	struct node n;
	int rc;

	(void)fi;
	COUNT(fs, getattr);
	rc = node_from_ino(ino, &n) ? -ENOENT : node_stat(fs, req, &n, &st);
	if (rc)
		fuse_reply_err(req, -rc);
	else
		fuse_reply_attr(req, &st, S_ISLNK(st.st_mode) ? 0 : CACHE_TIMEOUT);
}

/* ------------------------------------------------------------------ */
/* Contexts for the renderers                                          */

/*
 * A mirrored reader, as the served machine would show it.  The reader was
 * asleep in read() while we read its files; the kernel would have shown it
 * running, as it is when it reads.  And its start time is on the served
 * machine's clock: as old as it really is, counted back from that uptime.
 */
static void adapt_caller(struct pfs_fuse *fs, fuse_req_t req, struct machine *own, struct mach_process *p)
{
	const struct machine *served = fs->src->mach;
	pid_t g, tid;

	identify_caller(fs, req, &g, &tid);
	for (unsigned int i = 0; i < p->nthreads; i++) {
		struct mach_thread *th = &p->threads[i];

		if (g == p->tgid && th->tid == tid) {
			th->state = MACH_TASK_RUNNING;
			th->wchan = false;
		}
		if (fs->src->live_proc_fd < 0 && own->uptime_ns >= th->start_time_ns) {
			uint64_t age = own->uptime_ns - th->start_time_ns;
			th->start_time_ns = served->uptime_ns > age ? served->uptime_ns - age : 0;
		}
	}
}

/*
 * Find what a pid node shows and fill @h's context; the caller's own pid and
 * the live source are loaded into a machine the handle owns.
 */
static int bind_task(struct pfs_fuse *fs, fuse_req_t req, struct handle *h, char *err, size_t errlen)
{
	const struct machine *m = fs->src->mach;
	const struct mach_process *p;
	const struct mach_thread *t;
	int procfd = -1;

	if (fs->src->live_proc_fd >= 0)
		procfd = fs->src->live_proc_fd;
	else if (is_caller_pid(fs, req, h->pid))
		procfd = fs->opts.caller_proc_fd;
	if (procfd >= 0) {
		int rc = mirror_load_task(procfd, h->pid, h->tid, &h->own, err, errlen);
		if (rc)
			return rc;
		m = h->own;
	}
	if (find_task(m, h->pid, h->tid, &p, &t))
		return -ESRCH;
	if (h->own)
		adapt_caller(fs, req, h->own, (struct mach_process *)p);
	h->ctx.mach = m;
	h->ctx.proc = p;
	h->ctx.thread = t;
	h->ctx.whole = h->tid == 0;
	return 0;
}

/* Whether the reader may see what ptrace_may_access guards (maps, stat's layout). */
static bool may_ptrace(fuse_req_t req, const struct pfs_ctx *c)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);

	return ctx->uid == 0 || (!c->thread->kthread && c->thread->uid[1] == ctx->uid);
}

static void maybe_advance(struct pfs_fuse *fs)
{
	uint64_t now;

	if (!fs->src->advance)
		return;
	now = boottime_ns();
	if (now - __atomic_load_n(&fs->last_advance_ns, __ATOMIC_RELAXED) < ADVANCE_EVERY_NS)
		return;
	if (pthread_mutex_trylock(&fs->advance_lock))
		return; /* someone else is catching up right now */
	pthread_rwlock_wrlock(&fs->lock);
	fs->src->advance(fs->src->advance_ctx, fs->src->mach, now);
	pthread_rwlock_unlock(&fs->lock);
	__atomic_store_n(&fs->last_advance_ns, now, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&fs->advance_lock);
}

/* ------------------------------------------------------------------ */
/* open / read / release                                               */

static void free_handle(struct handle *h)
{
	seq_release(&h->m);
	mach_free(h->own);
	free(h);
}

static void track_handle(struct pfs_fuse *fs, struct handle *h)
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

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct handle *h;
	struct node n;
	char err[256];
	int rc = 0;

	COUNT(fs, open);
	if (node_from_ino(ino, &n)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (n.kind != NODE_GFILE && n.kind != NODE_PID_FILE && n.kind != NODE_TID_FILE) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if (n.index >= pfs_nfiles) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if ((fi->flags & O_ACCMODE) != O_RDONLY) {
		fuse_reply_err(req, EACCES); /* nothing here accepts writes (yet) */
		return;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	h->file = &pfs_files[n.index];
	h->pid = n.kind == NODE_GFILE ? 0 : n.pid;
	h->tid = n.kind == NODE_TID_FILE ? n.tid : 0;
	maybe_advance(fs);
	pthread_rwlock_rdlock(&fs->lock);
	h->ctx.mach = fs->src->mach;
	if (n.kind == NODE_GFILE && fs->src->live_proc_fd >= 0) {
		rc = mirror_load_globals(fs->src->live_proc_fd, &h->own, err, sizeof(err));
		if (!rc)
			h->ctx.mach = h->own;
	} else if (n.kind != NODE_GFILE) {
		rc = bind_task(fs, req, h, err, sizeof(err));
		if (!rc) {
			h->ctx.ptrace_ok = may_ptrace(req, &h->ctx);
			/* maps and environ need ptrace access, as fs/proc/base.c checks at open */
			if ((!strcmp(h->file->name, "maps") || !strcmp(h->file->name, "environ")) &&
			    !h->ctx.ptrace_ok)
				rc = -EACCES;
		}
	}
	if (!rc) {
		identify_caller(fs, req, &h->ctx.caller_pid, &h->ctx.caller_tid);
		rc = pfs_open(&h->m, h->file, &h->ctx);
	}
	pthread_rwlock_unlock(&fs->lock);
	if (rc) {
		if (rc != -ESRCH && rc != -ENOENT && rc != -EACCES)
			fprintf(stderr, "uprocfs: open %s: %s\n", h->file->name, err[0] ? err : strerror(-rc));
		free_handle(h);
		fuse_reply_err(req, rc == -ESRCH ? ENOENT : -rc);
		return;
	}
	track_handle(fs, h);
	fi->fh = (uint64_t)(uintptr_t)h;
	fi->direct_io = 1;  /* st_size is 0: every read must reach us */
	fi->keep_cache = 0;
	fi->noflush = 1;    /* nothing to flush: spare close() a round trip */
	fuse_reply_open(req, fi);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;
	char stackbuf[16384], *buf = stackbuf;
	loff_t pos = off;
	ssize_t n;
	bool shared = !h->own;

	(void)ino;
	COUNT(fs, read);
	if (off < 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	/* a read at 0 regenerates (top and vmstat re-read /proc/stat so): the clock moves first */
	if (off == 0 && shared)
		maybe_advance(fs);
	if (size > sizeof(stackbuf)) {
		buf = malloc(size);
		if (!buf) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
	}
	if (shared)
		pthread_rwlock_rdlock(&fs->lock);
	/* The model may have moved since the last read: find the task again. */
	if (shared && h->pid) {
		const struct mach_process *p;
		const struct mach_thread *t;

		if (find_task(fs->src->mach, h->pid, h->tid, &p, &t)) {
			pthread_rwlock_unlock(&fs->lock);
			if (buf != stackbuf)
				free(buf);
			if (h->started)
				fuse_reply_buf(req, NULL, 0); /* it exited: end of file */
			else
				fuse_reply_err(req, ESRCH);
			return;
		}
		h->ctx.proc = p;
		h->ctx.thread = t;
	}
	n = seq_read(&h->m, buf, size, &pos);
	if (shared)
		pthread_rwlock_unlock(&fs->lock);
	h->started = true;
	if (n < 0)
		fuse_reply_err(req, (int)-n);
	else
		fuse_reply_buf(req, buf, (size_t)n);
	if (buf != stackbuf)
		free(buf);
}

static void op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);

	(void)ino;
	COUNT(fs, release);
	untrack_handle(fs, (struct handle *)(uintptr_t)fi->fh);
	free_handle((struct handle *)(uintptr_t)fi->fh);
	fuse_reply_err(req, 0);
}

static void op_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct handle h = { 0 };
	struct node n;
	char target[4096], err[256];
	int rc;

	COUNT(fs, readlink);
	if (node_from_ino(ino, &n) || (n.kind != NODE_GFILE && n.kind != NODE_PID_FILE && n.kind != NODE_TID_FILE) ||
	    n.index >= pfs_nfiles || !pfs_is_link(&pfs_files[n.index])) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	h.file = &pfs_files[n.index];
	h.pid = n.kind == NODE_GFILE ? 0 : n.pid;
	h.tid = n.kind == NODE_TID_FILE ? n.tid : 0;
	pthread_rwlock_rdlock(&fs->lock);
	h.ctx.mach = fs->src->mach;
	identify_caller(fs, req, &h.ctx.caller_pid, &h.ctx.caller_tid);
	rc = h.pid ? bind_task(fs, req, &h, err, sizeof(err)) : 0;
	if (!rc)
		rc = h.file->readlink(&h.ctx, target, sizeof(target));
	pthread_rwlock_unlock(&fs->lock);
	mach_free(h.own);
	if (rc)
		fuse_reply_err(req, rc == -ESRCH ? ENOENT : -rc);
	else
		fuse_reply_readlink(req, target);
}

/* ------------------------------------------------------------------ */
/* readdir                                                             */

struct dirbuf {
	fuse_req_t req;
	char *buf;
	size_t size, used;
	bool plus, full;
};

/* Add one entry; false when the reply buffer is full. */
static bool dir_add(struct pfs_fuse *fs, struct dirbuf *d, const char *name, const struct node *n, off_t next)
{
	size_t room = d->size - d->used, len;

	if (d->plus) {
		struct fuse_entry_param e;

		memset(&e, 0, sizeof(e));
		if (strcmp(name, ".") && strcmp(name, "..")) {
			if (node_stat(fs, d->req, n, &e.attr))
				return true; /* vanished meanwhile: leave it out */
			e.ino = node_ino(n);
			e.attr_timeout = CACHE_TIMEOUT;
			e.entry_timeout = S_ISLNK(e.attr.st_mode) && n->kind == NODE_GFILE ? 0 : CACHE_TIMEOUT;
		} else {
			e.attr.st_ino = node_ino(n);
			e.attr.st_mode = S_IFDIR;
		}
		len = fuse_add_direntry_plus(d->req, d->buf + d->used, room, name, &e, next);
	} else {
		struct stat st = { .st_ino = node_ino(n) };
		const struct pfs_file *f = n->kind == NODE_GFILE || n->kind == NODE_PID_FILE ||
						   n->kind == NODE_TID_FILE ? &pfs_files[n->index] : NULL;

		st.st_mode = !f ? S_IFDIR : pfs_is_link(f) ? S_IFLNK : S_IFREG;
		len = fuse_add_direntry(d->req, d->buf + d->used, room, name, &st, next);
	}
	if (len > room) {
		d->full = true;
		return false;
	}
	d->used += len;
	return true;
}

/* The fixed entries of a directory, by position (from 0); false past the end. */
static bool fixed_entry(struct pfs_fuse *fs, const struct node *dir, unsigned int i, const char **name,
			struct node *n)
{
	unsigned int k = 0;
	bool in_pid = dir->kind != NODE_ROOT && dir->kind != NODE_GDIR;
	const char *prefix = NULL;
	size_t plen = 0;

	if (i == 0 || i == 1) {
		*name = i ? ".." : ".";
		*n = *dir;
		return true;
	}
	i -= 2;
	if (dir->kind == NODE_GDIR)
		prefix = fs->gdirs[dir->index];
	else if (dir->kind == NODE_PID_SUBDIR || dir->kind == NODE_TID_SUBDIR)
		prefix = fs->pdirs[dir->index];
	if (prefix)
		plen = strlen(prefix);
	/* subdirectories first */
	if (dir->kind == NODE_ROOT || dir->kind == NODE_GDIR || dir->kind == NODE_PID_DIR || dir->kind == NODE_TID_DIR) {
		char (*dirs)[DIRNAME_MAX] = in_pid ? fs->pdirs : fs->gdirs;
		unsigned int ndirs = in_pid ? fs->npdirs : fs->ngdirs;

		for (unsigned int d = 0; d < ndirs; d++) {
			const char *p = dirs[d], *base = strrchr(p, '/');
			bool child = prefix ? (!strncmp(p, prefix, plen) && p[plen] == '/' && !strchr(p + plen + 1, '/'))
					    : !base;
			if (!child)
				continue;
			if (k++ == i) {
				*name = base ? base + 1 : p;
				*n = (struct node){ .kind = in_pid ? (dir->kind == NODE_TID_DIR ? NODE_TID_SUBDIR : NODE_PID_SUBDIR)
								   : NODE_GDIR,
						    .index = d, .pid = dir->pid, .tid = dir->tid };
				return true;
			}
		}
		if (dir->kind == NODE_PID_DIR && k++ == i) {
			*name = "task";
			*n = (struct node){ .kind = NODE_TASK_DIR, .pid = dir->pid };
			return true;
		}
	}
	if (dir->kind == NODE_TASK_DIR)
		return false;
	for (size_t f = 0; f < pfs_nfiles; f++) {
		const struct pfs_file *pf = &pfs_files[f];
		const char *nm = pf->name, *rest;

		if ((pf->scope == PFS_SCOPE_PID) != in_pid)
			continue;
		if (prefix) {
			if (strncmp(nm, prefix, plen) || nm[plen] != '/')
				continue;
			rest = nm + plen + 1;
		} else {
			rest = nm;
		}
		if (strchr(rest, '/'))
			continue;
		if (!global_file_exists(fs, pf))
			continue;
		if (k++ == i) {
			*name = rest;
			*n = (struct node){ .kind = !in_pid ? NODE_GFILE
						: (dir->kind == NODE_TID_DIR || dir->kind == NODE_TID_SUBDIR) ? NODE_TID_FILE
						: NODE_PID_FILE,
					    .index = (unsigned int)f, .pid = dir->pid, .tid = dir->tid };
			return true;
		}
	}
	return false;
}

/* Pids (or tids) above @after, ascending, for the root or a task directory. */
static int collect_ids(struct pfs_fuse *fs, const struct node *dir, int procfd, pid_t after, pid_t *ids,
		       size_t max, size_t *n)
{
	const struct machine *m = fs->src->mach;

	*n = 0;
	if (procfd >= 0) {
		/* Live: list the real directory, then sort what is above @after. */
		char path[32];
		int fd;
		DIR *d;
		struct dirent *de;

		snprintf(path, sizeof(path), dir->kind == NODE_ROOT ? "." : "%d/task", (int)dir->pid);
		fd = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || !(d = fdopendir(fd))) {
			if (fd >= 0)
				close(fd);
			return -ENOENT;
		}
		while ((de = readdir(d)) && *n < max) {
			pid_t id = parse_pid(de->d_name);
			if (id > after)
				ids[(*n)++] = id;
		}
		closedir(d);
		for (size_t i = 1; i < *n; i++)
			for (size_t j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
				pid_t t = ids[j];
				ids[j] = ids[j - 1];
				ids[j - 1] = t;
			}
		return 0;
	}
	if (dir->kind == NODE_ROOT) {
		size_t lo = 0, hi = m->nprocs;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (m->procs[mid].tgid <= after)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t i = lo; i < m->nprocs && *n < max; i++)
			ids[(*n)++] = m->procs[i].tgid;
		return 0;
	}
	const struct mach_process *p = mach_find_process(m, dir->pid);
	if (!p)
		return -ENOENT;
	for (unsigned int i = 0; i < p->nthreads && *n < max; i++)
		if (p->threads[i].tid > after)
			ids[(*n)++] = p->threads[i].tid;
	for (size_t i = 1; i < *n; i++) /* threads are few; keep them ascending */
		for (size_t j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
			pid_t t = ids[j];
			ids[j] = ids[j - 1];
			ids[j - 1] = t;
		}
	return 0;
}

static void do_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, bool plus)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct dirbuf d = { .req = req, .size = size, .plus = plus };
	struct node dir, n;
	const char *name;
	pid_t caller_pid = 0, caller_tid = 0, ids[256];
	size_t nids;

	COUNT(fs, readdir);
	if (node_from_ino(ino, &dir) || dir.kind == NODE_GFILE || dir.kind == NODE_PID_FILE ||
	    dir.kind == NODE_TID_FILE) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	if (off < 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	d.buf = malloc(size ? size : 1);
	if (!d.buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (fs->opts.caller_proc_fd >= 0 && fs->src->live_proc_fd < 0)
		identify_caller(fs, req, &caller_pid, &caller_tid);
	/* real directories to list: everything when live, the caller's own task/ */
	int procfd = fs->src->live_proc_fd;
	if (procfd < 0 && dir.kind == NODE_TASK_DIR && caller_pid > 0 && dir.pid == caller_pid)
		procfd = fs->opts.caller_proc_fd;
	if (dir.kind != NODE_ROOT)
		caller_pid = 0; /* only the root lists the caller among the model's pids */
	pthread_rwlock_rdlock(&fs->lock);
	/* fixed entries: offsets 1..; the offset is the position of the next entry */
	for (uint64_t i = (uint64_t)off; i < PID_OFFSET_BASE && fixed_entry(fs, &dir, (unsigned int)i, &name, &n);
	     i++) {
		if (!dir_add(fs, &d, name, &n, (off_t)(i + 1)))
			goto out;
	}
	if (dir.kind == NODE_ROOT || dir.kind == NODE_TASK_DIR) {
		pid_t after = (uint64_t)off > PID_OFFSET_BASE ? (pid_t)((uint64_t)off - PID_OFFSET_BASE) : 0;
		bool caller_done = caller_pid <= after;

		while (!d.full && !collect_ids(fs, &dir, procfd, after, ids, sizeof(ids) / sizeof(ids[0]), &nids) &&
		       nids) {
			for (size_t i = 0; i < nids; i++) {
				char num[16];
				pid_t id = ids[i];

				/* the reader's own pid, in its place among the model's */
				if (!caller_done && caller_pid < id) {
					snprintf(num, sizeof(num), "%d", (int)caller_pid);
					n = (struct node){ .kind = NODE_PID_DIR, .pid = caller_pid };
					if (!dir_add(fs, &d, num, &n, (off_t)(PID_OFFSET_BASE + (uint64_t)caller_pid)))
						goto out;
					caller_done = true;
				}
				if (id == caller_pid)
					caller_done = true;
				snprintf(num, sizeof(num), "%d", (int)id);
				n = dir.kind == NODE_ROOT ? (struct node){ .kind = NODE_PID_DIR, .pid = id }
							  : (struct node){ .kind = NODE_TID_DIR, .pid = dir.pid, .tid = id };
				if (!dir_add(fs, &d, num, &n, (off_t)(PID_OFFSET_BASE + (uint64_t)id)))
					goto out;
				after = id;
			}
		}
		if (!d.full && !caller_done && caller_pid > after) {
			char num[16];
			snprintf(num, sizeof(num), "%d", (int)caller_pid);
			n = (struct node){ .kind = NODE_PID_DIR, .pid = caller_pid };
			dir_add(fs, &d, num, &n, (off_t)(PID_OFFSET_BASE + (uint64_t)caller_pid));
		}
	}
out:
	pthread_rwlock_unlock(&fs->lock);
	fuse_reply_buf(req, d.buf, d.used);
	free(d.buf);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	(void)fi;
	do_readdir(req, ino, size, off, false);
}

static void op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi)
{
	(void)fi;
	do_readdir(req, ino, size, off, true);
}

static void op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct pfs_fuse *fs = fuse_req_userdata(req);
	struct stat st;
	struct node n;

	if (node_from_ino(ino, &n) || node_stat(fs, req, &n, &st) || !S_ISDIR(st.st_mode)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fuse_reply_open(req, fi);
}

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

static const struct fuse_lowlevel_ops pfs_ops = {
	.init = op_init,
	.lookup = op_lookup,
	.getattr = op_getattr,
	.readlink = op_readlink,
	.open = op_open,
	.read = op_read,
	.release = op_release,
	.opendir = op_opendir,
	.readdir = op_readdir,
	.readdirplus = op_readdirplus,
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
	pthread_rwlock_init(&fs->lock, NULL);
	pthread_mutex_init(&fs->advance_lock, NULL);
	pthread_mutex_init(&fs->callers_lock, NULL);
	pthread_mutex_init(&fs->handles_lock, NULL);
	clock_gettime(CLOCK_REALTIME, &fs->mount_time);
	fs->cache_timeout = src->live_proc_fd >= 0 ? CACHE_TIMEOUT_LIVE : CACHE_TIMEOUT_STABLE;
	collect_dirs(fs);
	snprintf(opts, sizeof(opts), "fsname=uprocfs,subtype=uprocfs,default_permissions%s",
		 o->allow_other ? ",allow_other" : "");
	if (fuse_opt_add_arg(&args, "uprocfs") || fuse_opt_add_arg(&args, "-o") ||
	    fuse_opt_add_arg(&args, opts) || (o->debug && fuse_opt_add_arg(&args, "-d"))) {
		rc = -ENOMEM;
		goto fail;
	}
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
	fs->mounted = o->mounted_fd < 0;
	fs->mounted_elsewhere = o->mounted_fd >= 0;
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
	if (mount("uprocfs", target, "fuse.uprocfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts))
		return -errno;
	return 0;
}

void pfs_fuse_destroy(struct pfs_fuse *fs)
{
	if (!fs)
		return;
	if (fs->se) {
		if (fs->mounted)
			fuse_session_unmount(fs->se);
		if (fs->signals_set)
			fuse_remove_signal_handlers(fs->se);
		fuse_session_destroy(fs->se);
	}
	while (fs->handles) {
		struct handle *h = fs->handles;
		fs->handles = h->next;
		free_handle(h);
	}
	pthread_rwlock_destroy(&fs->lock);
	pthread_mutex_destroy(&fs->advance_lock);
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
