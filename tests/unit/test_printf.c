// SPDX-License-Identifier: MIT
/*
 * test_printf.c - our seq_printf formatter against glibc snprintf.
 *
 * A table of /proc-style formats, then a million random (format, argument)
 * pairs over every supported flag, width, precision, '*', length modifier and
 * conversion, each at a random destination size so truncation and the return
 * value are checked too.  Finally seq_printf's overflow rule.
 */
/* The table feeds both formatters deliberate corner cases gcc warns about. */
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
#ifndef __clang__
#pragma GCC diagnostic ignored "-Wformat-overflow"
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#pragma GCC diagnostic ignored "-Wformat-zero-length"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seq/seq_testing.h"
#include "tap.h"
#include "testutil.h"
#include "uprocfs/seq_file.h"

static unsigned long table_wrong, table_total;

static void compare(const char *fmt, char *a, int ra, char *b, int rb, size_t cap)
{
	size_t n = cap == 0 ? 0 : (size_t)(ra < (int)cap ? ra + 1 : (int)cap);

	table_total++;
	if (ra != rb || (n && memcmp(a, b, n))) {
		if (++table_wrong <= 8) {
			diag("format \"%s\" cap %zu: ours %d, glibc %d", fmt, cap, ra, rb);
			diag_escaped("  ours: ", a, n);
			diag_escaped("  glibc:", b, n);
		}
	}
}

#define BOTH(cap, fmt, ...)                                                        \
	do {                                                                       \
		char a_[512], b_[512];                                             \
		memset(a_, 'Z', sizeof(a_));                                       \
		memset(b_, 'Z', sizeof(b_));                                       \
		int ra_ = seq_snprintf(a_, (cap), fmt, __VA_ARGS__);               \
		int rb_ = snprintf(b_, (cap), fmt, __VA_ARGS__);                   \
		compare(fmt, a_, ra_, b_, rb_, (cap));                             \
	} while (0)

static void test_table(void)
{
	size_t caps[] = { 512, 0, 1, 5, 17 };

	for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
		size_t cap = caps[c];
		BOTH(cap, "%08lx-%08lx %c%c%c%c %08llx %02x:%02x %lu ", 0x5563cc031000ul,
		     0x5563cc033000ul, 'r', '-', '-', 'p', 0ull, 0xfeu, 0u, 247134ul);
		BOTH(cap, "%08lx-%08lx %c%c%c%c %08llx %02x:%02x %lu ", 0xffffffffff600000ul,
		     0xffffffffff601000ul, '-', '-', 'x', 'p', 0ull, 0u, 0u, 0ul);
		BOTH(cap, "%lu.%02lu %lu.%02lu %lu.%02lu %u/%d %d\n", 0ul, 43ul, 0ul, 34ul, 0ul,
		     15ul, 2u, 107, 16736);
		BOTH(cap, "Umask:\t%#04o\n", 022);
		BOTH(cap, "Umask:\t%#04o\n", 0);
		BOTH(cap, "Umask:\t%#04o\n", 0777);
		BOTH(cap, "untag_mask:\t%#lx\n", 0xfffffffffffffffful);
		BOTH(cap, "SigQ:\t%u/%lu\n", 0u, 96365ul);
		BOTH(cap, "%s avg10=%lu.%02lu avg60=%lu.%02lu avg300=%lu.%02lu total=%llu\n",
		     "some", 3ul, 3ul, 3ul, 12ul, 1ul, 13ul, 5303257ull);
		BOTH(cap, "HugePages_Total:   %5lu\n", 0ul);
		BOTH(cap, "%-16s%8lu kB\n", "MemTotal:", 24617384ul);
		BOTH(cap, "cpu%d %u 0 %u %u %u %u %llu %llu %lu\n", 3, 1u, 2u, 3u, 4u, 5u,
		     123456789ull, 987654321ull, 42ul);
		BOTH(cap, "%d %i %u %x %X %o %c %s %%", -1, 2147483647, 4294967295u, 0xabcdefu,
		     0xabcdefu, 0777u, 'q', "str");
		BOTH(cap, "%hhd %hhu %hd %hu %zd %zu %jd %ju %td", 300, 300, 70000, 70000,
		     (ssize_t)-5, (size_t)5, (intmax_t)INT64_MIN, (uintmax_t)UINT64_MAX, (ptrdiff_t)-7);
		BOTH(cap, "%lld %llu %llx", (long long)INT64_MIN, (unsigned long long)UINT64_MAX,
		     (unsigned long long)UINT64_MAX);
		BOTH(cap, "[%*d] [%-*d] [%.*d] [%*.*d]", 6, 42, 6, 42, 5, 42, -8, 4, 42);
		BOTH(cap, "[%.0d] [%.0u] [%.0x] [%#.0o] [%#.0x] [%5.0d]", 0, 0u, 0u, 0u, 0u, 0);
		BOTH(cap, "[%+d] [% d] [%+ d] [%+05d] [% 05d] [%-+5d] [%0-5d]", 5, 5, 5, -5, 5, 5, 5);
		BOTH(cap, "[%#x] [%#X] [%#o] [%#08x] [%#-8x] [%#.4x] [%#08.4x]", 255u, 255u, 8u,
		     255u, 255u, 255u, 255u);
		BOTH(cap, "[%5c] [%-5c] [%05c] [%c]", 'a', 'b', 'c', 'd');
		BOTH(cap, "[%10s] [%-10s] [%.2s] [%10.2s] [%010s] [%s]", "abc", "abc", "abc", "abc",
		     "abc", "");
		BOTH(cap, "[%s] [%.3s] [%.6s] [%8s]", (char *)NULL, (char *)NULL, (char *)NULL,
		     (char *)NULL);
		BOTH(cap, "%5%|%-5%|%%|%c", 'x');
		BOTH(cap, "no conversions at all %s", "");
		BOTH(cap, "%.30d|%-30.20x|%030o", 123456, 0xdeadu, 0123u);
		/* More conversions, and more text, than the parsed-format cache holds. */
		BOTH(cap, "%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d", 1, 2, 3,
		     4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, -20);
		BOTH(cap, "a long literal prefix that runs past the ninety-six bytes the cache "
			  "keeps for one format: %s=%lu, and then some more text after it",
		     "key", 42ul);
		BOTH(cap, "%y %-5y %", 0);
	}
	ok(table_wrong == 0, "table of %lu format/argument/size cases matches glibc (%lu wrong)",
	   table_total, table_wrong);
}

/* Random single-conversion formats with literal text around them. */
struct rspec {
	char fmt[96];
	int star_w, star_p, w, p;
	char conv;
	int wide; /* 64-bit argument */
};

static void random_literal(uint64_t *st, char **p, int max)
{
	static const char chars[] = "abc XYZ:\t\n-=|019";
	int n = (int)(test_rand(st) % (uint64_t)(max + 1));

	for (int i = 0; i < n; i++) {
		if (test_rand(st) % 23 == 0) {
			*(*p)++ = '%';
			*(*p)++ = '%';
		} else {
			*(*p)++ = chars[test_rand(st) % (sizeof(chars) - 1)];
		}
	}
}

static void random_spec(uint64_t *st, struct rspec *r)
{
	static const char convs[] = "diuxXocs";
	static const char *const ints[] = { "", "hh", "h", "l", "ll", "z", "j", "t" };
	char *p = r->fmt;

	random_literal(st, &p, 6);
	*p++ = '%';
	r->conv = convs[test_rand(st) % (sizeof(convs) - 1)];
	static const char flagchars[] = "-0+ #";
	uint64_t fl = test_rand(st);
	for (int i = 0; i < 5; i++)
		if ((fl >> i) & 1 && (fl >> (8 + i)) % 3 == 0)
			*p++ = flagchars[i];
	r->star_w = r->star_p = 0;
	switch (test_rand(st) % 4) {
	case 0:
		break;
	case 1:
		r->star_w = 1;
		r->w = (int)(test_rand(st) % 61) - 30;
		*p++ = '*';
		break;
	default:
		p += sprintf(p, "%d", (int)(test_rand(st) % 30));
		break;
	}
	switch (test_rand(st) % 5) {
	case 0:
	case 1:
		break;
	case 2:
		*p++ = '.';
		break;
	case 3:
		r->star_p = 1;
		r->p = (int)(test_rand(st) % 40) - 10;
		*p++ = '.';
		*p++ = '*';
		break;
	default:
		p += sprintf(p, ".%d", (int)(test_rand(st) % 26));
		break;
	}
	r->wide = 0;
	if (r->conv != 'c' && r->conv != 's') {
		const char *lm = ints[test_rand(st) % 8];
		r->wide = lm[0] && lm[0] != 'h';
		p = stpcpy(p, lm);
	}
	*p++ = r->conv;
	random_literal(st, &p, 6);
	*p = '\0';
}

#define CALL4(FN, buf, cap, r, val)                                                     \
	((r)->star_w ? ((r)->star_p ? FN(buf, cap, (r)->fmt, (r)->w, (r)->p, val)        \
				    : FN(buf, cap, (r)->fmt, (r)->w, val))                  \
		     : ((r)->star_p ? FN(buf, cap, (r)->fmt, (r)->p, val)                    \
				    : FN(buf, cap, (r)->fmt, val)))

static void test_random(void)
{
	static const char *const strings[] = { "", "a", "hello", "with space", "tab\there",
					       "a-much-longer-string-of-forty-characters", NULL };
	uint64_t st = 0xfeedface;
	const unsigned long pairs = 1000000;
	unsigned long wrong = 0;

	for (unsigned long i = 0; i < pairs; i++) {
		struct rspec r;
		char a[256], b[256];
		size_t cap = test_rand(&st) % 8 == 0 ? (size_t)(test_rand(&st) % 40) : sizeof(a);
		int ra, rb;

		random_spec(&st, &r);
		memset(a, 'Z', sizeof(a));
		memset(b, 'Z', sizeof(b));
		if (r.conv == 's') {
			const char *s = strings[test_rand(&st) % 7];
			ra = CALL4(seq_snprintf, a, cap, &r, s);
			rb = CALL4(snprintf, b, cap, &r, s);
		} else if (r.conv == 'c') {
			int c = (int)(test_rand(&st) % 256);
			ra = CALL4(seq_snprintf, a, cap, &r, c);
			rb = CALL4(snprintf, b, cap, &r, c);
		} else if (r.wide) {
			long long v = (long long)test_rand_magnitude(&st);
			ra = CALL4(seq_snprintf, a, cap, &r, v);
			rb = CALL4(snprintf, b, cap, &r, v);
		} else {
			int v = (int)test_rand_magnitude(&st);
			ra = CALL4(seq_snprintf, a, cap, &r, v);
			rb = CALL4(snprintf, b, cap, &r, v);
		}
		size_t n = cap == 0 ? 0 : (size_t)(ra < (int)cap ? ra + 1 : (int)cap);
		if (ra != rb || memcmp(a, b, sizeof(a))) {
			if (++wrong <= 8) {
				diag("format \"%s\" cap %zu w %d p %d: ours %d glibc %d", r.fmt, cap, r.w,
				     r.p, ra, rb);
				diag_escaped("  ours: ", a, n);
				diag_escaped("  glibc:", b, n);
			}
		}
	}
	ok(wrong == 0, "%lu random format/argument pairs match glibc byte for byte (%lu wrong)",
	   pairs, wrong);
}

static void test_seq_printf_overflow(void)
{
	char buf[16];
	struct seq_file m;

	seq_init_buffer(&m, buf, sizeof(buf));
	seq_printf(&m, "%d-%s", 12345, "abcdefghi");
	ok(!seq_has_overflowed(&m) && m.count == 15 && memcmp(buf, "12345-abcdefghi", 15) == 0,
	   "seq_printf of 15 bytes fits in 16");
	seq_init_buffer(&m, buf, sizeof(buf));
	seq_printf(&m, "%d-%s", 123456, "abcdefghi");
	ok(seq_has_overflowed(&m), "seq_printf of 16 bytes into 16 overflows");
	seq_printf(&m, "x");
	ok(seq_has_overflowed(&m), "and stays overflowed");
}

int main(void)
{
	plan(0);
	test_table();
	test_random();
	test_seq_printf_overflow();
	return tap_done();
}
