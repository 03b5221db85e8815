// SPDX-License-Identifier: MIT
/*
 * load_version.c - parse /proc/version (fs/proc/version.c
 * version_proc_show) and /proc/cmdline (fs/proc/cmdline.c
 * cmdline_proc_show) of Linux 6.18.
 *
 * version is "SYSNAME version RELEASE (BY@HOST) (COMPILER) UTS_VERSION\n".
 * The compiler string has parentheses of its own ("gcc (GCC) 15.3.0, GNU ld
 * (GNU Binutils) 2.46"): its group ends where the parentheses balance.  The
 * release goes to the profile (it is also osrelease).  cmdline is the saved
 * command line and a newline.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

/* Up to (not including) the first @stop on the line into @buf. */
static int until(struct lex *lx, char stop, char *buf, size_t size, const char *what)
{
	const char *eol = lex_line_end(lx), *e = memchr(lx->p, stop, (size_t)(eol - lx->p));
	size_t n;

	if (!e)
		return lex_expected(lx, what);
	n = (size_t)(e - lx->p);
	if (memchr(lx->p, '\0', n)) /* the model's strings end at a NUL: it would print less */
		return lex_fail(lx, "a NUL byte in %s", what);
	if (n >= size)
		return lex_fail(lx, "%s longer than %zu bytes", what, size - 1);
	memcpy(buf, lx->p, n);
	buf[n] = '\0';
	lx->p = e;
	return 0;
}

/* "(COMPILER)" with balanced parentheses: the text between the outer ones. */
static int compiler(struct lex *lx, char *buf, size_t size)
{
	const char *eol = lex_line_end(lx), *s;
	int depth = 0;

	if (!lex_accept(lx, "("))
		return lex_expected(lx, "\"(\" before the compiler");
	s = lx->p;
	for (const char *q = s; q < eol; q++) {
		if (!*q) {
			return lex_fail(lx, "a NUL byte in the compiler string");
		} else if (*q == '(') {
			depth++;
		} else if (*q == ')' && depth-- == 0) {
			if ((size_t)(q - s) >= size)
				return lex_fail(lx, "the compiler string is longer than %zu bytes", size - 1);
			memcpy(buf, s, (size_t)(q - s));
			buf[q - s] = '\0';
			lx->p = q + 1;
			return 0;
		}
	}
	return lex_expected(lx, "the compiler string's closing \")\"");
}

int ld_parse_version(struct lex *lx, struct mach_machine *m)
{
	struct mach_kernel_id k = m->sys.kid;
	char release[sizeof(m->profile.kernel_release)];
	int rc;

	lex_ctx(lx, NULL);
	if ((rc = ld_word(lx, k.sysname, sizeof(k.sysname), "the system name")) ||
	    (rc = lex_expect(lx, " version ")) ||
	    (rc = ld_word(lx, release, sizeof(release), "the release")) || (rc = lex_expect(lx, " (")) ||
	    (rc = until(lx, '@', k.compile_by, sizeof(k.compile_by), "the build user and \"@\"")) ||
	    (rc = lex_expect(lx, "@")) ||
	    (rc = until(lx, ')', k.compile_host, sizeof(k.compile_host), "the build host and \")\"")) ||
	    (rc = lex_expect(lx, ") ")) || (rc = compiler(lx, k.compiler, sizeof(k.compiler))) ||
	    (rc = lex_expect(lx, " ")) ||
	    (rc = ld_rest_of_line(lx, k.uts_version, sizeof(k.uts_version), "the UTS version")) ||
	    (rc = lex_eol(lx)) || (rc = lex_expect_eof(lx)))
		return rc;
	m->sys.kid = k;
	memcpy(m->profile.kernel_release, release, sizeof(release));
	return 0;
}

int ld_parse_kcmdline(struct lex *lx, struct mach_machine *m)
{
	const char *eol = lex_line_end(lx);
	size_t n = (size_t)(eol - lx->p);
	char *c;

	lex_ctx(lx, NULL);
	if (memchr(lx->p, '\0', n))
		return lex_fail(lx, "a NUL byte in the command line");
	lx->p = eol;
	if (lex_eol(lx) || lex_expect_eof(lx))
		return -EINVAL;
	c = malloc(n + 1);
	if (!c)
		return -ENOMEM;
	memcpy(c, eol - n, n);
	c[n] = '\0';
	free(m->sys.kid.cmdline);
	m->sys.kid.cmdline = c;
	return 0;
}
