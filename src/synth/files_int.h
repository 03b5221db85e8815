/* SPDX-License-Identifier: MIT */
/*
 * files_int.h - what the builders of a process's file table share
 * (files.c: the table and its kinds of files; files_progs.c: what each
 * program holds open).
 *
 * Pipes and sockets get inode numbers from their creator's pid and a slot
 * (net_int.h, one allocator), so a child computes the inode of a pipe its
 * parent made, and the holders of one socket (a master and its workers)
 * show one inode, without either looking at the other's table.  The
 * sockets themselves are the network's (sy_net_proc_sockets): a table
 * holds exactly the ones its process owns there, and those it inherited.
 */
#ifndef UPROCFS_SYNTH_FILES_INT_H
#define UPROCFS_SYNTH_FILES_INT_H

#include "devices.h"
#include "net_int.h"

/*
 * Mount ids and superblock devices of the synthetic machine's file
 * systems: the internal mounts' ids are the live 6.18 kernel's, the others
 * the host mount table's (ns_mounts.c host_tpl), so that fdinfo's mnt_id
 * names a line of mountinfo.
 */
enum sy_mnt {
	MNT_NSFS = 3, MNT_PIDFS = 4, MNT_SOCKFS = 10, MNT_PIPEFS = 16, MNT_ANON = 17,
	MNT_PROC = 22, MNT_DEV = 23, MNT_DEVPTS = 24, MNT_RUN = 25, MNT_ROOT = 26, MNT_SHM = 28, MNT_HOME = 62,
	MNT_MEMFD = 0,
};



/* s_dev as the kernel holds it (MKDEV: major << 20 | minor), printed by epoll and inotify. */
#define SDEV(maj, min) ((uint32_t)(maj) << 20 | (uint32_t)(min))
#define SDEV_ROOT SDEV(SY_ROOT_DEV_MAJOR, SY_ROOT_DEV_MINOR)
#define SDEV_PIPEFS SDEV(0, 15)
#define SDEV_SOCKFS SDEV(0, 8)
#define SDEV_ANON SDEV(0, 16)
#define SDEV_DEVTMPFS SDEV(0, 5)

/* The one inode every plain anon-inode file shares (anon_inode_inode). */
#define ANON_INODE_INO 1038u

/* f_flags of the usual opens (octal, as fdinfo shows them) */
#define FL_RD (MACH_O_LARGEFILE)
#define FL_WR (MACH_O_LARGEFILE | MACH_O_WRONLY)
#define FL_RDWR (MACH_O_LARGEFILE | MACH_O_RDWR)
#define FL_APPEND (MACH_O_LARGEFILE | MACH_O_WRONLY | MACH_O_APPEND)
#define FL_DIR (MACH_O_LARGEFILE | MACH_O_DIRECTORY)
#define FL_NB MACH_O_NONBLOCK

/*
 * The bitmap of taken fds: room for a server's SY_NET_MAX_PROC_SOCKS sockets
 * and the rest of its table, so finding the lowest free fd never falls back
 * to scanning the table (which made building 100,000 tasks cubic in a big
 * server's sockets).
 */
#define FX_USED_WORDS 160
_Static_assert(FX_USED_WORDS * 64 >= 2 * SY_NET_MAX_PROC_SOCKS, "FX_USED_WORDS holds a server's sockets");

/* One table being built. */
struct fdgen {
	struct synth *s;
	size_t idx;              /* the process's plan index */
	const struct sy_ids *me; /* its ids */
	const struct gen *g;
	const struct gen *pg;    /* the parent's plan entry, or NULL */
	const struct sy_ids *parent; /* the parent's ids, or NULL */
	struct rng r;            /* the table's own stream */
	struct mach_files *f;
	unsigned int cap;        /* room in f->fds */
	uint64_t used[FX_USED_WORDS]; /* the fds taken, below FX_USED_WORDS * 64 */
	unsigned int slot;       /* the next own inode slot */
	int err;                 /* -ENOMEM once anything failed */
	/*
	 * A build's measuring pass of a table the maker makes again: no
	 * names, no inodes of paths, which nothing reads before it is dropped.
	 */
	bool nameless;
};

/* files.c: the kinds of files */

/** Append fd @fd (-1: the lowest free) of @kind; NULL (x->err set) on ENOMEM. */
struct mach_fd *fx_add(struct fdgen *x, int fd, enum mach_fd_kind kind, unsigned int flags, bool cloexec);
/** A path on mount @mnt with inode @ino (0: the path's own). */
struct mach_fd *fx_path(struct fdgen *x, int fd, const char *path, unsigned int flags, bool cloexec, int mnt,
			uint64_t ino);
/** An inode of this process's pipes: slot @slot of pid @pid (sy_sock_inode). */
uint64_t fx_ino(pid_t pid, unsigned int slot);
/** A socket of @family and @type with inode @ino. */
struct mach_fd *fx_sock(struct fdgen *x, int fd, unsigned int family, unsigned int type, uint64_t ino,
			unsigned int flags, bool cloexec);
/** One end of a pipe with inode @ino: read (O_RDONLY) or write. */
struct mach_fd *fx_pipe(struct fdgen *x, int fd, uint64_t ino, bool write, unsigned int flags, bool cloexec);
/** An anon inode file of @type ("[eventfd]", "inotify", ...), with its fdinfo lines drawn. */
struct mach_fd *fx_anon(struct fdgen *x, int fd, enum mach_fd_type type, unsigned int flags, bool cloexec);
/** Watch @n paths with inotify fd @f. */
void fx_watch(struct fdgen *x, struct mach_fd *f, const char *const *paths, unsigned int n);
/** 0, 1, 2: the terminal, or /dev/null; a service's stdout and stderr go to journald's socket. */
void fx_stdio(struct fdgen *x);
/** Make @f (of /dev/ptmx; NULL: nothing) the master side of pty @index, as its fdinfo shows. */
void fx_ptmx(struct fdgen *x, struct mach_fd *f, int index);
/** A pidfd of process @pid. */
void fx_pidfd(struct fdgen *x, int fd, pid_t pid);
/** Place the sockets the network gives this process, and those it inherited (files_socks.c). */
void fx_net_sockets(struct fdgen *x);
/** Register every fd from @from up (sockets, eventfds, timers...) with the epoll instance at @epfd. */
void fx_epoll_all(struct fdgen *x, int epfd, int from);

/* files_progs.c */

/** The fds a user process of the plan holds, beyond what fx_stdio gave it. */
void sy_prog_files(struct fdgen *x);

#endif /* UPROCFS_SYNTH_FILES_INT_H */
