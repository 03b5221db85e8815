// SPDX-License-Identifier: MIT
/*
 * test_seq_read.c - the read protocol.
 *
 * Any chunking of sequential reads, reads at random offsets (pread) and lseek
 * patterns reassemble to the bytes of one big read; a read at offset 0
 * regenerates; sequential reads of a seq_single_open file are served from one
 * snapshot; SEEK_END fails with -EINVAL.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "uprocfs/seq_file.h"

#define NRECORDS 300

/* Iterator file: record i has a length that varies with i; some records are
 * empty, some are skipped, a few exceed the first buffer to force growth. */
static void *rec_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	return *pos < NRECORDS ? (void *)(intptr_t)(*pos + 1) : NULL;
}

static void *rec_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return rec_start(m, pos);
}

static void rec_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

static int rec_show(struct seq_file *m, void *v)
{
	long i = (long)(intptr_t)v - 1;

	if (i % 17 == 5)
		return 0; /* empty record */
	if (i % 23 == 7) {
		seq_puts(m, "this record is skipped\n");
		return SEQ_SKIP;
	}
	seq_put_decimal_ull(m, "record ", (unsigned long long)i);
	seq_putc(m, ':');
	int reps = i % 97 == 3 ? 900 : (int)(i % 13);
	for (int k = 0; k < reps; k++)
		seq_put_hex_ll(m, " ", (unsigned long long)(i * 2654435761u + (unsigned)k), 8);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations rec_ops = {
	.start = rec_start, .next = rec_next, .stop = rec_stop, .show = rec_show,
};

/* Single file whose text carries a generation counter: a regeneration is visible. */
static unsigned long generation;

static int gen_show(struct seq_file *m, void *v)
{
	(void)v;
	generation++;
	seq_put_decimal_ull(m, "generation ", generation);
	seq_putc(m, '\n');
	for (int i = 0; i < 700; i++)
		seq_put_decimal_ull(m, i % 20 ? " " : "\n", (unsigned long long)i * 1000003u);
	seq_putc(m, '\n');
	return 0;
}

static char *read_all(struct seq_file *m, size_t chunk, size_t *len)
{
	size_t cap = 1 << 20, have = 0;
	char *out = malloc(cap);
	loff_t pos = 0;
	ssize_t n;

	while ((n = seq_read(m, out + have, chunk < cap - have ? chunk : cap - have, &pos)) > 0)
		have += (size_t)n;
	*len = n < 0 ? (size_t)-1 : have;
	return out;
}

static void open_records(struct seq_file *m)
{
	if (seq_open(m, &rec_ops, NULL))
		abort();
}

static void test_chunked_reads(const char *want, size_t len)
{
	static const size_t chunks[] = { 1, 2, 3, 7, 64, 100, 1000, 4095, 4096, 4097, 65536 };
	unsigned long wrong = 0;

	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		struct seq_file m;
		size_t got_len;
		char *got;

		open_records(&m);
		got = read_all(&m, chunks[i], &got_len);
		if (got_len != len || memcmp(got, want, len)) {
			wrong++;
			diag("chunk %zu: got %zu bytes, want %zu", chunks[i], got_len, len);
		}
		free(got);
		seq_release(&m);
	}
	ok(wrong == 0, "fixed chunk sizes 1..65536 reassemble the same bytes");

	uint64_t state = 42;
	wrong = 0;
	for (int trial = 0; trial < 50; trial++) {
		struct seq_file m;
		char *got = malloc(len + 100000);
		size_t have = 0;
		loff_t pos = 0;
		ssize_t n;

		open_records(&m);
		do {
			size_t chunk = 1 + (size_t)(test_rand(&state) % (trial % 2 ? 50 : 9000));
			n = seq_read(&m, got + have, chunk, &pos);
			if (n > 0)
				have += (size_t)n;
		} while (n > 0);
		if (n < 0 || have != len || memcmp(got, want, len))
			wrong++;
		free(got);
		seq_release(&m);
	}
	ok(wrong == 0, "random chunk sizes reassemble the same bytes (50 trials)");
}

static void test_pread_and_lseek(const char *want, size_t len)
{
	uint64_t state = 7;
	unsigned long wrong = 0;
	struct seq_file m;
	char buf[5000];

	open_records(&m);
	for (int i = 0; i < 2000; i++) {
		loff_t off = (loff_t)(test_rand(&state) % (len + 10));
		size_t n = 1 + (size_t)(test_rand(&state) % sizeof(buf));
		loff_t pos = off;
		ssize_t r = seq_read(&m, buf, n, &pos);
		size_t expect = off >= (loff_t)len ? 0 : ((size_t)off + n > len ? len - (size_t)off : n);

		/* A read returns at most what the current records hold; keep reading. */
		size_t have = r > 0 ? (size_t)r : 0;
		while (r > 0 && have < expect) {
			r = seq_read(&m, buf + have, expect - have, &pos);
			if (r > 0)
				have += (size_t)r;
		}
		if (r < 0 || have != expect || memcmp(buf, want + off, have))
			wrong++;
		if (pos != off + (loff_t)have)
			wrong++;
	}
	ok(wrong == 0, "reads at 2000 random offsets return the bytes at those offsets");

	/* lseek patterns */
	loff_t pos = 0;
	wrong = 0;
	for (int i = 0; i < 500; i++) {
		loff_t target = (loff_t)(test_rand(&state) % len);
		loff_t r;

		if (i % 2)
			r = seq_lseek(&m, target, SEEK_SET, &pos);
		else
			r = seq_lseek(&m, target - pos, SEEK_CUR, &pos);
		if (r != target || pos != target) {
			wrong++;
			continue;
		}
		ssize_t n = seq_read(&m, buf, 1, &pos);
		if (n != 1 || buf[0] != want[target])
			wrong++;
	}
	ok(wrong == 0, "SEEK_SET/SEEK_CUR to random offsets then read the right byte");
	ok(seq_lseek(&m, 0, SEEK_END, &pos) == -EINVAL, "SEEK_END is -EINVAL");
	ok(seq_lseek(&m, -1, SEEK_SET, &pos) == -EINVAL, "negative offset is -EINVAL");
	ok(seq_lseek(&m, 0, SEEK_DATA, &pos) == -EINVAL, "SEEK_DATA is -EINVAL");
	pos = (loff_t)len + 100;
	ok(seq_read(&m, buf, 10, &pos) == 0, "read past the end returns 0");
	seq_release(&m);
}

/*
 * Count start() calls of a seq_single_open file: its operations are the
 * engine's, so the test wraps them.
 */
static const struct seq_operations *single_ops;
static struct seq_operations counted_ops;
static unsigned long starts;

static void *counting_start(struct seq_file *m, loff_t *pos)
{
	starts++;
	return single_ops->start(m, pos);
}

static void count_starts(struct seq_file *m)
{
	single_ops = m->op;
	counted_ops = *m->op;
	counted_ops.start = counting_start;
	m->op = &counted_ops;
}

static void test_snapshot(void)
{
	struct seq_file m;
	char first[64], again[64], buf[100000];
	size_t have = 0;
	loff_t pos = 0;
	ssize_t n;
	unsigned long regen_before;

	generation = 0;
	if (seq_single_open(&m, gen_show, NULL))
		abort();
	count_starts(&m);
	n = seq_read(&m, first, 20, &pos);
	ok(n == 20 && generation >= 1, "first read generates the file");
	regen_before = starts;
	memcpy(buf, first, 20);
	have = 20;
	unsigned long gen_before = generation;
	while ((n = seq_read(&m, buf + have, 13, &pos)) > 0)
		have += (size_t)n;
	ok(generation == gen_before, "sequential small reads drain one snapshot (no new show)");
	ok(starts - regen_before <= 2, "start() is called again only at the end (%lu calls)",
	   starts - regen_before);
	ok(have > 4096, "the file outgrew the first buffer (%zu bytes)", have);

	pos = 0;
	n = seq_read(&m, again, 20, &pos);
	ok(n == 20 && generation == gen_before + 1, "a read at offset 0 regenerates");
	ok(memcmp(first, again, 20) != 0, "the new snapshot carries the new generation");

	loff_t seekpos = 0;
	seq_lseek(&m, 0, SEEK_SET, &seekpos);
	unsigned long g = generation;
	pos = 500;
	n = seq_read(&m, again, 10, &pos);
	ok(n == 10 && generation == g + 1, "a read at another offset regenerates (pread)");
	seq_release(&m);
}

static void test_read_zero_and_errors(void)
{
	struct seq_file m;
	char buf[8];
	loff_t pos = 0;

	open_records(&m);
	ok(seq_read(&m, buf, 0, &pos) == 0 && pos == 0, "zero-length read returns 0");
	pos = -5;
	ok(seq_read(&m, buf, 8, &pos) == -EINVAL, "negative position is -EINVAL");
	seq_release(&m);
	ok(seq_open(&m, NULL, NULL) == -EINVAL, "seq_open without ops is -EINVAL");
}

int main(void)
{
	struct seq_file m;
	size_t len;
	char *want;

	plan(0);
	open_records(&m);
	want = read_all(&m, 1 << 20, &len);
	ok(len != (size_t)-1 && len > 20000, "one big read of the iterator file (%zu bytes)", len);
	seq_release(&m);

	test_chunked_reads(want, len);
	test_pread_and_lseek(want, len);
	test_snapshot();
	test_read_zero_and_errors();
	free(want);
	return tap_done();
}
