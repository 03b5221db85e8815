// SPDX-License-Identifier: MIT
/*
 * pid_fdinfo_show.c - what each kind of file adds to /proc/<pid>/fdinfo/<n>:
 * the show_fdinfo of its file operations (Linux 6.18), after the fixed
 * lines and the locks (pid_fd.c).
 *
 * fs/eventfd.c eventfd_show_fdinfo, fs/eventpoll.c ep_show_fdinfo,
 * fs/notify/fdinfo.c inotify_show_fdinfo and fanotify_show_fdinfo,
 * fs/signalfd.c signalfd_show_fdinfo, fs/timerfd.c timerfd_show,
 * fs/pidfs.c pidfd_show_fdinfo, net/unix/af_unix.c unix_show_fdinfo,
 * fs/userfaultfd.c userfaultfd_show_fdinfo, drivers/tty/pty.c
 * pty_show_fdinfo, fs/fuse/dev.c fuse_dev_show_fdinfo.
 */
#include "render.h"

static void eventfd_show_fdinfo(struct seq_file *m, const struct mach_fd_info *f)
{
	seq_printf(m, "eventfd-count: %16llx\n", (unsigned long long)f->u.eventfd.count);
	seq_printf(m, "eventfd-id: %d\n", f->u.eventfd.id);
	seq_printf(m, "eventfd-semaphore: %d\n", f->u.eventfd.semaphore ? 1 : 0);
}

static void ep_show_fdinfo(struct seq_file *m, const struct mach_fd_info *f)
{
	for (unsigned int i = 0; i < f->nitems && !seq_has_overflowed(m); i++) {
		const struct mach_epoll_item *e = &f->epoll[i];

		seq_printf(m, "tfd: %8d events: %8x data: %16llx  pos:%lli ino:%llx sdev:%x\n", e->tfd,
			   e->events, (unsigned long long)e->data, (long long)e->pos, (unsigned long long)e->ino,
			   e->sdev);
	}
}

/* show_mark_fhandle: the exportfs handle, hex byte by byte, or nothing when there is none. */
static void show_mark_fhandle(struct seq_file *m, const struct mach_fsnotify_mark *k)
{
	if (!k->has_fhandle)
		return;
	seq_printf(m, "fhandle-bytes:%x fhandle-type:%x f_handle:", k->fh_bytes, (unsigned int)k->fh_type);
	for (unsigned int i = 0; i < k->fh_bytes && i < MACH_FHANDLE_MAX; i++)
		seq_put_hex_ll(m, NULL, k->fh[i], 2);
}

static void inotify_show_fdinfo(struct seq_file *m, const struct mach_fd_info *f)
{
	for (unsigned int i = 0; i < f->nitems && !seq_has_overflowed(m); i++) {
		const struct mach_fsnotify_mark *k = &f->marks[i];

		seq_printf(m, "inotify wd:%x ino:%llx sdev:%x mask:%x ignored_mask:%x ", (unsigned int)k->wd,
			   (unsigned long long)k->ino, k->sdev, k->mask, k->ignored_mask);
		show_mark_fhandle(m, k);
		seq_putc(m, '\n');
	}
}

static void fanotify_show_fdinfo(struct seq_file *m, const struct mach_fd_info *f)
{
	seq_printf(m, "fanotify flags:%x event-flags:%x\n", f->u.fanotify.flags, f->u.fanotify.event_flags);
	for (unsigned int i = 0; i < f->nitems && !seq_has_overflowed(m); i++) {
		const struct mach_fsnotify_mark *k = &f->marks[i];

		switch (k->obj) {
		case MACH_MARK_INODE:
			seq_printf(m, "fanotify ino:%llx sdev:%x mflags:%x mask:%x ignored_mask:%x ",
				   (unsigned long long)k->ino, k->sdev, k->mflags, k->mask, k->ignored_mask);
			show_mark_fhandle(m, k);
			seq_putc(m, '\n');
			break;
		case MACH_MARK_MOUNT:
			seq_printf(m, "fanotify mnt_id:%x mflags:%x mask:%x ignored_mask:%x\n", (unsigned int)k->mnt_id,
				   k->mflags, k->mask, k->ignored_mask);
			break;
		case MACH_MARK_SB:
			seq_printf(m, "fanotify sdev:%x mflags:%x mask:%x ignored_mask:%x\n", k->sdev, k->mflags,
				   k->mask, k->ignored_mask);
			break;
		}
	}
}

static void timerfd_show(struct seq_file *m, const struct mach_fd_info *f)
{
	seq_printf(m, "clockid: %d\nticks: %llu\nsettime flags: 0%o\nit_value: (%llu, %llu)\nit_interval: (%llu, %llu)\n",
		   f->u.timerfd.clockid, (unsigned long long)f->u.timerfd.ticks, f->u.timerfd.settime_flags,
		   (unsigned long long)f->u.timerfd.value_sec, (unsigned long long)f->u.timerfd.value_nsec,
		   (unsigned long long)f->u.timerfd.interval_sec, (unsigned long long)f->u.timerfd.interval_nsec);
}

static void pidfd_show_fdinfo(struct seq_file *m, const struct mach_fd_info *f)
{
	unsigned int levels = f->u.pidfd.levels ? f->u.pidfd.levels : 1;
	pid_t nr = f->u.pidfd.nspid[0];

	seq_put_decimal_ll(m, "Pid:\t", nr);
	seq_put_decimal_ll(m, "\nNSpid:\t", nr);
	/* the deeper levels only for a live pid visible here */
	for (unsigned int i = 1; nr > 0 && i < levels && i < MACH_NS_LEVELS_MAX; i++)
		seq_put_decimal_ll(m, "\t", f->u.pidfd.nspid[i]);
	seq_putc(m, '\n');
}

static void userfaultfd_show_fdinfo(struct seq_file *m, const struct mach_fd_info *f)
{
	seq_printf(m, "pending:\t%llu\ntotal:\t%llu\nAPI:\t%llx:%x:%llx\n", (unsigned long long)f->u.uffd.pending,
		   (unsigned long long)f->u.uffd.total, (unsigned long long)f->u.uffd.api, f->u.uffd.features,
		   (unsigned long long)f->u.uffd.ioctls);
}

void pfs_show_fdinfo_type(struct seq_file *m, const struct mach_fd *f)
{
	const struct mach_fd_info *in = mach_fd_info(f);

	switch (f->type) {
	case MACH_FDT_EVENTFD:
		eventfd_show_fdinfo(m, in);
		break;
	case MACH_FDT_EPOLL:
		ep_show_fdinfo(m, in);
		break;
	case MACH_FDT_INOTIFY:
		inotify_show_fdinfo(m, in);
		break;
	case MACH_FDT_FANOTIFY:
		fanotify_show_fdinfo(m, in);
		break;
	case MACH_FDT_SIGNALFD:
		/* render_sigset_t: 16 hex digits, most significant signal first */
		seq_put_hex_ll(m, "sigmask:\t", in->u.signalfd.sigmask, 16);
		seq_putc(m, '\n');
		break;
	case MACH_FDT_TIMERFD:
		timerfd_show(m, in);
		break;
	case MACH_FDT_PIDFD:
		pidfd_show_fdinfo(m, in);
		break;
	case MACH_FDT_UNIX:
		seq_put_decimal_ull(m, "scm_fds: ", in->u.unix_sock.scm_fds);
		seq_putc(m, '\n');
		break;
	case MACH_FDT_USERFAULTFD:
		userfaultfd_show_fdinfo(m, in);
		break;
	case MACH_FDT_PTMX:
		seq_put_decimal_ll(m, "tty-index:\t", in->u.ptmx.index);
		seq_putc(m, '\n');
		break;
	case MACH_FDT_FUSE:
		seq_put_decimal_ull(m, "fuse_connection:\t", in->u.fuse.connection);
		seq_putc(m, '\n');
		break;
	default:
		break;
	}
}
