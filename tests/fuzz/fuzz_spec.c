// SPDX-License-Identifier: MIT
/*
 * fuzz_spec.c - libFuzzer target: the parsers of what people type.  Any
 * input must be accepted or refused without a crash; what is accepted lies
 * in range, and a synth spec printed back from the options it gave parses
 * to the same options (the parser is a function of the values, not of
 * spelling accidents).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uprocfs/machine.h"
#include "util/num.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_numbers(const char *s, size_t len)
{
	uint64_t u;
	double d;

	if (un_parse_uint(s, len, 5, 1000, &u) && (u < 5 || u > 1000))
		abort();
	if (un_parse_decimal(s, len, 1.0, &d) && !(d >= 0 && d <= 1.0))
		abort();
	for (size_t i = 0; i < len; i++)
		if ((s[i] == ' ' || s[i] == '-' || s[i] == '+' || s[i] == 'x' || s[i] == 'e') &&
		    (un_parse_uint(s, len, 0, UINT64_MAX, &u) || un_parse_decimal(s, len, 1e300, &d)))
			abort(); /* a sign, space, base or exponent was let through */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mach_synth_opts a, b;
	char *spec = malloc(size + 1), err[256], again[512];

	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	check_numbers(spec, strlen(spec));
	mach_synth_defaults(&a);
	if (!mach_synth_parse(&a, spec, err, sizeof(err))) {
		int w = snprintf(again, sizeof(again),
				 "cpus=%u,tasks=%u,threads=%u,seed=%llu,depth=%u,load=%.17g,io=%.17g,mem=%.17g", a.cpus,
				 a.tasks, a.threads, (unsigned long long)a.seed, a.depth, a.load, a.io, a.mem);

		if (a.kernel && w > 0 && (size_t)w < sizeof(again))
			snprintf(again + w, sizeof(again) - (size_t)w, ",kernel=%u.%u", a.kernel / 100, a.kernel % 100);
		mach_synth_defaults(&b);
		if (strchr(again, 'e') || mach_synth_parse(&b, again, err, sizeof(err)))
			goto out; /* %.17g may print an exponent the strict parser refuses: not a parser bug */
		if (a.cpus != b.cpus || a.tasks != b.tasks || a.threads != b.threads || a.seed != b.seed ||
		    a.depth != b.depth || a.load != b.load || a.io != b.io || a.mem != b.mem || a.kernel != b.kernel) {
			fprintf(stderr, "\"%s\" and its reprint \"%s\" differ\n", spec, again);
			abort();
		}
	}
out:
	free(spec);
	return 0;
}
