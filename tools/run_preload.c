// SPDX-License-Identifier: MIT
/*
 * run_preload.c - the daemon's side of `uprocfs run --preload`
 * (run_preload.h, src/preload/shared.h).
 *
 * A snapshot is the served machine cloned into an arena whose file lives in
 * the run's directory: publishing brings the model up to now, copies it
 * under the model's read lock (FUSE readers go on meanwhile), and makes it
 * the newest in the control page.  The publisher does nothing until a
 * reader asks (the request page's futex word): a reader asks when its
 * snapshot grows older than max_age on the served clock, or half that, or
 * when a control call changed the machine.  max_age is at least
 * UPROCFS_PRELOAD_MAX_AGE_MS (100 ms) and four times what the last publish
 * took, so publishing takes at most about a quarter of a CPU however big
 * the machine.
 *
 * The directory's files live on a tmpfs of the run's own, made with the
 * mount API and attached by the command's init in its mount namespace
 * alone (pl_daemon_attach), with huge pages: a snapshot is tens of MiB
 * written once and dropped, and in 4 KiB pages allocating, zeroing and
 * freeing them cost more than the copy (2,000 tasks, pinned to one CPU:
 * 86 ms per `ps aux` with the host's /dev/shm, 52 ms on huge pages).
 * Where the mount API or huge pages are missing, /dev/shm serves as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "machine/clone.h"
#include "preload/shared.h"
#include "run_preload.h"

#define DEFAULT_MAX_AGE_NS 100000000ull
#define PAGE 4096

struct pl_daemon {
	char dir[64];
	int dirfd;
	bool own_mount;           /* dirfd is the root of the run's tmpfs, not yet attached */
	struct pl_ctl *ctl;
	struct pl_req *req;
	struct pfs_source *src;
	uint64_t base_max_age_ns;
	pthread_t thread;
	bool running, stop;
	uint64_t publish_total_ns;
	/*
	 * The file of the newest snapshot in each slot (gen % 2), kept open to
	 * be written over two generations later (shared.h); -1 when none.
	 */
	int file[2];
	/* what every snapshot shares (the file "shared"): the mms' fixed parts */
	struct ua_arena *shared_arena;
	struct mach_clone_shared *shared;
	size_t last_used;
	size_t last_tasks;        /* tasks (threads) of the last snapshot: its bytes per task */
};

static uint64_t mono_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

/* A page-sized file of the directory, mapped shared and writable; NULL on failure. */
static void *page_file(struct pl_daemon *d, const char *name, mode_t mode)
{
	int fd = openat(d->dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	void *p = MAP_FAILED;

	if (fd < 0)
		return NULL;
	if (!fchmod(fd, mode) && !ftruncate(fd, PAGE))
		p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/*
 * A tmpfs of the run's own, on huge pages when the kernel has them, not
 * attached anywhere yet: its root's descriptor, or -errno.
 */
static int private_tmpfs(void)
{
	int fs = fsopen("tmpfs", FSOPEN_CLOEXEC), mnt;

	if (fs < 0)
		return -errno;
	/* without transparent huge pages the option is refused: plain pages then */
	(void)fsconfig(fs, FSCONFIG_SET_STRING, "huge", "always", 0);
	if (fsconfig(fs, FSCONFIG_SET_STRING, "mode", "0755", 0) || fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		int e = -errno;

		close(fs);
		return e;
	}
	mnt = fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	close(fs);
	return mnt < 0 ? -errno : mnt;
}

int pl_daemon_prepare(struct pl_daemon **out, bool stop_clock, char *err, size_t errlen)
{
	struct pl_daemon *d = calloc(1, sizeof(*d));
	const char *env = getenv("UPROCFS_PRELOAD_MAX_AGE_MS");

	if (!d)
		return -ENOMEM;
	d->dirfd = -1;
	d->file[0] = d->file[1] = -1;
	snprintf(d->dir, sizeof(d->dir), "/dev/shm/uprocfs-run.XXXXXX");
	if (!mkdtemp(d->dir)) {
		snprintf(d->dir, sizeof(d->dir), "/tmp/uprocfs-run.XXXXXX");
		if (!mkdtemp(d->dir)) {
			snprintf(err, errlen, "--preload: a directory in /dev/shm or /tmp: %s", strerror(errno));
			free(d);
			return -errno;
		}
	}
	chmod(d->dir, 0755);
	d->dirfd = private_tmpfs();
	d->own_mount = d->dirfd >= 0;
	if (!d->own_mount)
		d->dirfd = open(d->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->dirfd < 0 || mkdirat(d->dirfd, "nsproc", 0555) || !(d->ctl = page_file(d, "ctl", 0644)) ||
	    !(d->req = page_file(d, "req", 0666))) {
		snprintf(err, errlen, "--preload: %s: %s", d->dir, strerror(errno));
		pl_daemon_stop(d);
		return -EIO;
	}
	d->base_max_age_ns = env && atoi(env) > 0 ? (uint64_t)atoi(env) * 1000000u : DEFAULT_MAX_AGE_NS;
	d->ctl->magic = PL_MAGIC;
	d->ctl->version = PL_VERSION;
	d->ctl->frozen = stop_clock;
	d->ctl->max_age_ns = d->base_max_age_ns;
	*out = d;
	return 0;
}

const char *pl_daemon_dir(const struct pl_daemon *d)
{
	return d->dir;
}

int pl_daemon_attach(const struct pl_daemon *d)
{
	if (!d->own_mount)
		return 0;
	return move_mount(d->dirfd, "", AT_FDCWD, d->dir, MOVE_MOUNT_F_EMPTY_PATH) ? -errno : 0;
}

void pl_daemon_changed(void *arg)
{
	struct pl_daemon *d = arg;

	__atomic_add_fetch(&d->ctl->changes, 1, __ATOMIC_SEQ_CST);
}

/* What the clone runs under the model's read lock. */
struct clone_job {
	struct ua_arena *a;
	struct mach_clone_shared *shared;
	struct pl_snap *hdr;
	size_t tasks;
};

static int clone_locked(void *arg, const struct mach_machine *m)
{
	struct clone_job *j = arg;

	j->hdr->mach = mach_clone_into_sharing(j->a, m, j->shared);
	j->hdr->uptime_ns = m->uptime_ns;
	j->tasks = 0;
	for (size_t i = 0; i < m->nprocs; i++)
		j->tasks += m->procs[i].nthreads;
	return j->hdr->mach ? 0 : -ENOMEM;
}

static void snap_name(char *buf, size_t size, uint64_t gen)
{
	snprintf(buf, size, "snap.%llu", (unsigned long long)gen);
}

/*
 * Try to take the file of snapshot @gen - 2 for snapshot @gen: mark it as
 * being rewritten, then make sure no reader is inside (shared.h).  Its
 * arena, mapped at the slot and renamed to @gen's name, or NULL (it is then
 * dropped: a reader may still be inside it).
 */
static struct ua_arena *reuse_file(struct pl_daemon *d, uint64_t gen)
{
	int *f = &d->file[gen & 1], fd;
	char from[32], to[32];
	struct ua_arena *a = NULL;

	if (*f < 0 || gen < 3)
		return NULL;
	fd = fcntl(*f, F_DUPFD_CLOEXEC, 0);
	if (fd >= 0 && !ua_create_in(&a, PL_SLOT_BASE(gen), PL_SLOT_RESERVE, fd)) {
		const struct pl_file_page *page = (const struct pl_file_page *)ua_base(a);
		struct pl_snap *old = (struct pl_snap *)(ua_base(a) + PL_SNAP_OFFSET);

		__atomic_store_n(&old->gen, 0, __ATOMIC_SEQ_CST);
		snap_name(from, sizeof(from), gen - 2);
		snap_name(to, sizeof(to), gen);
		if (__atomic_load_n(&page->inside, __ATOMIC_SEQ_CST) == 0 && !renameat(d->dirfd, from, d->dirfd, to))
			return a;
		ua_destroy(a);
		a = NULL;
	}
	snap_name(from, sizeof(from), gen - 2);
	unlinkat(d->dirfd, from, 0);
	close(*f);
	*f = -1;
	return a;
}

/* A new file for snapshot @gen, its arena mapped at the slot; 0 or -errno. */
static int new_file(struct pl_daemon *d, uint64_t gen, struct ua_arena **out)
{
	int *f = &d->file[gen & 1], fd, keep, rc;
	char name[32];

	if (*f >= 0) {
		snap_name(name, sizeof(name), gen - 2);
		unlinkat(d->dirfd, name, 0);
		close(*f);
		*f = -1;
	}
	snap_name(name, sizeof(name), gen);
	fd = openat(d->dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	if (fd < 0)
		return -errno;
	keep = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	rc = keep < 0 ? -errno : ua_create_in(out, PL_SLOT_BASE(gen), PL_SLOT_RESERVE, fd);
	if (rc) {
		if (keep >= 0)
			close(keep);
		unlinkat(d->dirfd, name, 0);
		return rc;
	}
	*f = keep;
	return 0;
}

/* Make snapshot gen + 1 the newest; 0 or -errno. */
static int publish(struct pl_daemon *d)
{
	uint64_t gen = d->ctl->gen + 1, t0 = mono_ns(CLOCK_MONOTONIC), took;
	struct clone_job j = { .shared = d->shared };
	uint64_t uptime, changes;
	char name[32];
	int rc;

	j.a = reuse_file(d, gen);
	if (j.a)
		d->req->reuses++;
	else if ((rc = new_file(d, gen, &j.a)))
		return rc;
	/* the readers' count (zero in a new file, and in a reused one) stays as it is */
	ua_take(j.a, PL_SNAP_OFFSET);
	j.hdr = ua_take(j.a, sizeof(*j.hdr));
	/* gen stays 0 until the copy is whole: a reader that maps it early backs off */
	__atomic_store_n(&j.hdr->gen, 0, __ATOMIC_SEQ_CST);
	j.hdr->magic = PL_MAGIC;
	j.hdr->version = PL_VERSION;
	/* read before the copy: a control call during it makes this one stale at once */
	j.hdr->changes = __atomic_load_n(&d->ctl->changes, __ATOMIC_SEQ_CST);
	rc = pfs_model_source_read(d->src, clone_locked, &j);
	d->last_used = ua_used(j.a);
	d->last_tasks = j.tasks;
	if (!rc)
		rc = ua_trim(j.a);
	uptime = j.hdr->uptime_ns;
	changes = j.hdr->changes;
	if (!rc)
		__atomic_store_n(&j.hdr->gen, gen, __ATOMIC_RELEASE);
	ua_destroy(j.a); /* the daemon keeps no mapping of it: the file is the snapshot */
	if (rc) {
		snap_name(name, sizeof(name), gen);
		unlinkat(d->dirfd, name, 0);
		close(d->file[gen & 1]);
		d->file[gen & 1] = -1;
		return rc;
	}
	took = mono_ns(CLOCK_MONOTONIC) - t0;
	d->publish_total_ns += took;
	d->ctl->snap_uptime_ns = uptime;
	d->ctl->snap_changes = changes;
	d->ctl->publish_ns = took;
	d->ctl->max_age_ns = 4 * took > d->base_max_age_ns ? 4 * took : d->base_max_age_ns;
	d->ctl->publishes++;
	__atomic_store_n(&d->ctl->gen, gen, __ATOMIC_RELEASE);
	__atomic_store_n(&d->ctl->gen_futex, (uint32_t)gen, __ATOMIC_RELEASE);
	futex(&d->ctl->gen_futex, FUTEX_WAKE, INT_MAX, NULL);
	return 0;
}

/* Whether the newest snapshot should be replaced now that a reader asked. */
static bool wanted(const struct pl_daemon *d)
{
	uint64_t now;

	if (__atomic_load_n(&d->ctl->changes, __ATOMIC_SEQ_CST) != d->ctl->snap_changes)
		return true;
	if (d->ctl->frozen)
		return false;
	now = (uint64_t)((int64_t)mono_ns(CLOCK_BOOTTIME) + d->ctl->clock_offset_ns);
	/* asked for one made after its own: another reader's request may have been served meanwhile */
	return now > d->ctl->snap_uptime_ns + d->ctl->max_age_ns / 4;
}

static void *publisher(void *arg)
{
	struct pl_daemon *d = arg;
	uint32_t seen = __atomic_load_n(&d->req->want, __ATOMIC_SEQ_CST);

	while (!__atomic_load_n(&d->stop, __ATOMIC_SEQ_CST)) {
		struct timespec one = { .tv_sec = 1 };
		uint32_t w = __atomic_load_n(&d->req->want, __ATOMIC_SEQ_CST);

		if (w != seen) {
			seen = w;
			if (wanted(d) && publish(d))
				fprintf(stderr, "uprocfs run: --preload: a snapshot could not be made\n");
			continue;
		}
		futex(&d->req->want, FUTEX_WAIT, seen, &one);
	}
	return NULL;
}

/* The file every snapshot shares, mapped at PL_SHARED_BASE (shared.h); 0 or -errno. */
static int shared_file(struct pl_daemon *d)
{
	int fd = openat(d->dirfd, "shared", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	int rc;

	if (fd < 0)
		return -errno;
	rc = ua_create_in(&d->shared_arena, PL_SHARED_BASE, PL_SLOT_RESERVE, fd);
	if (!rc)
		rc = mach_clone_shared_new(&d->shared, d->shared_arena);
	return rc;
}

int pl_daemon_start(struct pl_daemon *d, struct pfs_source *src, const struct served *s, pid_t mirror_from,
		    char *err, size_t errlen)
{
	int rc;

	d->src = src;
	d->ctl->mirror_from = mirror_from;
	rc = shared_file(d);
	if (rc) {
		snprintf(err, errlen, "--preload: the snapshots' shared file: %s", strerror(-rc));
		return rc;
	}
	d->ctl->clock_offset_ns = (int64_t)s->model_base_ns - (int64_t)s->boot_base_ns;
	rc = publish(d);
	if (rc) {
		snprintf(err, errlen, "--preload: the first snapshot: %s", strerror(-rc));
		return rc;
	}
	if (pthread_create(&d->thread, NULL, publisher, d)) {
		snprintf(err, errlen, "--preload: no thread to publish snapshots");
		return -EAGAIN;
	}
	d->running = true;
	return 0;
}

void pl_daemon_stats(const struct pl_daemon *d, char *buf, size_t size)
{
	const struct pl_req *q = d->req;

	snprintf(buf, size,
		 "preload: %llu processes served, %llu left to FUSE; %llu files served, %llu calls passed on, "
		 "%llu waits; %llu snapshots (%llu over an older one's file), %.1f ms each (the last %.1f ms), the last %.1f MiB "
		 "(%zu bytes per task of %zu) and %.1f MiB shared",
		 (unsigned long long)q->procs_served, (unsigned long long)q->procs_fallback,
		 (unsigned long long)q->opens, (unsigned long long)q->passes, (unsigned long long)q->waits,
		 (unsigned long long)d->ctl->publishes, (unsigned long long)q->reuses,
		 d->ctl->publishes ? (double)d->publish_total_ns / 1e6 / (double)d->ctl->publishes : 0.0,
		 (double)d->ctl->publish_ns / 1e6,
		 (double)d->last_used / 1048576.0, d->last_tasks ? d->last_used / d->last_tasks : 0, d->last_tasks,
		 d->shared_arena ? (double)ua_used(d->shared_arena) / 1048576.0 : 0.0);
}

void pl_daemon_stop(struct pl_daemon *d)
{
	char name[32];

	if (!d)
		return;
	if (d->running) {
		__atomic_store_n(&d->stop, true, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&d->req->want, 1, __ATOMIC_SEQ_CST);
		futex(&d->req->want, FUTEX_WAKE, 1, NULL);
		pthread_join(d->thread, NULL);
	}
	if (d->dirfd >= 0) {
		for (uint64_t g = d->ctl && d->ctl->gen > 1 ? d->ctl->gen - 1 : 1; d->ctl && g <= d->ctl->gen; g++) {
			snap_name(name, sizeof(name), g);
			unlinkat(d->dirfd, name, 0);
		}
		unlinkat(d->dirfd, "shared", 0);
		unlinkat(d->dirfd, "ctl", 0);
		unlinkat(d->dirfd, "req", 0);
		unlinkat(d->dirfd, "nsproc", AT_REMOVEDIR);
		close(d->dirfd);
		rmdir(d->dir);
	}
	for (int i = 0; i < 2; i++)
		if (d->file[i] >= 0)
			close(d->file[i]);
	mach_clone_shared_free(d->shared);
	ua_destroy(d->shared_arena);
	if (d->ctl)
		munmap(d->ctl, PAGE);
	if (d->req)
		munmap(d->req, PAGE);
	free(d);
}

int pl_library_path(char *buf, size_t size)
{
	static const char *const beside[] = { "src/preload/libuprocfs-preload.so",
					      "../lib/uprocfs/libuprocfs-preload.so",
					      "../lib/x86_64-linux-gnu/uprocfs/libuprocfs-preload.so",
					      "../lib64/uprocfs/libuprocfs-preload.so" };
	const char *env = getenv("UPROCFS_PRELOAD_LIB");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return access(buf, R_OK) ? -ENOENT : 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -ENOENT;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	for (size_t i = 0; i < sizeof(beside) / sizeof(beside[0]); i++) {
		char path[PATH_MAX + 64];

		snprintf(path, sizeof(path), "%s/%s", exe, beside[i]);
		if (!access(path, R_OK) && realpath(path, buf))
			return 0;
	}
	return -ENOENT;
}
