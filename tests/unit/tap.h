/* SPDX-License-Identifier: MIT */
/*
 * tap.h - a tiny Test Anything Protocol helper for the uprocfs tests.
 *
 * Property tests run millions of comparisons; they count mismatches and report
 * one ok() per property with the first few failures as diagnostics, so the TAP
 * stream stays readable.
 */
#ifndef UPROCFS_TAP_H
#define UPROCFS_TAP_H

#include <stddef.h>
#include <stdint.h>

/** Announce @n tests (0: the plan is printed by tap_done). */
void plan(int n);
/** Skip the whole program: prints "1..0 # SKIP why" and exits 77. */
void skip_all(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/**
 * Report one test as skipped: "ok N # SKIP why", which TAP harnesses count
 * as a skip, not a pass.  For a part of a program that cannot run here while
 * the rest can (skip_all skips the whole program).
 */
void skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** Report one test; returns @cond so callers can add diagnostics on failure. */
int ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** Compare unsigned integers; on failure prints both. */
int is_u64(uint64_t got, uint64_t want, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/** Compare signed integers; on failure prints both. */
int is_i64(int64_t got, int64_t want, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/** Compare NUL-terminated strings (NULL allowed). */
int is_str(const char *got, const char *want, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/**
 * Compare byte strings; on failure prints the first differing offset and
 * escaped context of both sides around it.
 */
int is_bytes(const void *got, size_t got_len, const void *want, size_t want_len,
	     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/** Print a "# " diagnostic line. */
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** Print a diagnostic showing @len bytes of @p escaped. */
void diag_escaped(const char *label, const void *p, size_t len);
/**
 * Property checks: each check of property p counts in checks[p], each
 * failure in fails[p], and the first few failures print "# NAME: LABEL: why".
 */
struct tap_props {
	const char *const *names;  /* per property */
	unsigned long *fails, *checks;
	const char *label;         /* what is being checked now (a machine's spec) */
};
/** Record one check of property @p of @ps. */
void tap_prop(struct tap_props *ps, int p, int cond, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/** One ok() per property of @ps (@n of them): none failed, and some were checked. */
void tap_props_report(const struct tap_props *ps, int n);

/** Finish: print the plan if it was deferred; return the exit status. */
int tap_done(void);
/**
 * How many seeds a sweep over @n seeds runs: @n, or fewer when the
 * environment's UPROCFS_TEST_SEEDS caps it (make check's sanitizer run, where
 * a seed costs five to ten times as much and the plain run covers them all).
 */
int tap_seeds(int n);

#endif
