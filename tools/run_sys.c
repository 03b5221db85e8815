// SPDX-License-Identifier: MIT
/*
 * run_sys.c - /sys under `uprocfs run`: the served machine's subtrees over
 * the host's, put together in the command's mount namespace.
 *
 * The served /sys holds only what the model knows (CPUs, nodes, sensors,
 * THP, ...); the command also needs what it does not (the host's buses,
 * firmware, cgroupfs, device classes).  So /sys becomes a tmpfs of bind
 * mounts: a subtree the served tree has comes from it whole, never mixed
 * with the host's (cpu0/cpuidle of the host must not show beside the
 * machine's cpu0), and what only the host has comes from the host.  Only
 * the directories both hang things under are merged, one level at a time.
 * The tmpfs's own directories list in creation order rather than kernfs's
 * hash order; inside a bound subtree the order is the served tree's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run_sys.h"
#include "uprocfs/pfs_fuse.h"

/*
 * Directories where the served tree and the host's both hang entries:
 * merged entry by entry.  Any other name the served tree has is its own
 * subtree and replaces the host's of that name whole.
 */
static const char *const shared_dirs[] = {
	"", "devices", "devices/system", "devices/virtual", "devices/pci0000:00", "class", "kernel", "kernel/mm",
	"fs", "dev", "bus",
};

static bool is_shared(const char *rel)
{
	for (size_t i = 0; i < sizeof(shared_dirs) / sizeof(shared_dirs[0]); i++)
		if (!strcmp(rel, shared_dirs[i]))
			return true;
	return false;
}

/* @buf = the staged @side's @rel; -ENAMETOOLONG when it does not fit */
static int stage_path(char *buf, size_t size, const struct run_sys_stage *st, const char *side, const char *rel)
{
	int n = snprintf(buf, size, "%s/%s%s%s", st->dir, side, *rel ? "/" : "", rel);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

void run_sys_unstage(struct run_sys_stage *st)
{
	char path[PATH_MAX];

	if (!st->dir[0])
		return;
	/* the bind mounts made from them keep what they show alive */
	stage_path(path, sizeof(path), st, "fuse", "");
	umount2(path, MNT_DETACH);
	stage_path(path, sizeof(path), st, "host", "");
	umount2(path, MNT_DETACH);
	umount2(st->dir, MNT_DETACH);
	rmdir(st->dir);
	st->dir[0] = '\0';
}

int run_sys_stage(struct run_sys_stage *st, int fuse_fd, char *err, size_t errlen)
{
	char fuse[PATH_MAX], host[PATH_MAX];
	int rc;

	snprintf(st->dir, sizeof(st->dir), "/tmp/uprocfs-sys.XXXXXX");
	if (!mkdtemp(st->dir)) {
		rc = -errno;
		snprintf(err, errlen, "a staging directory in /tmp: %s", strerror(errno));
		st->dir[0] = '\0';
		return rc;
	}
	if (mount("tmpfs", st->dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0700")) {
		rc = -errno;
		snprintf(err, errlen, "tmpfs on %s: %s", st->dir, strerror(errno));
		rmdir(st->dir);
		st->dir[0] = '\0';
		return rc;
	}
	stage_path(fuse, sizeof(fuse), st, "fuse", "");
	stage_path(host, sizeof(host), st, "host", "");
	if (mkdir(fuse, 0555) || mkdir(host, 0555) || mount("/sys", host, NULL, MS_BIND | MS_REC, NULL)) {
		rc = -errno;
		snprintf(err, errlen, "the host's /sys beside the served one: %s", strerror(errno));
		run_sys_unstage(st);
		return rc;
	}
	rc = pfs_fuse_mount_fd(fuse_fd, fuse, false);
	if (rc) {
		snprintf(err, errlen, "mounting the served /sys: %s", strerror(-rc));
		run_sys_unstage(st);
	}
	return rc;
}

int run_sys_place(const char *dst, const char *src, const struct stat *s)
{
	char target[PATH_MAX];
	ssize_t n;
	int fd;

	if (S_ISLNK(s->st_mode)) {
		n = readlink(src, target, sizeof(target) - 1);
		if (n < 0)
			return -errno;
		target[n] = '\0';
		return symlink(target, dst) ? -errno : 0;
	}
	if (S_ISDIR(s->st_mode)) {
		if (mkdir(dst, s->st_mode & 07777))
			return -errno;
	} else {
		fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, s->st_mode & 07777);
		if (fd < 0)
			return -errno;
		close(fd);
	}
	return mount(src, dst, NULL, MS_BIND | MS_REC, NULL) ? -errno : 0;
}

/*
 * /sys/@rel from both sides: the served tree's entries first (merging
 * the shared directories), then the host's it does not have.
 */
static int merge(const struct run_sys_stage *st, const char *rel, char *err, size_t errlen)
{
	static const char *const sides[] = { "fuse", "host" };
	char sub[PATH_MAX] = "", src[PATH_MAX], other[PATH_MAX], dst[PATH_MAX];
	int rc = 0;

	for (int side = 0; side < 2 && !rc; side++) {
		struct dirent *e;
		struct stat s, o;
		DIR *d;

		d = stage_path(src, sizeof(src), st, sides[side], rel) ? NULL : opendir(src);
		if (!d) {
			int e = errno ? errno : ENAMETOOLONG;

			snprintf(err, errlen, "/sys/%s: %s", rel, strerror(e));
			return -e;
		}
		while (!rc && (e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			int n = snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", e->d_name);

			if (n < 0 || (size_t)n >= sizeof(sub) || snprintf(dst, sizeof(dst), "/sys/%s", sub) >= (int)sizeof(dst) ||
			    stage_path(src, sizeof(src), st, sides[side], sub) ||
			    stage_path(other, sizeof(other), st, sides[!side], sub)) {
				rc = -ENAMETOOLONG;
				continue;
			}
			if (lstat(src, &s)) {
				rc = errno == ENOENT ? 0 : -errno; /* gone since listed */
				continue;
			}
			bool both = !lstat(other, &o);

			if (side == 1 && both)
				continue; /* placed from the served side */
			if (both && S_ISDIR(s.st_mode) && S_ISDIR(o.st_mode) && is_shared(sub)) {
				rc = mkdir(dst, s.st_mode & 07777) ? -errno : merge(st, sub, err, errlen);
				continue;
			}
			rc = run_sys_place(dst, src, &s);
		}
		closedir(d);
		if (rc && !err[0])
			snprintf(err, errlen, "/sys/%s: %s", sub, strerror(-rc));
	}
	return rc;
}

int run_sys_assemble(struct run_sys_stage *st, char *err, size_t errlen)
{
	int rc;

	err[0] = '\0';
	if (mount("tmpfs", "/sys", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0555")) {
		rc = -errno;
		snprintf(err, errlen, "tmpfs on /sys: %s", strerror(errno));
		run_sys_unstage(st);
		return rc;
	}
	rc = merge(st, "", err, errlen);
	if (!rc && mount(NULL, "/sys", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
			 NULL)) {
		rc = -errno;
		snprintf(err, errlen, "/sys read-only: %s", strerror(errno));
	}
	if (rc)
		umount2("/sys", MNT_DETACH); /* the host's again */
	run_sys_unstage(st);
	return rc;
}
