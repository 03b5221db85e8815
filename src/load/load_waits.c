// SPDX-License-Identifier: MIT
/*
 * load_waits.c - parse the per-task files about scheduling and waiting, as
 * fs/proc/base.c and fs/proc/array.c print them (Linux 6.18; research notes
 * sections 6, 7, 13 and 17):
 *
 *   schedstat  "%llu %llu %lu\n": run time, run-queue wait (ns), timeslices
 *   wchan      a function name, or "0", and no newline
 *   stack      "[<0>] name+0xOFF/0xSIZE[ [module]]\n" per frame
 *   syscall    "running\n", or "nr" then six arguments, sp and pc in "0x%llx"
 *              (only sp and pc when nr is negative)
 *   children   "%d " per child, no newline
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_mmsched.h"

int ld_parse_pid_schedstat(struct lex *lx, struct ld_sched *s)
{
	uint64_t *v[3] = { &s->run_ns, &s->wait_ns, &s->pcount };
	static const char *const names[3] = { "run time", "run delay", "timeslices" };
	const char *start;
	int rc;

	for (int i = 0; i < 3; i++) {
		lex_field(lx, i + 1, names[i]);
		if (i && (rc = lex_expect(lx, " ")))
			return rc;
		start = lx->p;
		if ((rc = lex_u64(lx, v[i])) || (rc = lex_token_end(lx, start)))
			return rc;
	}
	if ((rc = lex_eol(lx)))
		return rc;
	return lex_expect_eof(lx);
}

/* A kernel function's name: what kallsyms allows, through the first byte it does not. */
static size_t symbol_len(const struct lex *lx)
{
	size_t n = 0;

	while (lx->p + n < lx->end) {
		char c = lx->p[n];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '$'))
			break;
		n++;
	}
	return n;
}

int ld_parse_wchan(struct lex *lx, struct ld_wchan *w)
{
	size_t n = symbol_len(lx);

	lex_ctx(lx, "wchan");
	if (!n)
		return lex_expected(lx, "a function name or 0");
	if (lx->p + n != lx->end)
		return lex_fail(lx, "trailing bytes after the name (wchan has no newline)");
	if (n == 1 && lx->p[0] == '0') {
		lx->p++;
		return 0;
	}
	if (lx->p[0] >= '0' && lx->p[0] <= '9')
		return lex_expected(lx, "a function name or 0");
	w->name = strndup(lx->p, n);
	lx->p += n;
	return w->name ? 0 : -ENOMEM;
}

void ld_stack_free(struct ld_stack *st)
{
	if (!st)
		return;
	for (unsigned int i = 0; i < st->n; i++) {
		free(st->f[i].name);
		free(st->f[i].module);
	}
	free(st->f);
	free(st->path);
	free(st);
}

/* A hex number that fits 32 bits. */
static int hex32(struct lex *lx, uint32_t *v)
{
	uint64_t x;
	int rc = lex_hex(lx, &x);

	if (rc)
		return rc;
	if (x > UINT32_MAX)
		return lex_fail(lx, "offset or size beyond 32 bits");
	*v = (uint32_t)x;
	return 0;
}

/* "name+0xOFF/0xSIZE" and " [module]", as %pB prints a return address. */
static int parse_frame(struct lex *lx, struct ld_frame *f)
{
	size_t n;
	int rc;

	lex_ctx(lx, NULL);
	if ((rc = lex_expect(lx, "[<0>] ")))
		return rc;
	lex_ctx(lx, "[<0>]");
	n = symbol_len(lx);
	if (!n || !(f->name = strndup(lx->p, n)))
		return n ? -ENOMEM : lex_expected(lx, "a function name");
	lx->p += n;
	if ((rc = lex_expect(lx, "+0x")) || (rc = hex32(lx, &f->off)) || (rc = lex_expect(lx, "/0x")) ||
	    (rc = hex32(lx, &f->size)))
		return rc;
	if (lex_accept(lx, " [")) {
		const char *e = memchr(lx->p, ']', (size_t)(lx->end - lx->p));

		if (!e || e == lx->p || memchr(lx->p, '\n', (size_t)(e - lx->p)))
			return lex_expected(lx, "a module name and ']'");
		if (!(f->module = strndup(lx->p, (size_t)(e - lx->p))))
			return -ENOMEM;
		lx->p = e + 1;
	}
	return lex_eol(lx);
}

int ld_parse_stack(struct lex *lx, struct ld_stack *st)
{
	size_t n = 0, cap = 0;
	int rc;

	while (!lex_eof(lx)) {
		struct ld_frame *f = VEC_PUSH(st->f, n, cap);

		if (!f)
			return -ENOMEM;
		memset(f, 0, sizeof(*f));
		st->n = (unsigned int)n;
		if ((rc = parse_frame(lx, f)))
			return rc;
		if (n > 64)
			return lex_fail(lx, "more than the 64 frames the kernel saves");
	}
	st->n = (unsigned int)n;
	return 0;
}

int ld_parse_syscall(struct lex *lx, struct ld_syscall *sc)
{
	uint64_t *regs[8] = { &sc->sc.args[0], &sc->sc.args[1], &sc->sc.args[2], &sc->sc.args[3],
			      &sc->sc.args[4], &sc->sc.args[5], &sc->sc.sp, &sc->sc.pc };
	int64_t nr;
	int n, rc;

	if (lex_accept(lx, "running\n")) {
		sc->running = true;
		return lex_expect_eof(lx);
	}
	lex_field(lx, 1, "syscall number");
	if ((rc = lex_s64(lx, &nr, INT32_MIN, INT32_MAX)))
		return rc;
	sc->sc.nr = (int32_t)nr;
	/* without a syscall only the stack pointer and pc follow */
	n = nr < 0 ? 2 : 8;
	for (int i = 8 - n; i < 8; i++) {
		lex_field(lx, 2 + i - (8 - n), i < 6 ? "argument" : i == 6 ? "stack pointer" : "pc");
		if ((rc = lex_expect(lx, " 0x")) || (rc = lex_hex(lx, regs[i])))
			return rc;
	}
	if ((rc = lex_eol(lx)))
		return rc;
	return lex_expect_eof(lx);
}

int ld_parse_children(struct lex *lx, struct ld_children *ch)
{
	size_t cap = 0;
	int64_t pid;
	int rc;

	lex_ctx(lx, "children");
	while (!lex_eof(lx)) {
		pid_t *slot;

		if ((rc = lex_s64(lx, &pid, 1, INT32_MAX)) || (rc = lex_expect(lx, " ")))
			return rc;
		slot = VEC_PUSH(ch->pids, ch->n, cap);
		if (!slot)
			return -ENOMEM;
		*slot = (pid_t)pid;
	}
	return 0;
}
