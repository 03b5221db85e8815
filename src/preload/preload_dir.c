// SPDX-License-Identifier: MIT
/*
 * preload_dir.c - directories of the served tree (preload.c): opendir and
 * fdopendir give a stream of ours over one of our directory descriptors,
 * readdir and getdents64 walk the backend's listing of it.
 *
 * Our streams are told from the C library's by their first word: a real
 * DIR starts with its descriptor, never negative; ours with PLDIR_TAG.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preload_int.h"

#define PLDIR_TAG (-0x55504c44) /* negative: no real DIR's descriptor */
#define PLDIR_MAGIC 0x706c646972756670ull

struct pldir {
	int tag;              /* PLDIR_TAG, where a DIR has its fd */
	int fd;               /* our directory descriptor, closed by closedir */
	uint64_t magic;
	struct dirent out;
};

_Static_assert(offsetof(struct pldir, tag) == 0, "the tag is the first word");

static struct pldir *ours(DIR *d)
{
	struct pldir *p = (struct pldir *)d;

	return d && p->tag == PLDIR_TAG && p->magic == PLDIR_MAGIC ? p : NULL;
}

/* Make @d's listing if it has none (under d->lock): 0 or an errno. */
static int listing(struct pl_desc *d)
{
	int rc;

	if (d->listed)
		return 0;
	free(d->ents);
	d->ents = NULL;
	d->nents = d->next = 0;
	rc = plb_list(d->path, &d->ents, &d->nents);
	if (rc == PLB_PASS) {
		/* not ours any more (the snapshot cannot be had): list through the mount */
		rc = -EAGAIN;
	}
	if (rc)
		return -rc;
	d->listed = true;
	return 0;
}

/* The next entry of our directory @d, or NULL at the end (errno set on failure). */
static const struct plb_dirent *next_entry(struct pl_desc *d)
{
	int e;

	pthread_mutex_lock(&d->lock);
	e = listing(d);
	if (e || d->next >= d->nents) {
		pthread_mutex_unlock(&d->lock);
		if (e)
			errno = e;
		return NULL;
	}
	const struct plb_dirent *ent = &d->ents[d->next++];

	d->pos = ent->off;
	pthread_mutex_unlock(&d->lock);
	return ent;
}

static DIR *stream(int fd)
{
	struct pldir *p = calloc(1, sizeof(*p));

	if (!p)
		return errno = ENOMEM, NULL;
	p->tag = PLDIR_TAG;
	p->fd = fd;
	p->magic = PLDIR_MAGIC;
	return (DIR *)p;
}

EXPORT DIR *opendir(const char *path)
{
	char abs[PL_PATH_MAX];
	DIR *d;
	int fd;

	if (!pl_our_path(AT_FDCWD, path, abs))
		return real_opendir(path);
	fd = pl_open_served(abs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == PLB_PASS)
		return real_opendir(path);
	if (fd < 0)
		return NULL;
	d = stream(fd);
	if (!d)
		pl_fd_close(fd);
	return d;
}

EXPORT DIR *fdopendir(int fd)
{
	struct pl_desc *d;

	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_fdopendir(fd);
	}
	d = pl_desc_of(fd);
	if (!d)
		return errno = EBADF, NULL;
	if (!d->f.dir)
		return errno = ENOTDIR, NULL;
	return stream(fd);
}

EXPORT struct dirent *readdir(DIR *dir)
{
	struct pldir *p = ours(dir);
	const struct plb_dirent *e;
	struct pl_desc *d;

	if (!p) {
		pl_ready();
		return real_readdir(dir);
	}
	d = pl_desc_of(p->fd);
	if (!d)
		return errno = EBADF, NULL;
	e = next_entry(d);
	if (!e)
		return NULL;
	p->out.d_ino = e->ino;
	p->out.d_off = e->off;
	p->out.d_reclen = sizeof(p->out);
	p->out.d_type = e->type;
	snprintf(p->out.d_name, sizeof(p->out.d_name), "%s", e->name);
	return &p->out;
}

EXPORT struct dirent64 *readdir64(DIR *d)
{
	_Static_assert(sizeof(struct dirent64) == sizeof(struct dirent), "one layout on 64-bit");
	return (struct dirent64 *)readdir(d);
}

EXPORT int closedir(DIR *dir)
{
	struct pldir *p = ours(dir);
	int rc;

	if (!p) {
		pl_ready();
		return real_closedir(dir);
	}
	rc = pl_fd_close(p->fd);
	p->magic = 0;
	free(p);
	return rc;
}

EXPORT int dirfd(DIR *dir)
{
	struct pldir *p = ours(dir);

	if (!p) {
		pl_ready();
		return real_dirfd(dir);
	}
	return p->fd;
}

EXPORT void rewinddir(DIR *dir)
{
	struct pldir *p = ours(dir);

	if (!p) {
		pl_ready();
		real_rewinddir(dir);
		return;
	}
	lseek(p->fd, 0, SEEK_SET);
}

EXPORT long telldir(DIR *dir)
{
	struct pldir *p = ours(dir);
	struct pl_desc *d;

	if (!p) {
		pl_ready();
		return real_telldir(dir);
	}
	d = pl_desc_of(p->fd);
	return d ? (long)d->next : -1;
}

EXPORT void seekdir(DIR *dir, long loc)
{
	struct pldir *p = ours(dir);
	struct pl_desc *d;

	if (!p) {
		pl_ready();
		real_seekdir(dir, loc);
		return;
	}
	d = pl_desc_of(p->fd);
	if (!d)
		return;
	pthread_mutex_lock(&d->lock);
	if (!listing(d) && loc >= 0 && (size_t)loc <= d->nents)
		d->next = (size_t)loc;
	pthread_mutex_unlock(&d->lock);
}

EXPORT ssize_t getdents64(int fd, void *buf, size_t size)
{
	struct pl_desc *d;
	size_t used = 0;
	int e;

	if (!pl_fd_ours(fd)) {
		pl_ready();
		return real_getdents64(fd, buf, size);
	}
	d = pl_desc_of(fd);
	if (!d)
		return errno = EBADF, -1;
	if (!d->f.dir)
		return errno = ENOTDIR, -1;
	pthread_mutex_lock(&d->lock);
	e = listing(d);
	while (!e && d->next < d->nents) {
		const struct plb_dirent *ent = &d->ents[d->next];
		size_t namelen = strlen(ent->name);
		size_t reclen = (offsetof(struct dirent64, d_name) + namelen + 1 + 7) & ~(size_t)7;
		struct dirent64 *de = (struct dirent64 *)((char *)buf + used);

		if (used + reclen > size) {
			if (!used)
				e = EINVAL; /* the buffer holds not even one */
			break;
		}
		de->d_ino = ent->ino;
		de->d_off = ent->off;
		de->d_reclen = (unsigned short)reclen;
		de->d_type = ent->type;
		memcpy(de->d_name, ent->name, namelen + 1);
		used += reclen;
		d->pos = ent->off;
		d->next++;
	}
	pthread_mutex_unlock(&d->lock);
	return e ? (errno = e, -1) : (ssize_t)used;
}
