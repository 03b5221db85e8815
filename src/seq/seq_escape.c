// SPDX-License-Identifier: MIT
/*
 * seq_escape.c - escaping into a seq_file.
 *
 * Mirrors lib/string_helpers.c string_escape_mem and fs/seq_file.c
 * seq_escape_mem (Linux 6.18): one mechanism, a set of bytes to escape and a
 * set of escape classes.  /proc/<pid>/status Name: uses space|special over
 * "\n\\"; /proc/<pid>/maps paths use octal over "\n".
 */
#include <string.h>

#include "uprocfs/seq_file.h"

/* Longest escape of one byte: "\ooo" or "\xhh". */
#define ESCAPE_MAX 4

static int escape_space_char(unsigned char c)
{
	switch (c) {
	case '\f': return 'f';
	case '\n': return 'n';
	case '\r': return 'r';
	case '\t': return 't';
	case '\v': return 'v';
	default: return 0;
	}
}

static int escape_special_char(unsigned char c)
{
	switch (c) {
	case '\\': return '\\';
	case '\a': return 'a';
	case 0x1b: return 'e';
	case '"': return '"';
	default: return 0;
	}
}

/*
 * Escape one byte into @p (room for ESCAPE_MAX bytes); return the bytes used.
 * @in_set: the byte is one the caller asked to escape.
 */
static size_t escape_one(char *p, unsigned char c, unsigned int flags, int in_set)
{
	int letter;

	if (!in_set) {
		*p = (char)c;
		return 1;
	}
	if ((flags & ESCAPE_SPACE) && (letter = escape_space_char(c))) {
		p[0] = '\\';
		p[1] = (char)letter;
		return 2;
	}
	if ((flags & ESCAPE_SPECIAL) && (letter = escape_special_char(c))) {
		p[0] = '\\';
		p[1] = (char)letter;
		return 2;
	}
	if ((flags & ESCAPE_NULL) && c == 0) {
		p[0] = '\\';
		p[1] = '0';
		return 2;
	}
	if (flags & ESCAPE_OCTAL) {
		p[0] = '\\';
		p[1] = (char)('0' + ((c >> 6) & 7));
		p[2] = (char)('0' + ((c >> 3) & 7));
		p[3] = (char)('0' + (c & 7));
		return 4;
	}
	if (flags & ESCAPE_HEX) {
		p[0] = '\\';
		p[1] = 'x';
		memcpy(p + 2, seq_hex_pairs + 2 * c, 2);
		return 4;
	}
	*p = (char)c;
	return 1;
}

/*
 * The kernel tests membership with strchr, which also matches the string's own
 * terminator: a NUL byte always counts as "in the set".  An empty set means
 * "every byte".
 */
static int in_escape_set(const char *esc, unsigned char c)
{
	if (!esc || !*esc || c == 0)
		return 1;
	return strchr(esc, c) != NULL;
}

void seq_escape_mem(struct seq_file *m, const char *src, size_t len,
		    unsigned int flags, const char *esc)
{
	char tmp[ESCAPE_MAX];
	size_t i, n;

	if (m->count >= m->size) {
		seq_set_overflow(m);
		return;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)src[i];

		/* Worst case fits: escape straight into the buffer. */
		if (m->count + ESCAPE_MAX < m->size) {
			m->count += escape_one(m->buf + m->count, c, flags, in_escape_set(esc, c));
			continue;
		}
		n = escape_one(tmp, c, flags, in_escape_set(esc, c));
		if (m->count + n >= m->size) {
			seq_set_overflow(m);
			return;
		}
		memcpy(m->buf + m->count, tmp, n);
		m->count += n;
	}
}

void seq_escape_str(struct seq_file *m, const char *s, unsigned int flags, const char *esc)
{
	seq_escape_mem(m, s, strlen(s), flags, esc);
}

void seq_escape(struct seq_file *m, const char *s, const char *esc)
{
	seq_escape_str(m, s, ESCAPE_OCTAL, esc);
}
