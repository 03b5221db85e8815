// SPDX-License-Identifier: MIT
/* num.c - strict decimal numbers (num.h). */
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

bool un_parse_uint(const char *s, size_t len, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned int d = (unsigned char)s[i] - '0';

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* The C locale, whose decimal point is '.' whatever the process's locale says. */
static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void)
{
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

bool un_parse_decimal(const char *s, size_t len, double max, double *out)
{
	size_t digits = 0, points = 0;
	char small[64], *copy = small;
	double v;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '.')
			points++;
		else if (s[i] >= '0' && s[i] <= '9')
			digits++;
		else
			return false;
	}
	if (!digits || points > 1)
		return false;
	pthread_once(&c_locale_once, make_c_locale);
	if (!c_locale || (len >= sizeof(small) && !(copy = malloc(len + 1))))
		return false;
	memcpy(copy, s, len);
	copy[len] = '\0';
	/*
	 * strtod rounds once, to the nearest double; summing the integer and
	 * the fraction (each rounded first) could be one ulp off
	 */
	v = strtod_l(copy, NULL, c_locale);
	if (copy != small)
		free(copy);
	if (!(v <= max))
		return false;
	*out = v;
	return true;
}
