/* SPDX-License-Identifier: MIT */
/*
 * rng.h - the generator's random streams: splitmix64, one stream per key.
 *
 * Inline because every field of every task is drawn through them; a stream
 * is one word, so a process can carry several (its own, its layout's) and
 * the same key always gives the same numbers, whichever thread draws them.
 */
#ifndef UPROCFS_SYNTH_RNG_H
#define UPROCFS_SYNTH_RNG_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/splitmix.h"

struct rng {
	uint64_t s;
};

static inline uint64_t rng_next(struct rng *r)
{
	return util_splitmix64(&r->s);
}

/* A stream for @key under @seed: streams of different keys are unrelated. */
static inline void rng_init(struct rng *r, uint64_t seed, uint64_t key)
{
	r->s = seed ^ (key * 0xd1b54a32d192ed03ull);
	r->s = rng_next(r);
}

/** Uniform in [0, n); 0 when n is 0.  Multiply-shift: no modulo bias worth a loop. */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

/** Uniform in [lo, hi], inclusive. */
static inline uint64_t rng_range(struct rng *r, uint64_t lo, uint64_t hi)
{
	return hi <= lo ? lo : lo + rng_below(r, hi - lo + 1);
}

/** Uniform in [0, 1): the top 53 bits, so every value is exactly representable. */
static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/** Uniform in [lo, hi). */
static inline double rng_uniform(struct rng *r, double lo, double hi)
{
	return lo + (hi - lo) * rng_unit(r);
}

/** Log-uniform in [lo, hi]: for quantities spread over orders of magnitude. */
static inline double rng_logu(struct rng *r, double lo, double hi)
{
	return lo * pow(hi / lo, rng_unit(r));
}

/** True with probability @p. */
static inline bool rng_chance(struct rng *r, double p)
{
	return rng_unit(r) < p;
}

#endif /* UPROCFS_SYNTH_RNG_H */
