// SPDX-License-Identifier: MIT
/*
 * run_dev.c - the served machine's device-mapper names in /dev, for
 * `uprocfs run`.
 *
 * lsblk lists a device-mapper device only when its udev name exists:
 * util-linux reads /sys/block/dm-N/dm/name and then checks
 * access("/dev/mapper/NAME") (canonicalize_dm_name), leaving the device out
 * (and the tree under its slave bare) when the host has no such node.  So a
 * machine with LVM gets, in the command's private mount namespace, a /dev
 * that is the host's entry for entry (directories bound with what is
 * mounted beneath them, so /dev/pts and /dev/shm are the same mounts;
 * device nodes made again with the host's numbers, so /dev/ptmx opens in
 * the devpts at /dev/pts as before)
 * plus what udev would have made for the machine's devices: /dev/mapper/NAME
 * -> ../dm-N.  The dm-N nodes are empty regular files, never block devices:
 * the machine's numbers are not the host's, and a tool that opens one must
 * not reach a real disk.  A host entry of the same name gives way to them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run_dev.h"
#include "run_sys.h"

/* Whether @m has a device-mapper device with a name (what udev would link in /dev/mapper). */
static bool has_dm(const struct mach_machine *m)
{
	for (size_t i = 0; m && i < m->sys.nblk; i++)
		if (m->sys.blk[i].kind == MACH_BLK_DM && m->sys.blk[i].dm_name[0])
			return true;
	return false;
}

/* Whether the host's /dev/@name gives way to the machine's: mapper/ and its dm-N nodes. */
static bool machine_owns(const struct mach_machine *m, const char *name)
{
	if (!strcmp(name, "mapper"))
		return true;
	for (size_t i = 0; i < m->sys.nblk; i++)
		if (m->sys.blk[i].kind == MACH_BLK_DM && !strcmp(m->sys.blk[i].name, name))
			return true;
	return false;
}

/*
 * A device node as the host's: made, not bound, so that /dev/ptmx finds
 * the devpts mounted beside it at /dev/pts (devpts_acquire looks for "pts"
 * next to the ptmx it was opened through, which a bound file has not).
 */
static int same_node(const char *dst, const struct stat *st)
{
	if (mknod(dst, st->st_mode, st->st_rdev) || chown(dst, st->st_uid, st->st_gid) ||
	    chmod(dst, st->st_mode & 07777))
		return -errno;
	return 0;
}

/* Every entry of the host's /dev (the directory @hostfd) into the new one. */
static int bind_host(const struct mach_machine *m, int hostfd)
{
	char src[PATH_MAX], dst[PATH_MAX];
	DIR *d = fdopendir(dup(hostfd));
	struct dirent *e;
	int rc = 0;

	if (!d)
		return -errno;
	while (!rc && (e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || machine_owns(m, e->d_name))
			continue;
		if (fstatat(hostfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue; /* gone since listed */
		snprintf(src, sizeof(src), "/proc/self/fd/%d/%s", hostfd, e->d_name);
		snprintf(dst, sizeof(dst), "/dev/%s", e->d_name);
		if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
			rc = same_node(dst, &st);
		else
			rc = run_sys_place(dst, src, &st);
	}
	closedir(d);
	return rc;
}

/* /dev/dm-N as an empty file and /dev/mapper/NAME -> ../dm-N, as udev names them. */
static int add_mapper(const struct mach_machine *m)
{
	char path[PATH_MAX], target[PATH_MAX];

	if (mkdir("/dev/mapper", 0755))
		return -errno;
	for (size_t i = 0; i < m->sys.nblk; i++) {
		const struct mach_blkdev *b = &m->sys.blk[i];
		int fd;

		if (b->kind != MACH_BLK_DM || !b->dm_name[0])
			continue;
		snprintf(path, sizeof(path), "/dev/%s", b->name);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0660);
		if (fd < 0)
			return -errno;
		close(fd);
		snprintf(path, sizeof(path), "/dev/mapper/%s", b->dm_name);
		snprintf(target, sizeof(target), "../%s", b->name);
		if (symlink(target, path))
			return -errno;
	}
	return 0;
}

int run_dev_prepare(const struct mach_machine *m)
{
	int hostfd, rc;

	if (!has_dm(m))
		return 0;
	hostfd = open("/dev", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (hostfd < 0)
		return -errno;
	if (mount("tmpfs", "/dev", "tmpfs", MS_NOSUID, "mode=0755")) {
		rc = -errno;
		close(hostfd);
		return rc;
	}
	rc = bind_host(m, hostfd);
	if (!rc)
		rc = add_mapper(m);
	if (rc)
		umount2("/dev", MNT_DETACH); /* the host's /dev again, whole */
	close(hostfd);
	return rc;
}
