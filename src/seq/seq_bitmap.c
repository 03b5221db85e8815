// SPDX-License-Identifier: MIT
/*
 * seq_bitmap.c - CPU and node masks as text.
 *
 * Mirrors lib/vsprintf.c bitmap_string (%*pb) and bitmap_list_string (%*pbl)
 * of Linux 6.18, as printed by Cpus_allowed:, Mems_allowed: and their _list
 * forms in /proc/<pid>/status.
 */
#include "uprocfs/seq_file.h"

#define CHUNK_BITS 32u

static uint32_t bitmap_chunk(const uint64_t *bits, unsigned int first_bit, unsigned int nbits)
{
	uint64_t word = bits[first_bit / 64] >> (first_bit % 64);
	return (uint32_t)(word & ((UINT64_C(1) << nbits) - 1));
}

void seq_put_bitmap(struct seq_file *m, const uint64_t *bits, unsigned int nbits)
{
	unsigned int chunk_bits = nbits % CHUNK_BITS ? nbits % CHUNK_BITS : CHUNK_BITS;
	unsigned int top_digits = (chunk_bits + 3) / 4, first;
	size_t need;

	if (!nbits)
		return;
	/* The top chunk is printed only as wide as its bits; the rest 8 digits. */
	first = (nbits + CHUNK_BITS - 1) / CHUNK_BITS * CHUNK_BITS - CHUNK_BITS;
	need = top_digits + (size_t)(first / CHUNK_BITS) * 9;
	if (m->count + need < m->size) {
		/* it all fits: write the groups in place (Mems_allowed is 32 of them) */
		char *p = m->buf + m->count;

		seq_hex_fill(p, bitmap_chunk(bits, first, chunk_bits), top_digits);
		p += top_digits;
		while (first) {
			first -= CHUNK_BITS;
			*p++ = ',';
			seq_hex_fill(p, bitmap_chunk(bits, first, CHUNK_BITS), 8);
			p += 8;
		}
		m->count += need;
		return;
	}
	seq_put_hex_ll(m, NULL, bitmap_chunk(bits, first, chunk_bits), top_digits);
	while (first) {
		first -= CHUNK_BITS;
		seq_put_hex_ll(m, ",", bitmap_chunk(bits, first, CHUNK_BITS), 8);
	}
}

/* Next set bit at or after @bit, or @nbits. */
static unsigned int next_bit(const uint64_t *bits, unsigned int bit, unsigned int nbits, int set)
{
	while (bit < nbits) {
		uint64_t word = bits[bit / 64];

		if (!set)
			word = ~word;
		word &= ~UINT64_C(0) << (bit % 64);
		if (word) {
			bit = bit / 64 * 64 + (unsigned int)__builtin_ctzll(word);
			return bit < nbits ? bit : nbits;
		}
		bit = (bit / 64 + 1) * 64;
	}
	return nbits;
}

void seq_put_bitmap_list(struct seq_file *m, const uint64_t *bits, unsigned int nbits)
{
	const char *sep = NULL;
	unsigned int start = next_bit(bits, 0, nbits, 1);

	while (start < nbits) {
		unsigned int end = next_bit(bits, start, nbits, 0); /* one past the run */

		seq_put_decimal_ull(m, sep, start);
		if (end - 1 > start)
			seq_put_decimal_ull(m, "-", end - 1);
		sep = ",";
		start = end < nbits ? next_bit(bits, end, nbits, 1) : nbits;
	}
}
