// SPDX-License-Identifier: MIT
/*
 * seq_num.c - the lookup tables behind seq_num.h's converters.
 */
#include "uprocfs/seq_num.h"

/* Two ASCII digits for each value 0..99, written as pairs in one store. */
const char seq_dec_pairs[200] =
	"0001020304050607080910111213141516171819"
	"2021222324252627282930313233343536373839"
	"4041424344454647484950515253545556575859"
	"6061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Two lowercase hex digits for each byte value. */
const char seq_hex_pairs[512] =
	"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
	"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
	"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
	"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/* seq_num.h's seq_dec_small: three digits of n < 1000, first lowest, and n's digit count in the top byte. */
#define D(n) ((uint32_t)('0' + (n)))
#define W(n) (D((n) / 100) | D((n) / 10 % 10) << 8 | D((n) % 10) << 16 | (uint32_t)(1 + ((n) >= 10) + ((n) >= 100)) << 24)
#define W10(n) W(n), W(n + 1), W(n + 2), W(n + 3), W(n + 4), W(n + 5), W(n + 6), W(n + 7), W(n + 8), W(n + 9)
#define W100(n) W10(n), W10(n + 10), W10(n + 20), W10(n + 30), W10(n + 40), W10(n + 50), W10(n + 60), \
	W10(n + 70), W10(n + 80), W10(n + 90)
const uint32_t seq_dec_small[1000] = { W100(0),	  W100(100), W100(200), W100(300), W100(400),
				       W100(500), W100(600), W100(700), W100(800), W100(900) };
#undef W100
#undef W10
#undef W
#undef D

const uint64_t seq_pow10[20] = {
	UINT64_C(1),
	UINT64_C(10),
	UINT64_C(100),
	UINT64_C(1000),
	UINT64_C(10000),
	UINT64_C(100000),
	UINT64_C(1000000),
	UINT64_C(10000000),
	UINT64_C(100000000),
	UINT64_C(1000000000),
	UINT64_C(10000000000),
	UINT64_C(100000000000),
	UINT64_C(1000000000000),
	UINT64_C(10000000000000),
	UINT64_C(100000000000000),
	UINT64_C(1000000000000000),
	UINT64_C(10000000000000000),
	UINT64_C(100000000000000000),
	UINT64_C(1000000000000000000),
	UINT64_C(10000000000000000000),
};
