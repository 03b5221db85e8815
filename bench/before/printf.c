// SPDX-License-Identifier: MIT
/*
 * printf.c - the "before" renderers' seq_printf: libc vsnprintf into the seq
 * buffer, accepted only if it fits with the last byte unused, as the kernel's
 * seq_vprintf (fs/seq_file.c) does with its own vsnprintf.
 */
#include <stdarg.h>
#include <stdio.h>

#include "before.h"

void before_seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;
	int len;

	if (m->count < m->size) {
		va_start(ap, fmt);
		len = vsnprintf(m->buf + m->count, m->size - m->count, fmt, ap);
		va_end(ap);
		if (len >= 0 && m->count + (size_t)len < m->size) {
			m->count += (size_t)len;
			return;
		}
	}
	seq_set_overflow(m);
}
