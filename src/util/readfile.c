// SPDX-License-Identifier: MIT
/* readfile.c - bounded, tree-confined whole-file reads (readfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "readfile.h"

/*
 * Without openat2 (kernels before 5.6), each component is opened with
 * O_NOFOLLOW from the one before: no symlink is followed and ".." is refused,
 * which confines the walk as RESOLVE_BENEATH does.
 */
static int open_by_components(int dirfd, const char *path, int oflags)
{
	char part[256];
	int cur = dirfd;

	for (const char *p = path;;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		int next, flags = slash ? O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC : oflags | O_NOFOLLOW;

		if (!len || len >= sizeof(part) || (len == 2 && !memcmp(p, "..", 2))) {
			if (cur != dirfd)
				close(cur);
			return len >= sizeof(part) ? -ENAMETOOLONG : -EXDEV;
		}
		memcpy(part, p, len);
		part[len] = '\0';
		next = openat(cur, part, flags);
		if (next < 0)
			next = -errno;
		if (cur != dirfd)
			close(cur);
		if (next < 0 || !slash)
			return next;
		cur = next;
		p = slash + 1;
	}
}

int uf_open(int dirfd, const char *path, unsigned int flags, int oflags)
{
	oflags |= O_RDONLY | O_CLOEXEC;
	if (flags & UF_BENEATH) {
		struct open_how how = {
			.flags = (uint64_t)(oflags | O_NONBLOCK),
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
		};
		long fd;

		if (path[0] == '/')
			return -EXDEV;
		fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
		if (fd >= 0)
			return (int)fd;
		if (errno != ENOSYS)
			return -errno;
		return open_by_components(dirfd, path, oflags | O_NONBLOCK);
	}
	int fd = openat(dirfd, path, oflags);
	return fd < 0 ? -errno : fd;
}

int uf_read(int dirfd, const char *path, unsigned int flags, size_t limit, char **text, size_t *len)
{
	struct stat st;
	size_t cap, have = 0;
	char *buf;
	int fd = uf_open(dirfd, path, flags, 0);

	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		int e = -errno;
		close(fd);
		return e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -ENODEV;
	}
	if ((uint64_t)st.st_size > limit) {
		close(fd);
		return -EFBIG;
	}
	/* procfs says 0 for every size: start at a page and grow */
	cap = st.st_size ? (size_t)st.st_size + 1 : 4096;
	buf = malloc(cap + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n;

		if (have == cap) {
			size_t ncap = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
			char *bigger;

			if (have > limit) {
				free(buf);
				close(fd);
				return -EFBIG;
			}
			bigger = realloc(buf, ncap + 1);
			if (!bigger) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = bigger;
			cap = ncap;
		}
		n = read(fd, buf + have, cap - have);
		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(buf);
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		have += (size_t)n;
	}
	close(fd);
	if (have > limit) {
		free(buf);
		return -EFBIG;
	}
	buf[have] = '\0';
	*text = buf;
	*len = have;
	return 0;
}

long uf_readlink(int dirfd, const char *path, unsigned int flags, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');
	int pfd = dirfd;
	ssize_t n;

	if ((flags & UF_BENEATH) && slash) {
		char parent[4096];
		size_t plen = (size_t)(slash - path);

		if (plen >= sizeof(parent))
			return -ENAMETOOLONG;
		memcpy(parent, path, plen);
		parent[plen] = '\0';
		pfd = uf_open(dirfd, parent, flags, O_DIRECTORY);
		if (pfd < 0)
			return pfd;
		path = slash + 1;
	} else if ((flags & UF_BENEATH) && path[0] == '/') {
		return -EXDEV;
	}
	n = readlinkat(pfd, path, buf, size);
	if (n < 0)
		n = errno == EINVAL ? -ENOLINK : -errno;
	else if ((size_t)n == size)
		n = -ENAMETOOLONG;
	if (pfd != dirfd)
		close(pfd);
	return (long)n;
}

const char *uf_reason(int rc)
{
	switch (rc) {
	case -ENOLINK:
		return "not a symlink";
	case -ELOOP:
		return "a symlink (not followed)";
	case -EXDEV:
		return "outside the tree";
	case -ENODEV:
		return "not a regular file (FIFO, socket or device)";
	case -EISDIR:
		return "a directory";
	case -EFBIG:
		return "larger than the read limit";
	default:
		return strerror(-rc);
	}
}
