// SPDX-License-Identifier: MIT
/*
 * load_status.c - parse /proc/<pid>/status and task/<tid>/status, as printed
 * by fs/proc/array.c proc_pid_status() and fs/proc/task_mmu.c task_mem()
 * (Linux 6.18; procfs-facts.md section 2).
 *
 * The lines are walked in the kernel's order.  A line the kernel prints only
 * under a config option, or only for a task with an mm or an fs_struct, may
 * be absent; every other line is required, and an unknown, repeated or
 * misplaced line is an error.  Which optional lines a file showed is kept in
 * the record; pid_assemble.c turns that into the kernel profile.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"

enum st_kind {
	K_NAME, K_UMASK, K_STATE, K_PID, K_ID4, K_U32, K_U64, K_GROUPS, K_NS, K_BOOL, K_KB,
	K_HEXL, K_SIGQ, K_MASK, K_SECCOMP, K_SSB, K_SIB, K_CPUS, K_CPULIST, K_MEMS,
	K_MEMLIST, K_X86,
};

#define P STF_PROC
#define M (STF_PROC | STF_MM)

const struct ld_st_def ld_st_defs[ST_NR] = {
	[ST_NAME] = { "Name:", K_NAME, 0, DEC_NONE },
	[ST_UMASK] = { "Umask:", K_UMASK, 0, DEC_UMASK },
	[ST_STATE] = { "State:", K_STATE, 0, DEC_NONE },
	[ST_TGID] = { "Tgid:", K_PID, P, DEC_NONE },
	[ST_NGID] = { "Ngid:", K_PID, P, DEC_NGID },
	[ST_PID] = { "Pid:", K_PID, 0, DEC_NONE },
	[ST_PPID] = { "PPid:", K_PID, P, DEC_NONE },
	[ST_TRACERPID] = { "TracerPid:", K_PID, 0, DEC_NONE },
	[ST_UID] = { "Uid:", K_ID4, 0, DEC_NONE },
	[ST_GID] = { "Gid:", K_ID4, 0, DEC_NONE },
	[ST_FDSIZE] = { "FDSize:", K_U32, P, DEC_NONE },
	[ST_GROUPS] = { "Groups:", K_GROUPS, 0, DEC_NONE },
	[ST_NSTGID] = { "NStgid:", K_NS, 0, DEC_NS },
	[ST_NSPID] = { "NSpid:", K_NS, 0, DEC_NS },
	[ST_NSPGID] = { "NSpgid:", K_NS, 0, DEC_NS },
	[ST_NSSID] = { "NSsid:", K_NS, 0, DEC_NS },
	[ST_KTHREAD] = { "Kthread:", K_BOOL, 0, DEC_KTHREAD },
	[ST_VMPEAK] = { "VmPeak:", K_KB, M, DEC_NONE },
	[ST_VMSIZE] = { "VmSize:", K_KB, M, DEC_NONE },
	[ST_VMLCK] = { "VmLck:", K_KB, M, DEC_NONE },
	[ST_VMPIN] = { "VmPin:", K_KB, M, DEC_VMPIN },
	[ST_VMHWM] = { "VmHWM:", K_KB, M, DEC_NONE },
	[ST_VMRSS] = { "VmRSS:", K_KB, M, DEC_NONE },
	[ST_RSSANON] = { "RssAnon:", K_KB, M, DEC_RSS },
	[ST_RSSFILE] = { "RssFile:", K_KB, M, DEC_RSS },
	[ST_RSSSHMEM] = { "RssShmem:", K_KB, M, DEC_RSS },
	[ST_VMDATA] = { "VmData:", K_KB, M, DEC_NONE },
	[ST_VMSTK] = { "VmStk:", K_KB, M, DEC_NONE },
	[ST_VMEXE] = { "VmExe:", K_KB, M, DEC_NONE },
	[ST_VMLIB] = { "VmLib:", K_KB, M, DEC_NONE },
	[ST_VMPTE] = { "VmPTE:", K_KB, M, DEC_NONE },
	[ST_VMPMD] = { "VmPMD:", K_KB, M, DEC_VMPMD },
	[ST_VMSWAP] = { "VmSwap:", K_KB, M, DEC_NONE },
	[ST_HUGETLB] = { "HugetlbPages:", K_KB, M, DEC_HUGETLB },
	[ST_COREDUMP] = { "CoreDumping:", K_BOOL, M, DEC_COREDUMP },
	[ST_THP] = { "THP_enabled:", K_BOOL, M, DEC_THP },
	[ST_UNTAG] = { "untag_mask:", K_HEXL, M, DEC_UNTAG },
	[ST_THREADS] = { "Threads:", K_U32, P, DEC_NONE },
	[ST_SIGQ] = { "SigQ:", K_SIGQ, P, DEC_NONE },
	[ST_SIGPND] = { "SigPnd:", K_MASK, 0, DEC_NONE },
	[ST_SHDPND] = { "ShdPnd:", K_MASK, P, DEC_NONE },
	[ST_SIGBLK] = { "SigBlk:", K_MASK, 0, DEC_NONE },
	[ST_SIGIGN] = { "SigIgn:", K_MASK, P, DEC_NONE },
	[ST_SIGCGT] = { "SigCgt:", K_MASK, P, DEC_NONE },
	[ST_CAPINH] = { "CapInh:", K_MASK, 0, DEC_NONE },
	[ST_CAPPRM] = { "CapPrm:", K_MASK, 0, DEC_NONE },
	[ST_CAPEFF] = { "CapEff:", K_MASK, 0, DEC_NONE },
	[ST_CAPBND] = { "CapBnd:", K_MASK, 0, DEC_NONE },
	[ST_CAPAMB] = { "CapAmb:", K_MASK, 0, DEC_CAPAMB },
	[ST_NNP] = { "NoNewPrivs:", K_BOOL, 0, DEC_NNP },
	[ST_SECCOMP] = { "Seccomp:", K_SECCOMP, 0, DEC_SECCOMP },
	[ST_SECCOMP_FILTERS] = { "Seccomp_filters:", K_U32, 0, DEC_SECCOMP_FILTERS },
	[ST_SSB] = { "Speculation_Store_Bypass:", K_SSB, 0, DEC_SSB },
	[ST_SIB] = { "SpeculationIndirectBranch:", K_SIB, 0, DEC_SIB },
	[ST_CPUS] = { "Cpus_allowed:", K_CPUS, 0, DEC_NONE },
	[ST_CPUS_LIST] = { "Cpus_allowed_list:", K_CPULIST, 0, DEC_NONE },
	[ST_MEMS] = { "Mems_allowed:", K_MEMS, 0, DEC_MEMS },
	[ST_MEMS_LIST] = { "Mems_allowed_list:", K_MEMLIST, 0, DEC_MEMS },
	[ST_VCSW] = { "voluntary_ctxt_switches:", K_U64, 0, DEC_NONE },
	[ST_NVCSW] = { "nonvoluntary_ctxt_switches:", K_U64, 0, DEC_NONE },
	[ST_X86] = { "x86_Thread_features:", K_X86, 0, DEC_X86 },
	[ST_X86_LOCKED] = { "x86_Thread_features_locked:", K_X86, 0, DEC_X86 },
};

#undef P
#undef M

void ld_status_free(struct ld_status *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->groups);
	mach_bitmap_free(&s->cpus);
	mach_bitmap_free(&s->mems);
	free(s);
}

/* Name: is escaped by seq_escape_str(ESCAPE_SPACE|ESCAPE_SPECIAL, "\n\\"). */
static int parse_name(struct lex *lx, struct ld_status *st)
{
	const char *start = lx->p, *eol = lex_line_end(lx);
	size_t n = 0;

	for (const char *q = lx->p; q < eol; q++) {
		char c = *q;

		if (c == '\\') {
			if (q + 1 < eol && q[1] == 'n')
				c = '\n';
			else if (q + 1 < eol && q[1] == '\\')
				c = '\\';
			else
				return lex_fail_at(lx, q,
						   "bad escape in Name: only \\n and \\\\ are escaped");
			q++;
		} else if (c == '\0') {
			return lex_fail_at(lx, q, "NUL byte in Name:");
		}
		if (n + 1 >= MACH_COMM_MAX)
			return lex_fail_at(lx, start, "Name: longer than %d bytes",
					   MACH_COMM_MAX - 1);
		st->name[n++] = c;
	}
	st->name[n] = '\0';
	lx->p = eol;
	return 0;
}

/* The rest of the line must be one of @names (@n of them); its index in *@v. */
static int parse_word(struct lex *lx, const char *(*name)(unsigned int), unsigned int n,
		      uint64_t *v, const char *what)
{
	const char *eol = lex_line_end(lx);
	size_t len = (size_t)(eol - lx->p);

	for (unsigned int i = 0; i < n; i++) {
		const char *s = name(i);

		if (strlen(s) == len && !memcmp(s, lx->p, len)) {
			*v = i;
			lx->p = eol;
			return 0;
		}
	}
	return lex_expected(lx, what);
}

static const char *state_name(unsigned int i)
{
	return mach_task_state_name((enum mach_task_state)i);
}

static const char *ssb_name(unsigned int i)
{
	return mach_ssb_name((enum mach_spec_store_bypass)i);
}

static const char *sib_name(unsigned int i)
{
	return mach_sib_name((enum mach_spec_indirect_branch)i);
}

/*
 * A number as seq_put_decimal_ull prints it (no padding, no leading zero:
 * a text read by value would render otherwise), at most @max.
 */
static int exact_max(struct lex *lx, uint64_t *v, uint64_t max)
{
	const char *start = lx->p;
	int rc = lex_u64_exact(lx, v);

	if (!rc && *v > max)
		return lex_fail_at(lx, start, "number %llu out of range 0..%llu", (unsigned long long)*v,
				   (unsigned long long)max);
	return rc;
}

static int parse_groups(struct lex *lx, struct ld_status *st)
{
	size_t cap = 0;
	int rc;

	/*
	 * Each gid is followed by one space.  An empty list prints a lone
	 * space since 4.10 ("proc: faster /proc/PID/status" made the space a
	 * separate putc), nothing before.
	 */
	st->groups_space = -1;
	if (lex_peek(lx, '\n') || lex_peek(lx, ' ')) {
		st->groups_space = lex_accept(lx, " ");
		return 0;
	}
	do {
		uint32_t *slot;
		uint64_t g;

		rc = exact_max(lx, &g, UINT32_MAX);
		if (rc)
			return rc;
		if (st->ngroups == 65536) /* NGROUPS_MAX */
			return lex_fail(lx, "more than 65536 groups");
		slot = VEC_PUSH(st->groups, st->ngroups, cap);
		if (!slot)
			return -ENOMEM;
		*slot = (uint32_t)g;
		rc = lex_expect(lx, " ");
		if (rc)
			return rc;
	} while (!lex_peek(lx, '\n'));
	return 0;
}

static int parse_ns(struct lex *lx, struct ld_status *st, unsigned int which)
{
	unsigned int n = 0;
	int rc;

	do {
		uint64_t v;

		rc = lex_expect(lx, "\t");
		if (rc)
			return rc;
		rc = exact_max(lx, &v, INT32_MAX);
		if (rc)
			return rc;
		if (n == MACH_NS_LEVELS_MAX)
			return lex_fail(lx, "more than %d pid namespace levels", MACH_NS_LEVELS_MAX);
		st->ns[which][n++] = (pid_t)v;
	} while (!lex_peek(lx, '\n'));
	if (which == 0)
		st->ns_levels = n;
	else if (n != st->ns_levels)
		return lex_fail(lx, "%u pid namespace levels, but NStgid: has %u", n, st->ns_levels);
	return 0;
}

static int parse_x86(struct lex *lx, uint64_t *v)
{
	*v = 0;
	if (lex_accept(lx, "shstk "))
		*v |= MACH_X86_FEAT_SHSTK;
	if (lex_accept(lx, "wrss "))
		*v |= MACH_X86_FEAT_WRSS;
	return 0;
}

/* The value of line @i, after its label; consumes the line's end. */
static int parse_value(struct lex *lx, struct ld_status *st, enum ld_st i)
{
	uint64_t *v = st->v[i];
	unsigned int lo, hi;
	int rc;

	/* every value follows a tab; the NS lines put one before each level */
	if (ld_st_defs[i].kind != K_NS && (rc = lex_expect(lx, "\t")))
		return rc;
	switch ((enum st_kind)ld_st_defs[i].kind) {
	case K_NAME:
		rc = parse_name(lx, st);
		break;
	case K_UMASK: {
		/* "%#04o" of at most 0777: always four digits */
		const char *digits = lx->p;

		rc = lex_oct(lx, v);
		if (!rc && *v > 0777)
			rc = lex_fail(lx, "Umask: %llo is more than 0777", (unsigned long long)*v);
		else if (!rc && lx->p - digits != 4)
			rc = lex_fail_at(lx, digits, "Umask: not the four octal digits \"%%#04o\" prints");
		break;
	}
	case K_STATE:
		rc = parse_word(lx, state_name, MACH_NR_TASK_STATES, v, "a task state");
		break;
	case K_PID:
		rc = exact_max(lx, v, INT32_MAX);
		break;
	case K_ID4:
		for (int k = 0; k < 4 && !rc; k++) {
			if (k)
				rc = lex_expect(lx, "\t");
			if (!rc)
				rc = exact_max(lx, &v[k], UINT32_MAX);
		}
		break;
	case K_U32:
		rc = exact_max(lx, v, UINT32_MAX);
		break;
	case K_U64:
		rc = lex_u64_exact(lx, v);
		break;
	case K_GROUPS:
		rc = parse_groups(lx, st);
		break;
	case K_NS:
		rc = parse_ns(lx, st, (unsigned int)(i - ST_NSTGID));
		break;
	case K_BOOL:
		rc = exact_max(lx, v, 1);
		break;
	case K_KB:
		rc = lex_u64_width(lx, v, 8);
		if (!rc)
			rc = lex_expect(lx, " kB");
		break;
	case K_HEXL:
		/* "%#lx": "0x" and the digits, but a bare "0" for zero */
		if (lex_accept(lx, "0x")) {
			rc = lex_hex(lx, v);
		} else {
			rc = lex_hex(lx, v);
			if (!rc && *v)
				rc = lex_fail(lx, "expected \"0x\" before a nonzero untag_mask:");
		}
		break;
	case K_SIGQ:
		rc = lex_u64_exact(lx, &v[0]);
		if (!rc)
			rc = lex_expect(lx, "/");
		if (!rc)
			rc = lex_u64_exact(lx, &v[1]);
		break;
	case K_MASK:
		rc = lex_hex_min(lx, v, 16); /* "%016llx": 64 bits fill exactly 16 */
		break;
	case K_SECCOMP:
		rc = exact_max(lx, v, 2);
		break;
	case K_SSB:
		rc = parse_word(lx, ssb_name, MACH_NR_SSB, v, "a Speculation_Store_Bypass: state");
		break;
	case K_SIB:
		rc = parse_word(lx, sib_name, MACH_NR_SIB, v, "a SpeculationIndirectBranch: state");
		break;
	case K_CPUS:
		rc = lex_bitmap(lx, &st->cpus, LD_MAX_CPU_BITS, &lo, &hi);
		st->cpus_lo = lo;
		st->cpus_hi = hi;
		break;
	case K_CPULIST:
		rc = lex_bitmap_list(lx, &st->cpus);
		break;
	case K_MEMS:
		rc = lex_bitmap(lx, &st->mems, LD_MAX_NODE_BITS, &lo, &hi);
		st->mems_lo = lo;
		st->mems_hi = hi;
		break;
	case K_MEMLIST:
		rc = lex_bitmap_list(lx, &st->mems);
		break;
	case K_X86:
		rc = parse_x86(lx, v);
		break;
	}
	if (!rc)
		rc = lex_eol(lx);
	return rc;
}

/* May line @i be missing, given what was seen before it? */
static bool may_be_absent(const struct ld_status *st, enum ld_st i)
{
	switch (i) {
	case ST_UMASK: /* no fs_struct: zombies and tasks in exit */
	case ST_NGID: case ST_NSTGID: case ST_KTHREAD: case ST_VMPEAK:
	case ST_SECCOMP: case ST_SECCOMP_FILTERS: case ST_SIB: case ST_MEMS: case ST_X86:
	case ST_CAPAMB: case ST_NNP: case ST_SSB:
		return true;
	case ST_VMPIN: case ST_RSSANON: case ST_VMPMD: /* a kernel's, or no mm */
		return true;
	case ST_RSSFILE: case ST_RSSSHMEM:
		return !st->present[ST_RSSANON];
	case ST_NSPID: case ST_NSPGID: case ST_NSSID:
		return !st->present[ST_NSTGID];
	case ST_HUGETLB: case ST_COREDUMP: case ST_THP: case ST_UNTAG:
		return true;
	case ST_MEMS_LIST:
		return !st->present[ST_MEMS];
	case ST_X86_LOCKED:
		return !st->present[ST_X86];
	default:
		if (i > ST_VMPEAK && i <= ST_VMSWAP)
			return !st->present[ST_VMPEAK];
		return false;
	}
}

static int find_label(const char *s, size_t len)
{
	for (int i = 0; i < ST_NR; i++)
		if (strlen(ld_st_defs[i].label) == len && !memcmp(ld_st_defs[i].label, s, len))
			return i;
	return -1;
}

/* The line at the cursor is not line @i: say why. */
static int misplaced(struct lex *lx, const struct ld_status *st, enum ld_st i, const char *label,
		     size_t len)
{
	char esc[96];
	int j;

	if (lex_eof(lx))
		return lex_fail(lx, "expected \"%s\", got end of file", ld_st_defs[i].label);
	if (!len)
		return lex_fail(lx, "expected \"%s\", got an empty line", ld_st_defs[i].label);
	lex_escape(label, len, esc, sizeof(esc));
	j = find_label(label, len);
	if (j < 0)
		return lex_fail(lx, "unknown field \"%s\"", esc);
	if ((ld_st_defs[j].flags & STF_MM) && j > ST_VMPEAK && !st->present[ST_VMPEAK])
		return lex_fail(lx, "\"%s\" without \"VmPeak:\" (the mm lines come together)", esc);
	if (j < (int)i)
		return lex_fail(lx, "\"%s\" repeated or out of order", esc);
	return lex_fail(lx, "expected \"%s\", got \"%s\"", ld_st_defs[i].label, esc);
}

static int check(struct lex *lx, const struct ld_status *st, pid_t tgid, pid_t tid)
{
	if (st->v[ST_TGID][0] != (uint64_t)tgid)
		return lex_fail_line(lx, st->line[ST_TGID], "Tgid: %llu is not the process id %d",
				     (unsigned long long)st->v[ST_TGID][0], tgid);
	if (st->v[ST_PID][0] != (uint64_t)tid)
		return lex_fail_line(lx, st->line[ST_PID], "Pid: %llu is not the task id %d",
				     (unsigned long long)st->v[ST_PID][0], tid);
	if (st->present[ST_NSTGID] &&
	    ((uint64_t)st->ns[0][0] != st->v[ST_TGID][0] ||
	     (uint64_t)st->ns[1][0] != st->v[ST_PID][0]))
		return lex_fail_line(lx, st->line[ST_NSTGID],
				     "NStgid:/NSpid: do not start with the ids of Tgid:/Pid:");
	if (st->present[ST_VMPEAK]) {
		const uint64_t anon = st->v[ST_RSSANON][0], file = st->v[ST_RSSFILE][0];
		const uint64_t shmem = st->v[ST_RSSSHMEM][0];

		/* task_mem() derives these from one reading of the counters */
		if (st->present[ST_RSSANON] && (anon + file < anon || anon + file + shmem < shmem ||
						st->v[ST_VMRSS][0] != anon + file + shmem))
			return lex_fail_line(lx, st->line[ST_VMRSS],
					     "VmRSS: is not RssAnon: + RssFile: + RssShmem:");
		if (st->v[ST_VMPEAK][0] < st->v[ST_VMSIZE][0])
			return lex_fail_line(lx, st->line[ST_VMPEAK], "VmPeak: is below VmSize:");
		if (st->v[ST_VMHWM][0] < st->v[ST_VMRSS][0])
			return lex_fail_line(lx, st->line[ST_VMHWM], "VmHWM: is below VmRSS:");
		if (st->present[ST_KTHREAD] && st->v[ST_KTHREAD][0])
			return lex_fail_line(lx, st->line[ST_KTHREAD],
					     "Kthread: 1 with the Vm lines of an mm");
	}
	return 0;
}

int ld_parse_status(struct lex *lx, pid_t tgid, pid_t tid, struct ld_status *st)
{
	unsigned int line = 1;
	int rc;

	for (int i = 0; i < ST_NR; i++) {
		const char *eol = lex_line_end(lx);
		const char *colon = memchr(lx->p, ':', (size_t)(eol - lx->p));
		const char *label = lx->p;
		size_t len = colon ? (size_t)(colon + 1 - lx->p) : (size_t)(eol - lx->p);
		const struct ld_st_def *d = &ld_st_defs[i];
		bool match = !lex_eof(lx) && strlen(d->label) == len && !memcmp(d->label, label, len);

		/* mm-only lines cannot follow a status without the Vm lines */
		if (match && (d->flags & STF_MM) && i > ST_VMPEAK && !st->present[ST_VMPEAK])
			return misplaced(lx, st, (enum ld_st)i, label, len);
		if (!match) {
			if (!may_be_absent(st, (enum ld_st)i))
				return misplaced(lx, st, (enum ld_st)i, label, len);
			continue;
		}
		lx->p += len;
		lex_ctx(lx, d->label);
		rc = parse_value(lx, st, (enum ld_st)i);
		if (rc)
			return rc;
		st->present[i] = true;
		st->line[i] = line++;
	}
	if (!lex_eof(lx)) {
		const char *eol = lex_line_end(lx);
		const char *colon = memchr(lx->p, ':', (size_t)(eol - lx->p));
		size_t len = colon ? (size_t)(colon + 1 - lx->p) : (size_t)(eol - lx->p);
		char esc[96];

		lex_escape(lx->p, len, esc, sizeof(esc));
		if (!len)
			return lex_fail(lx, "an empty line after the last field");
		if (find_label(lx->p, len) >= 0)
			return lex_fail(lx, "\"%s\" repeated or out of order", esc);
		return lex_fail(lx, "unknown field \"%s\"", esc);
	}
	/* a negative tgid: the caller does not know the ids yet (mach_status_ids) */
	return tgid < 0 ? 0 : check(lx, st, tgid, tid);
}

int mach_status_who(const char *path, const char *text, size_t len, struct mach_status_who *who, char *err,
		    size_t errlen)
{
	struct ld_status *st = calloc(1, sizeof(*st));
	struct lex lx;
	int rc;

	if (!st)
		return -ENOMEM;
	lex_init(&lx, path, text, len, err, errlen);
	rc = ld_parse_status(&lx, -1, -1, st);
	if (!rc) {
		/* the innermost pid namespace level is the reader's numbering */
		unsigned int l = st->ns_levels;

		who->tgid = l ? st->ns[0][l - 1] : (pid_t)st->v[ST_TGID][0];
		who->tid = l ? st->ns[1][l - 1] : (pid_t)st->v[ST_PID][0];
		who->sid = l ? st->ns[3][l - 1] : 0;
		for (int k = 0; k < 4; k++) {
			who->uid[k] = (uint32_t)st->v[ST_UID][k];
			who->gid[k] = (uint32_t)st->v[ST_GID][k];
		}
		who->cap_eff = st->v[ST_CAPEFF][0];
	}
	ld_status_free(st);
	return rc;
}

int mach_status_ids(const char *path, const char *text, size_t len, pid_t *tgid, pid_t *tid, char *err,
		    size_t errlen)
{
	struct mach_status_who who;
	int rc = mach_status_who(path, text, len, &who, err, errlen);

	if (!rc) {
		*tgid = who.tgid;
		*tid = who.tid;
	}
	return rc;
}
