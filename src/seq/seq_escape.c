// SPDX-License-Identifier: MIT
/*
 * seq_escape.c - escaping into a seq_file.
 *
 * Mirrors lib/string_helpers.c string_escape_mem and fs/seq_file.c
 * seq_escape_mem (Linux 6.18): one mechanism, a set of bytes to escape and a
 * set of escape classes.  /proc/<pid>/status Name: uses space|special over
 * "\n\\"; /proc/<pid>/maps paths use octal over "\n".
 */
#include <stdbool.h>
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
 * @in_set: the byte is one the caller asked to escape.  A byte no class
 * takes is copied as it is.
 */
static size_t escape_one(char *p, unsigned char c, unsigned int flags, int in_set)
{
	int letter;

	if (!in_set) {
		*p = (char)c;
		return 1;
	}
	if ((flags & SEQ_ESCAPE_SPACE) && (letter = escape_space_char(c))) {
		p[0] = '\\';
		p[1] = (char)letter;
		return 2;
	}
	if ((flags & SEQ_ESCAPE_SPECIAL) && (letter = escape_special_char(c))) {
		p[0] = '\\';
		p[1] = (char)letter;
		return 2;
	}
	if ((flags & SEQ_ESCAPE_NULL) && c == 0) {
		p[0] = '\\';
		p[1] = '0';
		return 2;
	}
	if (flags & SEQ_ESCAPE_OCTAL) {
		p[0] = '\\';
		p[1] = (char)('0' + ((c >> 6) & 7));
		p[2] = (char)('0' + ((c >> 3) & 7));
		p[3] = (char)('0' + (c & 7));
		return 4;
	}
	if (flags & SEQ_ESCAPE_HEX) {
		p[0] = '\\';
		p[1] = 'x';
		memcpy(p + 2, seq_hex_pairs + 2 * c, 2);
		return 4;
	}
	*p = (char)c;
	return 1;
}

/*
 * The bytes to escape as a 256-bit set.  The kernel tests membership with
 * strchr, which also matches the string's own terminator: a NUL byte always
 * counts as "in the set".  An empty set means "every byte".
 */
struct escape_set {
	uint64_t bits[4];
};

static void escape_set_init(struct escape_set *set, const char *esc)
{
	if (!esc || !*esc) {
		memset(set->bits, 0xff, sizeof(set->bits));
		return;
	}
	memset(set->bits, 0, sizeof(set->bits));
	set->bits[0] = 1; /* NUL */
	for (; *esc; esc++)
		set->bits[(unsigned char)*esc >> 6] |= UINT64_C(1) << ((unsigned char)*esc & 63);
}

static inline int escape_set_has(const struct escape_set *set, unsigned char c)
{
	return (set->bits[c >> 6] >> (c & 63)) & 1;
}

/*
 * The next byte at or after @p that must be escaped, or @end.  A set of one
 * character (maps escapes only "\n") is two memchr scans, NUL being always
 * in the set; others test each byte against the bit set.
 */
static const char *next_special(const char *p, const char *end, const struct escape_set *set,
				const char *esc, const char **nul)
{
	if (esc && esc[0] && !esc[1]) {
		const char *q;

		if (*nul < p) { /* the next NUL, found once per stretch */
			*nul = memchr(p, '\0', (size_t)(end - p));
			if (!*nul)
				*nul = end;
		}
		q = memchr(p, esc[0], (size_t)(*nul - p));
		return q ? q : *nul;
	}
	while (p < end && !escape_set_has(set, (unsigned char)*p))
		p++;
	return p;
}

/* @nul_free: the caller knows there is no NUL in the bytes (a C string). */
static void escape_mem(struct seq_file *m, const char *src, size_t len, unsigned int flags,
		       const char *esc, bool nul_free)
{
	const char *p = src, *end = src + len, *nul = nul_free ? end : src - 1;
	struct escape_set set;
	char tmp[ESCAPE_MAX];
	size_t n;

	if (m->count >= m->size) {
		seq_set_overflow(m);
		return;
	}
	if (!esc || !esc[0] || esc[1])
		escape_set_init(&set, esc);
	while (p < end) {
		/* a run of bytes that stay as they are: one copy */
		const char *q = next_special(p, end, &set, esc, &nul);

		if (q > p) {
			if (m->count + (size_t)(q - p) >= m->size) {
				seq_set_overflow(m);
				return;
			}
			memcpy(m->buf + m->count, p, (size_t)(q - p));
			m->count += (size_t)(q - p);
		}
		if (q == end)
			break;
		n = escape_one(tmp, (unsigned char)*q, flags, 1);
		if (m->count + n >= m->size) {
			seq_set_overflow(m);
			return;
		}
		memcpy(m->buf + m->count, tmp, n);
		m->count += n;
		p = q + 1;
	}
}

void seq_escape_mem(struct seq_file *m, const char *src, size_t len,
		    unsigned int flags, const char *esc)
{
	escape_mem(m, src, len, flags, esc, false);
}

void seq_escape_str(struct seq_file *m, const char *s, unsigned int flags, const char *esc)
{
	escape_mem(m, s, strlen(s), flags, esc, true);
}

void seq_escape(struct seq_file *m, const char *s, const char *esc)
{
	seq_escape_str(m, s, SEQ_ESCAPE_OCTAL, esc);
}
