// SPDX-License-Identifier: MIT
/*
 * test_seq_protocol.c - where seq_read stops generating records, and what it
 * does with a next() that forgets to move the position.
 *
 * The kernel's seq_read_iter (fs/seq_file.c, Linux 6.18) puts one non-empty
 * record in the buffer, then keeps calling next() and show() while the
 * buffer holds less than the reader asked for.  The check comes after next():
 * once count >= the requested size the record next() just returned is not
 * shown; the position stays on it and the following read regenerates it
 * through start().  So a read of exactly one record's length shows exactly
 * that record, a read one byte longer shows the next one too, and any chunking
 * of sequential reads shows every record exactly once.
 *
 * A next() that returns the following record but leaves *pos alone is a bug
 * the kernel tolerates: it logs "buggy .next function ... did not update
 * position index" and increments the index itself.  The output is then the
 * same as with a correct next(): every record once, no endless loop.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "uprocfs/seq_file.h"

#define NREC 12

/* Record lengths, newline included: short and long ones side by side. */
static const unsigned int rec_len[NREC] = { 1, 5, 3, 10, 2, 7, 1, 4, 9, 6, 3, 8 };
static char rec_text[NREC][16];
static char all_text[256];
static size_t all_len;

/* What the engine asked of the iterator. */
static unsigned int shows[NREC];
static unsigned int starts, nexts;

static void reset_counts(void)
{
	memset(shows, 0, sizeof(shows));
	starts = nexts = 0;
}

static unsigned int total_shows(void)
{
	unsigned int n = 0;

	for (int i = 0; i < NREC; i++)
		n += shows[i];
	return n;
}

/* Record i is a letter repeated up to its length, then a newline. */
static void make_records(void)
{
	all_len = 0;
	for (int i = 0; i < NREC; i++) {
		memset(rec_text[i], 'a' + i, rec_len[i] - 1);
		rec_text[i][rec_len[i] - 1] = '\n';
		memcpy(all_text + all_len, rec_text[i], rec_len[i]);
		all_len += rec_len[i];
	}
}

static void *rec_at(loff_t pos)
{
	return pos >= 0 && pos < NREC ? (void *)rec_text[pos] : NULL;
}

static loff_t rec_index(const void *v)
{
	return ((const char (*)[16])v) - rec_text;
}

static void *it_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	starts++;
	return rec_at(*pos);
}

static void *it_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)m;
	(void)v;
	nexts++;
	return rec_at(++*pos);
}

/* The bug: the following record comes from @v, and *pos is left where it was. */
static void *it_next_buggy(struct seq_file *m, void *v, loff_t *pos)
{
	(void)m;
	(void)pos;
	nexts++;
	return rec_at(rec_index(v) + 1);
}

static void it_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

static int it_show(struct seq_file *m, void *v)
{
	loff_t i = rec_index(v);

	shows[i]++;
	seq_write(m, rec_text[i], rec_len[i]);
	return 0;
}

static const struct seq_operations good_ops = {
	.start = it_start, .next = it_next, .stop = it_stop, .show = it_show,
};
static const struct seq_operations buggy_ops = {
	.start = it_start, .next = it_next_buggy, .stop = it_stop, .show = it_show,
};

/* How many records a first read of @size bytes must show: up to the one that reaches @size. */
static unsigned int records_for(size_t size)
{
	size_t sum = 0;

	for (unsigned int i = 0; i < NREC; i++) {
		sum += rec_len[i];
		if (sum >= size)
			return i + 1;
	}
	return NREC;
}

/* One read of @size at offset 0 of a fresh open: bytes, shows, position. */
static int first_read_ok(const struct seq_operations *ops, size_t size)
{
	struct seq_file m;
	char buf[256];
	loff_t pos = 0;
	size_t want = size < all_len ? size : all_len;
	unsigned int nrec = records_for(size);
	ssize_t n;
	int good = 1;

	if (seq_open(&m, ops, NULL))
		abort();
	reset_counts();
	n = seq_read(&m, buf, size, &pos);
	if (n != (ssize_t)want || memcmp(buf, all_text, want)) {
		diag("size %zu: read %zd bytes, want %zu", size, n, want);
		good = 0;
	}
	for (unsigned int i = 0; i < NREC; i++)
		if (shows[i] != (i < nrec)) {
			diag("size %zu: record %u shown %u times, want %u", size, i, shows[i], i < nrec);
			good = 0;
		}
	/* The position is on the record next() returned last: shown next time. */
	if (m.index != (loff_t)nrec || starts != 1) {
		diag("size %zu: index %lld (want %u), %u start() calls", size, (long long)m.index,
		     nrec, starts);
		good = 0;
	}
	seq_release(&m);
	return good;
}

/* Sequential reads of @chunk bytes from 0 to EOF: the whole text, each record shown once. */
static int chunked_ok(const struct seq_operations *ops, size_t chunk)
{
	struct seq_file m;
	char got[512];
	size_t have = 0;
	loff_t pos = 0;
	ssize_t n;
	int good = 1;

	if (seq_open(&m, ops, NULL))
		abort();
	reset_counts();
	while (have + chunk <= sizeof(got) && (n = seq_read(&m, got + have, chunk, &pos)) > 0)
		have += (size_t)n;
	if (have != all_len || memcmp(got, all_text, all_len)) {
		diag("chunk %zu: %zu bytes, want %zu", chunk, have, all_len);
		good = 0;
	}
	for (int i = 0; i < NREC; i++)
		if (shows[i] != 1) {
			diag("chunk %zu: record %d shown %u times", chunk, i, shows[i]);
			good = 0;
		}
	seq_release(&m);
	return good;
}

static void test_fill_stop(void)
{
	struct seq_file m;
	char buf[64];
	loff_t pos = 0;
	unsigned int bad = 0, bad_chunks = 0;
	int each = 1;

	for (size_t size = 1; size <= all_len + 1; size++)
		bad += !first_read_ok(&good_ops, size);
	ok(bad == 0, "a first read of 1..%zu bytes shows the records up to the one reaching the size, no more",
	   all_len + 1);

	ok(first_read_ok(&good_ops, rec_len[0]) && first_read_ok(&good_ops, rec_len[0] + 1),
	   "a read of record 0's length shows record 0 only; one byte more shows record 1 too");

	/* Reads of exactly each record's length return exactly that record. */
	if (seq_open(&m, &good_ops, NULL))
		abort();
	reset_counts();
	for (int i = 0; i < NREC; i++) {
		unsigned int before = total_shows();
		ssize_t n = seq_read(&m, buf, rec_len[i], &pos);

		if (n != (ssize_t)rec_len[i] || memcmp(buf, rec_text[i], rec_len[i]) ||
		    total_shows() != before + 1 || shows[i] != 1) {
			diag("record %d: read %zd bytes, %u shows", i, n, total_shows() - before);
			each = 0;
		}
	}
	ok(each && seq_read(&m, buf, sizeof(buf), &pos) == 0,
	   "reads of each record's length return one record each, generating only it, then EOF");
	seq_release(&m);

	for (size_t chunk = 1; chunk <= all_len + 1; chunk++)
		bad_chunks += !chunked_ok(&good_ops, chunk);
	ok(bad_chunks == 0, "sequential reads of 1..%zu bytes show every record exactly once",
	   all_len + 1);
}

static void test_buggy_next(void)
{
	struct seq_file m;
	char buf[256];
	loff_t pos = 0;
	unsigned int bad = 0, bad_chunks = 0;
	ssize_t n;

	/* An engine that trusted *pos would loop on record 0 for ever. */
	alarm(20);

	if (seq_open(&m, &buggy_ops, NULL))
		abort();
	reset_counts();
	n = seq_read(&m, buf, sizeof(buf), &pos);
	ok(n == (ssize_t)all_len && !memcmp(buf, all_text, all_len),
	   "buggy next(): one big read returns every record in order");
	ok(total_shows() == NREC && shows[0] == 1 && shows[NREC - 1] == 1,
	   "buggy next(): each record shown once (%u shows)", total_shows());
	ok(m.index == NREC && nexts == NREC,
	   "buggy next(): the engine moved the index once per next() (%lld)", (long long)m.index);
	ok(seq_read(&m, buf, sizeof(buf), &pos) == 0, "buggy next(): then EOF");
	seq_release(&m);

	for (size_t size = 1; size <= all_len + 1; size++)
		bad += !first_read_ok(&buggy_ops, size);
	ok(bad == 0, "buggy next(): first reads of 1..%zu bytes stop where a correct next() does",
	   all_len + 1);
	for (size_t chunk = 1; chunk <= all_len + 1; chunk++)
		bad_chunks += !chunked_ok(&buggy_ops, chunk);
	ok(bad_chunks == 0, "buggy next(): sequential reads of 1..%zu bytes show every record once",
	   all_len + 1);
	alarm(0);
}

int main(void)
{
	plan(0);
	make_records();
	test_fill_stop();
	test_buggy_next();
	return tap_done();
}
