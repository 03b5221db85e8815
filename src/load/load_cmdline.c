// SPDX-License-Identifier: MIT
/*
 * load_cmdline.c - /proc/<pid>/cmdline (fs/proc/base.c proc_pid_cmdline_read)
 * and /proc/<pid>/comm (comm_show), Linux 6.18.
 *
 * cmdline is the raw argument area of the mm, NULs included, kept byte for
 * byte (it is a string of the model, not text passed through a number).
 * comm is the task's name, unescaped, and a newline; the name itself may
 * contain a newline, so only the last byte is the terminator.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

void ld_bytes_free(struct ld_bytes *b)
{
	if (!b)
		return;
	free(b->path);
	free(b->buf);
	free(b);
}

int ld_parse_cmdline(struct lex *lx, struct ld_bytes *b)
{
	size_t len = (size_t)(lx->end - lx->p);

	b->buf = malloc(len ? len : 1);
	if (!b->buf)
		return -ENOMEM;
	memcpy(b->buf, lx->p, len);
	b->len = len;
	lx->p = lx->end;
	return 0;
}

int ld_parse_comm(struct lex *lx, struct ld_bytes *b)
{
	size_t len = (size_t)(lx->end - lx->p);

	lex_ctx(lx, NULL);
	if (!len || lx->end[-1] != '\n') {
		lx->p = lx->end;
		return lex_expected(lx, "a newline after the name");
	}
	len--;
	if (len >= MACH_COMM_MAX)
		return lex_fail(lx, "name longer than %d bytes", MACH_COMM_MAX - 1);
	if (memchr(lx->p, '\0', len))
		return lex_fail(lx, "NUL byte in the name");
	b->buf = malloc(len + 1);
	if (!b->buf)
		return -ENOMEM;
	memcpy(b->buf, lx->p, len);
	b->buf[len] = '\0';
	b->len = len;
	lx->p = lx->end;
	return 0;
}
