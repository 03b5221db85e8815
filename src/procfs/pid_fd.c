// SPDX-License-Identifier: MIT
/*
 * pid_fd.c - /proc/<pid>/fd/<n> and /proc/<pid>/fdinfo/<n>.
 *
 * Mirrors fs/proc/fd.c of Linux 6.18: proc_fd_link (the target is d_path of
 * the file, or the d_dname of a pseudo filesystem: pipefs "pipe:[INO]",
 * sockfs "socket:[INO]", anon_inodefs "anon_inode:NAME", nsfs
 * "NAME:[INO]"), and seq_show (four fixed lines, the locks held through
 * the file as show_fd_locks prints them, then the file's show_fdinfo,
 * pid_fdinfo_show.c).  The link's mode follows the file's open mode
 * (tid_fd_update_inode).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "render.h"

const struct mach_fd *pfs_files_find(const struct mach_files *f, uint32_t fd)
{
	const struct mach_fd *fds;
	size_t lo = 0, hi;

	/* a made table that could not be made has no fd to show */
	if (!f || mach_files_fds(f, &fds))
		return NULL;
	hi = f->nfds;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uint32_t)fds[mid].fd < fd)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->nfds && (uint32_t)fds[lo].fd == fd ? &fds[lo] : NULL;
}

const struct mach_fd *pfs_fd_of(const struct pfs_ctx *c)
{
	return pfs_files_find(c->proc ? c->proc->files : NULL, c->inst);
}

mode_t pfs_fd_link_mode(const struct mach_fd *f)
{
	/* OPEN_FMODE: accmode + 1 gives FMODE_READ (1) and FMODE_WRITE (2); O_PATH opens neither */
	unsigned int fmode = f->flags & MACH_O_PATH ? 0 : ((f->flags & MACH_O_ACCMODE) + 1) & 3;
	mode_t mode = 0;

	if (fmode & 1)
		mode |= 0500;
	if (fmode & 2)
		mode |= 0300;
	return mode;
}

static int fit(int n, size_t size)
{
	return n < 0 ? -EINVAL : (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int pfs_link_fd(const struct pfs_ctx *c, char *buf, size_t size)
{
	const struct mach_fd *f = pfs_fd_of(c);
	unsigned long long ino;

	if (!f)
		return -ENOENT;
	ino = (unsigned long long)f->ino;
	switch (f->kind) {
	case MACH_FD_PATH:
		return fit(snprintf(buf, size, "%s%s", f->name ? f->name : "", f->deleted ? " (deleted)" : ""), size);
	case MACH_FD_PIPE:
		return fit(snprintf(buf, size, "pipe:[%llu]", ino), size);
	case MACH_FD_SOCKET:
		return fit(snprintf(buf, size, "socket:[%llu]", ino), size);
	case MACH_FD_ANON:
		return fit(snprintf(buf, size, "anon_inode:%s", f->name ? f->name : ""), size);
	case MACH_FD_PSEUDO:
		return fit(snprintf(buf, size, "%s:[%llu]", f->name ? f->name : "", ino), size);
	default:
		return -ENOENT; /* listed, but what it is was never known */
	}
}

int pfs_show_pid_fdinfo(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_fd *f = pfs_fd_of(c);

	(void)v;
	if (!f)
		return -ENOENT;
	seq_printf(m, "pos:\t%lli\nflags:\t0%o\nmnt_id:\t%i\nino:\t%llu\n", (long long)f->pos,
		   f->flags | (f->cloexec ? MACH_O_CLOEXEC : 0), f->mnt_id, (unsigned long long)f->ino);
	/* show_fd_locks: each lock of this file, numbered from 1 */
	for (unsigned int i = 0; i < mach_fd_info(f)->nlocks; i++) {
		seq_puts(m, "lock:\t");
		pfs_lock_get_status(m, &mach_fd_info(f)->locks[i], (long long)i + 1, 0);
	}
	if (seq_has_overflowed(m))
		return 0;
	pfs_show_fdinfo_type(m, f);
	return 0;
}
