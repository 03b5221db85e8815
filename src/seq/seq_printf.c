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

/* Order matters: everything from LEN_L on is a 64-bit argument (LP64). */
enum len_mod { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_J, LEN_T };

struct fmt_out {
	char *p;      /* next byte to write */
	char *end;    /* one past the last byte that may hold text (NUL excluded) */
	size_t total; /* full length of the text, written or not */
};

/* Append @n bytes, keeping what fits. */
SEQ_INLINE void out_bytes(struct fmt_out *o, const char *s, size_t n)
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

SEQ_INLINE void out_fill(struct fmt_out *o, char c, size_t n)
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

static __attribute__((noinline)) void out_padded(struct fmt_out *o, const char *s, size_t n, unsigned int flags, int width)
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

/*
 * Fetch an argument of the given length modifier, widened to 64 bits.  On LP64
 * every modifier from l on names a 64-bit type, so one va_arg serves them all.
 */
_Static_assert(sizeof(long) == 8 && sizeof(size_t) == 8 && sizeof(intmax_t) == 8 &&
		       sizeof(ptrdiff_t) == 8,
	       "seq_printf's argument fetch assumes LP64");

#define ARG_SIGNED(ap, len)                                                        \
	((len) >= LEN_L ? (int64_t)va_arg(ap, long long)                           \
	 : (len) == LEN_NONE ? (int64_t)va_arg(ap, int)                            \
	 : (len) == LEN_HH ? (int64_t)(signed char)va_arg(ap, int)                 \
			   : (int64_t)(short)va_arg(ap, int))

#define ARG_UNSIGNED(ap, len)                                                      \
	((len) >= LEN_L ? (uint64_t)va_arg(ap, unsigned long long)                 \
	 : (len) == LEN_NONE ? (uint64_t)va_arg(ap, unsigned int)                  \
	 : (len) == LEN_HH ? (uint64_t)(unsigned char)va_arg(ap, unsigned int)     \
			   : (uint64_t)(unsigned short)va_arg(ap, unsigned int))

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

/*
 * A format is parsed into ops: literal text followed by one conversion.  The
 * parse of a format is remembered per thread, keyed by its address and checked
 * against its text, so a renderer calling seq_printf with the same literal
 * again pays only for its arguments.
 */
struct fmt_op {
	uint32_t lit_off;  /* literal text before the conversion, as offsets into fmt */
	uint16_t lit_len;
	uint16_t spec_len; /* bytes of the specification itself ("%08lx") */
	uint8_t conv;      /* enum conv, or CONV_END: only the literal */
	uint8_t len_mod;
	uint8_t flags;
	uint8_t star;      /* STAR_WIDTH, STAR_PREC: taken from the arguments */
	int32_t width;
	int32_t prec;      /* < 0: none */
};

#define CONV_END 0xff
#define STAR_WIDTH 1u
#define STAR_PREC 2u

/* Parse the op starting at @f; returns where the next op starts. */
static const char *parse_op(const char *fmt, const char *f, struct fmt_op *op)
{
	const char *lit = f, *spec;
	unsigned int fl;

	while (*f && *f != '%')
		f++;
	op->lit_off = (uint32_t)(lit - fmt);
	op->lit_len = (uint16_t)(f - lit);
	op->flags = 0;
	op->star = 0;
	op->width = 0;
	op->prec = -1;
	op->len_mod = LEN_NONE;
	op->spec_len = 0;
	if (!*f) {
		op->conv = CONV_END;
		return f;
	}
	spec = f++;
	while ((fl = flag_of[(unsigned char)*f]) != 0) {
		op->flags |= (uint8_t)fl;
		f++;
	}
	if (*f >= '1' && *f <= '9') {
		op->width = parse_decimal(&f);
	} else if (*f == '*') {
		op->star |= STAR_WIDTH;
		f++;
	}
	if (*f == '.') {
		f++;
		if (*f == '*') {
			op->star |= STAR_PREC;
			f++;
		} else {
			op->prec = parse_decimal(&f);
		}
	}
	op->len_mod = (uint8_t)parse_length(&f);
	op->conv = conv_of[(unsigned char)*f];
	if (*f)
		f++; /* a specification cut short by the end of the string stops there */
	op->spec_len = (uint16_t)(f - spec);
	return f;
}

/* Run one op: its literal, then its conversion with the next arguments. */
SEQ_INLINE void run_op(struct fmt_out *o, const char *fmt, const struct fmt_op *op, va_list *app)
{
	const char *lit = fmt + op->lit_off;
	unsigned int flags = op->flags;
	int width = op->width, prec = op->prec;
	enum len_mod len = (enum len_mod)op->len_mod;

	if (op->lit_len == 1) {
		if (o->p < o->end)
			*o->p++ = *lit;
		o->total++;
	} else if (op->lit_len) {
		out_bytes(o, lit, op->lit_len);
	}
	if (op->conv == CONV_END)
		return;
	if (op->star & STAR_WIDTH) {
		width = va_arg(*app, int);
		if (width < 0) {
			flags |= F_LEFT;
			width = width == INT_MIN ? INT_MAX : -width;
		}
	}
	if (op->star & STAR_PREC) {
		prec = va_arg(*app, int);
		if (prec < 0)
			prec = -1;
	}
	/*
	 * One case per base on purpose: out_integer is inlined, and a constant
	 * base lets each copy divide by a constant instead of a variable.
	 */
	switch ((enum conv)op->conv) {
	case CONV_X: {
		uint64_t v = ARG_UNSIGNED(*app, len);
		out_integer(o, v, 0, 0, 16, 0, flags, width, prec);
		break;
	}
	case CONV_U: {
		uint64_t v = ARG_UNSIGNED(*app, len);
		out_integer(o, v, 0, 0, 10, 0, flags, width, prec);
		break;
	}
	case CONV_D: {
		int64_t v = ARG_SIGNED(*app, len);
		uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
		out_integer(o, mag, 1, v < 0, 10, 0, flags, width, prec);
		break;
	}
	case CONV_C: {
		char ch = (char)(unsigned char)va_arg(*app, int);
		if (width <= 1) {
			if (o->p < o->end)
				*o->p++ = ch;
			o->total++;
		} else {
			out_padded(o, &ch, 1, flags, width);
		}
		break;
	}
	case CONV_S: {
		const char *str = va_arg(*app, const char *);
		size_t n;

		if (!str)
			str = prec < 0 || prec >= 6 ? "(null)" : "";
		n = prec < 0 ? strlen(str) : strnlen(str, (size_t)prec);
		out_padded(o, str, n, flags, width);
		break;
	}
	case CONV_XU: {
		uint64_t v = ARG_UNSIGNED(*app, len);
		out_integer(o, v, 0, 0, 16, 1, flags, width, prec);
		break;
	}
	case CONV_O: {
		uint64_t v = ARG_UNSIGNED(*app, len);
		out_integer(o, v, 0, 0, 8, 0, flags, width, prec);
		break;
	}
	case CONV_PCT:
		out_bytes(o, "%", 1);
		break;
	case CONV_UNKNOWN:
	default:
		/* Not a conversion we know: copy the specification literally. */
		out_bytes(o, lit + op->lit_len, op->spec_len);
		break;
	}
}

static __attribute__((noinline)) void run_op_uncached(struct fmt_out *o, const char *fmt,
						       const struct fmt_op *op, va_list *app)
{
	run_op(o, fmt, op, app);
}

#define FMT_CACHE_SLOTS 32
#define FMT_CACHE_TEXT 96
#define FMT_CACHE_OPS 16

struct fmt_prog {
	const char *key;
	uint8_t nops;
	struct fmt_op ops[FMT_CACHE_OPS];
	char text[FMT_CACHE_TEXT];
};

static __thread struct fmt_prog fmt_cache[FMT_CACHE_SLOTS];

/* The cached parse of @fmt, parsing it into its slot first if needed; NULL if
 * the format is too long or has too many conversions to cache. */
static const struct fmt_prog *fmt_lookup(const char *fmt)
{
	struct fmt_prog *prog = &fmt_cache[((uintptr_t)fmt >> 3) % FMT_CACHE_SLOTS];
	const char *f = fmt;
	size_t len;
	int n = 0;

	if (prog->key == fmt && strcmp(prog->text, fmt) == 0)
		return prog;
	len = strnlen(fmt, FMT_CACHE_TEXT);
	if (len >= FMT_CACHE_TEXT)
		return NULL;
	for (;;) {
		if (n == FMT_CACHE_OPS) {
			prog->key = NULL;
			return NULL;
		}
		f = parse_op(fmt, f, &prog->ops[n]);
		if (prog->ops[n++].conv == CONV_END)
			break;
	}
	prog->nops = (uint8_t)n;
	memcpy(prog->text, fmt, len + 1);
	prog->key = fmt;
	return prog;
}

int seq_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap_in)
{
	struct fmt_out o = { .p = buf, .end = cap ? buf + cap - 1 : buf, .total = 0 };
	const struct fmt_prog *prog = fmt_lookup(fmt);
	va_list ap;

	va_copy(ap, ap_in);
	if (prog) {
		for (unsigned int i = 0; i < prog->nops; i++)
			run_op(&o, fmt, &prog->ops[i], &ap);
	} else {
		/* Too big to cache: parse and run one op at a time. */
		const char *f = fmt;
		struct fmt_op op;

		do {
			f = parse_op(fmt, f, &op);
			run_op_uncached(&o, fmt, &op, &ap);
		} while (op.conv != CONV_END);
	}
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
