/* SPDX-License-Identifier: MIT */
/*
 * calc_load.h - the kernel's fixed-point exponential averages.
 *
 * Mirrors include/linux/sched/loadavg.h (FSHIFT, FIXED_1, EXP_*, calc_load,
 * LOAD_INT, LOAD_FRAC) and the two helpers of kernel/sched/loadavg.c that
 * catch up on missed updates (fixed_power_int, calc_load_n), Linux 6.18.
 * Both /proc/loadavg (EXP_1/5/15 every LOAD_FREQ) and the PSI averages
 * (EXP_10s/60s/300s every PSI period) are built from these, so the simulator
 * and the PSI engine share one copy and print the same digits the kernel does.
 *
 * Values are unsigned long, 11 fractional bits (FIXED_1 = 2048 is 1.0).
 */
#ifndef UPROCFS_CALC_LOAD_H
#define UPROCFS_CALC_LOAD_H

#ifdef __cplusplus
extern "C" {
#endif

/* rpcsvc/rstat.h defines an FSHIFT of 8; mixing the two would be silent. */
#ifndef FSHIFT
#define FSHIFT		11		/* nr of bits of precision */
#elif FSHIFT != 11
#error "FSHIFT is already defined with a value other than the kernel's 11"
#endif
#ifndef FIXED_1
#define FIXED_1		(1UL << FSHIFT)	/* 1.0 as fixed-point */
#endif

/* /proc/loadavg decay factors per LOAD_FREQ (5 s): 1/exp(5s/1min) etc. */
#define EXP_1		1884
#define EXP_5		2014
#define EXP_15		2037

/** LOAD_FREQ of the kernel for a given HZ: 5 s and one tick, in jiffies. */
#define LOAD_FREQ_HZ(hz)	(5 * (hz) + 1)

/**
 * One step of an exponential moving average (kernel calc_load):
 * load' = (load * exp + active * (FIXED_1 - exp)) / FIXED_1.
 *
 * When the sample is at or above the average the sum is rounded up, so a
 * constant input converges onto it exactly instead of stalling one unit
 * below it (a fully loaded CPU reads 1.00, not 0.99).
 */
static inline unsigned long calc_load(unsigned long load, unsigned long exp,
				      unsigned long active)
{
	unsigned long newload;

	newload = load * exp + active * (FIXED_1 - exp);
	if (active >= load)
		newload += FIXED_1 - 1;

	return newload / FIXED_1;
}

/**
 * @x to the power @n in fixed point with @frac_bits fractional bits
 * (kernel fixed_power_int): square-and-multiply, each product rounded to
 * nearest by adding half a unit before the shift.
 */
static inline unsigned long fixed_power_int(unsigned long x, unsigned int frac_bits,
					    unsigned int n)
{
	unsigned long result = 1UL << frac_bits;

	while (n) {
		if (n & 1) {
			result *= x;
			result += 1UL << (frac_bits - 1);
			result >>= frac_bits;
		}
		n >>= 1;
		if (!n)
			break;
		x *= x;
		x += 1UL << (frac_bits - 1);
		x >>= frac_bits;
	}
	return result;
}

/**
 * @n steps of calc_load with the same @active in one go (kernel calc_load_n):
 * the decay factor becomes exp^n.  Used where updates were missed (NO_HZ idle
 * for loadavg, idle periods for PSI); not bit-identical to n single steps.
 */
static inline unsigned long calc_load_n(unsigned long load, unsigned long exp,
					unsigned long active, unsigned int n)
{
	return calc_load(load, fixed_power_int(exp, FSHIFT, n), active);
}

/** Integer part of a fixed-point value (kernel LOAD_INT). */
static inline unsigned long load_int(unsigned long x)
{
	return x >> FSHIFT;
}

/**
 * Two truncated decimals of the fraction (kernel LOAD_FRAC).  /proc/loadavg
 * adds FIXED_1/200 before calling it to round; /proc/pressure does not.
 */
static inline unsigned long load_frac(unsigned long x)
{
	return load_int((x & (FIXED_1 - 1)) * 100);
}

#define LOAD_INT(x)	load_int(x)
#define LOAD_FRAC(x)	load_frac(x)

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_CALC_LOAD_H */
