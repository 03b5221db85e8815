// SPDX-License-Identifier: MIT
/* num.c - strict decimal numbers (num.h). */
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

bool un_parse_decimal(const char *s, size_t len, double max, double *out)
{
	uint64_t ip = 0, fp = 0, scale = 1;
	size_t i = 0, digits = 0;
	double v;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
		if (ip > (UINT64_MAX - 9) / 10)
			return false;
		ip = ip * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
			if (scale < 1000000000000000000ull) {
				fp = fp * 10 + (uint64_t)(s[i] - '0');
				scale *= 10;
			}
		}
	}
	if (i != len || !digits)
		return false;
	v = (double)ip + (double)fp / (double)scale;
	if (v > max)
		return false;
	*out = v;
	return true;
}
