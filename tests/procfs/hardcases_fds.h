/* SPDX-License-Identifier: MIT */
/*
 * hardcases_fds.h - what the hard cases of open files and of fs/proc/base.c's
 * small files become before they sleep (hardcases.c starts them).
 */
#ifndef UPROCFS_HARDCASES_FDS_H
#define UPROCFS_HARDCASES_FDS_H

/**
 * 200 open fds of every kind: files read, written, appended, O_PATH, a
 * directory, a deleted file, memfd, an nsfs fd, /dev/null; FLOCK, POSIX
 * and OFD locks; pipes, a unix socket pair with an fd in flight, TCP, UDP,
 * netlink; eventfd, signalfd, an expired and an idle timerfd, inotify
 * watches, epoll over some of them; pidfds of a live and a reaped process,
 * fanotify marks, userfaultfd, a pty master and its slave.  Files go in @dir.
 */
void hc_become_fds(const char *dir);

/**
 * Changed limits (one to unlimited), oom_score_adj +500, its own autogroup
 * with nice 5, a login uid, timer slack, a personality per thread, a thread
 * that did I/O and exited, and a working directory removed under it.
 * (oom_score_adj cannot be lowered here: root lacks CAP_SYS_RESOURCE.)
 */
void hc_become_limits(const char *dir);

/** Remove the files hc_become_fds and hc_become_limits left in @dir. */
void hc_fds_cleanup(const char *dir);

#endif
