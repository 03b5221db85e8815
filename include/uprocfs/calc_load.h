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
 * Every name carries the CALC_LOAD_ / calc_load_ prefix: the kernel's bare
 * names (FSHIFT, FIXED_1, EXP_1, LOAD_INT) are defined by other headers too
 * (rpcsvc/rstat.h has an FSHIFT of 8), and a program that includes both must
 * get each side's own value.  The kernel name is given beside each one.
 *
 * Values are unsigned long, 11 fractional bits (CALC_LOAD_FIXED_1 = 2048 is
 * 1.0), the same scale as machine.h's MACH_FSHIFT.
 */
#ifndef UPROCFS_CALC_LOAD_H
#define UPROCFS_CALC_LOAD_H

#ifdef __cplusplus
extern "C" {
#endif

/* kernel FSHIFT: bits of fraction. */
#define CALC_LOAD_FSHIFT	11
/* kernel FIXED_1: 1.0 in fixed point. */
#define CALC_LOAD_FIXED_1	(1UL << CALC_LOAD_FSHIFT)

/*
 * kernel EXP_1, EXP_5, EXP_15: the /proc/loadavg decay per LOAD_FREQ (5 s),
 * 1/exp(5s/1min), 1/exp(5s/5min) and 1/exp(5s/15min) in fixed point.
 */
#define CALC_LOAD_EXP_1		1884
#define CALC_LOAD_EXP_5		2014
#define CALC_LOAD_EXP_15	2037

/** kernel LOAD_FREQ for a given HZ: 5 s and one tick, in jiffies. */
#define CALC_LOAD_FREQ_HZ(hz)	(5 * (hz) + 1)

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

	newload = load * exp + active * (CALC_LOAD_FIXED_1 - exp);
	if (active >= load)
		newload += CALC_LOAD_FIXED_1 - 1;

	return newload / CALC_LOAD_FIXED_1;
}

/**
 * @x to the power @n in fixed point with @frac_bits fractional bits
 * (kernel fixed_power_int): square-and-multiply, each product rounded to
 * nearest by adding half a unit before the shift.
 */
static inline unsigned long calc_load_fixed_power_int(unsigned long x, unsigned int frac_bits,
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
	return calc_load(load, calc_load_fixed_power_int(exp, CALC_LOAD_FSHIFT, n), active);
}

/** Integer part of a fixed-point value (kernel LOAD_INT). */
static inline unsigned long calc_load_int(unsigned long x)
{
	return x >> CALC_LOAD_FSHIFT;
}

/**
 * Two truncated decimals of the fraction (kernel LOAD_FRAC).  /proc/loadavg
 * adds FIXED_1/200 before calling it to round; /proc/pressure does not.
 */
static inline unsigned long calc_load_frac(unsigned long x)
{
	return calc_load_int((x & (CALC_LOAD_FIXED_1 - 1)) * 100);
}

/* The kernel's LOAD_INT and LOAD_FRAC, for code that reads like the kernel's. */
#define CALC_LOAD_INT(x)	calc_load_int(x)
#define CALC_LOAD_FRAC(x)	calc_load_frac(x)

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_CALC_LOAD_H */
