// SPDX-License-Identifier: MIT
/* tap.c - see tap.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

static int tests_run, tests_failed, planned = -1;

void plan(int n)
{
	planned = n;
	if (n > 0)
		printf("1..%d\n", n);
	fflush(stdout);
}

void skip_all(const char *fmt, ...)
{
	va_list ap;

	printf("1..0 # SKIP ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	exit(77);
}

void skip(const char *fmt, ...)
{
	va_list ap;

	tests_run++;
	printf("ok %d # SKIP ", tests_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static int vreport(int cond, const char *fmt, va_list ap)
{
	tests_run++;
	if (!cond)
		tests_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", tests_run);
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(cond, fmt, ap);
	va_end(ap);
	return cond;
}

void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int is_u64(uint64_t got, uint64_t want, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(got == want, fmt, ap);
	va_end(ap);
	if (got != want)
		diag("     got: %" PRIu64 "\n#     want: %" PRIu64, got, want);
	return got == want;
}

int is_i64(int64_t got, int64_t want, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(got == want, fmt, ap);
	va_end(ap);
	if (got != want)
		diag("     got: %" PRId64 "\n#     want: %" PRId64, got, want);
	return got == want;
}

static void escape_into(char *out, size_t cap, const unsigned char *p, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 5 < cap; i++) {
		unsigned char c = p[i];
		if (c == '\n')
			o += (size_t)snprintf(out + o, cap - o, "\\n");
		else if (c == '\t')
			o += (size_t)snprintf(out + o, cap - o, "\\t");
		else if (c == '\\')
			o += (size_t)snprintf(out + o, cap - o, "\\\\");
		else if (c < 32 || c >= 127)
			o += (size_t)snprintf(out + o, cap - o, "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
}

void diag_escaped(const char *label, const void *p, size_t len)
{
	char buf[1024];

	escape_into(buf, sizeof(buf), p, len);
	diag("%s \"%s\"%s", label, buf, len > 200 ? " ..." : "");
}

int is_str(const char *got, const char *want, const char *fmt, ...)
{
	int same = (got == NULL && want == NULL) ||
		   (got && want && strcmp(got, want) == 0);
	va_list ap;

	va_start(ap, fmt);
	vreport(same, fmt, ap);
	va_end(ap);
	if (!same) {
		if (got)
			diag_escaped("     got:", got, strlen(got));
		else
			diag("     got: NULL");
		if (want)
			diag_escaped("    want:", want, strlen(want));
		else
			diag("    want: NULL");
	}
	return same;
}

int is_bytes(const void *got, size_t got_len, const void *want, size_t want_len,
	     const char *fmt, ...)
{
	const unsigned char *g = got, *w = want;
	size_t n = got_len < want_len ? got_len : want_len, i;
	int same;
	va_list ap;

	for (i = 0; i < n && g[i] == w[i]; i++)
		;
	same = got_len == want_len && i == n;
	va_start(ap, fmt);
	vreport(same, fmt, ap);
	va_end(ap);
	if (!same) {
		size_t from = i > 40 ? i - 40 : 0;
		size_t gctx = got_len > from ? got_len - from : 0;
		size_t wctx = want_len > from ? want_len - from : 0;

		diag("first difference at offset %zu (got %zu bytes, want %zu)", i, got_len, want_len);
		diag_escaped("     got:", g + from, gctx < 120 ? gctx : 120);
		diag_escaped("    want:", w + from, wctx < 120 ? wctx : 120);
	}
	return same;
}

int tap_done(void)
{
	if (planned <= 0)
		printf("1..%d\n", tests_run);
	else if (planned != tests_run)
		printf("# planned %d tests but ran %d\n", planned, tests_run);
	fflush(stdout);
	if (tests_failed)
		printf("# %d of %d tests failed\n", tests_failed, tests_run);
	return tests_failed || (planned > 0 && planned != tests_run) ? 1 : 0;
}

void tap_prop(struct tap_props *ps, int p, int cond, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	ps->checks[p]++;
	if (cond)
		return;
	if (ps->fails[p]++ < 5) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		diag("%s: %s: %s", ps->names[p], ps->label, msg);
	}
}

void tap_props_report(const struct tap_props *ps, int n)
{
	for (int p = 0; p < n; p++)
		ok(ps->fails[p] == 0 && ps->checks[p] > 0, "%s (%lu checks, %lu failed)", ps->names[p], ps->checks[p],
		   ps->fails[p]);
}

int tap_seeds(int n)
{
	const char *cap = getenv("UPROCFS_TEST_SEEDS");
	char *end;
	long v;

	if (!cap || !*cap)
		return n;
	errno = 0;
	v = strtol(cap, &end, 10);
	if (errno || *end || v < 1) {
		fprintf(stderr, "UPROCFS_TEST_SEEDS=\"%s\": expected a positive decimal number\n", cap);
		exit(2);
	}
	return v < n ? (int)v : n;
}
