// SPDX-License-Identifier: MIT
/*
 * fuzz_num.c - libFuzzer target: the command line's number parser
 * (util/num.h: --at, --pid, synth: keys) against a plain reference.  An
 * integer is accepted exactly when the whole input is digits whose value
 * fits and lies in range, and then it is that value; a decimal exactly when
 * it is digits with at most one point and at least one digit, not above the
 * maximum, and then it is the double nearest to what was written (what
 * strtod gives in the C locale).
 */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/num.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reference integer: digits only, no overflow. */
static int ref_uint(const char *s, size_t len, uint64_t *v)
{
	unsigned __int128 x = 0;

	if (!len)
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		x = x * 10 + (unsigned)(s[i] - '0');
		if (x > UINT64_MAX)
			return 0;
	}
	*v = (uint64_t)x;
	return 1;
}

/* Whether @s is a decimal by the grammar, and how many digits follow its point. */
static int ref_decimal_form(const char *s, size_t len, size_t *frac)
{
	size_t digits = 0, points = 0;

	*frac = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '.')
			points++;
		else if (s[i] >= '0' && s[i] <= '9') {
			digits++;
			*frac += points;
		} else
			return 0;
	}
	return digits && points <= 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static locale_t c_locale;
	char s[64];
	uint64_t u = 0, want = 0, lo, hi;
	size_t frac;
	double d = 0, max;
	int got, ref;

	if (size < 2 || size - 2 >= sizeof(s))
		return 0;
	if (!c_locale)
		c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	memcpy(s, data + 2, size - 2);
	s[size - 2] = '\0';
	/* the range: from the first two bytes, spread over small and huge bounds */
	lo = data[0] < 128 ? data[0] : 0;
	hi = data[1] == 255 ? UINT64_MAX : (uint64_t)data[1] * data[1] * 1000003u;
	got = un_parse_uint(s, size - 2, lo, hi, &u);
	ref = ref_uint(s, size - 2, &want) && want >= lo && want <= hi;
	if (got != ref || (got && u != want)) {
		fprintf(stderr, "uint \"%s\" in [%llu, %llu]: %s %llu, want %s %llu\n", s, (unsigned long long)lo,
			(unsigned long long)hi, got ? "accepted" : "refused", (unsigned long long)u,
			ref ? "accepted" : "refused", (unsigned long long)want);
		abort();
	}
	max = data[1] == 255 ? 1e15 : data[1] / 8.0; /* the CLI's maxima are far below 2^53 */
	got = un_parse_decimal(s, size - 2, max, &d);
	if (ref_decimal_form(s, size - 2, &frac)) {
		double r = c_locale ? strtod_l(s, NULL, c_locale) : strtod(s, NULL);

		ref = r <= max;
		if (got != ref || (got && d != r)) {
			fprintf(stderr, "decimal \"%s\" (max %g): %s %.17g, want %s %.17g\n", s, max,
				got ? "accepted" : "refused", d, ref ? "accepted" : "refused", r);
			abort();
		}
	} else if (got) {
		fprintf(stderr, "decimal \"%s\" accepted, not of the grammar\n", s);
		abort();
	}
	return 0;
}
