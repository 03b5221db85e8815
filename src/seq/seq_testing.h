/* SPDX-License-Identifier: MIT */
/*
 * seq_testing.h - driving renderers outside the read protocol, for tests
 * and benchmarks.
 *
 * Not installed: a program reads files through seq_open/seq_single_open and
 * seq_read, as the kernel's readers do.  A test or a benchmark calls show()
 * straight into a buffer of its choosing (to time one record, or to make a
 * record overflow at an exact byte) and renders a whole file in one call.
 * Include it as "seq/seq_testing.h" (src/ is on the path of the library,
 * the tests and the benchmarks).
 */
#ifndef UPROCFS_SEQ_TESTING_H
#define UPROCFS_SEQ_TESTING_H

#include <stddef.h>

#include "uprocfs/seq_file.h"

/** seq_file.flags: the buffer is the caller's (seq_init_buffer): never grow or free it. */
#define SEQ_F_FIXED_BUF 1u

/**
 * Point @m at a caller-owned buffer of @size bytes for direct show() calls.
 * The buffer is never grown or freed by the engine.
 */
void seq_init_buffer(struct seq_file *m, char *buf, size_t size);

/**
 * Render a single-show file completely into a fresh malloc'd buffer (*@out,
 * *@len), growing as the read protocol does.  Returns 0 or -errno.
 */
int seq_render_single(int (*show)(struct seq_file *, void *), void *data,
		      size_t first_size, char **out, size_t *len);

#endif /* UPROCFS_SEQ_TESTING_H */
