// SPDX-License-Identifier: MIT
/*
 * lex.c - the cursor of the /proc parsers (lex.h): literals, numbers,
 * bitmaps, and "PATH:LINE: expected ..., got ..." messages.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "lex.h"
#include "uprocfs/machine.h"
#include "uprocfs/seq_num.h"

void lex_init(struct lex *lx, const char *path, const char *text, size_t len, char *err,
	      size_t errlen)
{
	lx->path = path;
	lx->text = text;
	lx->p = text;
	lx->end = text + len;
	lx->ctx = NULL;
	lx->field = 0;
	lx->err = err;
	lx->errlen = errlen;
}

unsigned int lex_line_at(const struct lex *lx, const char *pos)
{
	unsigned int line = 1;

	/* Counted on failure only, so the success path never pays for it. */
	if (pos > lx->end)
		pos = lx->end;
	for (const char *q = lx->text; q < pos; q++) {
		q = memchr(q, '\n', (size_t)(pos - q));
		if (!q)
			break;
		line++;
	}
	return line;
}

static int vfail_line(struct lex *lx, unsigned int line, const char *fmt, va_list ap)
{
	int n;

	if (!lx->err || !lx->errlen)
		return -EINVAL;
	n = snprintf(lx->err, lx->errlen, "%s:%u: ", lx->path, line);
	if (n >= 0 && (size_t)n < lx->errlen)
		vsnprintf(lx->err + n, lx->errlen - (size_t)n, fmt, ap);
	return -EINVAL;
}

int lex_fail(struct lex *lx, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail_line(lx, lex_line_at(lx, lx->p), fmt, ap);
	va_end(ap);
	return rc;
}

int lex_fail_at(struct lex *lx, const char *pos, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail_line(lx, lex_line_at(lx, pos), fmt, ap);
	va_end(ap);
	return rc;
}

int lex_fail_line(struct lex *lx, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail_line(lx, line, fmt, ap);
	va_end(ap);
	return rc;
}

void lex_escape(const char *s, size_t len, char *buf, size_t n)
{
	size_t o = 0;

	if (!n)
		return;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char tmp[8];
		size_t tl;

		if (c == '\n')
			tl = (size_t)snprintf(tmp, sizeof(tmp), "\\n");
		else if (c == '\t')
			tl = (size_t)snprintf(tmp, sizeof(tmp), "\\t");
		else if (c == '"' || c == '\\')
			tl = (size_t)snprintf(tmp, sizeof(tmp), "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			tl = (size_t)snprintf(tmp, sizeof(tmp), "\\x%02x", c);
		else
			tl = (size_t)snprintf(tmp, sizeof(tmp), "%c", c);
		if (o + tl + 1 > n)
			break;
		memcpy(buf + o, tmp, tl);
		o += tl;
	}
	buf[o] = '\0';
}

void lex_token(const struct lex *lx, const char *pos, char *buf, size_t n)
{
	const char *q = pos;
	char esc[96];

	if (pos >= lx->end) {
		snprintf(buf, n, "end of file");
		return;
	}
	if (*pos == '\n') {
		snprintf(buf, n, "end of line");
		return;
	}
	while (q < lx->end && q - pos < 24 && *q != '\n' && *q != ' ' && *q != '\t')
		q++;
	if (q == pos) /* white space: show a little of it */
		while (q < lx->end && q - pos < 8 && *q != '\n')
			q++;
	lex_escape(pos, (size_t)(q - pos), esc, sizeof(esc));
	snprintf(buf, n, "\"%s%s\"", esc, q < lx->end && *q != '\n' && q - pos >= 24 ? "..." : "");
}

/* " after \"VmRSS:\"" or " in field 14 (utime)" */
static void ctx_text(const struct lex *lx, char *buf, size_t n)
{
	if (lx->field > 0)
		snprintf(buf, n, " in field %d (%s)", lx->field, lx->ctx ? lx->ctx : "?");
	else if (lx->ctx) {
		char esc[80];

		lex_escape(lx->ctx, strlen(lx->ctx), esc, sizeof(esc));
		snprintf(buf, n, " after \"%s\"", esc);
	} else
		buf[0] = '\0';
}

int lex_expected(struct lex *lx, const char *what)
{
	char ctx[128], tok[128];

	ctx_text(lx, ctx, sizeof(ctx));
	lex_token(lx, lx->p, tok, sizeof(tok));
	return lex_fail(lx, "expected %s%s, got %s", what, ctx, tok);
}

bool lex_accept(struct lex *lx, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(lx->end - lx->p) < n || memcmp(lx->p, lit, n))
		return false;
	lx->p += n;
	return true;
}

int lex_expect(struct lex *lx, const char *lit)
{
	char what[96], esc[80];

	if (lex_accept(lx, lit))
		return 0;
	lex_escape(lit, strlen(lit), esc, sizeof(esc));
	snprintf(what, sizeof(what), "\"%s\"", esc);
	return lex_expected(lx, what);
}

int lex_eol(struct lex *lx)
{
	if (lex_peek(lx, '\n')) {
		lx->p++;
		return 0;
	}
	return lex_expected(lx, "end of line");
}

int lex_expect_eof(struct lex *lx)
{
	if (lex_eof(lx))
		return 0;
	lex_ctx(lx, NULL);
	return lex_expected(lx, "end of file");
}

size_t lex_skip_spaces(struct lex *lx)
{
	const char *s = lx->p;

	while (lx->p < lx->end && *lx->p == ' ')
		lx->p++;
	return (size_t)(lx->p - s);
}

const char *lex_line_end(const struct lex *lx)
{
	const char *q = memchr(lx->p, '\n', (size_t)(lx->end - lx->p));

	return q ? q : lx->end;
}

static int too_large(struct lex *lx, const char *start)
{
	char ctx[128], tok[128];

	ctx_text(lx, ctx, sizeof(ctx));
	lex_token(lx, start, tok, sizeof(tok));
	return lex_fail_at(lx, start, "number %s too large%s", tok, ctx);
}

/* Digits at the cursor (no padding skipped); @neg_ok lets the magnitude reach 2^63. */
static int digits(struct lex *lx, uint64_t *v)
{
	const char *start = lx->p;
	uint64_t x = 0;

	if (lx->p >= lx->end || *lx->p < '0' || *lx->p > '9')
		return lex_expected(lx, "a number");
	while (lx->p < lx->end && *lx->p >= '0' && *lx->p <= '9') {
		unsigned int d = (unsigned int)(*lx->p - '0');

		if (x > (UINT64_MAX - d) / 10)
			return too_large(lx, start);
		x = x * 10 + d;
		lx->p++;
	}
	*v = x;
	return 0;
}

/* The digits at the cursor, refusing a leading zero (the kernel never prints one). */
static int canonical_digits(struct lex *lx, uint64_t *v)
{
	const char *start = lx->p;
	int rc = digits(lx, v);

	if (!rc && *start == '0' && lx->p - start > 1) {
		char ctx[128];

		ctx_text(lx, ctx, sizeof(ctx));
		return lex_fail_at(lx, start, "leading zero in a number the kernel prints without one%s", ctx);
	}
	return rc;
}

int lex_u64(struct lex *lx, uint64_t *v)
{
	return canonical_digits(lx, v);
}

int lex_u64_max(struct lex *lx, uint64_t *v, uint64_t max)
{
	const char *start;
	int rc;

	start = lx->p;
	rc = canonical_digits(lx, v);
	if (rc)
		return rc;
	if (*v > max) {
		char ctx[128], tok[128];

		ctx_text(lx, ctx, sizeof(ctx));
		lex_token(lx, start, tok, sizeof(tok));
		return lex_fail_at(lx, start, "number %s out of range 0..%llu%s", tok,
				   (unsigned long long)max, ctx);
	}
	return 0;
}

int lex_u64_pad(struct lex *lx, uint64_t *v, uint64_t max)
{
	lex_skip_spaces(lx);
	return lex_u64_max(lx, v, max);
}

int lex_s64_pad(struct lex *lx, int64_t *v, int64_t min, int64_t max)
{
	lex_skip_spaces(lx);
	return lex_s64(lx, v, min, max);
}

int lex_s64(struct lex *lx, int64_t *v, int64_t min, int64_t max)
{
	const char *start;
	bool neg = false;
	uint64_t mag;
	int64_t x;
	int rc;

	start = lx->p;
	if (lex_peek(lx, '-')) {
		neg = true;
		lx->p++;
	}
	rc = canonical_digits(lx, &mag);
	if (rc)
		return rc;
	if (neg && !mag)
		return lex_fail_at(lx, start, "\"-0\" is not a number the kernel prints");
	if (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX)
		return too_large(lx, start);
	x = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
	if (x < min || x > max) {
		char ctx[128], tok[128];

		ctx_text(lx, ctx, sizeof(ctx));
		lex_token(lx, start, tok, sizeof(tok));
		return lex_fail_at(lx, start, "number %s out of range %lld..%lld%s", tok,
				   (long long)min, (long long)max, ctx);
	}
	*v = x;
	return 0;
}

int lex_u64_exact(struct lex *lx, uint64_t *v)
{
	if (lex_peek(lx, ' '))
		return lex_expected(lx, "a number with no padding");
	return canonical_digits(lx, v);
}

int lex_s64_exact(struct lex *lx, int64_t *v)
{
	const char *start = lx->p;
	bool neg = lex_accept(lx, "-");
	uint64_t mag;
	int rc;

	if (lex_peek(lx, ' '))
		return lex_expected(lx, "a number with no padding");
	if ((rc = canonical_digits(lx, &mag)))
		return rc;
	if (neg && !mag)
		return lex_fail_at(lx, start, "\"-0\" is not a number the kernel prints");
	if (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX)
		return too_large(lx, start);
	*v = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
	return 0;
}

/*
 * A number at @start (@pad blanks, then digits up to the cursor) as "%*"
 * prints it with @width: right-aligned in @width columns, or wider with no
 * blank.  @kind names the digits in the message ("" or " hex").
 */
static int right_aligned(struct lex *lx, const char *start, size_t pad, unsigned int width, const char *kind)
{
	size_t ndig = (size_t)(lx->p - start) - pad;
	char ctx[128];

	if (pad + ndig == (ndig < width ? width : ndig))
		return 0;
	ctx_text(lx, ctx, sizeof(ctx));
	return lex_fail_at(lx, start, "%zu spaces before a %zu-digit%s number where the kernel pads to %u columns%s",
			   pad, ndig, kind, width, ctx);
}

int lex_u64_width(struct lex *lx, uint64_t *v, unsigned int width)
{
	const char *start = lx->p;
	size_t pad = lex_skip_spaces(lx);
	int rc = canonical_digits(lx, v);

	return rc ? rc : right_aligned(lx, start, pad, width, "");
}

int lex_u64_width_max(struct lex *lx, uint64_t *v, unsigned int width, uint64_t max)
{
	const char *start = lx->p;
	int rc = lex_u64_width(lx, v, width);

	if (!rc && *v > max) {
		char ctx[128];

		ctx_text(lx, ctx, sizeof(ctx));
		return lex_fail_at(lx, start, "number %llu out of range 0..%llu%s", (unsigned long long)*v,
				   (unsigned long long)max, ctx);
	}
	return rc;
}

int lex_token_end(struct lex *lx, const char *start)
{
	if (lex_eof(lx) || *lx->p == ' ' || *lx->p == '\n')
		return 0;
	lx->p = start;
	lex_skip_spaces(lx);
	return lex_expected(lx, "a number");
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Hex digits, leading zeros and all: the readers below say which forms are the kernel's. */
static int hex_digits(struct lex *lx, uint64_t *v)
{
	const char *start = lx->p;
	uint64_t x = 0;

	if (lx->p >= lx->end || hexval(*lx->p) < 0)
		return lex_expected(lx, "a hex number");
	for (; lx->p < lx->end && hexval(*lx->p) >= 0; lx->p++) {
		if (x >> 60)
			return too_large(lx, start);
		x = x << 4 | (uint64_t)hexval(*lx->p);
	}
	*v = x;
	return 0;
}

int lex_hex(struct lex *lx, uint64_t *v)
{
	const char *start = lx->p;
	int rc = hex_digits(lx, v);

	if (!rc && *start == '0' && lx->p - start > 1)
		return lex_fail_at(lx, start, "a hex number with a leading zero, which \"%%x\" never prints");
	return rc;
}

int lex_hex_width(struct lex *lx, uint64_t *v, unsigned int width)
{
	const char *start = lx->p;
	size_t pad = lex_skip_spaces(lx);
	int rc = lex_hex(lx, v);

	return rc ? rc : right_aligned(lx, start, pad, width, " hex");
}

int lex_centi(struct lex *lx, uint64_t *ipart, unsigned int *frac)
{
	int rc = lex_u64(lx, ipart);

	if (rc)
		return rc;
	rc = lex_expect(lx, ".");
	if (rc)
		return rc;
	/* "%02lu" of a value below 100: exactly two digits, a fraction not a count */
	if (lx->end - lx->p < 2 || lx->p[0] < '0' || lx->p[0] > '9' || lx->p[1] < '0' ||
	    lx->p[1] > '9' || (lx->end - lx->p > 2 && lx->p[2] >= '0' && lx->p[2] <= '9'))
		return lex_expected(lx, "two decimals");
	*frac = (unsigned int)(lx->p[0] - '0') * 10 + (unsigned int)(lx->p[1] - '0');
	lx->p += 2;
	return 0;
}

int lex_hex_min(struct lex *lx, uint64_t *v, unsigned int width)
{
	const char *start = lx->p;
	int rc = hex_digits(lx, v);
	size_t got = (size_t)(lx->p - start), want = rc ? 0 : seq_hex_len(*v);

	if (want < width)
		want = width;
	if (!rc && got != want) {
		char ctx[128];

		ctx_text(lx, ctx, sizeof(ctx));
		return lex_fail_at(lx, start, "%zu hex digits where \"%%0%ux\" prints %zu%s", got, width, want, ctx);
	}
	return rc;
}

int lex_oct(struct lex *lx, uint64_t *v)
{
	const char *start = lx->p;
	uint64_t x = 0;

	if (lx->p >= lx->end || *lx->p < '0' || *lx->p > '7')
		return lex_expected(lx, "an octal number");
	for (; lx->p < lx->end && *lx->p >= '0' && *lx->p <= '7'; lx->p++) {
		if (x >> 61)
			return too_large(lx, start);
		x = x << 3 | (uint64_t)(*lx->p - '0');
	}
	*v = x;
	return 0;
}

int lex_bitmap(struct lex *lx, struct mach_bitmap *b, unsigned int maxbits, unsigned int *lo,
	       unsigned int *hi)
{
	unsigned int maxchunks = maxbits / 32 + 1, nchunks = 0, topw = 0;
	uint32_t *chunks = NULL, *slot;
	size_t cap = 0;
	int rc = 0;

	b->words = NULL;
	b->nbits = 0;
	for (;;) {
		const char *start = lx->p;
		uint32_t c = 0;
		unsigned int w = 0;

		while (lx->p < lx->end && hexval(*lx->p) >= 0 && w < 9) {
			c = c << 4 | (uint32_t)hexval(*lx->p);
			lx->p++;
			w++;
		}
		/* The first chunk is 1..8 digits wide, the others exactly 8. */
		if (!w || w > 8 || (nchunks && w != 8)) {
			lx->p = start;
			rc = lex_expected(lx, nchunks ? "8 hex digits" : "a hex bitmap");
			goto out;
		}
		if (nchunks == maxchunks) {
			rc = lex_fail(lx, "bitmap wider than %u bits", maxbits);
			goto out;
		}
		if (!nchunks)
			topw = w;
		slot = VEC_PUSH(chunks, nchunks, cap);
		if (!slot) {
			rc = -ENOMEM;
			goto out;
		}
		*slot = c;
		if (!lex_accept(lx, ","))
			break;
	}
	*hi = (nchunks - 1) * 32 + topw * 4;
	*lo = (nchunks - 1) * 32 + (topw - 1) * 4 + 1;
	if (*hi > maxbits) {
		rc = lex_fail(lx, "bitmap wider than %u bits", maxbits);
		goto out;
	}
	rc = mach_bitmap_alloc(b, *hi);
	if (rc)
		goto out;
	/* chunks[0] is the most significant */
	for (unsigned int i = 0; i < nchunks; i++) {
		unsigned int base = (nchunks - 1 - i) * 32;

		for (unsigned int bit = 0; bit < 32; bit++)
			if (chunks[i] >> bit & 1) {
				mach_bitmap_set(b, base + bit);
				if (base + bit + 1 > *lo)
					*lo = base + bit + 1;
			}
	}
out:
	free(chunks);
	return rc;
}

int lex_bitmap_list(struct lex *lx, const struct mach_bitmap *b)
{
	struct mach_bitmap seen;
	const char *start = lx->p;
	uint64_t prev_end = 0;
	bool first = true;
	int rc;

	rc = mach_bitmap_alloc(&seen, b->nbits);
	if (rc)
		return rc;
	while (!lex_peek(lx, '\n') && !lex_eof(lx)) {
		uint64_t a, z;

		if (!first && (rc = lex_expect(lx, ",")))
			goto out;
		rc = lex_u64(lx, &a);
		if (rc)
			goto out;
		z = a;
		if (lex_accept(lx, "-") && (rc = lex_u64(lx, &z)))
			goto out;
		if (z < a || (!first && a < prev_end)) {
			rc = lex_fail(lx, "bit list ranges out of order");
			goto out;
		}
		if (z >= b->nbits) {
			rc = lex_fail(lx, "bit %llu in the list is past the bitmap's %u bits",
				      (unsigned long long)z, b->nbits);
			goto out;
		}
		for (uint64_t i = a; i <= z; i++)
			mach_bitmap_set(&seen, (unsigned int)i);
		prev_end = z + 1;
		first = false;
	}
	for (unsigned int w = 0; w < (b->nbits + 63) / 64; w++)
		if (seen.words[w] != b->words[w]) {
			rc = lex_fail_at(lx, start,
					 "the list does not match the bitmap of the line before");
			goto out;
		}
out:
	mach_bitmap_free(&seen);
	return rc;
}
