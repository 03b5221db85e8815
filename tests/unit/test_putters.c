// SPDX-License-Identifier: MIT
/*
 * test_putters.c - every number putter against snprintf.
 *
 * The converters must be exact for every value; the fixed-point decimal core
 * is checked exhaustively below 1e8 (against a decimal counter, so it runs in
 * about a second), the putters over edge values and ten million random
 * magnitudes at every width 0..24, with and without delimiters.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "seq/seq_testing.h"
#include "tap.h"
#include "testutil.h"
#include "uprocfs/seq_file.h"

static const char *const delims[] = { NULL, "", " ", "\nVmRSS:\t" };
#define NDELIMS (sizeof(delims) / sizeof(delims[0]))

struct mismatch {
	unsigned long count;
};

static void report(struct mismatch *mm, const char *what, uint64_t v, unsigned int width,
		   const char *delim, const char *got, size_t got_len, const char *want)
{
	if (++mm->count <= 5) {
		diag("%s: value %" PRIu64 " width %u delim %s", what, v, width,
		     delim ? (*delim ? "set" : "empty") : "NULL");
		diag_escaped("  got: ", got, got_len);
		diag_escaped("  want:", want, strlen(want));
	}
}

static void put_and_compare(struct mismatch *dec, struct mismatch *sdec, struct mismatch *hex,
			    uint64_t v, unsigned int width, const char *delim)
{
	char buf[256], want[256];
	struct seq_file m;
	const char *d = delim ? delim : "";

	/* seq_put_decimal_ull_width: spaces, like "%*llu" */
	seq_init_buffer(&m, buf, sizeof(buf));
	seq_put_decimal_ull_width(&m, delim, v, width);
	snprintf(want, sizeof(want), "%s%*" PRIu64, d, (int)width, v);
	if (m.count != strlen(want) || memcmp(buf, want, m.count))
		report(dec, "decimal_ull_width", v, width, delim, buf, m.count, want);

	/* seq_put_decimal_ll (no width in the kernel's API) */
	if (width == 0) {
		int64_t s = (int64_t)v;
		seq_init_buffer(&m, buf, sizeof(buf));
		seq_put_decimal_ll(&m, delim, s);
		snprintf(want, sizeof(want), "%s%" PRId64, d, s);
		if (m.count != strlen(want) || memcmp(buf, want, m.count))
			report(sdec, "decimal_ll", v, width, delim, buf, m.count, want);
		seq_init_buffer(&m, buf, sizeof(buf));
		seq_put_decimal_ull(&m, delim, v);
		snprintf(want, sizeof(want), "%s%" PRIu64, d, v);
		if (m.count != strlen(want) || memcmp(buf, want, m.count))
			report(dec, "decimal_ull", v, width, delim, buf, m.count, want);
	}

	/* seq_put_hex_ll: zeros, like "%0*llx" */
	seq_init_buffer(&m, buf, sizeof(buf));
	seq_put_hex_ll(&m, delim, v, width);
	snprintf(want, sizeof(want), "%s%0*" PRIx64, d, (int)width, v);
	if (m.count != strlen(want) || memcmp(buf, want, m.count))
		report(hex, "hex_ll", v, width, delim, buf, m.count, want);
}

/* Decimal text of a counter kept as ASCII digits, incremented in place. */
struct dec_counter {
	char digits[24];
	int len;
};

static void counter_increment(struct dec_counter *c)
{
	int i = c->len - 1;

	while (i >= 0 && c->digits[i] == '9')
		c->digits[i--] = '0';
	if (i >= 0) {
		c->digits[i]++;
	} else {
		memmove(c->digits + 1, c->digits, (size_t)c->len);
		c->digits[0] = '1';
		c->len++;
	}
}

static void test_exhaustive_below_1e8(void)
{
	struct dec_counter c = { .digits = "0", .len = 1 };
	unsigned long bad_trunc = 0, bad_fixed = 0, bad_len = 0;
	char out[32], fixed_want[9];

	for (uint32_t n = 0; n < 100000000u; n++) {
		char *end = seq_dec_u32_lt1e8(out, n);
		if ((int)(end - out) != c.len || memcmp(out, c.digits, (size_t)c.len))
			if (++bad_trunc <= 3)
				diag("lt1e8(%u) wrong", n);
		if (seq_dec_len(n) != (unsigned int)c.len)
			if (++bad_len <= 3)
				diag("dec_len(%u) = %u", n, seq_dec_len(n));
		/* Fixed 8 digits is the same text left-padded with zeros. */
		memset(fixed_want, '0', 8);
		memcpy(fixed_want + 8 - c.len, c.digits, (size_t)c.len);
		seq_dec_fixed8(out, n);
		if (memcmp(out, fixed_want, 8))
			if (++bad_fixed <= 3)
				diag("fixed8(%u) wrong", n);
		counter_increment(&c);
	}
	ok(bad_trunc == 0, "decimal core exact for every n < 1e8 (%lu wrong)", bad_trunc);
	ok(bad_fixed == 0, "fixed 8-digit chunks exact (%lu wrong)", bad_fixed);
	ok(bad_len == 0, "digit count exact for every n < 1e8 (%lu wrong)", bad_len);
}

static void add_edges(uint64_t *v, size_t *n)
{
	static const uint64_t fixed[] = {
		0, 1, 9, 10, 11, 99, 100, 101, 255, 256, 4095, 4096, 65535, 65536,
		UINT32_MAX, (uint64_t)UINT32_MAX + 1, INT64_MAX, (uint64_t)INT64_MAX + 1,
		(uint64_t)INT64_MIN, UINT64_MAX, UINT64_MAX - 1,
		UINT64_C(0x7fffffff), UINT64_C(0xffffffffffffff), UINT64_C(0x1000000000000000),
	};
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		v[(*n)++] = fixed[i];
	for (int k = 0; k < 20; k++) {
		uint64_t p = seq_pow10[k];
		v[(*n)++] = p;
		v[(*n)++] = p - 1;
		v[(*n)++] = p + 1;
		v[(*n)++] = 0 - p; /* negative powers of ten as signed */
		v[(*n)++] = 0 - p + 1;
	}
	for (int b = 0; b < 64; b++) {
		uint64_t p = UINT64_C(1) << b;
		v[(*n)++] = p;
		v[(*n)++] = p - 1;
		v[(*n)++] = p + 1;
	}
}

static void test_edges(void)
{
	struct mismatch dec = { 0 }, sdec = { 0 }, hex = { 0 };
	uint64_t v[512];
	size_t n = 0;

	add_edges(v, &n);
	for (size_t i = 0; i < n; i++)
		for (unsigned int w = 0; w <= 24; w++)
			for (size_t d = 0; d < NDELIMS; d++)
				put_and_compare(&dec, &sdec, &hex, v[i], w, delims[d]);
	ok(dec.count == 0, "decimal_ull[_width] on %zu edge values x widths 0..24 x %zu delimiters (%lu wrong)",
	   n, NDELIMS, dec.count);
	ok(sdec.count == 0, "decimal_ll on edge values incl. INT64_MIN/MAX (%lu wrong)", sdec.count);
	ok(hex.count == 0, "hex_ll on edge values x widths 0..24 (%lu wrong)", hex.count);
}

static void test_random(void)
{
	struct mismatch dec = { 0 }, sdec = { 0 }, hex = { 0 };
	uint64_t state = 0x9e3779b97f4a7c15u;
	const unsigned long values = 10000000ul;

	for (unsigned long i = 0; i < values; i++) {
		uint64_t v = test_rand_magnitude(&state);
		unsigned int width = (unsigned int)(i % 25);
		put_and_compare(&dec, &sdec, &hex, v, width, delims[(i / 25) % NDELIMS]);
	}
	ok(dec.count == 0, "decimal_ull[_width] on %lu random magnitudes (%lu wrong)", values, dec.count);
	ok(sdec.count == 0, "decimal_ll on random magnitudes (%lu wrong)", sdec.count);
	ok(hex.count == 0, "hex_ll on %lu random magnitudes (%lu wrong)", values, hex.count);
}

/* seq_dec_u64_spill: the right digits, and no byte written at or past p + 20. */
static void test_spill_bound(void)
{
	uint64_t state = 0x243f6a8885a308d3u, v[512];
	unsigned long bad_text = 0, bad_spill = 0, values = 0;
	char buf[40], want[24];
	size_t n = 0;

	add_edges(v, &n);
	for (unsigned long i = 0; i < n + 2000000ul; i++, values++) {
		uint64_t x = i < n ? v[i] : test_rand_magnitude(&state);
		int len = snprintf(want, sizeof(want), "%" PRIu64, x);
		char *end;

		memset(buf, '#', sizeof(buf));
		end = seq_dec_u64_spill(buf, x);
		bad_text += end - buf != len || memcmp(buf, want, (size_t)len);
		for (size_t k = 20; k < sizeof(buf); k++)
			bad_spill += buf[k] != '#';
	}
	ok(bad_text == 0, "seq_dec_u64_spill exact on %lu edge and random values (%lu wrong)", values, bad_text);
	ok(bad_spill == 0, "and never writes past its 20 bytes (%lu bytes)", bad_spill);
}

static void test_hex_len_and_table(void)
{
	unsigned long bad = 0;
	char want[32];

	for (int b = 0; b <= 64; b++) {
		uint64_t v = b ? (UINT64_C(1) << (b - 1)) : 0;
		int n = snprintf(want, sizeof(want), "%" PRIx64, v);
		if ((int)seq_hex_len(v) != n)
			bad++;
	}
	ok(bad == 0, "hex digit count for every bit length");
}

int main(void)
{
	plan(0);
	test_exhaustive_below_1e8();
	test_edges();
	test_spill_bound();
	test_random();
	test_hex_len_and_table();
	return tap_done();
}
