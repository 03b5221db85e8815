/* SPDX-License-Identifier: MIT */
/*
 * num.h - the one parser for the numbers people type: command-line options
 * and `--machine synth:` keys.  Decimal only (no sign, base prefix,
 * exponent, spaces, "inf" or "nan"), whole strings only, range-checked,
 * and independent of the locale's decimal point.
 */
#ifndef UPROCFS_UTIL_NUM_H
#define UPROCFS_UTIL_NUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The @len bytes at @s as an integer from @min to @max: digits only. */
bool un_parse_uint(const char *s, size_t len, uint64_t min, uint64_t max, uint64_t *out);

/**
 * The @len bytes at @s as a decimal from 0 to @max ("12", "0.25", ".5",
 * "3."): digits with at most one point, at least one digit.  The double
 * nearest to the decimal written (rounded once, as strtod in the C locale).
 */
bool un_parse_decimal(const char *s, size_t len, double max, double *out);

/** un_parse_uint of a whole NUL-terminated string. */
static inline bool un_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	size_t len = 0;

	while (s[len])
		len++;
	return un_parse_uint(s, len, min, max, out);
}

/** un_parse_decimal of a whole NUL-terminated string. */
static inline bool un_decimal(const char *s, double max, double *out)
{
	size_t len = 0;

	while (s[len])
		len++;
	return un_parse_decimal(s, len, max, out);
}

#endif
