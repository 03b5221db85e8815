/* SPDX-License-Identifier: MIT */
/* testutil.h - deterministic randomness and sanitizer-aware sizes for tests. */
#ifndef UPROCFS_TESTUTIL_H
#define UPROCFS_TESTUTIL_H

#include <stdint.h>

#if defined(__SANITIZE_ADDRESS__)
#define TEST_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_UNDER_SANITIZER 1
#endif
#endif
#ifndef TEST_UNDER_SANITIZER
#define TEST_UNDER_SANITIZER 0
#endif

/** xorshift64*: small, fast, reproducible across runs. */
static inline uint64_t test_rand(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

/** A value whose bit length is uniform over 0..64 (log-uniform magnitudes). */
static inline uint64_t test_rand_magnitude(uint64_t *state)
{
	unsigned int bits = (unsigned int)(test_rand(state) % 65);
	uint64_t v = test_rand(state);

	if (bits == 0)
		return 0;
	if (bits < 64)
		v &= (UINT64_C(1) << bits) - 1;
	return v | (UINT64_C(1) << (bits - 1));
}

#endif
