// SPDX-License-Identifier: MIT
/*
 * load_sys.c - what the parsers of the system files share: words and
 * lines of text into fixed buffers.
 */
#include <string.h>

#include "load_int.h"

static int take(struct lex *lx, const char *stop, char *buf, size_t size, const char *what)
{
	const char *s = lx->p;
	size_t n;

	while (lx->p < lx->end && !strchr(stop, *lx->p))
		lx->p++;
	n = (size_t)(lx->p - s);
	if (!n) {
		lx->p = s;
		return lex_expected(lx, what);
	}
	if (n >= size) {
		lx->p = s;
		return lex_fail(lx, "%s longer than %zu bytes", what, size - 1);
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

int ld_word(struct lex *lx, char *buf, size_t size, const char *what)
{
	return take(lx, " \t\n", buf, size, what);
}

int ld_rest_of_line(struct lex *lx, char *buf, size_t size, const char *what)
{
	return take(lx, "\n", buf, size, what);
}
