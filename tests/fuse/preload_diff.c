// SPDX-License-Identifier: MIT
/*
 * preload_diff.c - the two transports of `uprocfs run` give the same tree:
 * every file, link and directory of the machine read through the preload
 * library (the C library calls it stands in for) and through the FUSE mount
 * (raw system calls, which no library sees), at one served time
 * (`run --preload --stop-clock`): the same bytes, errors, attributes,
 * listings and link targets, as root and, refused alike, as another user.
 *
 * Run inside `uprocfs run --preload --stop-clock`; TAP.  Files whose text
 * changes on every read (kernel/random/uuid) are compared for shape only.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "uprocfs/machine.h"

#define BIG (4u << 20)
#define OURS_FROM (1 << 30) /* the library's descriptors (preload_int.h) */

struct counts {
	size_t files, dirs, links, same, differ, served, reads;
	size_t shown;
};

static char *buf_lib, *buf_raw;

/* What a read of the whole file gave: the bytes, or an errno at open or at read. */
struct got {
	int open_err, read_err;
	size_t len;
};

static void lib_read(const char *path, struct got *g, char *buf, size_t chunk, struct counts *c)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(g, 0, sizeof(*g));
	if (fd < 0) {
		g->open_err = errno;
		return;
	}
	if (fd >= OURS_FROM)
		c->served++;
	for (;;) {
		ssize_t n = read(fd, buf + g->len, g->len + chunk <= BIG ? chunk : BIG - g->len);

		if (n < 0)
			g->read_err = errno;
		if (n <= 0)
			break;
		g->len += (size_t)n;
	}
	close(fd);
}

static void raw_read(const char *path, struct got *g, char *buf, size_t chunk)
{
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);

	memset(g, 0, sizeof(*g));
	if (fd < 0) {
		g->open_err = errno;
		return;
	}
	for (;;) {
		ssize_t n = syscall(SYS_read, fd, buf + g->len, g->len + chunk <= BIG ? chunk : BIG - g->len);

		if (n < 0)
			g->read_err = errno;
		if (n <= 0)
			break;
		g->len += (size_t)n;
	}
	syscall(SYS_close, fd);
}

static void differs(struct counts *c, const char *path, const char *what)
{
	c->differ++;
	if (c->shown++ < 12)
		diag("%s: %s differs", path, what);
}

static bool same_stat(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_mode == b->st_mode &&
	       a->st_nlink == b->st_nlink && a->st_uid == b->st_uid && a->st_gid == b->st_gid &&
	       a->st_rdev == b->st_rdev && a->st_size == b->st_size && a->st_blksize == b->st_blksize &&
	       a->st_blocks == b->st_blocks && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec && a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_atim.tv_sec == b->st_atim.tv_sec;
}

/* A file: its text read whole, and a second time in small chunks. */
static void check_file(const char *path, struct counts *c)
{
	bool uuid = strstr(path, "/random/uuid") != NULL;
	struct got a, b;

	for (int pass = 0; pass < 2; pass++) {
		size_t chunk = pass ? 7 : 65536;

		if (pass && (c->files % 16))
			break; /* the chunked reads on a sample: every 16th file */
		lib_read(path, &a, buf_lib, chunk, c);
		raw_read(path, &b, buf_raw, chunk);
		c->reads++;
		if (a.open_err != b.open_err || a.read_err != b.read_err)
			differs(c, path, pass ? "the errno of chunked reads" : "the errno");
		else if (a.len != b.len || (!uuid && memcmp(buf_lib, buf_raw, a.len)))
			differs(c, path, pass ? "the text read in chunks of 7" : "the text");
		else
			c->same++;
	}
}

static void check_link(const char *path, struct counts *c)
{
	char a[4096], b[4096];
	ssize_t na = readlink(path, a, sizeof(a)), nb;
	int ea = errno;

	nb = syscall(SYS_readlinkat, AT_FDCWD, path, b, sizeof(b));
	if (na != nb || (na < 0 && ea != errno) || (na > 0 && memcmp(a, b, (size_t)na)))
		differs(c, path, "the link target");
	else
		c->same++;
}

/* A directory's entries as getdents64 gives them, through the mount: "name ino type\n" each. */
static size_t raw_listing(const char *path, char *out, size_t size, int *err)
{
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char dbuf[32768];
	size_t at = 0;
	long n;

	*err = 0;
	if (fd < 0) {
		*err = errno;
		return 0;
	}
	while ((n = syscall(SYS_getdents64, fd, dbuf, sizeof(dbuf))) > 0)
		for (long off = 0; off < n;) {
			struct dirent64 *de = (struct dirent64 *)(dbuf + off);

			off += de->d_reclen;
			at += (size_t)snprintf(out + at, size - at, "%s %llu %u\n", de->d_name,
					       (unsigned long long)de->d_ino, de->d_type);
			if (at >= size)
				at = size - 1;
		}
	if (n < 0)
		*err = errno;
	syscall(SYS_close, fd);
	return at;
}

static void walk(const char *path, struct counts *c);

/* A directory: its listing both ways, then each entry. */
static void check_dir(const char *path, struct counts *c)
{
	size_t cap = 1 << 20, at = 0;
	char *lib = malloc(cap), *raw = malloc(cap);
	int err_raw;
	size_t nraw = raw_listing(path, raw, cap, &err_raw);
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d) {
		if (errno != err_raw)
			differs(c, path, "the errno of opendir");
		free(lib);
		free(raw);
		return;
	}
	if (dirfd(d) >= OURS_FROM)
		c->served++;
	while ((de = readdir(d))) {
		at += (size_t)snprintf(lib + at, cap - at, "%s %llu %u\n", de->d_name, (unsigned long long)de->d_ino,
				       de->d_type);
		if (at >= cap)
			at = cap - 1;
	}
	closedir(d);
	if (at != nraw || memcmp(lib, raw, at))
		differs(c, path, "the listing");
	else
		c->same++;
	/* the entries, from the listing just compared */
	for (char *line = lib, *nl; at && (nl = strchr(line, '\n')); line = nl + 1) {
		char child[4096], *sp;

		*nl = '\0';
		sp = strchr(line, ' ');
		if (sp)
			*sp = '\0';
		if (!strcmp(line, ".") || !strcmp(line, ".."))
			continue;
		/* the run's own processes are the mount's in both: not compared */
		if (!strcmp(path, "/proc") && atol(line) >= MACH_SYNTH_PID_LIMIT)
			continue;
		snprintf(child, sizeof(child), "%s/%s", path, line);
		walk(child, c);
	}
	free(lib);
	free(raw);
}

static void walk(const char *path, struct counts *c)
{
	struct stat a, b;
	int ra = lstat(path, &a), ea = errno;
	int rb = (int)syscall(SYS_newfstatat, AT_FDCWD, path, &b, AT_SYMLINK_NOFOLLOW);

	if (ra != rb || (ra && ea != errno)) {
		differs(c, path, "lstat's result");
		return;
	}
	if (ra)
		return;
	if (!same_stat(&a, &b)) {
		differs(c, path, "lstat's attributes");
		return;
	}
	if (access(path, R_OK) != (int)syscall(SYS_faccessat, AT_FDCWD, path, R_OK, 0))
		differs(c, path, "access(R_OK)");
	if (S_ISDIR(a.st_mode)) {
		c->dirs++;
		check_dir(path, c);
	} else if (S_ISLNK(a.st_mode)) {
		c->links++;
		check_link(path, c);
	} else {
		c->files++;
		check_file(path, c);
	}
}

/* As another user the run's mount refuses everything: the library must refuse alike. */
static int as_nobody(void)
{
	static const char *const paths[] = { "/proc/meminfo", "/proc/1/status", "/proc", "/proc/1" };
	int bad = 0;

	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		return 100;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		struct stat a, b;
		int ra = stat(paths[i], &a), ea = errno;
		int rb = (int)syscall(SYS_newfstatat, AT_FDCWD, paths[i], &b, 0);
		int fa = open(paths[i], O_RDONLY), efa = errno;
		int fb = (int)syscall(SYS_openat, AT_FDCWD, paths[i], O_RDONLY, 0);

		bad += ra != rb || (ra && ea != errno) || (fa < 0) != (fb < 0) || (fa < 0 && efa != errno) ||
		       fa >= OURS_FROM;
	}
	return bad;
}

int main(void)
{
	struct counts c = { 0 };
	int status;
	pid_t pid;

	buf_lib = malloc(BIG);
	buf_raw = malloc(BIG);
	if (!getenv("UPROCFS_PRELOAD"))
		skip_all("not inside `uprocfs run --preload`");
	walk("/proc", &c);
	diag("%zu files, %zu directories, %zu links; %zu reads compared; %zu opens served by the library",
	     c.files, c.dirs, c.links, c.reads, c.served);
	ok(c.differ == 0, "every file, listing, link and attribute is the same through the library and the mount "
			  "(%zu same, %zu differ)", c.same, c.differ);
	ok(c.served >= c.files + c.dirs - 64, "the library served the opens (%zu of %zu)", c.served, c.files + c.dirs);
	pid = fork();
	if (pid == 0)
		_exit(as_nobody());
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "another user is refused alike through the library and the mount (status %d)", status);
	return tap_done();
}
