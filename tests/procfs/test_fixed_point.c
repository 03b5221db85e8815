// SPDX-License-Identifier: MIT
/*
 * test_fixed_point.c - the two decimals of /proc/loadavg and /proc/pressure.
 *
 * Both print 11-bit fixed-point averages as "%lu.%02lu" of LOAD_INT and
 * LOAD_FRAC, and differ in one term:
 *
 *   loadavg (fs/proc/loadavg.c)  adds FIXED_1/200 = 10 first: rounds, roughly
 *   pressure (psi_show)          adds nothing: truncates
 *
 * so avenrun 2037 prints 0.99 and 2038 prints 1.00, while a pressure average
 * of 2047 prints 0.99 and only 2048 prints 1.00.  The files are rendered from
 * a machine model through the file table, at hand-picked boundaries and over
 * a sweep compared with the kernel's arithmetic written out here with printf.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "uprocfs/procfs.h"

#define FIX_1 2048ul /* 1.0 in the kernel's FSHIFT = 11 fixed point */

static struct mach_machine *mach;

/* A rendered file as a NUL-terminated string in @out (empty on failure). */
static void render_str(const char *path, char *out, size_t outlen)
{
	struct pfs_node f;
	struct pfs_ctx ctx;
	char err[256], *text = NULL;
	size_t len = 0;

	out[0] = 0;
	if (pfs_resolve(mach, path, &f, &ctx, err, sizeof(err))) {
		diag("%s", err);
		return;
	}
	if (pfs_render(&f, &ctx, &text, &len) || len >= outlen) {
		free(text);
		return;
	}
	memcpy(out, text, len);
	out[len] = 0;
	free(text);
}

/* The kernel's "%lu.%02lu" of LOAD_INT(x) and LOAD_FRAC(x), by printf. */
static void kernel_two_decimals(char *out, size_t outlen, unsigned long x)
{
	snprintf(out, outlen, "%lu.%02lu", x >> 11, ((x & (FIX_1 - 1)) * 100) >> 11);
}

/* /proc/loadavg's first field for avenrun[0] = @avg. */
static void loadavg_first(unsigned long avg, char *out, size_t outlen)
{
	char text[128];

	mach->avenrun[0] = avg;
	render_str("/proc/loadavg", text, sizeof(text));
	snprintf(out, outlen, "%.*s", (int)strcspn(text, " "), text);
}

/* /proc/pressure/cpu's avg10 of the some line for an average of @avg. */
static void pressure_avg10(unsigned long avg, char *out, size_t outlen)
{
	char text[256];
	const char *p, *end;

	mach->pressure[MACH_PSI_CPU].some.avg[0] = avg;
	render_str("/proc/pressure/cpu", text, sizeof(text));
	p = strstr(text, "some avg10=");
	if (!p) {
		out[0] = 0;
		return;
	}
	p += strlen("some avg10=");
	end = strchr(p, ' ');
	snprintf(out, outlen, "%.*s", end ? (int)(end - p) : 0, p);
}

static void build_machine(void)
{
	mach = mach_new();
	mach->avenrun[0] = 0;
	mach->avenrun[1] = 758;
	mach->avenrun[2] = 389;
	mach->nr_running = 2;
	mach->nr_threads = 78;
	mach->last_pid = 6415;
	mach->pressure[MACH_PSI_CPU] = (struct mach_pressure){
		.present = true, .has_some = true, .has_full = true,
		.some = { .avg = { 0, 0, 0 }, .total_us = 1234 },
	};
}

static void test_loadavg(void)
{
	static const struct { unsigned long avg; const char *want; } cases[] = {
		{ 0, "0.00" },
		{ 10, "0.00" },	/* 10 + 10 = 20: 2000 >> 11 = 0 */
		{ 11, "0.01" },	/* 21: 2100 >> 11 = 1 */
		{ 194, "0.09" },	/* 204: 20400 >> 11 = 9 */
		{ 195, "0.10" },	/* 205: 20500 >> 11 = 10, no leading zero */
		{ 2037, "0.99" },	/* 2047: the last value below one */
		{ 2038, "1.00" },	/* 2048: FIXED_1 after rounding */
		{ 2048, "1.00" },
		{ 4085, "1.99" },	/* 4095 */
		{ 4086, "2.00" },	/* 1.995 rounds up */
		{ 100 * FIX_1 - 11, "99.99" },
		{ 100 * FIX_1 - 10, "100.00" },
	};
	char got[64], text[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		loadavg_first(cases[i].avg, got, sizeof(got));
		is_str(got, cases[i].want, "loadavg: avenrun %lu prints %s", cases[i].avg, cases[i].want);
	}

	mach->avenrun[0] = 2037;
	render_str("/proc/loadavg", text, sizeof(text));
	is_str(text, "0.99 0.37 0.19 2/78 6415\n", "loadavg: the whole line at 2037");
	mach->avenrun[0] = 2038;
	render_str("/proc/loadavg", text, sizeof(text));
	is_str(text, "1.00 0.37 0.19 2/78 6415\n", "loadavg: the whole line at 2038");

	/* Every value up to 8.0 and a stretch near 1000.0: the kernel's arithmetic. */
	unsigned int bad = 0;
	for (unsigned long avg = 0; avg <= 8 * FIX_1 + 40; avg++) {
		char want[64];

		loadavg_first(avg, got, sizeof(got));
		kernel_two_decimals(want, sizeof(want), avg + FIX_1 / 200);
		if (strcmp(got, want) && bad++ < 5)
			diag("avenrun %lu: got %s, want %s", avg, got, want);
	}
	for (unsigned long avg = 1000 * FIX_1 - 300; avg <= 1000 * FIX_1 + 300; avg++) {
		char want[64];

		loadavg_first(avg, got, sizeof(got));
		kernel_two_decimals(want, sizeof(want), avg + FIX_1 / 200);
		if (strcmp(got, want) && bad++ < 5)
			diag("avenrun %lu: got %s, want %s", avg, got, want);
	}
	ok(bad == 0, "loadavg: LOAD_INT/LOAD_FRAC of avenrun + FIXED_1/200 for 0..8.0 and around 1000.0");
}

static void test_pressure(void)
{
	static const struct { unsigned long avg; const char *want; } cases[] = {
		{ 0, "0.00" },
		{ 20, "0.00" },	/* 2000 >> 11 = 0 */
		{ 21, "0.01" },	/* 2100 >> 11 = 1 */
		{ 204, "0.09" },
		{ 205, "0.10" },
		{ 2037, "0.99" },	/* loadavg would print 1.00 here */
		{ 2047, "0.99" },	/* the last value below one */
		{ 2048, "1.00" },
		{ 4086, "1.99" },	/* 1.995: truncated, where loadavg prints 2.00 */
		{ 4095, "1.99" },
		{ 4096, "2.00" },
		{ 100 * FIX_1 - 1, "99.99" },
		{ 100 * FIX_1, "100.00" },
	};
	char got[64], text[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pressure_avg10(cases[i].avg, got, sizeof(got));
		is_str(got, cases[i].want, "pressure: avg %lu prints %s", cases[i].avg, cases[i].want);
	}

	mach->pressure[MACH_PSI_CPU].some.avg[0] = 2047;
	mach->pressure[MACH_PSI_CPU].some.avg[1] = 2048;
	mach->pressure[MACH_PSI_CPU].some.avg[2] = 4086;
	render_str("/proc/pressure/cpu", text, sizeof(text));
	is_str(text,
	       "some avg10=0.99 avg60=1.00 avg300=1.99 total=1234\n"
	       "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	       "pressure: the whole file at 2047 / 2048 / 4086");
	mach->pressure[MACH_PSI_CPU].some.avg[1] = 0;
	mach->pressure[MACH_PSI_CPU].some.avg[2] = 0;

	unsigned int bad = 0;
	for (unsigned long avg = 0; avg <= 8 * FIX_1 + 40; avg++) {
		char want[64];

		pressure_avg10(avg, got, sizeof(got));
		kernel_two_decimals(want, sizeof(want), avg);
		if (strcmp(got, want) && bad++ < 5)
			diag("pressure avg %lu: got %s, want %s", avg, got, want);
	}
	ok(bad == 0, "pressure: LOAD_INT/LOAD_FRAC of the average, no rounding term, for 0..8.0");
}

int main(void)
{
	plan(0);
	build_machine();
	test_loadavg();
	test_pressure();
	mach_free(mach);
	return tap_done();
}
