/* SPDX-License-Identifier: MIT */
/*
 * lex.h - the cursor every /proc parser reads its text with.
 *
 * A cursor knows the file it reads ("/proc/42/status") and where it is, so
 * any failure becomes "PATH:LINE: expected ..., got ...".  Numbers are parsed
 * by value: leading zeros and wider space padding are accepted, but every
 * separator, label and unit must be the kernel's.  All functions return 0 or
 * -EINVAL with the message written; none reads past the end of the text,
 * which need not be NUL-terminated.
 */
#ifndef UPROCFS_LOAD_LEX_H
#define UPROCFS_LOAD_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lex {
	const char *path;   /* shown in messages */
	const char *text;   /* start of the file, for line numbers */
	const char *p;      /* cursor */
	const char *end;    /* one past the last byte */
	const char *ctx;    /* label or field name the cursor is in, or NULL */
	int field;          /* > 0: ctx names field number @field */
	char *err;
	size_t errlen;
};

void lex_init(struct lex *lx, const char *path, const char *text, size_t len, char *err,
	      size_t errlen);

/** Name the label the next messages refer to ("after \"VmRSS:\""). */
static inline void lex_ctx(struct lex *lx, const char *label)
{
	lx->ctx = label;
	lx->field = 0;
}

/** Name a numbered field ("in field 14 (utime)"). */
static inline void lex_field(struct lex *lx, int n, const char *name)
{
	lx->ctx = name;
	lx->field = n;
}

/** The 1-based line of @pos. */
unsigned int lex_line_at(const struct lex *lx, const char *pos);

/** Write "PATH:LINE: message" for the cursor's line; returns -EINVAL. */
int lex_fail(struct lex *lx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** The same for the line holding @pos. */
int lex_fail_at(struct lex *lx, const char *pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/** The same for line @line (1-based). */
int lex_fail_line(struct lex *lx, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/** "expected WHAT[ after CTX], got TOKEN"; returns -EINVAL. */
int lex_expected(struct lex *lx, const char *what);

/** Escape the token at @pos (up to white space) for a message. */
void lex_token(const struct lex *lx, const char *pos, char *buf, size_t n);
/** Escape @len bytes of @s for a message (truncated to fit @n). */
void lex_escape(const char *s, size_t len, char *buf, size_t n);

static inline bool lex_eof(const struct lex *lx)
{
	return lx->p >= lx->end;
}

static inline bool lex_peek(const struct lex *lx, char c)
{
	return lx->p < lx->end && *lx->p == c;
}

/** Consume @lit if the text continues with it. */
bool lex_accept(struct lex *lx, const char *lit);
/** Consume @lit or fail. */
int lex_expect(struct lex *lx, const char *lit);
/** Consume one '\n' or fail with "expected end of line". */
int lex_eol(struct lex *lx);
/** Fail unless the whole text was consumed. */
int lex_expect_eof(struct lex *lx);
/** Skip spaces (padding); returns how many. */
size_t lex_skip_spaces(struct lex *lx);
/** The end of the current line (the '\n' or the end of the text). */
const char *lex_line_end(const struct lex *lx);

/**
 * A decimal number at the cursor, with no padding: a space there is
 * refused, so a field the kernel separates by one space cannot load from
 * two.  A leading zero (but "0") is refused everywhere: no decimal field of
 * the kernel's text is printed with one, and reading "007" as 7 would
 * re-render other bytes.
 */
int lex_u64(struct lex *lx, uint64_t *v);
/** lex_u64 with an upper bound. */
int lex_u64_max(struct lex *lx, uint64_t *v, uint64_t max);
/** An optionally negative decimal within [@min, @max]; "-0" refused like a leading zero. */
int lex_s64(struct lex *lx, int64_t *v, int64_t min, int64_t max);
/**
 * lex_u64_max after any run of spaces: for padding whose width the parser
 * cannot know (a label's "%-12s", a "%*d" sized by the machine).  Where the
 * kernel's width is fixed, lex_u64_width reads it exactly instead.
 */
int lex_u64_pad(struct lex *lx, uint64_t *v, uint64_t max);
/** lex_s64 after any run of spaces (as lex_u64_pad). */
int lex_s64_pad(struct lex *lx, int64_t *v, int64_t min, int64_t max);
/**
 * A decimal number as the kernel prints it, with nothing to choose: no
 * padding and no leading zero (but "0"), so its text is the only one that
 * value has.  A text that is not is refused rather than read by value.
 */
int lex_u64_exact(struct lex *lx, uint64_t *v);
/** lex_u64_exact of an optionally negative number ("-0" refused). */
int lex_s64_exact(struct lex *lx, int64_t *v);
/**
 * A decimal right-aligned with spaces to @width columns, as
 * seq_put_decimal_ull_width and "%*lu" print it: exactly the padding that
 * width leaves, no leading zero.
 */
int lex_u64_width(struct lex *lx, uint64_t *v, unsigned int width);
/** lex_u64_width with an upper bound. */
int lex_u64_width_max(struct lex *lx, uint64_t *v, unsigned int width, uint64_t max);
/**
 * After a number that must stand alone (fields separated by spaces): fail
 * with "expected a number" naming the whole token from @start unless the
 * text continues with a space, a newline or its end.
 */
int lex_token_end(struct lex *lx, const char *start);
/** Lowercase hex digits as "%x" prints them (at least one), no padding, no "0x", no leading zero. */
int lex_hex(struct lex *lx, uint64_t *v);
/** Hex as "%*x" prints it with @width: right-aligned by spaces in @width columns, or wider with none. */
int lex_hex_width(struct lex *lx, uint64_t *v, unsigned int width);
/** Hex digits as "%0*llx" prints them with @width: zero-padded to it, no leading zero beyond. */
int lex_hex_min(struct lex *lx, uint64_t *v, unsigned int width);
/** "%lu.%02lu": an integer part (padding allowed, no leading zero) and two decimals. */
int lex_centi(struct lex *lx, uint64_t *ipart, unsigned int *frac);
/** Octal digits (at least one). */
int lex_oct(struct lex *lx, uint64_t *v);

/*
 * Bitmaps as vsprintf's "%*pb": 32-bit chunks, most significant first,
 * comma separated; all chunks 8 hex digits except the first, whose width
 * tells the bitmap's length modulo 32.  The length is therefore known only
 * as a range: *@lo (also covering the highest set bit) to *@hi.  The bitmap
 * is allocated with *@hi bits.
 */
struct mach_bitmap;
int lex_bitmap(struct lex *lx, struct mach_bitmap *b, unsigned int maxbits, unsigned int *lo,
	       unsigned int *hi);
/** "%*pbl" ranges ("0-3,8"); the set must equal @b. */
int lex_bitmap_list(struct lex *lx, const struct mach_bitmap *b);

#endif
