/* SPDX-License-Identifier: MIT */
/*
 * seq_num.h - integer-to-text converters behind the seq_file putters.
 *
 * Decimal: a forward-writing fixed-point converter (the method J. Jeaiii
 * published): for n < 1e8 one multiply by ceil(2^48 / 100^P) leaves the leading
 * one or two digits above bit 48 and each further multiply by 100 lifts the next
 * pair, so digits come out in order with no division and no reversal.
 * 100^(2P+1) < 2^48 for P <= 3 makes it exact for every n < 1e8 (tested
 * exhaustively in tests/unit/test_putters.c).  Wider values split at 1e8 and
 * 1e16 (multiply-high divisions the compiler generates) into fixed 8-digit
 * chunks.  Values 0..9 take their own first branch: they are most /proc fields.
 *
 * Hex: a 256-entry byte-pair table, filled from the low end.
 *
 * docs/number-formatting.md has the measurements behind both.
 */
#ifndef UPROCFS_SEQ_NUM_H
#define UPROCFS_SEQ_NUM_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/** "00" "01" ... "99": two ASCII digits per value. */
extern const char seq_dec_pairs[200];
/** "00" "01" ... "ff": two lowercase hex digits per byte value. */
extern const char seq_hex_pairs[512];
/** 10^0 .. 10^19. */
extern const uint64_t seq_pow10[20];

/* Inlined into every putter call site so each builds its own branch history. */
#define SEQ_INLINE static inline __attribute__((always_inline))

#define SEQ__FP_SHIFT 48
#define SEQ__FP_MASK ((UINT64_C(1) << SEQ__FP_SHIFT) - 1)
/* ceil(2^48 / 100^P) for P = 1, 2, 3 */
#define SEQ__FP_P1 ((UINT64_C(1) << SEQ__FP_SHIFT) / 100 + 1)
#define SEQ__FP_P2 ((UINT64_C(1) << SEQ__FP_SHIFT) / 10000 + 1)
#define SEQ__FP_P3 ((UINT64_C(1) << SEQ__FP_SHIFT) / 1000000 + 1)

/** Number of decimal digits of @n (1 for 0). */
SEQ_INLINE unsigned int seq_dec_len(uint64_t n)
{
	unsigned int bits = 64u - (unsigned int)__builtin_clzll(n | 1);
	unsigned int t = (bits * 1233u) >> 12; /* floor(log10(2^bits)), or one less */

	return t + ((n | 1) >= seq_pow10[t]);
}

/** Number of hex digits of @v (1 for 0). */
SEQ_INLINE unsigned int seq_hex_len(uint64_t v)
{
	return (67u - (unsigned int)__builtin_clzll(v | 1)) >> 2;
}

/* The pair of digits above bit 48 of y. */
SEQ_INLINE char *seq__pair(char *p, uint64_t y)
{
	memcpy(p, seq_dec_pairs + 2 * (y >> SEQ__FP_SHIFT), 2);
	return p + 2;
}

/* Leading digit(s) of y: one when @odd (odd digit count), else a pair. */
SEQ_INLINE char *seq__lead(char *p, uint64_t y, int odd)
{
	if (odd) {
		*p = (char)('0' + (y >> SEQ__FP_SHIFT));
		return p + 1;
	}
	return seq__pair(p, y);
}

/* Lift the next pair of digits above bit 48 of *y and write it. */
SEQ_INLINE char *seq__next_pair(char *p, uint64_t *y)
{
	*y = (*y & SEQ__FP_MASK) * 100;
	return seq__pair(p, *y);
}

/** Write @n (< 1e8) without leading zeros at @p; return the end. */
SEQ_INLINE char *seq_dec_u32_lt1e8(char *p, uint32_t n)
{
	uint64_t y;

	if (n < 100) {
		if (n < 10) {
			*p = (char)('0' + n);
			return p + 1;
		}
		memcpy(p, seq_dec_pairs + 2 * n, 2);
		return p + 2;
	}
	if (n < 1000000) {
		if (n < 10000) {
			y = (uint64_t)n * SEQ__FP_P1;
			p = seq__lead(p, y, n < 1000);
			return seq__next_pair(p, &y);
		}
		y = (uint64_t)n * SEQ__FP_P2;
		p = seq__lead(p, y, n < 100000);
		p = seq__next_pair(p, &y);
		return seq__next_pair(p, &y);
	}
	y = (uint64_t)n * SEQ__FP_P3;
	p = seq__lead(p, y, n < 10000000);
	p = seq__next_pair(p, &y);
	p = seq__next_pair(p, &y);
	return seq__next_pair(p, &y);
}

#if defined(__SSE2__) && !defined(SEQ_NO_SIMD)
/*
 * Fixed-width chunks with SSE2 (baseline on x86-64).  A chunk of 8 digits is
 * split by a scalar divide into two 4-digit halves, each broadcast to four
 * 16-bit lanes; lane k then holds x / 10^(3-k), obtained as two unsigned
 * multiply-high steps (pmulhuw) by a reciprocal and a power of two, exact for
 * x < 10^4 (x is pre-scaled by 4 so the reciprocals keep 16 bits).  Digit k is
 * that quotient minus ten times the quotient of the lane before it, which a
 * 16-bit shift of each 64-bit group lines up.  Half the instructions of the
 * scalar chunk, which matters for 17..20-digit values.
 */
#include <emmintrin.h>

/*
 * Ten times each 16-bit lane, as one pmullw: gcc otherwise turns a multiply
 * by the constant 10 into shift, add, shift and two register copies, which
 * costs the 17-20 digit path more instructions than its multiply port.
 */
SEQ_INLINE __m128i seq__times10(__m128i q)
{
	__m128i ten = _mm_set1_epi16(10);

	__asm__("" : "+x"(ten));
	return _mm_mullo_epi16(q, ten);
}

/* The 8 digits of @n (< 1e8) as 16-bit lanes, most significant first. */
SEQ_INLINE __m128i seq__digits8_sse2(uint32_t n)
{
	const __m128i recip = _mm_setr_epi16(8389, 5243, (short)52429, (short)32768,
					      8389, 5243, (short)52429, (short)32768);
	const __m128i shift = _mm_setr_epi16(1 << 7, 1 << 11, 1 << 11, (short)32768,
					      1 << 7, 1 << 11, 1 << 11, (short)32768);
	uint32_t hi = n / 10000, lo = n - hi * 10000;
	/* [hi, lo] in the low lanes, then widened to [hi x4, lo x4] by two unpacks. */
	__m128i x = _mm_cvtsi32_si128((int)((hi << 2) | (lo << 18)));

	x = _mm_unpacklo_epi16(x, x);
	x = _mm_unpacklo_epi32(x, x);
	__m128i q = _mm_mulhi_epu16(_mm_mulhi_epu16(x, recip), shift);

	return _mm_sub_epi16(q, seq__times10(_mm_slli_epi64(q, 16)));
}

/* The digits of each 4-digit lane group of @x (built as in seq__digits8_sse2), as 16-bit lanes. */
SEQ_INLINE __m128i seq__split4x2_sse2(__m128i x)
{
	const __m128i recip = _mm_setr_epi16(8389, 5243, (short)52429, (short)32768,
					      8389, 5243, (short)52429, (short)32768);
	const __m128i shift = _mm_setr_epi16(1 << 7, 1 << 11, 1 << 11, (short)32768,
					      1 << 7, 1 << 11, 1 << 11, (short)32768);
	__m128i q = _mm_mulhi_epu16(_mm_mulhi_epu16(x, recip), shift);

	return _mm_sub_epi16(q, seq__times10(_mm_slli_epi64(q, 16)));
}

/*
 * The 16 digits of @hi8 and @lo8 (each < 1e8) as 16-bit lanes, @hi8's in
 * *@a: both split into 4-digit halves at once (pmuludq by the reciprocal of
 * 10^4), which spares the scalar multiplier two multiplies each.
 */
SEQ_INLINE void seq__digits16_sse2(uint32_t hi8, uint32_t lo8, __m128i *a, __m128i *b)
{
	__m128i x = _mm_set_epi64x((long long)lo8, (long long)hi8);
	__m128i q = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi32((int)3518437209u)), 45);
	__m128i r = _mm_sub_epi32(x, _mm_mul_epu32(q, _mm_set1_epi32(10000)));
	/* 16-bit lanes [q, r, 0, 0] per half, times 4 as seq__digits8_sse2 wants them */
	__m128i qr = _mm_slli_epi16(_mm_or_si128(q, _mm_slli_epi64(r, 16)), 2);

	qr = _mm_shufflehi_epi16(_mm_shufflelo_epi16(qr, _MM_SHUFFLE(1, 1, 0, 0)), _MM_SHUFFLE(1, 1, 0, 0));
	*a = seq__split4x2_sse2(_mm_unpacklo_epi16(qr, qr));
	*b = seq__split4x2_sse2(_mm_unpackhi_epi16(qr, qr));
}

/** Write exactly 8 digits of @n (< 1e8), zero-padded, at @p; return the end. */
SEQ_INLINE char *seq_dec_fixed8(char *p, uint32_t n)
{
	__m128i d = seq__digits8_sse2(n);
	__m128i ascii = _mm_add_epi8(_mm_packus_epi16(d, d), _mm_set1_epi8('0'));

	_mm_storel_epi64((__m128i *)(void *)p, ascii);
	return p + 8;
}

/** Write exactly 16 digits of @hi8 and @lo8 (each < 1e8) at @p; return the end. */
SEQ_INLINE char *seq_dec_fixed16(char *p, uint32_t hi8, uint32_t lo8)
{
	__m128i a, b, ascii;

	seq__digits16_sse2(hi8, lo8, &a, &b);
	ascii = _mm_add_epi8(_mm_packus_epi16(a, b), _mm_set1_epi8('0'));
	_mm_storeu_si128((__m128i *)(void *)p, ascii);
	return p + 16;
}
#else
/** Write exactly 8 digits of @n (< 1e8), zero-padded, at @p; return the end. */
SEQ_INLINE char *seq_dec_fixed8(char *p, uint32_t n)
{
	uint64_t y = (uint64_t)n * SEQ__FP_P3;

	p = seq__pair(p, y);
	p = seq__next_pair(p, &y);
	p = seq__next_pair(p, &y);
	return seq__next_pair(p, &y);
}

/** Write exactly 16 digits of @hi8 and @lo8 (each < 1e8) at @p; return the end. */
SEQ_INLINE char *seq_dec_fixed16(char *p, uint32_t hi8, uint32_t lo8)
{
	return seq_dec_fixed8(seq_dec_fixed8(p, hi8), lo8);
}
#endif

/** Write @n in decimal at @p (at most 20 bytes, no NUL); return the end. */
SEQ_INLINE char *seq_dec_u64(char *p, uint64_t n)
{
	if (__builtin_expect(n < 100000000u, 1))
		return seq_dec_u32_lt1e8(p, (uint32_t)n);
	if (n < UINT64_C(10000000000000000)) {
		uint64_t hi = n / 100000000u;
		p = seq_dec_u32_lt1e8(p, (uint32_t)hi);
		return seq_dec_fixed8(p, (uint32_t)(n - hi * 100000000u));
	}
	/* Both divides from @n, so neither waits for the other. */
	uint64_t hi = n / 100000000u;
	uint32_t top = (uint32_t)(n / UINT64_C(10000000000000000));
	uint32_t lo = (uint32_t)(n - hi * 100000000u);
	uint32_t mid = (uint32_t)(hi - (uint64_t)top * 100000000u);
	p = seq_dec_u32_lt1e8(p, top);
	return seq_dec_fixed16(p, mid, lo);
}

#if defined(__SSE2__) && !defined(SEQ_NO_SIMD)
/* The 16 digits of @hi8 and @lo8 (each < 1e8) as ASCII: @hi8's in *a, @lo8's in *b, first digit lowest. */
SEQ_INLINE void seq__ascii16(uint32_t hi8, uint32_t lo8, uint64_t *a, uint64_t *b)
{
	__m128i x, y, d;

	seq__digits16_sse2(hi8, lo8, &x, &y);
	d = _mm_packus_epi16(x, y);

	d = _mm_add_epi8(d, _mm_set1_epi8('0'));
	*a = (uint64_t)_mm_cvtsi128_si64(d);
	*b = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(d, d));
}
/* The 8 digits of @n (< 1e8) as ASCII, first digit lowest. */
SEQ_INLINE uint64_t seq__ascii8(uint32_t n)
{
	__m128i d = seq__digits8_sse2(n);

	return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi8(_mm_packus_epi16(d, d), _mm_set1_epi8('0')));
}
#else
SEQ_INLINE uint64_t seq__ascii8(uint32_t n)
{
	char t[8];
	uint64_t a;

	seq_dec_fixed8(t, n);
	memcpy(&a, t, 8);
	return a;
}

SEQ_INLINE void seq__ascii16(uint32_t hi8, uint32_t lo8, uint64_t *a, uint64_t *b)
{
	char t[16];

	seq_dec_fixed16(t, hi8, lo8);
	memcpy(a, t, 8);
	memcpy(b, t + 8, 8);
}
#endif

/*
 * Each value below 1000 in one 32-bit word: three digits with leading
 * zeros, the first in the lowest byte, and the digit count in the highest.
 */
extern const uint32_t seq_dec_small[1000];

/**
 * seq_dec_u64 for a caller that owns 20 bytes at @p whatever @n's length:
 * bytes after the number may be overwritten.  Three ranges, with one branch
 * on the length inside them (at 10^19, in the top one):
 *  - below 1000 (most of /proc's numbers): a table word, stored whole;
 *  - below 10^16: all 16 digits made at once in vector lanes and shifted,
 *    as one 128-bit value, right by the leading zeros, then stored whole;
 *  - above: the top 1-4 digits from the table (from 10^19 up, a '1' and
 *    three), then 16 digits.
 * A stream of mixed magnitudes then mispredicts at most the two range
 * branches (the old converter branched on each digit count).
 */
SEQ_INLINE char *seq_dec_u64_spill(char *p, uint64_t n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t hi, a, b;
	unsigned int len;

	if (__builtin_expect(n < 1000u, 1)) {
		uint32_t w = seq_dec_small[n], len3 = w >> 24, d = (w & 0xffffffu) >> (8 * (3 - len3));

		memcpy(p, &d, 4);
		return p + len3;
	}
	/* not marked unlikely: gcc then builds that path for size, with divide instructions */
	if (n >= UINT64_C(10000000000000000)) {
		/* 17 to 20 digits: the top 1-4 (below 1845) from the table, then 16 */
		uint64_t h = n / 100000000u;
		uint32_t top = (uint32_t)(n / UINT64_C(10000000000000000));
		uint32_t lo = (uint32_t)(n - h * 100000000u), mid = (uint32_t)(h - (uint64_t)top * 100000000u);
		uint32_t d, toplen;

		/* gcc branches on the top's length whatever the source says, so say it once */
		if (n >= UINT64_C(10000000000000000000)) {
			d = '1' | (seq_dec_small[top - 1000u] & 0xffffffu) << 8;
			toplen = 4;
		} else {
			uint32_t w = seq_dec_small[top];

			toplen = w >> 24;
			d = (w & 0xffffffu) >> (8 * (3 - toplen));
		}
		memcpy(p, &d, 4);
		return seq_dec_fixed16(p + toplen, mid, lo);
	}
	if (n < 100000000u) {
		len = seq_dec_len(n); /* 4..8 */
		a = seq__ascii8((uint32_t)n) >> (8 * (8 - len));
		memcpy(p, &a, 8);
		return p + len;
	}
	hi = n / 100000000u;
	{
		unsigned __int128 x;

		len = seq_dec_len(n); /* 4..16 */
		seq__ascii16((uint32_t)hi, (uint32_t)(n - hi * 100000000u), &a, &b);
		x = ((unsigned __int128)b << 64 | a) >> (8 * (16 - len));
		memcpy(p, &x, 16);
		return p + len;
	}
#else
	return seq_dec_u64(p, n);
#endif
}

#if defined(__SSE2__) && !defined(SEQ_NO_SIMD)
/*
 * 16 lowercase hex digits of @v at @p in a few vector steps: the bytes of @v,
 * most significant first, split into high and low nibbles and interleaved, then
 * '0' added and 39 more to the digits above 9.  The caller must own 16 bytes
 * at @p; with @v shifted left by 4 * (16 - len), the first len are the number.
 */
SEQ_INLINE void seq_hex16_sse2(char *p, uint64_t v)
{
	__m128i x = _mm_cvtsi64_si128((long long)__builtin_bswap64(v));
	__m128i lo = _mm_and_si128(x, _mm_set1_epi8(0x0f));
	__m128i hi = _mm_and_si128(_mm_srli_epi16(x, 4), _mm_set1_epi8(0x0f));
	__m128i d = _mm_unpacklo_epi8(hi, lo);
	__m128i letters = _mm_and_si128(_mm_cmpgt_epi8(d, _mm_set1_epi8(9)), _mm_set1_epi8(39));

	_mm_storeu_si128((__m128i *)(void *)p, _mm_add_epi8(_mm_add_epi8(d, _mm_set1_epi8('0')), letters));
}
#endif

/** Fill exactly @len lowercase hex digits of @v at @p, zero-padded on the left. */
SEQ_INLINE void seq_hex_fill(char *p, uint64_t v, unsigned int len)
{
	char *q = p + len;

	/* Widths beyond 16 digits are all zeros at the front. */
	while (len > 16) {
		*p++ = '0';
		len--;
	}
	/*
	 * Two digits per table load, filled from the low end; the jump into the
	 * unrolled sequence replaces a loop whose exit the predictor would have
	 * to learn per width.
	 */
#define SEQ__HEX_PAIR(k) memcpy(q - 2 * (k), seq_hex_pairs + 2 * ((v >> (8 * ((k) - 1))) & 0xff), 2)
	switch (len >> 1) {
	case 8: SEQ__HEX_PAIR(8); /* fall through */
	case 7: SEQ__HEX_PAIR(7); /* fall through */
	case 6: SEQ__HEX_PAIR(6); /* fall through */
	case 5: SEQ__HEX_PAIR(5); /* fall through */
	case 4: SEQ__HEX_PAIR(4); /* fall through */
	case 3: SEQ__HEX_PAIR(3); /* fall through */
	case 2: SEQ__HEX_PAIR(2); /* fall through */
	case 1: SEQ__HEX_PAIR(1); /* fall through */
	default: break;
	}
#undef SEQ__HEX_PAIR
	if (len & 1)
		*p = seq_hex_pairs[2 * ((v >> (4 * (len - 1))) & 0xf) + 1];
}

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_SEQ_NUM_H */
