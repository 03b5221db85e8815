// SPDX-License-Identifier: MIT
/*
 * seq_printf.c - our own printf for seq files.
 *
 * The kernel's seq_printf runs lib/vsprintf.c; a userspace port usually runs
 * libc's vsnprintf, whose generic engine (locale, wide characters, floating
 * point, positional arguments) costs ~200 ns for one maps line.  This one knows
 * only the integer, character and string conversions /proc text uses, produces
 * the same bytes as glibc for them, and writes digits straight into the
 * destination whenever the whole field fits.
 */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "uprocfs/seq_file.h"

#define F_LEFT  0x01u
#define F_ZERO  0x02u
#define F_PLUS  0x04u
#define F_SPACE 0x08u
#define F_ALT   0x10u

enum len_mod { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_J, LEN_T };

struct fmt_out {
	char *p;      /* next byte to write */
	char *end;    /* one past the last byte that may hold text (NUL excluded) */
	size_t total; /* full length of the text, written or not */
};

/* Append @n bytes, keeping what fits. */
static void out_bytes(struct fmt_out *o, const char *s, size_t n)
{
	size_t room = (size_t)(o->end - o->p);

	if (n <= room) {
		memcpy(o->p, s, n);
		o->p += n;
	} else {
		memcpy(o->p, s, room);
		o->p = o->end;
	}
	o->total += n;
}

static void out_fill(struct fmt_out *o, char c, size_t n)
{
	size_t room = (size_t)(o->end - o->p);
	size_t k = n < room ? n : room;

	memset(o->p, c, k);
	o->p += k;
	o->total += n;
}

static unsigned int octal_len(uint64_t v)
{
	unsigned int bits = 64u - (unsigned int)__builtin_clzll(v | 1);
	return (bits + 2) / 3;
}

static void octal_fill(char *p, uint64_t v, unsigned int len)
{
	while (len--) {
		p[len] = (char)('0' + (v & 7));
		v >>= 3;
	}
}

/* Write the @ndigits digits of @v in @base at @p. */
SEQ_INLINE void digits_fill(char *p, uint64_t v, unsigned int base, int upper, unsigned int ndigits)
{
	if (base == 10) {
		seq_dec_u64(p, v);
	} else if (base == 16) {
		seq_hex_fill(p, v, ndigits);
		if (upper)
			for (unsigned int i = 0; i < ndigits; i++)
				if (p[i] >= 'a')
					p[i] = (char)(p[i] - 'a' + 'A');
	} else {
		octal_fill(p, v, ndigits);
	}
}

/*
 * Short runs of one byte: a loop, since a libc call costs more than the bytes.
 * The empty asm keeps gcc from turning the loop back into a memset call.
 */
SEQ_INLINE char *fill_short(char *p, char c, size_t n)
{
	while (n--) {
		*p++ = c;
		__asm__("" : "+r"(p));
	}
	return p;
}

/*
 * One integer conversion: [pad][sign][0x][zeros][digits][pad].
 * @is_signed: %d/%i, the only ones that take '+' and ' '.
 * @prec < 0 means no precision given.  Inlined per base so each call site
 * keeps only its own converter.
 */
SEQ_INLINE void out_integer(struct fmt_out *o, uint64_t mag, int is_signed, int negative,
			    unsigned int base, int upper, unsigned int flags, int width, int prec)
{
	char prefix[2];
	unsigned int nprefix = 0, ndigits, nzeros = 0;
	size_t field, body;

	if (base == 10)
		ndigits = seq_dec_len(mag);
	else if (base == 16)
		ndigits = seq_hex_len(mag);
	else
		ndigits = octal_len(mag);
	if (__builtin_expect(prec >= 0, 0)) {
		if (prec == 0 && mag == 0)
			ndigits = 0; /* "%.0d" of 0 prints nothing */
		if ((unsigned int)prec > ndigits)
			nzeros = (unsigned int)prec - ndigits;
	}
	if (is_signed) {
		if (negative)
			prefix[nprefix++] = '-';
		else if (flags & F_PLUS)
			prefix[nprefix++] = '+';
		else if (flags & F_SPACE)
			prefix[nprefix++] = ' ';
	} else if (flags & F_ALT) {
		if (base == 16 && mag) {
			prefix[nprefix++] = '0';
			prefix[nprefix++] = upper ? 'X' : 'x';
		}
		/* "%#o" makes the first digit a 0. */
		if (base == 8 && nzeros == 0 && (ndigits == 0 || mag != 0))
			nzeros = 1;
	}
	body = nprefix + nzeros + ndigits;
	if ((size_t)width > body && (flags & (F_ZERO | F_LEFT)) == F_ZERO && prec < 0) {
		nzeros += (unsigned int)((size_t)width - body);
		body = (size_t)width;
	}
	field = (size_t)width > body ? (size_t)width : body;

	if (__builtin_expect((size_t)(o->end - o->p) >= field, 1)) {
		/* The common case: the whole field fits, write it in place. */
		char *p = o->p;
		size_t pad = field - body;

		if (!(flags & F_LEFT))
			p = fill_short(p, ' ', pad);
		if (nprefix) {
			p[0] = prefix[0];
			if (nprefix > 1)
				p[1] = prefix[1];
			p += nprefix;
		}
		p = fill_short(p, '0', nzeros);
		if (ndigits)
			digits_fill(p, mag, base, upper, ndigits);
		p += ndigits;
		if (flags & F_LEFT)
			p = fill_short(p, ' ', pad);
		o->p = p;
		o->total += field;
		return;
	}

	/* Near the end of the destination: build pieces, keep what fits. */
	char digits[24];
	if (!(flags & F_LEFT))
		out_fill(o, ' ', field - body);
	out_bytes(o, prefix, nprefix);
	out_fill(o, '0', nzeros);
	if (ndigits)
		digits_fill(digits, mag, base, upper, ndigits);
	out_bytes(o, digits, ndigits);
	if (flags & F_LEFT)
		out_fill(o, ' ', field - body);
}

static void out_padded(struct fmt_out *o, const char *s, size_t n, unsigned int flags, int width)
{
	size_t pad = (size_t)width > n ? (size_t)width - n : 0;

	/* glibc pads %c and %s with spaces even under the 0 flag. */
	if (!(flags & F_LEFT))
		out_fill(o, ' ', pad);
	out_bytes(o, s, n);
	if (flags & F_LEFT)
		out_fill(o, ' ', pad);
}

/* Conversion characters, mapped to a dense code so the switch is one jump. */
enum conv { CONV_UNKNOWN, CONV_X, CONV_U, CONV_D, CONV_C, CONV_S, CONV_XU, CONV_O, CONV_PCT };
static const unsigned char conv_of[256] = {
	['x'] = CONV_X, ['u'] = CONV_U, ['d'] = CONV_D, ['i'] = CONV_D, ['c'] = CONV_C,
	['s'] = CONV_S, ['X'] = CONV_XU, ['o'] = CONV_O, ['%'] = CONV_PCT,
};

/* Flag characters, looked up once per conversion. */
static const unsigned char flag_of[256] = {
	['-'] = F_LEFT, ['0'] = F_ZERO, ['+'] = F_PLUS, [' '] = F_SPACE, ['#'] = F_ALT,
};

static int parse_decimal(const char **fp)
{
	const char *f = *fp;
	int v = 0;

	while (*f >= '0' && *f <= '9') {
		if (v < INT_MAX / 10)
			v = v * 10 + (*f - '0');
		else
			v = INT_MAX;
		f++;
	}
	*fp = f;
	return v;
}

/* Fetch a signed argument of the given length modifier, widened. */
#define ARG_SIGNED(ap, len)                                                        \
	((len) == LEN_NONE ? (int64_t)va_arg(ap, int)                              \
	 : (len) == LEN_HH ? (int64_t)(signed char)va_arg(ap, int)                 \
	 : (len) == LEN_H  ? (int64_t)(short)va_arg(ap, int)                       \
	 : (len) == LEN_Z  ? (int64_t)va_arg(ap, ssize_t)                          \
	 : (len) == LEN_J  ? (int64_t)va_arg(ap, intmax_t)                         \
	 : (len) == LEN_T  ? (int64_t)va_arg(ap, ptrdiff_t)                        \
	 : (len) == LEN_LL ? (int64_t)va_arg(ap, long long)                        \
			   : (int64_t)va_arg(ap, long))

#define ARG_UNSIGNED(ap, len)                                                      \
	((len) == LEN_NONE ? (uint64_t)va_arg(ap, unsigned int)                    \
	 : (len) == LEN_HH ? (uint64_t)(unsigned char)va_arg(ap, unsigned int)     \
	 : (len) == LEN_H  ? (uint64_t)(unsigned short)va_arg(ap, unsigned int)    \
	 : (len) == LEN_Z  ? (uint64_t)va_arg(ap, size_t)                          \
	 : (len) == LEN_J  ? (uint64_t)va_arg(ap, uintmax_t)                       \
	 : (len) == LEN_T  ? (uint64_t)va_arg(ap, ptrdiff_t)                       \
	 : (len) == LEN_LL ? (uint64_t)va_arg(ap, unsigned long long)              \
			   : (uint64_t)va_arg(ap, unsigned long))

static enum len_mod parse_length(const char **fp)
{
	const char *f = *fp;
	enum len_mod len = LEN_NONE;

	switch (*f) {
	case 'h':
		len = f[1] == 'h' ? (f++, LEN_HH) : LEN_H;
		f++;
		break;
	case 'l':
		len = f[1] == 'l' ? (f++, LEN_LL) : LEN_L;
		f++;
		break;
	case 'z': len = LEN_Z; f++; break;
	case 'j': len = LEN_J; f++; break;
	case 't': len = LEN_T; f++; break;
	default: break;
	}
	*fp = f;
	return len;
}

int seq_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap_in)
{
	struct fmt_out o = { .p = buf, .end = cap ? buf + cap - 1 : buf, .total = 0 };
	const char *f = fmt;
	va_list ap;

	va_copy(ap, ap_in);
	for (;;) {
		const char *spec;
		unsigned int flags = 0, fl;
		int width = 0, prec = -1;
		enum len_mod len = LEN_NONE;
		char c = *f;

		/* Literal text, byte by byte: runs between conversions are short. */
		if (c != '%') {
			if (!c)
				break;
			if (o.p < o.end)
				*o.p++ = c;
			o.total++;
			f++;
			continue;
		}
		spec = f++;
		while ((fl = flag_of[(unsigned char)*f]) != 0) {
			flags |= fl;
			f++;
		}
		if (*f >= '1' && *f <= '9') {
			width = parse_decimal(&f);
		} else if (*f == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				flags |= F_LEFT;
				width = width == INT_MIN ? INT_MAX : -width;
			}
			f++;
		}
		if (__builtin_expect(*f == '.', 0)) {
			f++;
			if (*f == '*') {
				prec = va_arg(ap, int);
				if (prec < 0)
					prec = -1;
				f++;
			} else {
				prec = parse_decimal(&f);
			}
		}
		if (*f > 'f') /* h j l t z sort after c d X %: skip the call for those */
			len = parse_length(&f);

		switch ((enum conv)conv_of[(unsigned char)*f]) {
		case CONV_X: {
			uint64_t v = ARG_UNSIGNED(ap, len);
			out_integer(&o, v, 0, 0, 16, 0, flags, width, prec);
			break;
		}
		case CONV_U: {
			uint64_t v = ARG_UNSIGNED(ap, len);
			out_integer(&o, v, 0, 0, 10, 0, flags, width, prec);
			break;
		}
		case CONV_D: {
			int64_t v = ARG_SIGNED(ap, len);
			uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
			out_integer(&o, mag, 1, v < 0, 10, 0, flags, width, prec);
			break;
		}
		case CONV_C: {
			char ch = (char)(unsigned char)va_arg(ap, int);
			if (width <= 1) {
				if (o.p < o.end)
					*o.p++ = ch;
				o.total++;
			} else {
				out_padded(&o, &ch, 1, flags, width);
			}
			break;
		}
		case CONV_S: {
			const char *str = va_arg(ap, const char *);
			size_t n;

			if (!str)
				str = prec < 0 || prec >= 6 ? "(null)" : "";
			n = prec < 0 ? strlen(str) : strnlen(str, (size_t)prec);
			out_padded(&o, str, n, flags, width);
			break;
		}
		case CONV_XU: {
			uint64_t v = ARG_UNSIGNED(ap, len);
			out_integer(&o, v, 0, 0, 16, 1, flags, width, prec);
			break;
		}
		case CONV_O: {
			uint64_t v = ARG_UNSIGNED(ap, len);
			out_integer(&o, v, 0, 0, 8, 0, flags, width, prec);
			break;
		}
		case CONV_PCT:
			out_bytes(&o, "%", 1);
			break;
		case CONV_UNKNOWN:
		default:
			/* Not a conversion we know: copy the specification literally. */
			if (!*f) {
				out_bytes(&o, spec, (size_t)(f - spec));
				goto finish;
			}
			out_bytes(&o, spec, (size_t)(f + 1 - spec));
			break;
		}
		f++;
	}
finish:
	va_end(ap);
	if (cap)
		*o.p = '\0';
	return o.total > INT_MAX ? -1 : (int)o.total;
}

int seq_snprintf(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = seq_vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	return n;
}

void seq_vprintf(struct seq_file *m, const char *fmt, va_list ap)
{
	if (m->count < m->size) {
		int len = seq_vsnprintf(m->buf + m->count, m->size - m->count, fmt, ap);

		if (len >= 0 && m->count + (size_t)len < m->size) {
			m->count += (size_t)len;
			return;
		}
	}
	seq_set_overflow(m);
}

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	seq_vprintf(m, fmt, ap);
	va_end(ap);
}
