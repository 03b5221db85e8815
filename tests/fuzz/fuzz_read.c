// SPDX-License-Identifier: MIT
/*
 * fuzz_read.c - libFuzzer target: the seq_file read protocol against one
 * whole read.  The input defines records (text, empty, SEQ_SKIP) and a
 * sequence of reads of any size, lseeks and preads; every byte returned must
 * be the byte at that offset of the whole text, and reading on from any
 * point must end exactly at its end.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uprocfs/seq_file.h"

#define MAX_RECORDS 64

struct records {
	size_t n;
	const uint8_t *text[MAX_RECORDS];
	size_t len[MAX_RECORDS];
	size_t rep[MAX_RECORDS];  /* the text is printed this many times: records past a page */
	int skip[MAX_RECORDS];
};

static void *rec_start(struct seq_file *m, loff_t *pos)
{
	struct records *r = m->private;

	return (size_t)*pos < r->n ? (void *)(uintptr_t)(*pos + 1) : NULL;
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
	struct records *r = m->private;
	size_t i = (size_t)(uintptr_t)v - 1;

	for (size_t k = 0; k < r->rep[i]; k++)
		seq_write(m, r->text[i], r->len[i]);
	return r->skip[i] ? SEQ_SKIP : 0;
}

static const struct seq_operations rec_ops = {
	.start = rec_start, .next = rec_next, .stop = rec_stop, .show = rec_show,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct records r = { 0 };
	uint8_t whole[1 << 16], got[1 << 14];
	size_t wlen = 0, at = 0;
	struct seq_file m;
	loff_t pos = 0;

	/* records: a length byte (bit 7: skipped, bit 6: printed 97 times), then that many bytes */
	while (at < size && r.n < MAX_RECORDS && data[at] != 0xff) {
		size_t len = data[at] & 0x3f, rep = (data[at] & 0x40) ? 97 : 1;

		r.skip[r.n] = data[at] >> 7;
		at++;
		if (len > size - at)
			len = size - at;
		r.text[r.n] = data + at;
		r.len[r.n] = len;
		r.rep[r.n] = rep;
		for (size_t k = 0; k < rep && !r.skip[r.n]; k++) {
			memcpy(whole + wlen, data + at, len);
			wlen += len;
		}
		at += len;
		r.n++;
	}
	at++;
	if (seq_open(&m, &rec_ops, &r))
		return 0;
	/* operations: 0..127 read that many (+1) bytes; 128..191 pread at a derived offset; else lseek */
	while (at < size) {
		uint8_t op = data[at++];
		ssize_t n;

		if (op < 128) {
			n = seq_read(&m, (char *)got, (size_t)op + 1, &pos);
			if (n < 0 || (size_t)pos > wlen || (size_t)n > (size_t)op + 1 ||
			    memcmp(got, whole + pos - n, (size_t)n)) {
				fprintf(stderr, "read of %u at %lld gave %zd bytes that differ\n", op + 1,
					(long long)(pos - (n > 0 ? n : 0)), n);
				abort();
			}
			if (n == 0 && (size_t)pos != wlen) {
				fprintf(stderr, "end of file at %lld of %zu\n", (long long)pos, wlen);
				abort();
			}
		} else if (op < 192) {
			loff_t off = wlen ? (loff_t)((op - 128) * 131u % (wlen + 1)) : 0, p = off;

			/* a pread, then reading on to the end: short reads are fine, wrong bytes are not */
			do {
				loff_t was = p;

				n = seq_read(&m, (char *)got, sizeof(got), &p);
				if (n < 0 || (size_t)p > wlen || memcmp(got, whole + was, (size_t)n)) {
					fprintf(stderr, "read of %zu at %lld (after a pread at %lld) gave %zd bytes that differ\n",
						sizeof(got), (long long)was, (long long)off, n);
					abort();
				}
			} while (n > 0);
			if ((size_t)p != wlen) {
				fprintf(stderr, "reading on from a pread at %lld ended at %lld of %zu\n", (long long)off,
					(long long)p, wlen);
				abort();
			}
			pos = p;
		} else {
			loff_t off = wlen ? (loff_t)((op - 192) * 37u % (wlen + 1)) : 0;

			if (seq_lseek(&m, off, SEEK_SET, &pos) != off) {
				fprintf(stderr, "lseek to %lld failed\n", (long long)off);
				abort();
			}
		}
	}
	seq_release(&m);
	return 0;
}
