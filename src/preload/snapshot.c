// SPDX-License-Identifier: MIT
/*
 * snapshot.c - the reader's side of shared.h (snapshot.h).
 *
 * Snapshots live in two slots at fixed addresses; snapshot N in slot N % 2.
 * A call holds the current slot by a reference count for as long as it
 * renders (microseconds).  Mapping a newer snapshot into the other slot
 * waits for that slot's holders to leave; when they do not (a thread
 * stopped mid-render), the current snapshot stays and the next call tries
 * again.
 *
 * Files are reached with raw system calls: this runs inside the library's
 * own open() and close(), and must not come back to them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "snapshot.h"

struct slot {
	const struct pl_snap *snap;
	void *map;         /* the file's mapping (at the slot's address), len bytes */
	uint32_t *inside;  /* its first page's count, mapped writable apart */
	size_t len;
	uint64_t gen;      /* 0: free, or being replaced */
	int refs;
};

static struct {
	bool ok;
	const struct pl_ctl *ctl;
	struct pl_req *req;
	char dir[PATH_MAX - 32];
	struct stat root;
	struct slot slots[2];
	uint64_t cur;      /* the generation calls take; 0: none mapped */
	uint64_t asked;    /* the generation we already asked to have replaced */
	pthread_mutex_t map_lock;
} S = { .map_lock = PTHREAD_MUTEX_INITIALIZER };

#define LOAD(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)

static int sys_open(const char *path, int flags)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags | O_CLOEXEC, 0);
}

static void sys_close(int fd)
{
	syscall(SYS_close, fd);
}

/* Map file @name of the run's directory, whole; NULL on failure. */
static void *map_file(const char *name, int prot, uintptr_t at, size_t *len)
{
	char path[PATH_MAX];
	struct stat st;
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", S.dir, name);
	fd = sys_open(path, (prot & PROT_WRITE) ? O_RDWR : O_RDONLY);
	if (fd < 0)
		return NULL;
	if (syscall(SYS_fstat, fd, &st) || st.st_size <= 0) {
		sys_close(fd);
		return NULL;
	}
	p = mmap((void *)at, (size_t)st.st_size, prot, MAP_SHARED | (at ? MAP_FIXED_NOREPLACE : 0), fd, 0);
	sys_close(fd);
	if (p == MAP_FAILED)
		return NULL;
	if (at && (uintptr_t)p != at) {
		munmap(p, (size_t)st.st_size); /* a kernel that took the address as a hint */
		errno = EEXIST;
		return NULL;
	}
	*len = (size_t)st.st_size;
	return p;
}

static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

/*
 * Map snapshot file @name read-only at @at (its slot) and its first page
 * writable anywhere (the count of readers inside, shared.h).  The mapping,
 * or NULL.
 */
static void *map_snapshot(const char *name, uintptr_t at, size_t *len, uint32_t **inside)
{
	char path[PATH_MAX];
	struct stat st;
	void *p = MAP_FAILED, *page = MAP_FAILED;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", S.dir, name);
	fd = sys_open(path, O_RDWR);
	if (fd < 0)
		return NULL;
	if (!syscall(SYS_fstat, fd, &st) && st.st_size > PL_SNAP_OFFSET) {
		p = mmap((void *)at, (size_t)st.st_size, PROT_READ, MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
		if (p != MAP_FAILED && (uintptr_t)p != at) {
			munmap(p, (size_t)st.st_size); /* a kernel that took the address as a hint */
			p = MAP_FAILED;
		}
		if (p != MAP_FAILED)
			page = mmap(NULL, PL_SNAP_OFFSET, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (page == MAP_FAILED && p != MAP_FAILED) {
			munmap(p, (size_t)st.st_size);
			p = MAP_FAILED;
		}
	}
	sys_close(fd);
	if (p == MAP_FAILED)
		return NULL;
	*len = (size_t)st.st_size;
	*inside = &((struct pl_file_page *)page)->inside;
	return p;
}

static void unmap_slot(struct slot *s)
{
	munmap(s->map, s->len);
	munmap(s->inside, PL_SNAP_OFFSET);
	s->map = NULL;
	s->snap = NULL;
	s->inside = NULL;
}

/* Map snapshot @gen into its slot; false when it cannot be (the current one then stays). */
static bool remap(uint64_t gen)
{
	struct slot *s = &S.slots[gen & 1];
	const struct pl_snap *snap;
	uint32_t *inside;
	uint64_t old;
	char name[32];
	size_t len;
	void *p;

	pthread_mutex_lock(&S.map_lock);
	if (LOAD(&S.cur) >= gen) {
		pthread_mutex_unlock(&S.map_lock);
		return true; /* another thread did it */
	}
	old = LOAD(&s->gen);
	if (old) {
		/* close the slot to new holders, then wait for the ones inside to leave */
		STORE(&s->gen, 0);
		for (int i = 0; LOAD(&s->refs) && i < 10000; i++)
			sched_yield();
		if (LOAD(&s->refs)) {
			STORE(&s->gen, old);
			pthread_mutex_unlock(&S.map_lock);
			return false;
		}
		unmap_slot(s);
		if (old == LOAD(&S.cur))
			STORE(&S.cur, 0); /* we skipped one: the current one is gone until the new one is in */
	}
	snprintf(name, sizeof(name), "snap.%llu", (unsigned long long)gen);
	p = map_snapshot(name, PL_SLOT_BASE(gen), &len, &inside);
	snap = p ? (const struct pl_snap *)((const char *)p + PL_SNAP_OFFSET) : NULL;
	if (p && (snap->magic != PL_MAGIC || LOAD(&snap->gen) != gen)) {
		munmap(p, len);
		munmap(inside, PL_SNAP_OFFSET);
		p = NULL;
	}
	if (!p) {
		pthread_mutex_unlock(&S.map_lock);
		return false;
	}
	s->map = p;
	s->snap = snap;
	s->inside = inside;
	s->len = len;
	STORE(&s->gen, gen);
	STORE(&S.cur, gen);
	pthread_mutex_unlock(&S.map_lock);
	return true;
}

bool pls_init(void)
{
	const char *dir = getenv(PL_ENV);
	size_t len;
	uint64_t gen;

	if (!dir || !*dir || strlen(dir) >= sizeof(S.dir))
		return false;
	snprintf(S.dir, sizeof(S.dir), "%s", dir);
	S.ctl = map_file("ctl", PROT_READ, 0, &len);
	S.req = map_file("req", PROT_READ | PROT_WRITE, 0, &len);
	if (!S.ctl || !S.req || S.ctl->magic != PL_MAGIC || S.ctl->version != PL_VERSION ||
	    syscall(SYS_newfstatat, AT_FDCWD, "/proc", &S.root, 0))
		return false;
	/* what the snapshots share: mapped once, as long as the daemon may make it (it only grows) */
	if (!map_file("shared", PROT_READ, PL_SHARED_BASE, &len)) {
		PLS_COUNT(procs_fallback);
		return false;
	}
	gen = __atomic_load_n(&S.ctl->gen, __ATOMIC_ACQUIRE);
	if (!gen || !remap(gen)) {
		PLS_COUNT(procs_fallback); /* the slot's address is taken here: FUSE serves this process */
		return false;
	}
	PLS_COUNT(procs_served);
	S.ok = true;
	return true;
}

const struct pl_ctl *pls_ctl(void)
{
	return S.ctl;
}

const struct stat *pls_root_stat(void)
{
	return &S.root;
}

void pls_count(size_t offset)
{
	if (S.req)
		__atomic_add_fetch((uint64_t *)((char *)S.req + offset), 1, __ATOMIC_RELAXED);
}

/* Ask the daemon for a snapshot newer than the one we have (one wake-up). */
static void ask(void)
{
	__atomic_add_fetch(&S.req->want, 1, __ATOMIC_SEQ_CST);
	futex(&S.req->want, FUTEX_WAKE, 1, NULL);
}

/* Wait until a snapshot newer than @gen is published (bounded). */
static void wait_newer(uint64_t gen)
{
	struct timespec one = { .tv_sec = 1 };

	PLS_COUNT(waits);
	for (int i = 0; i < 60 && __atomic_load_n(&S.ctl->gen, __ATOMIC_ACQUIRE) <= gen; i++)
		futex((uint32_t *)&S.ctl->gen_futex, FUTEX_WAIT, (uint32_t)gen, &one);
}

/* The served clock now. */
static uint64_t served_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts); /* the vDSO: no syscall */
	return (uint64_t)((int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + S.ctl->clock_offset_ns);
}

/* Whether @s may still be shown; *@soon when a newer one should be asked for already. */
static bool fresh(const struct pl_snap *s, bool *soon)
{
	uint64_t now, age, max;

	*soon = false;
	if (s->changes != LOAD(&S.ctl->changes))
		return false; /* a control call changed the machine since */
	if (S.ctl->frozen)
		return true;
	now = served_now();
	age = now > s->uptime_ns ? now - s->uptime_ns : 0;
	max = S.ctl->max_age_ns;
	*soon = age > max / 2;
	return age <= max;
}

enum take_result { TAKEN, NONE_MAPPED, REWRITTEN };

/*
 * Take the current slot, and count this reader inside its file (shared.h):
 * REWRITTEN when the daemon is writing a newer snapshot over it.
 */
static enum take_result take(struct pl_hold *h)
{
	for (;;) {
		uint64_t g = LOAD(&S.cur);
		struct slot *s;

		if (!g)
			return NONE_MAPPED;
		s = &S.slots[g & 1];
		__atomic_add_fetch(&s->refs, 1, __ATOMIC_SEQ_CST);
		if (LOAD(&s->gen) == g) {
			__atomic_add_fetch(s->inside, 1, __ATOMIC_SEQ_CST);
			if (LOAD(&s->snap->gen) != g) {
				__atomic_sub_fetch(s->inside, 1, __ATOMIC_SEQ_CST);
				__atomic_sub_fetch(&s->refs, 1, __ATOMIC_SEQ_CST);
				return REWRITTEN;
			}
			h->snap = s->snap;
			h->slot = (int)(g & 1);
			h->inside = s->inside;
			return TAKEN;
		}
		__atomic_sub_fetch(&s->refs, 1, __ATOMIC_SEQ_CST);
		sched_yield(); /* being replaced right now */
	}
}

int pls_enter(struct pl_hold *h)
{
	if (!S.ok)
		return -EAGAIN;
	for (int tries = 0, rewritten = 0;; tries++) {
		uint64_t newest = __atomic_load_n(&S.ctl->gen, __ATOMIC_ACQUIRE);
		enum take_result t;
		bool soon;

		if (newest > LOAD(&S.cur))
			remap(newest);
		t = take(h);
		if (t == NONE_MAPPED)
			return -EAGAIN;
		if (t == REWRITTEN) {
			/* a newer snapshot was published since we looked: map it (bounded, as it cannot fail twice in a row for long) */
			if (++rewritten > 1000)
				return -EAGAIN;
			tries--;
			sched_yield();
			continue;
		}
		if (fresh(h->snap, &soon)) {
			if (soon && LOAD(&S.asked) < h->snap->gen) {
				STORE(&S.asked, h->snap->gen);
				ask(); /* a newer one, made while we go on with this one */
			}
			return 0;
		}
		if (tries == 3)
			return 0; /* the daemon cannot keep up: the last one it made */
		newest = h->snap->gen;
		pls_leave(h);
		STORE(&S.asked, newest);
		ask();
		wait_newer(newest);
	}
}

void pls_leave(struct pl_hold *h)
{
	__atomic_sub_fetch(h->inside, 1, __ATOMIC_SEQ_CST);
	__atomic_sub_fetch(&S.slots[h->slot].refs, 1, __ATOMIC_SEQ_CST);
	h->snap = NULL;
}

size_t pls_real_pids(pid_t after, pid_t *ids, size_t max)
{
	char path[PATH_MAX], buf[8192];
	size_t n = 0;
	long got;
	int fd;

	snprintf(path, sizeof(path), "%s/nsproc", S.dir);
	fd = sys_open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return 0;
	while ((got = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long at = 0; at < got;) {
			const struct dirent64 *de = (const struct dirent64 *)(buf + at);
			char *end;
			long id = strtol(de->d_name, &end, 10);

			at += de->d_reclen;
			if (*end || de->d_name[0] < '1' || de->d_name[0] > '9' || id <= after || id > INT_MAX)
				continue;
			/* the kernel lists in its own order: keep the @max smallest, ascending */
			size_t k = n < max ? n : max - 1;

			if (n == max && id >= ids[max - 1])
				continue;
			while (k > 0 && ids[k - 1] > id) {
				ids[k] = ids[k - 1];
				k--;
			}
			ids[k] = (pid_t)id;
			if (n < max)
				n++;
		}
	}
	sys_close(fd);
	return n;
}

void pls_after_fork_child(void)
{
	/* the threads that held slots are not in this process */
	S.slots[0].refs = S.slots[1].refs = 0;
	pthread_mutex_init(&S.map_lock, NULL);
}
