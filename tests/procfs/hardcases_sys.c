// SPDX-License-Identifier: MIT
/*
 * hardcases_sys.c - see hardcases_sys.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/blkpg.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hardcases_sys.h"

#define SWAP_PAGES 4096u  /* 16 MiB */
#define IMG_SECTORS 65536u /* 32 MiB */

static void nap_ms(long ms)
{
	nanosleep(&(struct timespec){ .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 }, NULL);
}

/* A child that takes its locks, says so on @ready and sleeps (blocked, for a waiter). */
static pid_t locker(int which, const char *file)
{
	int ready[2];
	pid_t pid;
	char c;

	if (pipe2(ready, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct flock wr = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 5, .l_len = 10 };
		int fd = open(file, O_RDWR | O_CLOEXEC);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(ready[0]);
		if (fd < 0)
			_exit(3);
		if (which == 0) {
			struct flock ofd = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 100, .l_len = 0 };
			char leased[300];
			int fd2 = open(file, O_RDONLY | O_CLOEXEC), fd3;

			/* a POSIX range, an OFD lock to EOF, a flock, and a read lease on a file no one writes */
			snprintf(leased, sizeof(leased), "%s.leased", file);
			fd3 = open(leased, O_RDONLY | O_CLOEXEC);
			if (fcntl(fd, F_SETLK, &wr) || fd2 < 0 || fcntl(fd2, F_OFD_SETLK, &ofd) || flock(fd2, LOCK_SH) ||
			    fd3 < 0 || fcntl(fd3, F_SETLEASE, F_RDLCK))
				_exit(3);
			if (write(ready[1], "r", 1) != 1)
				_exit(3);
		} else {
			/* blocked on the range: the first waiter at depth 1, the next under it at depth 2 */
			if (write(ready[1], "r", 1) != 1)
				_exit(3);
			fcntl(fd, F_SETLKW, &wr);
		}
		for (;;)
			pause();
	}
	close(ready[1]);
	if (pid < 0 || read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		return -1;
	}
	close(ready[0]);
	return pid;
}

/* A swap file with a space in its name: a version 1 header and the SWAPSPACE2 magic. */
static int make_swap(struct hardcases_sys *hs)
{
	static char page[4096];
	uint32_t *info = (uint32_t *)(page + 1024);
	int fd;

	snprintf(hs->swapfile, sizeof(hs->swapfile), "%s/swap file", hs->dir);
	fd = open(hs->swapfile, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	memset(page, 0, sizeof(page));
	info[0] = 1;              /* version */
	info[1] = SWAP_PAGES - 1; /* last_page */
	memcpy(page + sizeof(page) - 10, "SWAPSPACE2", 10);
	for (unsigned int i = 0; i < SWAP_PAGES; i++) {
		if (write(fd, page, sizeof(page)) != (ssize_t)sizeof(page)) {
			close(fd);
			return -EIO;
		}
		memset(page, 0, sizeof(page)); /* the header page, then zeros: no holes */
	}
	fsync(fd);
	close(fd);
	if (swapon(hs->swapfile, 0))
		return -errno;
	hs->swapping = true;
	return 0;
}

/*
 * A disk image on a free loop device, with two partitions added as partx
 * does (BLKPG): the kernel may have no partition table parser at all.
 */
static int make_loop(struct hardcases_sys *hs)
{
	struct loop_info64 li = { .lo_flags = LO_FLAGS_PARTSCAN | LO_FLAGS_AUTOCLEAR };
	const long long parts[2][2] = { { 2048, 40960 }, { 43008, 20480 } };
	int ctl, fd, lfd, n;
	char dev[32];

	snprintf(hs->image, sizeof(hs->image), "%s/disk.img", hs->dir);
	fd = open(hs->image, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)IMG_SECTORS * 512))
		return fd < 0 ? -errno : -EIO;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	n = ctl >= 0 ? ioctl(ctl, LOOP_CTL_GET_FREE) : -1;
	if (ctl >= 0)
		close(ctl);
	if (n < 0)
		return close(fd), -ENODEV;
	snprintf(dev, sizeof(dev), "/dev/loop%d", n);
	lfd = open(dev, O_RDWR | O_CLOEXEC);
	if (lfd < 0 || ioctl(lfd, LOOP_SET_FD, fd) || ioctl(lfd, LOOP_SET_STATUS64, &li)) {
		if (lfd >= 0)
			close(lfd);
		close(fd);
		return -ENODEV;
	}
	close(fd);
	hs->loop_fd = lfd; /* autoclear: the device detaches when this closes */
	hs->loop = n;
	for (int p = 0; p < 2; p++) {
		struct blkpg_partition part = { .start = parts[p][0] * 512, .length = parts[p][1] * 512, .pno = p + 1 };
		struct blkpg_ioctl_arg arg = { .op = BLKPG_ADD_PARTITION, .datalen = sizeof(part), .data = &part };

		if (ioctl(lfd, BLKPG, &arg))
			return -errno;
	}
	return 0;
}

int hardcases_sys_start(struct hardcases_sys *hs)
{
	int fd, rc;

	memset(hs, 0, sizeof(*hs));
	hs->loop_fd = -1;
	snprintf(hs->dir, sizeof(hs->dir), "/tmp/uprocfs-hcs.XXXXXX");
	if (!mkdtemp(hs->dir))
		return -errno;
	snprintf(hs->lockfile, sizeof(hs->lockfile), "%s/locked", hs->dir);
	fd = open(hs->lockfile, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || ftruncate(fd, 4096) || close(fd))
		return -errno;
	snprintf(hs->leased, sizeof(hs->leased), "%s.leased", hs->lockfile);
	fd = open(hs->leased, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || close(fd))
		return -errno;
	for (int i = 0; i < 3; i++) {
		pid_t pid = locker(i, hs->lockfile);

		if (pid < 0) {
			hardcases_sys_stop(hs);
			return -ECHILD;
		}
		hs->pids[hs->n++] = pid;
		nap_ms(50); /* the second waiter must find the first already queued */
	}
	if ((rc = make_swap(hs)) || (rc = make_loop(hs))) {
		hardcases_sys_stop(hs);
		return rc;
	}
	nap_ms(200); /* udev and the partition scan settle */
	return 0;
}

void hardcases_sys_stop(struct hardcases_sys *hs)
{
	for (unsigned int i = 0; i < hs->n; i++) {
		kill(hs->pids[i], SIGKILL);
		waitpid(hs->pids[i], NULL, 0);
	}
	hs->n = 0;
	if (hs->swapping && !swapoff(hs->swapfile))
		hs->swapping = false;
	if (hs->loop_fd >= 0) {
		ioctl(hs->loop_fd, LOOP_CLR_FD, 0);
		close(hs->loop_fd);
		hs->loop_fd = -1;
	}
	if (hs->swapfile[0])
		unlink(hs->swapfile);
	if (hs->image[0])
		unlink(hs->image);
	if (hs->lockfile[0])
		unlink(hs->lockfile);
	if (hs->leased[0])
		unlink(hs->leased);
	if (hs->dir[0])
		rmdir(hs->dir);
	hs->dir[0] = '\0';
}
