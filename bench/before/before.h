/* SPDX-License-Identifier: MIT */
/*
 * before.h - renderers written the way the kernel wrote them before each
 * seed patch: every line through a printf-style call backed by libc
 * vsnprintf into the seq buffer, as a userspace port (LXCFS, gVisor) does.
 * They print the same bytes as src/procfs (a test checks it) so the
 * benchmarks compare only how the text is made.
 */
#ifndef UPROCFS_BEFORE_H
#define UPROCFS_BEFORE_H

#include "procfs/render.h"

/** seq_printf through libc vsnprintf, with the kernel's overflow rule. */
void before_seq_printf(struct seq_file *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** /proc/<pid>/status before "proc: faster /proc/PID/status" (seed 000). */
int before_show_pid_status(struct seq_file *m, void *v);
/** /proc/stat before "procfs: add num_to_str() to speed up /proc/stat" (seed 002). */
int before_show_stat(struct seq_file *m, void *v);
/** /proc/<pid>/maps before "procfs: add seq_put_hex_ll to speed up /proc/pid/maps" (seed 003). */
extern const struct seq_operations before_pid_maps_ops;
/** /proc/<pid>/maps with putters but every delimiter copied as a string (the fast path off). */
extern const struct seq_operations nofastpath_pid_maps_ops;
/** /proc/schedstat before "sched/stats: Optimize /proc/schedstat printing" (seed 004). */
extern const struct seq_operations before_schedstat_ops;

#endif
