// SPDX-License-Identifier: MIT
/*
 * fuzz_printf.c - libFuzzer target: seq_snprintf and seq_printf against the
 * C library's snprintf, for formats built from the input over the
 * conversions /proc text uses (d i u x X o c s %, flags, width, precision,
 * length modifiers), at destination sizes the input picks.  Any difference
 * in bytes, length or the seq_file overflow rule aborts.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seq/seq_testing.h"
#include "uprocfs/seq_file.h"

/* Formats come from the input: that is the point. */
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

struct input {
	const uint8_t *p;
	size_t n;
};

static uint8_t take(struct input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static uint64_t take64(struct input *in)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | take(in);
	return v;
}

/* Format @fmt with one argument of the type its conversion and length modifier name. */
#define CALL(fn, dst, cap, fmt, conv, lm, v, s)                                          \
	(conv == 's' ? fn(dst, cap, fmt, s)                                              \
	 : conv == 'c' ? fn(dst, cap, fmt, (int)(unsigned char)v)                        \
	 : conv == '%' ? fn(dst, cap, fmt)                                               \
	 : lm == 2 ? fn(dst, cap, fmt, (long)v)                                          \
	 : lm == 3 ? fn(dst, cap, fmt, (long long)v)                                     \
	 : lm == 4 ? fn(dst, cap, fmt, (size_t)v)                                        \
	 : fn(dst, cap, fmt, (int)v))

static const char *allowed_flags(char conv)
{
	switch (conv) {
	case 'd': case 'i': return "-0+ ";
	case 'u': return "-0";
	case 'x': case 'X': case 'o': return "-0#";
	case 'c': case 's': return "-";
	default: return "";
	}
}

static void seq_printf_fill(struct seq_file *m, size_t unused, const char *fmt, ...)
{
	va_list ap;

	(void)unused;
	va_start(ap, fmt);
	seq_vprintf(m, fmt, ap);
	va_end(ap);
}

static void check_one(struct input *in)
{
	static const char convs[] = "diuxXocs%";
	static const char *const lens[] = { "", "h", "l", "ll", "z", "hh", "j", "t" };
	static const char flagset[] = "-0+ #";
	char fmt[128], str[32], want[512], got[512];
	uint8_t b = take(in), flags = take(in), width = take(in), prec = take(in);
	char conv = convs[b % (sizeof(convs) - 1)];
	unsigned int lm = (b >> 4) & 7;
	uint64_t v = take64(in);
	size_t cap = take(in) % 300, slen = take(in) % sizeof(str), at = 0;
	int wn, gn;

	for (size_t i = 0; i < slen; i++)
		str[i] = (char)(take(in) | 1); /* no NUL inside */
	str[slen] = '\0';
	at += (size_t)snprintf(fmt + at, sizeof(fmt) - at, "<%c>%%", 'a' + (b & 15));
	/* only what C defines: no flag, width or precision that the conversion leaves undefined */
	for (int i = 0; i < 5; i++)
		if ((flags & (1u << i)) && strchr(allowed_flags(conv), flagset[i]))
			fmt[at++] = flagset[i];
	if ((width & 0x80) && conv != '%')
		at += (size_t)snprintf(fmt + at, sizeof(fmt) - at, "%u", width & 63);
	if ((prec & 0x80) && conv != '%' && conv != 'c')
		at += (size_t)snprintf(fmt + at, sizeof(fmt) - at, ".%u", prec & 63);
	if (conv != 's' && conv != 'c' && conv != '%')
		at += (size_t)snprintf(fmt + at, sizeof(fmt) - at, "%s", lens[lm]);
	else
		lm = 0;
	snprintf(fmt + at, sizeof(fmt) - at, "%c|", conv);
	/* the C library's answer: the reference (length modifiers we pass as the widest of their kind) */
	if (lm == 1 || lm == 5 || lm == 6 || lm == 7) {
		/* h, hh: the int is narrowed by the conversion itself; j, t: 64-bit as l */
		lm = lm >= 6 ? 2 : 0;
	}
	wn = CALL(snprintf, want, cap, fmt, conv, lm, v, str);
	gn = CALL(seq_snprintf, got, cap, fmt, conv, lm, v, str);
	if (wn != gn || (cap && strcmp(want, got))) {
		fprintf(stderr, "format \"%s\" cap %zu: libc %d \"%s\", ours %d \"%s\"\n", fmt, cap, wn, want, gn, got);
		abort();
	}
	/* seq_printf into a buffer of @cap: the whole text, or overflow (count == size) */
	if (cap) {
		char buf[512];
		struct seq_file m;

		memset(&m, 0, sizeof(m));
		seq_init_buffer(&m, buf, cap);
		CALL(seq_printf_fill, &m, 0, fmt, conv, lm, v, str);
		if ((size_t)wn < cap ? (m.count != (size_t)wn || memcmp(buf, want, (size_t)wn)) : m.count != cap) {
			fprintf(stderr, "seq_printf \"%s\" into %zu: count %zu, libc length %d\n", fmt, cap, m.count, wn);
			abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };

	while (in.n)
		check_one(&in);
	return 0;
}
