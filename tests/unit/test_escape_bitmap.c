// SPDX-License-Identifier: MIT
/*
 * test_escape_bitmap.c - escaping (status Name:, maps paths, octal) and the
 * %*pb / %*pbl bitmap forms, against the kernel's observed output and an
 * independent bit-by-bit reference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seq/seq_testing.h"
#include "tap.h"
#include "testutil.h"
#include "uprocfs/seq_file.h"

static char out[65536];

static const char *render_escape(const char *s, size_t len, unsigned int flags, const char *esc)
{
	struct seq_file m;

	seq_init_buffer(&m, out, sizeof(out));
	seq_escape_mem(&m, s, len, flags, esc);
	out[m.count] = '\0';
	return out;
}

static void test_escape(void)
{
	/* Live kernel: comm "a\nb\\c\td e\"f" shows in status as a\nb\\c<TAB>d e"f */
	is_str(render_escape("a\nb\\c\td e\"f", 12, SEQ_ESCAPE_SPACE | SEQ_ESCAPE_SPECIAL, "\n\\"),
	       "a\\nb\\\\c\td e\"f", "status Name: escapes only newline and backslash");
	/* Live kernel: file "we ird\nna\\me" shows in maps as we ird\012na\me */
	is_str(render_escape("/tmp/we ird\nna\\me", 17, SEQ_ESCAPE_OCTAL, "\n"),
	       "/tmp/we ird\\012na\\me", "maps path escapes only newline, as octal");
	is_str(render_escape("a b\tc\nd\\e", 9, SEQ_ESCAPE_OCTAL, " \t\n\\"),
	       "a\\040b\\011c\\012d\\134e", "mounts-style octal set");
	is_str(render_escape("\a\x1b\"\\", 4, SEQ_ESCAPE_SPECIAL, NULL), "\\a\\e\\\"\\\\",
	       "special class with every byte eligible");
	is_str(render_escape("\f\n\r\t\v", 5, SEQ_ESCAPE_SPACE, NULL), "\\f\\n\\r\\t\\v", "space class");
	is_str(render_escape("\xff\x01", 2, SEQ_ESCAPE_HEX, NULL), "\\xff\\x01", "hex class");
	is_str(render_escape("ab", 2, SEQ_ESCAPE_OCTAL, ""), "\\141\\142",
	       "an empty set escapes every byte (the kernel's quirk)");
	is_str(render_escape("x\ny", 3, 0, "\n"), "x\ny", "no classes: copied as is");

	struct seq_file m;
	seq_init_buffer(&m, out, sizeof(out));
	seq_escape(&m, "a b", " ");
	is_bytes(out, m.count, "a\\040b", 6, "seq_escape is octal over the set");

	/* Overflow at every size: exact or flagged, never past the end. */
	const char *src = "/usr/lib/x86_64-linux-gnu/we ird\nna\\me (deleted)";
	const char *want = render_escape(src, strlen(src), SEQ_ESCAPE_OCTAL, "\n");
	char wantcopy[128];
	size_t wlen = strlen(want);
	unsigned long bad = 0;

	memcpy(wantcopy, want, wlen + 1);
	for (size_t size = 0; size <= wlen + 1; size++) {
		char buf[160];
		memset(buf, 0x5a, sizeof(buf));
		seq_init_buffer(&m, buf, size);
		seq_escape_mem(&m, src, strlen(src), SEQ_ESCAPE_OCTAL, "\n");
		if (!seq_has_overflowed(&m) && (m.count != wlen || memcmp(buf, wantcopy, wlen)))
			bad++;
		if (size > wlen && seq_has_overflowed(&m))
			bad++;
		if ((unsigned char)buf[size] != 0x5a)
			bad++;
	}
	ok(bad == 0, "escape at every buffer size is exact or overflows");
}

/* Reference %*pb: test bit by bit, nibble by nibble. */
static void ref_bitmap(char *dst, const uint64_t *bits, unsigned int nbits)
{
	int nchunks = (int)((nbits + 31) / 32);
	char *p = dst;

	*p = '\0';
	for (int c = nchunks - 1; c >= 0; c--) {
		unsigned int lo = (unsigned int)c * 32, hi = lo + 32 > nbits ? nbits : lo + 32;
		unsigned int nd = c == nchunks - 1 ? (hi - lo + 3) / 4 : 8;
		for (int d = (int)nd - 1; d >= 0; d--) {
			unsigned int nib = 0;
			for (int b = 0; b < 4; b++) {
				unsigned int bit = lo + (unsigned int)d * 4 + (unsigned int)b;
				if (bit < hi && ((bits[bit / 64] >> (bit % 64)) & 1))
					nib |= 1u << b;
			}
			*p++ = "0123456789abcdef"[nib];
		}
		if (c)
			*p++ = ',';
	}
	*p = '\0';
}

static void ref_list(char *dst, const uint64_t *bits, unsigned int nbits)
{
	char *p = dst;
	int first = 1;

	*p = '\0';
	for (unsigned int b = 0; b < nbits;) {
		if (!((bits[b / 64] >> (b % 64)) & 1)) {
			b++;
			continue;
		}
		unsigned int e = b;
		while (e + 1 < nbits && ((bits[(e + 1) / 64] >> ((e + 1) % 64)) & 1))
			e++;
		p += sprintf(p, first ? "%u" : ",%u", b);
		if (e > b)
			p += sprintf(p, "-%u", e);
		first = 0;
		b = e + 1;
	}
}

static void test_bitmaps(void)
{
	struct seq_file m;
	uint64_t bits[16] = { 0 };
	char want[4096];

	bits[0] = 3;
	seq_init_buffer(&m, out, sizeof(out));
	seq_put_bitmap(&m, bits, 2);
	is_bytes(out, m.count, "3", 1, "2 CPUs, both allowed: \"3\" (live Cpus_allowed)");
	seq_init_buffer(&m, out, sizeof(out));
	seq_put_bitmap_list(&m, bits, 2);
	is_bytes(out, m.count, "0-1", 3, "Cpus_allowed_list: 0-1");

	/* Mems_allowed with MAX_NUMNODES = 1024: 32 groups, node 0 set. */
	memset(bits, 0, sizeof(bits));
	bits[0] = 1;
	seq_init_buffer(&m, out, sizeof(out));
	seq_put_bitmap(&m, bits, 1024);
	snprintf(want, sizeof(want), "%s", "");
	for (int i = 0; i < 31; i++)
		strcat(want, "00000000,");
	strcat(want, "00000001");
	is_bytes(out, m.count, want, strlen(want), "Mems_allowed over 1024 nodes");

	bits[0] = 0xd0f;
	seq_init_buffer(&m, out, sizeof(out));
	seq_put_bitmap_list(&m, bits, 64);
	is_bytes(out, m.count, "0-3,8,10-11", 11, "range list 0-3,8,10-11");
	memset(bits, 0, sizeof(bits));
	seq_init_buffer(&m, out, sizeof(out));
	seq_put_bitmap_list(&m, bits, 64);
	is_u64(m.count, 0, "empty mask prints an empty list");

	uint64_t st = 99;
	unsigned long bad = 0;
	for (int trial = 0; trial < 20000; trial++) {
		unsigned int nbits = 1 + (unsigned int)(test_rand(&st) % 1024);
		for (int w = 0; w < 16; w++) {
			uint64_t r = test_rand(&st);
			bits[w] = trial % 3 == 0 ? r & test_rand(&st) & test_rand(&st)
				  : trial % 3 == 1 ? r : (r & 1 ? ~UINT64_C(0) : 0);
		}
		ref_bitmap(want, bits, nbits);
		seq_init_buffer(&m, out, sizeof(out));
		seq_put_bitmap(&m, bits, nbits);
		if (m.count != strlen(want) || memcmp(out, want, m.count))
			if (++bad <= 3)
				diag("bitmap nbits %u mismatch", nbits);
		ref_list(want, bits, nbits);
		seq_init_buffer(&m, out, sizeof(out));
		seq_put_bitmap_list(&m, bits, nbits);
		if (m.count != strlen(want) || memcmp(out, want, m.count))
			if (++bad <= 3)
				diag("list nbits %u mismatch", nbits);
	}
	ok(bad == 0, "20000 random masks of 1..1024 bits match the bit-by-bit reference");
}

static void test_pad(void)
{
	struct seq_file m;

	seq_init_buffer(&m, out, sizeof(out));
	seq_setwidth(&m, 72);
	seq_puts(&m, "5563cc031000-5563cc033000 r--p 00000000 fe:00 247134 ");
	seq_pad(&m, ' ');
	seq_puts(&m, "/bin/x");
	ok(m.count == 73 + 6 && out[73] == '/', "maps names start at column 73");
	seq_init_buffer(&m, out, sizeof(out));
	seq_setwidth(&m, 10);
	seq_puts(&m, "0123456789abc");
	seq_pad(&m, '|');
	is_bytes(out, m.count, "0123456789abc|", 14, "past the width only the char is added");
	seq_init_buffer(&m, out, sizeof(out));
	seq_setwidth(&m, 4);
	seq_pad(&m, 0);
	is_bytes(out, m.count, "    ", 4, "pad without a trailing char");
}

int main(void)
{
	plan(0);
	test_escape();
	test_bitmaps();
	test_pad();
	return tap_done();
}
