// SPDX-License-Identifier: MIT
/* pid_maps.c - placeholder while the renderer is written. */
#include "uprocfs/procfs.h"

static void *s(struct seq_file *m, loff_t *p) { (void)m; (void)p; return NULL; }
static void *n(struct seq_file *m, void *v, loff_t *p) { (void)m; (void)v; ++*p; return NULL; }
static void st(struct seq_file *m, void *v) { (void)m; (void)v; }
static int sh(struct seq_file *m, void *v) { (void)m; (void)v; return 0; }
const struct seq_operations pfs_pid_maps_ops = { s, st, n, sh };
