// SPDX-License-Identifier: MIT
/*
 * test_seq_overflow.c - the overflow contract.
 *
 * For several show functions and every buffer size from 0 to len+1: either
 * the record is exact or count == size (overflow); nothing is ever written
 * past size (a guard byte); once the buffer is large enough the record always
 * fits; and the read driver, started at any first size, yields the exact text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seq/seq_testing.h"
#include "tap.h"
#include "uprocfs/seq_file.h"

static int show_numbers(struct seq_file *m, void *v)
{
	(void)v;
	seq_puts(m, "cpu ");
	for (unsigned long long i = 0; i < 40; i++)
		seq_put_decimal_ull(m, " ", i * i * i * 7919);
	seq_putc(m, '\n');
	seq_put_decimal_ll(m, "neg ", -1234567890123ll);
	seq_put_decimal_ll(m, " ", 0);
	seq_put_decimal_ll(m, " ", -5);
	seq_put_decimal_ull_width(m, "\nVmRSS:\t", 123456, 8);
	seq_puts(m, " kB\n");
	seq_put_decimal_ull_width(m, "wide ", 18446744073709551615ull, 24);
	seq_putc(m, '\n');
	return 0;
}

static int show_maps_like(struct seq_file *m, void *v)
{
	(void)v;
	for (int i = 0; i < 12; i++) {
		unsigned long long start = 0x5563cc031000ull + (unsigned long long)i * 0x2000;
		seq_setwidth(m, 72);
		seq_put_hex_ll(m, NULL, start, 8);
		seq_put_hex_ll(m, "-", start + 0x2000, 8);
		seq_puts(m, i & 1 ? " r-xp " : " rw-p ");
		seq_put_hex_ll(m, NULL, (unsigned long long)i << 12, 8);
		seq_put_hex_ll(m, " ", 0xfe, 2);
		seq_put_hex_ll(m, ":", (unsigned long long)i, 2);
		seq_put_decimal_ull(m, " ", 247134ull + (unsigned long long)i);
		seq_putc(m, ' ');
		if (i % 3) {
			seq_pad(m, ' ');
			seq_escape_mem(m, "/usr/lib/we ird\nna\\me", 21, SEQ_ESCAPE_OCTAL, "\n");
		}
		seq_putc(m, '\n');
	}
	return 0;
}

static int show_status_like(struct seq_file *m, void *v)
{
	uint64_t cpus[4] = { 0x3, 0, 0xf0f0, 1 };
	(void)v;
	seq_puts(m, "Name:\t");
	seq_escape_str(m, "a\nb\\c\td e\"f", SEQ_ESCAPE_SPACE | SEQ_ESCAPE_SPECIAL, "\n\\");
	seq_printf(m, "\nUmask:\t%#04o\n", 022);
	seq_printf(m, "State:\t%s\n", "S (sleeping)");
	seq_put_hex_ll(m, "CapBnd:\t", 0x1fffeffffffull, 16);
	seq_puts(m, "\nCpus_allowed:\t");
	seq_put_bitmap(m, cpus, 200);
	seq_puts(m, "\nCpus_allowed_list:\t");
	seq_put_bitmap_list(m, cpus, 200);
	seq_printf(m, "\n%-12s|%5d|%-5u|%x\n", "left", -42, 7u, 0xbeefu);
	return 0;
}

static int show_empty(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	return 0;
}

struct case_def {
	const char *name;
	int (*show)(struct seq_file *, void *);
};

static const struct case_def cases[] = {
	{ "numbers", show_numbers },
	{ "maps-like", show_maps_like },
	{ "status-like", show_status_like },
	{ "empty", show_empty },
};

static void reference(const struct case_def *c, char **text, size_t *len)
{
	int err = seq_render_single(c->show, NULL, 1 << 16, text, len);
	if (err)
		abort();
}

static void test_every_size(const struct case_def *c)
{
	char *want;
	size_t len;
	unsigned long inexact = 0, guard_hit = 0, late_overflow = 0;

	reference(c, &want, &len);
	for (size_t size = 0; size <= len + 1; size++) {
		char *buf = malloc(size + 1);
		struct seq_file m;

		buf[size] = (char)0xA5;
		seq_init_buffer(&m, buf, size);
		c->show(&m, NULL);
		if (!seq_has_overflowed(&m)) {
			if (m.count != len || memcmp(buf, want, len))
				inexact++;
		} else if (size > len) {
			late_overflow++; /* len bytes plus the never-used last byte fit */
		}
		if ((unsigned char)buf[size] != 0xA5)
			guard_hit++;
		free(buf);
	}
	ok(inexact == 0, "%s: every size 0..%zu is exact or overflows (%lu inexact)", c->name, len + 1, inexact);
	ok(guard_hit == 0, "%s: guard byte past size never written (%lu hits)", c->name, guard_hit);
	ok(late_overflow == 0, "%s: size len+1 always fits", c->name);
	free(want);
}

static void test_driver_any_first_size(const struct case_def *c)
{
	char *want, *got;
	size_t len;
	unsigned long wrong = 0;

	reference(c, &want, &len);
	got = malloc(len + 16);
	for (size_t first = 1; first <= len + 1; first++) {
		struct seq_file m;
		loff_t pos = 0;
		size_t have = 0;
		ssize_t n;

		if (seq_single_open_size(&m, c->show, NULL, first))
			abort();
		while ((n = seq_read(&m, got + have, len + 16 - have, &pos)) > 0)
			have += (size_t)n;
		if (n < 0 || have != len || memcmp(got, want, len))
			wrong++;
		seq_release(&m);
	}
	ok(wrong == 0, "%s: read driver exact from every first buffer size 1..%zu", c->name, len + 1);
	free(got);
	free(want);
}

static void test_sticky(void)
{
	char buf[8];
	struct seq_file m;

	seq_init_buffer(&m, buf, sizeof(buf));
	seq_puts(&m, "1234567");
	ok(!seq_has_overflowed(&m), "7 bytes fit in 8");
	seq_putc(&m, 'x');
	ok(seq_has_overflowed(&m), "putc filling the last byte reads as overflow");
	seq_putc(&m, 'y');
	seq_put_decimal_ull(&m, " ", 1);
	ok(m.count == m.size, "overflow is sticky");

	seq_init_buffer(&m, buf, sizeof(buf));
	seq_puts(&m, "12345678");
	ok(seq_has_overflowed(&m), "a write reaching the end overflows (the last byte is never usable)");
}

int main(void)
{
	plan(0);
	test_sticky();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		test_every_size(&cases[i]);
		test_driver_any_first_size(&cases[i]);
	}
	return tap_done();
}
