// SPDX-License-Identifier: MIT
/*
 * load_fdinfo.c - the lines a file's own show_fdinfo adds to
 * /proc/<pid>/fdinfo/<n>, after the fixed ones and the locks (Linux 6.18):
 * eventfd, epoll, inotify, fanotify, signalfd, timerfd, pidfd, unix
 * sockets, userfaultfd, pty masters and /dev/fuse.  The first line names
 * the type; every line must be one the kernel prints for it.  A type
 * uprocfs does not model (io_uring, a BPF map) is -ENOTSUP: its process
 * cannot be held, which is not the same as text that does not parse.  Whether the type agrees with the
 * link (an eventfd's fd/ says anon_inode:[eventfd]) is checked when the
 * process is assembled.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

/* "LABEL" then a hex number (no padding, no 0x). */
static int hex_field(struct lex *lx, const char *label, uint64_t *v, uint64_t max)
{
	int rc;

	lex_ctx(lx, label);
	if ((rc = lex_expect(lx, label)) || (rc = lex_hex(lx, v)))
		return rc;
	return *v > max ? lex_fail(lx, "%s beyond its width", label) : 0;
}

static int hex32(struct lex *lx, const char *label, uint32_t *v)
{
	uint64_t x;
	int rc = hex_field(lx, label, &x, UINT32_MAX);

	*v = (uint32_t)x;
	return rc;
}

/* "LABEL" then a decimal number (padding allowed, as for every number). */
static int dec_field(struct lex *lx, const char *label, uint64_t *v)
{
	int rc;

	lex_ctx(lx, label);
	if ((rc = lex_expect(lx, label)))
		return rc;
	return lex_u64(lx, v);
}

static int eventfd_lines(struct lex *lx, struct mach_fd_info *f)
{
	uint64_t id, sem;
	int rc;

	lex_ctx(lx, "eventfd-count:");
	if ((rc = lex_expect(lx, "eventfd-count: ")))
		return rc;
	if ((rc = lex_hex_width(lx, &f->u.eventfd.count, 16)) || (rc = lex_eol(lx)) ||
	    (rc = dec_field(lx, "eventfd-id: ", &id)) || (rc = lex_eol(lx)) ||
	    (rc = dec_field(lx, "eventfd-semaphore: ", &sem)) || (rc = lex_eol(lx)))
		return rc;
	if (id > INT32_MAX || sem > 1)
		return lex_fail(lx, "eventfd-id or eventfd-semaphore out of range");
	f->u.eventfd.id = (int)id;
	f->u.eventfd.semaphore = sem;
	return 0;
}

/* Grow @f's item array by one of @size bytes; the new item, zeroed, or NULL. */
static void *push_item(void **arr, unsigned int *n, size_t size)
{
	char *a = realloc(*arr, (*n + 1) * size);

	if (!a)
		return NULL;
	*arr = a;
	memset(a + *n * size, 0, size);
	return a + (*n)++ * size;
}

/* "tfd: %8d events: %8x data: %16llx  pos:%lli ino:%lx sdev:%x" */
static int epoll_line(struct lex *lx, struct mach_epoll_item *e)
{
	uint64_t tfd, v;
	int rc;

	lex_ctx(lx, "tfd:");
	if ((rc = lex_expect(lx, "tfd: ")) || (rc = lex_u64_width_max(lx, &tfd, 8, INT32_MAX)) ||
	    (rc = lex_expect(lx, " events: ")))
		return rc;
	if ((rc = lex_hex_width(lx, &v, 8)) || (v > UINT32_MAX && (rc = lex_fail(lx, "events beyond 32 bits"))) ||
	    (rc = lex_expect(lx, " data: ")))
		return rc;
	e->tfd = (int)tfd;
	e->events = (uint32_t)v;
	if ((rc = lex_hex_width(lx, &e->data, 16)) || (rc = lex_expect(lx, "  pos:")) ||
	    (rc = lex_s64(lx, &e->pos, INT64_MIN, INT64_MAX)) || (rc = hex_field(lx, " ino:", &e->ino, UINT64_MAX)) ||
	    (rc = hex32(lx, " sdev:", &e->sdev)))
		return rc;
	return lex_eol(lx);
}

/* show_mark_fhandle, after the mark's fields and a space: maybe nothing. */
static int fhandle(struct lex *lx, struct mach_fsnotify_mark *k)
{
	uint64_t bytes, type;
	int rc;

	if (lex_peek(lx, '\n'))
		return 0;
	if ((rc = hex_field(lx, "fhandle-bytes:", &bytes, MACH_FHANDLE_MAX)) ||
	    (rc = hex_field(lx, " fhandle-type:", &type, INT32_MAX)) || (rc = lex_expect(lx, " f_handle:")))
		return rc;
	k->has_fhandle = true;
	k->fh_bytes = (unsigned int)bytes;
	k->fh_type = (int)type;
	for (unsigned int i = 0; i < k->fh_bytes; i++) {
		char hi = lx->p + 1 < lx->end ? lx->p[0] : 0, lo = hi ? lx->p[1] : 0;
		const char *hex = "0123456789abcdef";

		if (!hi || !strchr(hex, hi) || !lo || !strchr(hex, lo))
			return lex_expected(lx, "two lowercase hex digits per handle byte");
		k->fh[i] = (uint8_t)((strchr(hex, hi) - hex) << 4 | (strchr(hex, lo) - hex));
		lx->p += 2;
	}
	return 0;
}

/* "inotify wd:%x ino:%lx sdev:%x mask:%x ignored_mask:%x " and the handle */
static int inotify_line(struct lex *lx, struct mach_fsnotify_mark *k)
{
	uint64_t wd;
	int rc;

	k->obj = MACH_MARK_INODE;
	if ((rc = hex_field(lx, "inotify wd:", &wd, INT32_MAX)) || (rc = hex_field(lx, " ino:", &k->ino, UINT64_MAX)) ||
	    (rc = hex32(lx, " sdev:", &k->sdev)) || (rc = hex32(lx, " mask:", &k->mask)) ||
	    (rc = hex32(lx, " ignored_mask:", &k->ignored_mask)) || (rc = lex_expect(lx, " ")) ||
	    (rc = fhandle(lx, k)))
		return rc;
	k->wd = (int)wd;
	return lex_eol(lx);
}

/* One "fanotify" mark line: on an inode, a mount or a superblock. */
static int fanotify_line(struct lex *lx, struct mach_fsnotify_mark *k)
{
	uint64_t mnt;
	int rc;

	if (lex_accept(lx, "fanotify ino:")) {
		k->obj = MACH_MARK_INODE;
		if ((rc = lex_hex(lx, &k->ino)) || (rc = hex32(lx, " sdev:", &k->sdev)))
			return rc;
	} else if (lex_accept(lx, "fanotify mnt_id:")) {
		k->obj = MACH_MARK_MOUNT;
		if ((rc = lex_hex(lx, &mnt)))
			return rc;
		if (mnt > INT32_MAX)
			return lex_fail(lx, "mnt_id beyond int");
		k->mnt_id = (int)mnt;
	} else if (lex_accept(lx, "fanotify sdev:")) {
		k->obj = MACH_MARK_SB;
		if ((rc = hex_field(lx, "", &mnt, UINT32_MAX)))
			return rc;
		k->sdev = (uint32_t)mnt;
	} else {
		return lex_expected(lx, "a fanotify mark on an inode, a mount or a superblock");
	}
	if ((rc = hex32(lx, " mflags:", &k->mflags)) || (rc = hex32(lx, " mask:", &k->mask)) ||
	    (rc = hex32(lx, " ignored_mask:", &k->ignored_mask)))
		return rc;
	if (k->obj == MACH_MARK_INODE && ((rc = lex_expect(lx, " ")) || (rc = fhandle(lx, k))))
		return rc;
	return lex_eol(lx);
}

/* Lines of marks, each starting with @prefix, until the end. */
static int mark_lines(struct lex *lx, struct mach_fd_info *f, const char *prefix,
		      int (*line)(struct lex *lx, struct mach_fsnotify_mark *k))
{
	size_t plen = strlen(prefix);
	int rc;

	while (!lex_eof(lx)) {
		struct mach_fsnotify_mark *k;

		if ((size_t)(lx->end - lx->p) < plen || memcmp(lx->p, prefix, plen))
			return lex_expected(lx, prefix);
		k = push_item((void **)&f->marks, &f->nitems, sizeof(*k));
		if (!k)
			return -ENOMEM;
		if ((rc = line(lx, k)))
			return rc;
	}
	return 0;
}

static int timerfd_lines(struct lex *lx, struct mach_fd_info *f)
{
	int64_t clockid;
	uint64_t flags;
	int rc;

	lex_ctx(lx, "clockid:");
	if ((rc = lex_expect(lx, "clockid: ")) || (rc = lex_s64(lx, &clockid, INT32_MIN, INT32_MAX)) ||
	    (rc = lex_eol(lx)) || (rc = dec_field(lx, "ticks: ", &f->u.timerfd.ticks)) || (rc = lex_eol(lx)) ||
	    (rc = lex_expect(lx, "settime flags: 0")) || (rc = lex_oct(lx, &flags)) || (rc = lex_eol(lx)) ||
	    (rc = dec_field(lx, "it_value: (", &f->u.timerfd.value_sec)) ||
	    (rc = dec_field(lx, ", ", &f->u.timerfd.value_nsec)) || (rc = lex_expect(lx, ")\n")) ||
	    (rc = dec_field(lx, "it_interval: (", &f->u.timerfd.interval_sec)) ||
	    (rc = dec_field(lx, ", ", &f->u.timerfd.interval_nsec)) || (rc = lex_expect(lx, ")\n")))
		return rc;
	if (flags > UINT32_MAX)
		return lex_fail(lx, "settime flags beyond 32 bits");
	f->u.timerfd.clockid = (int)clockid;
	f->u.timerfd.settime_flags = (unsigned int)flags;
	return 0;
}

/* "Pid:\t%d\nNSpid:\t%d[\t%d...]\n": NSpid repeats Pid first */
static int pidfd_lines(struct lex *lx, struct mach_fd_info *f)
{
	int64_t pid, v;
	int rc;

	lex_ctx(lx, "Pid:");
	if ((rc = lex_expect(lx, "Pid:\t")) || (rc = lex_s64(lx, &pid, -1, INT32_MAX)) || (rc = lex_eol(lx)))
		return rc;
	lex_ctx(lx, "NSpid:");
	if ((rc = lex_expect(lx, "NSpid:\t")) || (rc = lex_s64(lx, &v, -1, INT32_MAX)))
		return rc;
	if (v != pid)
		return lex_fail(lx, "NSpid starts with %lld, Pid: says %lld", (long long)v, (long long)pid);
	f->u.pidfd.nspid[0] = (pid_t)pid;
	f->u.pidfd.levels = 1;
	while (lex_accept(lx, "\t")) {
		if (f->u.pidfd.levels >= MACH_NS_LEVELS_MAX)
			return lex_fail(lx, "more than %d pid namespace levels", MACH_NS_LEVELS_MAX);
		if ((rc = lex_s64(lx, &v, 1, INT32_MAX)))
			return rc;
		f->u.pidfd.nspid[f->u.pidfd.levels++] = (pid_t)v;
	}
	if (f->u.pidfd.levels > 1 && pid <= 0)
		return lex_fail(lx, "deeper levels of a pid that is gone or not visible");
	return lex_eol(lx);
}

static int uffd_lines(struct lex *lx, struct mach_fd_info *f)
{
	uint64_t features;
	int rc;

	if ((rc = dec_field(lx, "pending:\t", &f->u.uffd.pending)) || (rc = lex_eol(lx)) ||
	    (rc = dec_field(lx, "total:\t", &f->u.uffd.total)) || (rc = lex_eol(lx)) ||
	    (rc = hex_field(lx, "API:\t", &f->u.uffd.api, UINT64_MAX)) ||
	    (rc = hex_field(lx, ":", &features, UINT32_MAX)) || (rc = hex_field(lx, ":", &f->u.uffd.ioctls, UINT64_MAX)))
		return rc;
	f->u.uffd.features = (uint32_t)features;
	return lex_eol(lx);
}

/* The one-line tails: signalfd, unix sockets, pty masters, fuse connections. */
static int one_line(struct lex *lx, enum mach_fd_type type, struct mach_fd_info *f)
{
	uint64_t v;
	int64_t s;
	int rc;

	if (type == MACH_FDT_SIGNALFD) {
		lex_ctx(lx, "sigmask:");
		if ((rc = lex_expect(lx, "sigmask:\t")) || (rc = lex_hex_min(lx, &f->u.signalfd.sigmask, 16)))
			return rc;
	} else if (type == MACH_FDT_UNIX) {
		if ((rc = dec_field(lx, "scm_fds: ", &v)))
			return rc;
		if (v > UINT32_MAX)
			return lex_fail(lx, "scm_fds beyond 32 bits");
		f->u.unix_sock.scm_fds = (unsigned int)v;
	} else if (type == MACH_FDT_FUSE) {
		if ((rc = dec_field(lx, "fuse_connection:\t", &v)))
			return rc;
		if (v > UINT32_MAX)
			return lex_fail(lx, "fuse_connection beyond 32 bits");
		f->u.fuse.connection = (unsigned int)v;
	} else {
		lex_ctx(lx, "tty-index:");
		if ((rc = lex_expect(lx, "tty-index:\t")) || (rc = lex_s64(lx, &s, 0, INT32_MAX)))
			return rc;
		f->u.ptmx.index = (int)s;
	}
	return lex_eol(lx);
}

/* The type by the tail's first line; MACH_FDT_NONE for no tail. */
static enum mach_fd_type tail_type(const struct lex *lx)
{
	static const struct {
		const char *start;
		enum mach_fd_type type;
	} starts[] = {
		{ "eventfd-count:", MACH_FDT_EVENTFD }, { "tfd:", MACH_FDT_EPOLL },
		{ "inotify ", MACH_FDT_INOTIFY },       { "fanotify flags:", MACH_FDT_FANOTIFY },
		{ "sigmask:\t", MACH_FDT_SIGNALFD },    { "clockid:", MACH_FDT_TIMERFD },
		{ "Pid:\t", MACH_FDT_PIDFD },           { "scm_fds:", MACH_FDT_UNIX },
		{ "pending:\t", MACH_FDT_USERFAULTFD }, { "tty-index:\t", MACH_FDT_PTMX },
		{ "fuse_connection:\t", MACH_FDT_FUSE },
	};
	size_t left = (size_t)(lx->end - lx->p);

	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		size_t n = strlen(starts[i].start);

		if (left >= n && !memcmp(lx->p, starts[i].start, n))
			return starts[i].type;
	}
	return MACH_FDT_NONE;
}

int ld_parse_fdinfo_tail(struct lex *lx, struct mach_fd *f)
{
	struct mach_fd_info *in;
	int rc = 0;

	f->type = tail_type(lx);
	if (f->type == MACH_FDT_NONE) {
		lex_ctx(lx, NULL);
		if (lex_eof(lx))
			return 0;
		lex_expected(lx, "the end, or lines of a file type uprocfs models");
		return -ENOTSUP;
	}
	if (!(in = mach_fd_info_mut(f)))
		return -ENOMEM;
	switch (f->type) {
	case MACH_FDT_EVENTFD:
		rc = eventfd_lines(lx, in);
		break;
	case MACH_FDT_EPOLL:
		while (!rc && !lex_eof(lx)) {
			struct mach_epoll_item *e = push_item((void **)&in->epoll, &in->nitems, sizeof(*e));

			rc = e ? epoll_line(lx, e) : -ENOMEM;
		}
		break;
	case MACH_FDT_INOTIFY:
		rc = mark_lines(lx, in, "inotify ", inotify_line);
		break;
	case MACH_FDT_FANOTIFY:
		if ((rc = hex32(lx, "fanotify flags:", &in->u.fanotify.flags)) ||
		    (rc = hex32(lx, " event-flags:", &in->u.fanotify.event_flags)) || (rc = lex_eol(lx)))
			return rc;
		rc = mark_lines(lx, in, "fanotify ", fanotify_line);
		break;
	case MACH_FDT_TIMERFD:
		rc = timerfd_lines(lx, in);
		break;
	case MACH_FDT_PIDFD:
		rc = pidfd_lines(lx, in);
		break;
	case MACH_FDT_USERFAULTFD:
		rc = uffd_lines(lx, in);
		break;
	default:
		rc = one_line(lx, f->type, in);
		break;
	}
	return rc ? rc : lex_expect_eof(lx);
}
