/* SPDX-License-Identifier: MIT */
/*
 * splitmix.h - splitmix64, the one random step behind the synthetic
 * generator's streams and the simulators' draws: a word of state, cheap
 * enough to inline into every draw, and the same numbers on every machine.
 */
#ifndef UPROCFS_UTIL_SPLITMIX_H
#define UPROCFS_UTIL_SPLITMIX_H

#include <stdint.h>

/** Advance *@state and return its next number. */
static inline uint64_t util_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
