// SPDX-License-Identifier: MIT
/* arena.c - a heap at a fixed address in a memory file (arena.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arena.h"

#define HDR 16u              /* a block's header: keeps payloads 16-byte aligned */
#define NCLASSES 160
#define MAGIC 0x75617265u    /* "uare": a header of ours, checked on free */

struct hdr {
	uint32_t magic;
	uint32_t cls;
	uint64_t pad;
};

struct free_block {
	struct free_block *next;
};

struct ua_arena {
	int fd;
	uintptr_t base;
	size_t reserve;
	size_t top;                        /* bytes handed out from the base */
	pthread_mutex_t lock;
	struct free_block *free[NCLASSES];
};

/*
 * Class @c's block size (header included): a quarter power of two apart
 * (32, 48, 48, 64, 64, 80, 96, 112, 128, 160, ...), rounded up to 16 so that
 * blocks taken one after another from the top stay aligned.
 */
static size_t class_size(unsigned int c)
{
	unsigned int e = c / 4 + 5, q = c % 4;

	return ((((size_t)4 + q) << (e - 2)) + 15) & ~(size_t)15;
}

static unsigned int class_of(size_t need)
{
	unsigned int c = 0;

	/* a few steps from a power-of-two start: the classes are few */
	if (need > 32) {
		unsigned int log = 63u - (unsigned int)__builtin_clzll(need - 1);

		c = (log - 5) * 4;
		if (c)
			c -= 4;
	}
	while (c < NCLASSES && class_size(c) < need)
		c++;
	return c;
}

int ua_create(struct ua_arena **out, uintptr_t base, size_t reserve)
{
	int fd = memfd_create("uprocfs-arena", MFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	return ua_create_in(out, base, reserve, fd);
}

int ua_create_in(struct ua_arena **out, uintptr_t base, size_t reserve, int fd)
{
	struct ua_arena *a = calloc(1, sizeof(*a));
	void *p;
	int e;

	if (!a) {
		close(fd);
		return -ENOMEM;
	}
	a->base = base ? base : UA_DEFAULT_BASE;
	a->reserve = reserve;
	a->fd = fd;
	errno = 0;
	if (ftruncate(a->fd, (off_t)reserve))
		goto fail;
	/* reserved, not committed: a page costs memory once it is written */
	p = mmap((void *)a->base, reserve, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE | MAP_NORESERVE,
		 a->fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	if ((uintptr_t)p != a->base) {
		munmap(p, reserve); /* an old kernel that took the address as a hint */
		errno = EEXIST;
		goto fail;
	}
	pthread_mutex_init(&a->lock, NULL);
	*out = a;
	return 0;
fail:
	e = errno ? -errno : -ENOMEM;
	if (a->fd >= 0)
		close(a->fd);
	free(a);
	return e;
}

void ua_destroy(struct ua_arena *a)
{
	if (!a)
		return;
	munmap((void *)a->base, a->reserve);
	close(a->fd);
	pthread_mutex_destroy(&a->lock);
	free(a);
}

void *ua_malloc(struct ua_arena *a, size_t size)
{
	unsigned int c = class_of(size + HDR);
	struct hdr *h;
	size_t bytes;

	if (c >= NCLASSES || size > a->reserve)
		return NULL;
	bytes = class_size(c);
	pthread_mutex_lock(&a->lock);
	if (a->free[c]) {
		h = (struct hdr *)a->free[c];
		a->free[c] = a->free[c]->next;
	} else if (a->top + bytes <= a->reserve) {
		h = (struct hdr *)(a->base + a->top);
		a->top += bytes;
	} else {
		pthread_mutex_unlock(&a->lock);
		return NULL;
	}
	pthread_mutex_unlock(&a->lock);
	h->magic = MAGIC;
	h->cls = c;
	return (char *)h + HDR;
}

void *ua_calloc(struct ua_arena *a, size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	p = ua_malloc(a, n * size);
	if (p)
		memset(p, 0, n * size); /* a reused block holds old bytes */
	return p;
}

/* The header of block @p, or NULL when @p is none of ours. */
static struct hdr *header(const struct ua_arena *a, void *p)
{
	struct hdr *h = (struct hdr *)((char *)p - HDR);

	if (!ua_owns(a, p) || h->magic != MAGIC || h->cls >= NCLASSES)
		return NULL;
	return h;
}

void ua_free(struct ua_arena *a, void *p)
{
	struct hdr *h;
	unsigned int c;

	if (!p)
		return;
	h = header(a, p);
	if (!h)
		abort(); /* a pointer from elsewhere: freeing it here would corrupt both heaps */
	/*
	 * The class is read before the free list's link overwrites the header:
	 * reading h->cls after the store read part of a pointer, an index past
	 * free[] (hidden at -O2, whose aliasing rules kept the first load).
	 */
	c = h->cls;
	h->magic = 0;
	pthread_mutex_lock(&a->lock);
	((struct free_block *)h)->next = a->free[c];
	a->free[c] = (struct free_block *)h;
	pthread_mutex_unlock(&a->lock);
}

void *ua_realloc(struct ua_arena *a, void *p, size_t size)
{
	struct hdr *h;
	size_t have;
	void *n;

	if (!p)
		return ua_malloc(a, size);
	h = header(a, p);
	if (!h)
		abort();
	have = class_size(h->cls) - HDR;
	if (size <= have)
		return p;
	n = ua_malloc(a, size);
	if (!n)
		return NULL;
	memcpy(n, p, have);
	ua_free(a, p);
	return n;
}

void *ua_take(struct ua_arena *a, size_t size)
{
	size_t bytes = (size + 15) & ~(size_t)15;
	void *p = NULL;

	if (size > a->reserve)
		return NULL;
	pthread_mutex_lock(&a->lock);
	if (a->top + bytes <= a->reserve) {
		p = (void *)(a->base + a->top);
		a->top += bytes;
	}
	pthread_mutex_unlock(&a->lock);
	return p;
}

int ua_trim(struct ua_arena *a)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (a->top + page - 1) & ~(page - 1);

	return ftruncate(a->fd, (off_t)(len ? len : page)) ? -errno : 0;
}

int ua_fd(const struct ua_arena *a)
{
	return a->fd;
}

char *ua_strdup(struct ua_arena *a, const char *s)
{
	size_t len = strlen(s) + 1;
	char *d = ua_malloc(a, len);

	if (d)
		memcpy(d, s, len);
	return d;
}

bool ua_owns(const struct ua_arena *a, const void *p)
{
	return (uintptr_t)p >= a->base + HDR && (uintptr_t)p < a->base + a->top;
}

uintptr_t ua_base(const struct ua_arena *a)
{
	return a->base;
}

size_t ua_used(const struct ua_arena *a)
{
	return a->top;
}

int ua_copy(struct ua_arena *a)
{
	size_t len = a->top, done = 0;
	int fd = memfd_create("uprocfs-snapshot", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return -errno;
	while (done < len) {
		ssize_t n = write(fd, (const char *)a->base + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? -errno : -EIO;

			close(fd);
			return e;
		}
		done += (size_t)n;
	}
	/* a reader may rely on it: nobody changes a published copy */
	fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	return fd;
}

void *ua_map_copy(int fd, uintptr_t base, size_t *len)
{
	off_t size = lseek(fd, 0, SEEK_END);
	void *p;

	if (size <= 0) {
		errno = EINVAL;
		return NULL;
	}
	p = mmap((void *)base, (size_t)size, PROT_READ, MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	if ((uintptr_t)p != base) {
		munmap(p, (size_t)size);
		errno = EEXIST;
		return NULL;
	}
	*len = (size_t)size;
	return p;
}

void ua_unmap_copy(void *p, size_t len)
{
	munmap(p, len);
}
