// SPDX-License-Identifier: MIT
/*
 * test_psi.c - scenario tests of the PSI engine (kernel/sched/psi.c of
 * Linux 6.18) and of the fixed-point helpers (include/linux/sched/loadavg.h)
 * on a virtual clock.
 *
 * Every expected number is derived here, independently of the engine: a
 * small reference model re-computes the per-CPU weighting, the averaging
 * grid, the work's re-arming and the calc_load sequences from the kernel's
 * rules, with its own fixed-point code.  A few literal values computed by
 * hand guard the reference model itself.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "psi/psi_testing.h"
#include "seq/seq_testing.h"
#include "tap.h"
#include "uprocfs/calc_load.h"
#include "procfs/render.h"
#include "uprocfs/psi.h"

/* ------------------------------------------------------------------ */
/* Virtual clock                                                       */

struct vclock {
	uint64_t now;
	uint64_t reads;
};

static uint64_t vclock_read(void *ctx, int cpu)
{
	struct vclock *c = ctx;

	(void)cpu;
	c->reads++;
	return c->now;
}

static struct psi_engine *mk_engine(struct vclock *c, unsigned int ncpus,
				    enum psi_clock_mode mode, bool irq)
{
	struct psi_config cfg = {
		.ncpus = ncpus, .clock = vclock_read, .clock_ctx = c,
		.clock_mode = mode, .irq_accounting = irq,
	};
	struct psi_engine *eng = NULL;
	int ret = psi_engine_create(&cfg, &eng);

	if (ret) {
		diag("psi_engine_create: %d", ret);
		exit(1);
	}
	return eng;
}

/* Let @dt pass, running the averaging work whenever it is due, as a timer would. */
static void advance(struct psi_engine *eng, struct vclock *c, uint64_t dt)
{
	uint64_t end = c->now + dt, due;

	while (psi_next_avgs_work(eng, &due) && due <= end) {
		c->now = due > c->now ? due : c->now;
		psi_avgs_tick(eng);
	}
	c->now = end;
}

static struct psi_group *mk_group(struct psi_engine *eng, struct psi_group *parent)
{
	struct psi_group *g = NULL;

	if (psi_group_create(eng, parent, &g)) {
		diag("psi_group_create failed");
		exit(1);
	}
	return g;
}

/*
 * A pressure file's text as a reader gets it: the engine's snapshot printed
 * by the /proc/pressure renderer.  -EOPNOTSUPP when the file does not exist.
 */
static int print_pressure(struct seq_file *m, struct psi_group *g, enum psi_res res)
{
	struct mach_pressure p;
	int ret = psi_fill_pressure(g, res, &p);

	if (ret)
		return ret;
	if (!p.present)
		return -EOPNOTSUPP;
	pfs_print_pressure(m, &p);
	return 0;
}

/*
 * Render a pressure file into a NUL-terminated buffer; eight rotate so two
 * results can be compared in one expression.
 */
static const char *show(struct psi_group *g, enum psi_res res)
{
	static char bufs[8][4096];
	static unsigned int next;
	char *buf = bufs[next++ % 8];
	struct seq_file m;
	int ret;

	seq_init_buffer(&m, buf, sizeof(bufs[0]) - 1);
	ret = print_pressure(&m, g, res);
	if (ret) {
		snprintf(buf, sizeof(bufs[0]), "<error %d>", ret);
		return buf;
	}
	buf[m.count] = 0;
	return buf;
}

/* ------------------------------------------------------------------ */
/* Reference model, written from the kernel's rules                    */

#define T_NSEC_PER_JIFFY 4000000ull			/* HZ=250 */
#define T_PERIOD (501ull * T_NSEC_PER_JIFFY)		/* 2*HZ+1 jiffies */
#define T_NCPU_MAX 4
#define T_NSTATES 7					/* all but NONIDLE */

/* Indices into the reference's per-CPU accumulators. */
#define B(s) (1u << (s))

static const unsigned long ref_exp_psi[3] = { 1677, 1981, 2034 };

/* avg' = (avg*e + a*(1-e)) rounded up when rising; 64-bit, shifts. */
static uint64_t ref_load(uint64_t load, uint64_t e, uint64_t active)
{
	uint64_t v = load * e + active * (2048 - e);

	if (active >= load)
		v += 2047;
	return v >> 11;
}

/* e^n in 11-bit fixed point, LSB-first square-and-multiply, round to nearest. */
static uint64_t ref_pow(uint64_t x, unsigned int n)
{
	uint64_t r = 2048;

	for (; n; n >>= 1) {
		if (n & 1)
			r = (r * x + 1024) >> 11;
		if (n > 1)
			x = (x * x + 1024) >> 11;
	}
	return r;
}

struct ref_grp {
	unsigned int ncpus;
	uint64_t acc[T_NCPU_MAX][T_NSTATES + 1];	/* ns per state since the last collect */
	uint64_t total[T_NSTATES];
	uint64_t avg_total[T_NSTATES];
	unsigned long avg[T_NSTATES][3];
	uint64_t last, next;
	bool armed;
	uint64_t due;
};

static void ref_init(struct ref_grp *r, unsigned int ncpus, uint64_t created)
{
	memset(r, 0, sizeof(*r));
	r->ncpus = ncpus;
	r->last = created;
	r->next = created + T_PERIOD;
}

/* @dt ns passed with CPU @cpu in the states of @mask (bit 7 = non-idle). */
static void ref_advance(struct ref_grp *r, unsigned int cpu, uint32_t mask, uint64_t dt)
{
	for (int s = 0; s <= T_NSTATES; s++)
		if (mask & B(s))
			r->acc[cpu][s] += dt;
}

/* A task change at @t arms the work if it is not armed. */
static void ref_arm(struct ref_grp *r, uint64_t t)
{
	if (!r->armed) {
		r->armed = true;
		r->due = (t / T_NSEC_PER_JIFFY + 501) * T_NSEC_PER_JIFFY;
	}
}

/* Fold: weight every CPU by its whole non-idle jiffies. Returns "was busy". */
static bool ref_collect(struct ref_grp *r)
{
	uint64_t num[T_NSTATES] = { 0 }, den = 0;
	bool busy = false;

	for (unsigned int c = 0; c < r->ncpus; c++) {
		uint64_t nj = r->acc[c][T_NSTATES] / T_NSEC_PER_JIFFY;

		busy |= r->acc[c][T_NSTATES] != 0;
		den += nj;
		for (int s = 0; s < T_NSTATES; s++)
			num[s] += r->acc[c][s] * nj;
		memset(r->acc[c], 0, sizeof(r->acc[c]));
	}
	for (int s = 0; s < T_NSTATES; s++)
		r->total[s] += num[s] / (den ? den : 1);
	return busy;
}

static void ref_update(struct ref_grp *r, uint64_t now)
{
	uint64_t missed = 0, period;

	if (now < r->next)
		return;
	if (now - r->next >= T_PERIOD)
		missed = (now - r->next) / T_PERIOD;
	period = now - (r->last + missed * T_PERIOD);
	r->next += (missed + 1) * T_PERIOD;
	r->last = now;
	for (int s = 0; s < T_NSTATES; s++) {
		uint32_t sample = (uint32_t)(r->total[s] - r->avg_total[s]);
		unsigned long pct;

		if (sample > period)
			sample = (uint32_t)period;
		r->avg_total[s] += sample;
		pct = (unsigned long)((uint64_t)sample * 100 / period) * 2048;
		for (int w = 0; w < 3; w++) {
			if (missed)
				r->avg[s][w] = ref_load(r->avg[s][w],
							ref_pow(ref_exp_psi[w], (unsigned int)missed), 0);
			r->avg[s][w] = ref_load(r->avg[s][w], ref_exp_psi[w], pct);
		}
	}
}

/* The averaging work at @now: collect, update if due, re-arm if busy. */
static void ref_work(struct ref_grp *r, uint64_t now)
{
	bool busy = ref_collect(r);

	r->armed = false;
	ref_update(r, now);
	if (busy) {
		r->armed = true;
		r->due = (now / T_NSEC_PER_JIFFY + (r->next - now) / T_NSEC_PER_JIFFY + 1) *
			 T_NSEC_PER_JIFFY;
	}
}

/* A read of the file: collect and update if due; the work is untouched. */
static void ref_read(struct ref_grp *r, uint64_t now)
{
	ref_collect(r);
	ref_update(r, now);
}

/* Compare every total and average of @g with the reference. */
static int same_as_ref(struct psi_group *g, const struct ref_grp *r, const char *what)
{
	int bad = 0;

	for (int s = 0; s < T_NSTATES; s++) {
		if (psi_group_total(g, (enum psi_states)s) != r->total[s]) {
			if (bad++ < 3)
				diag("%s: total[%d] %" PRIu64 " want %" PRIu64, what, s,
				     psi_group_total(g, (enum psi_states)s), r->total[s]);
		}
		for (unsigned int w = 0; w < 3; w++) {
			if (psi_group_avg(g, (enum psi_states)s, w) != r->avg[s][w]) {
				if (bad++ < 3)
					diag("%s: avg[%d][%u] %lu want %lu", what, s, w,
					     psi_group_avg(g, (enum psi_states)s, w), r->avg[s][w]);
			}
		}
	}
	return !bad;
}

/* psi_show's line format, done with printf here to check the putters. */
static void ref_line(char *out, size_t cap, const char *kind, const unsigned long avg[3],
		     uint64_t total_ns)
{
	unsigned long a[3][2];

	for (int w = 0; w < 3; w++) {
		a[w][0] = avg[w] / 2048;
		a[w][1] = (avg[w] % 2048) * 100 / 2048;
	}
	snprintf(out, cap, "%s avg10=%lu.%02lu avg60=%lu.%02lu avg300=%lu.%02lu total=%" PRIu64 "\n",
		 kind, a[0][0], a[0][1], a[1][0], a[1][1], a[2][0], a[2][1], total_ns / 1000);
}

static const char *ref_text(const struct ref_grp *r, int res, bool system)
{
	static char buf[512];
	static const unsigned long zero[3];
	char l1[200], l2[200];
	bool cpu_full_zero = system && res == PSI_CPU;

	ref_line(l1, sizeof(l1), "some", r->avg[res * 2], r->total[res * 2]);
	ref_line(l2, sizeof(l2), "full", cpu_full_zero ? zero : r->avg[res * 2 + 1],
		 cpu_full_zero ? 0 : r->total[res * 2 + 1]);
	snprintf(buf, sizeof(buf), "%s%s", l1, l2);
	return buf;
}

static const char zeros_text[] = "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
				 "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";

/*
 * Run the engine's work at each due time until @until, mirroring it in the
 * reference groups; the states are constant meanwhile (@masks[g][cpu]).
 * Also checks that the engine is due exactly when the reference says.
 */
static int run_until(struct psi_engine *eng, struct vclock *c, uint64_t until,
		     struct ref_grp *refs, uint32_t (*masks)[T_NCPU_MAX], int nref,
		     const char *what)
{
	int bad = 0;
	uint64_t due;

	while (psi_next_avgs_work(eng, &due) && due <= until) {
		uint64_t ref_due = UINT64_MAX;

		for (int i = 0; i < nref; i++)
			if (refs[i].armed && refs[i].due < ref_due)
				ref_due = refs[i].due;
		if (due != ref_due && bad++ < 3)
			diag("%s: work due %" PRIu64 " want %" PRIu64, what, due, ref_due);
		for (int i = 0; i < nref; i++)
			for (unsigned int cpu = 0; cpu < refs[i].ncpus; cpu++)
				ref_advance(&refs[i], cpu, masks[i][cpu], due - c->now);
		c->now = due;
		psi_avgs_tick(eng);
		for (int i = 0; i < nref; i++)
			if (refs[i].armed && refs[i].due <= due)
				ref_work(&refs[i], due);
	}
	for (int i = 0; i < nref; i++)
		for (unsigned int cpu = 0; cpu < refs[i].ncpus; cpu++)
			ref_advance(&refs[i], cpu, masks[i][cpu], until - c->now);
	c->now = until;
	return !bad;
}

#define IO_STALL (B(PSI_IO_SOME) | B(PSI_IO_FULL) | B(T_NSTATES))

/* ------------------------------------------------------------------ */
/* (g) guard the reference model and the header against hand values    */

static void test_calc_load(void)
{
	unsigned long l[3] = { 0, 0, 0 };
	uint64_t r[3] = { 0, 0, 0 };
	static const unsigned long exps[3] = { CALC_LOAD_EXP_1, CALC_LOAD_EXP_5, CALC_LOAD_EXP_15 };
	static const unsigned long first[3][3] = {
		{ 164, 34, 11 }, { 315, 68, 22 }, { 454, 101, 33 },
	};
	int mismatches = 0, step_to_one = -1;
	char text[32];

	/* Hand-computed: first three LOAD_FREQ steps of one running task. */
	for (int i = 0; i < 3; i++) {
		for (int w = 0; w < 3; w++)
			l[w] = calc_load(l[w], exps[w], CALC_LOAD_FIXED_1);
		ok(l[0] == first[i][0] && l[1] == first[i][1] && l[2] == first[i][2],
		   "calc_load step %d of one running task: %lu %lu %lu", i + 1, l[0], l[1], l[2]);
	}
	memset(l, 0, sizeof(l));

	/* One always-running task for an hour of LOAD_FREQ steps. */
	for (int i = 0; i < 720; i++) {
		for (int w = 0; w < 3; w++) {
			l[w] = calc_load(l[w], exps[w], CALC_LOAD_FIXED_1);
			r[w] = ref_load(r[w], exps[w], 2048);
			if (l[w] != r[w] && mismatches++ < 3)
				diag("step %d w%d: %lu want %" PRIu64, i, w, l[w], r[w]);
		}
		if (step_to_one < 0 && l[0] == CALC_LOAD_FIXED_1)
			step_to_one = i + 1;
	}
	ok(!mismatches, "calc_load follows the independent sequence for 720 steps");
	ok(l[0] == CALC_LOAD_FIXED_1 && l[1] == CALC_LOAD_FIXED_1,
	   "1- and 5-minute loads reach exactly 1.00 (%lu %lu)",
	   l[0], l[1]);
	diag("load1 reached CALC_LOAD_FIXED_1 after %d steps; load15 is %lu after an hour", step_to_one, l[2]);
	/* /proc/loadavg rounds with CALC_LOAD_FIXED_1/200; pressure files do not. */
	snprintf(text, sizeof(text), "%lu.%02lu", CALC_LOAD_INT(l[0] + CALC_LOAD_FIXED_1 / 200),
		 CALC_LOAD_FRAC(l[0] + CALC_LOAD_FIXED_1 / 200));
	is_str(text, "1.00", "loadavg prints 1.00");
	ok(calc_load_int(1400) == 0 && calc_load_frac(1400) == 68, "CALC_LOAD_FRAC truncates: 1400 -> 0.68");

	/* calc_load_fixed_power_int and calc_load_n against hand values and the reference. */
	ok(calc_load_fixed_power_int(1677, CALC_LOAD_FSHIFT, 5) == 753 &&
	   calc_load_fixed_power_int(1884, CALC_LOAD_FSHIFT, 12) == 751 &&
	   calc_load_fixed_power_int(2034, CALC_LOAD_FSHIFT, 30) == 1665,
	   "calc_load_fixed_power_int hand values");
	mismatches = 0;
	for (unsigned int n = 0; n < 200; n++) {
		for (int w = 0; w < 3; w++) {
			unsigned long e = w == 0 ? PSI_EXP_10s : w == 1 ? PSI_EXP_60s : PSI_EXP_300s;

			if (calc_load_fixed_power_int(e, CALC_LOAD_FSHIFT, n) != ref_pow(e, n) ||
			    calc_load_n(150000, e, 0, n) != ref_load(150000, ref_pow(e, n), 0) ||
			    calc_load_n(1000, e, 204800, n) != ref_load(1000, ref_pow(e, n), 204800))
				mismatches++;
		}
	}
	ok(!mismatches, "calc_load_fixed_power_int/calc_load_n match the reference for n < 200");
	/* NO_HZ catch-up is close to, not equal to, n single steps. */
	{
		unsigned long one = 2048;

		for (int i = 0; i < 12; i++)
			one = calc_load(one, CALC_LOAD_EXP_1, 0);
		diag("12 idle steps from 1.00: single %lu, calc_load_n %lu", one,
		     calc_load_n(2048, CALC_LOAD_EXP_1, 0, 12));
	}
}

/* ------------------------------------------------------------------ */
/* (a) one task always in iowait on a 2-CPU machine                     */

static void test_iowait_converges(void)
{
	struct vclock c = { 0 };
	struct psi_engine *eng = mk_engine(&c, 2, PSI_CLOCK_ONCE, false);
	struct psi_group *sys = psi_system_group(eng), *a = mk_group(eng, sys);
	struct ref_grp refs[2];
	uint32_t masks[2][T_NCPU_MAX] = { { IO_STALL, 0 }, { IO_STALL, 0 } };
	struct psi_task t;
	char want[200];
	const uint64_t end = 300ull * 1000000000ull + 1000000;	/* 300.001 s */

	ref_init(&refs[0], 2, 0);
	ref_init(&refs[1], 2, 0);
	psi_task_init(&t, a, 0);
	t.in_iowait = true;
	ok(psi_task_change(&t, 0, PSI_TSK_IOWAIT) == 0, "iowait task enqueued at t=0");
	ref_arm(&refs[0], 0);
	ref_arm(&refs[1], 0);

	ok(run_until(eng, &c, end, refs, masks, 2, "iowait"), "work ran exactly at the kernel's due times");
	ok(same_as_ref(sys, &refs[0], "iowait/system") && same_as_ref(a, &refs[1], "iowait/A"),
	   "totals and averages equal the reference after 300 s");
	ok(psi_group_avg(a, PSI_IO_SOME, PSI_AVG10) == 100 * CALC_LOAD_FIXED_1,
	   "io some avg10 converged to exactly 100.00");
	ok(psi_group_avg(a, PSI_IO_FULL, PSI_AVG10) == 100 * CALC_LOAD_FIXED_1,
	   "io full avg10 too: nothing else runs");

	/* Reading folds up to now: total = elapsed µs exactly. */
	ref_read(&refs[1], end);
	ref_read(&refs[0], end);
	is_str(show(a, PSI_IO), ref_text(&refs[1], PSI_IO, false), "A io text equals the reference");
	ok(psi_group_total(a, PSI_IO_SOME) == end, "total grows by exactly the elapsed time (%" PRIu64 " ns)",
	   psi_group_total(a, PSI_IO_SOME));
	snprintf(want, sizeof(want), "total=%" PRIu64 "\n", end / 1000);
	ok(strstr(show(sys, PSI_IO), want) != NULL, "system io prints total=%" PRIu64 " (µs)", end / 1000);
	ok(strstr(show(a, PSI_IO), "some avg10=100.00 ") != NULL, "printed avg10=100.00");
	is_str(show(a, PSI_MEM), zeros_text, "memory untouched");
	is_str(show(sys, PSI_CPU), zeros_text, "cpu untouched");
	psi_engine_destroy(eng);
}

/* ------------------------------------------------------------------ */
/* (b) three runnable tasks on two CPUs: cpu some 50% by weighting      */

static void test_cpu_some_weighted(void)
{
	struct vclock c = { 0 };
	struct psi_engine *eng = mk_engine(&c, 2, PSI_CLOCK_ONCE, false);
	struct psi_group *sys = psi_system_group(eng);
	struct psi_group *a = mk_group(eng, sys), *b = mk_group(eng, sys);
	struct psi_task t1, t2, t3;
	struct ref_grp refs[3];
	const uint32_t ni = B(T_NSTATES), some = B(PSI_CPU_SOME), full = B(PSI_CPU_FULL);
	/* system: CPU0 two runnable, one on it -> some; CPU1 one on it -> none. */
	/* A: t1 on CPU0, t3 on CPU1 -> nothing; B: t2 waits on CPU0 -> some+full. */
	uint32_t masks[3][T_NCPU_MAX] = {
		{ some | ni, ni }, { ni, ni }, { some | full | ni, 0 },
	};
	const uint64_t end = 120ull * 1000000000ull;
	int ret = 0;

	for (int i = 0; i < 3; i++) {
		ref_init(&refs[i], 2, 0);
		ref_arm(&refs[i], 0);
	}
	psi_task_init(&t1, a, 0);
	psi_task_init(&t2, b, 0);
	psi_task_init(&t3, a, 1);
	ret |= psi_task_wakeup(&t1);
	ret |= psi_task_switch(NULL, &t1, false);
	ret |= psi_task_wakeup(&t2);
	ret |= psi_task_wakeup(&t3);
	ret |= psi_task_switch(NULL, &t3, false);
	ok(ret == 0, "three tasks placed");
	ok(psi_group_tasks(sys, 0, PSI_NR_RUNNING) == 2 && psi_group_tasks(sys, 1, PSI_NR_RUNNING) == 1 &&
	   (psi_group_state_mask(sys, 0) & PSI_ONCPU) && (psi_group_state_mask(sys, 1) & PSI_ONCPU),
	   "system counts: CPU0 2 running + ONCPU, CPU1 1 running + ONCPU");

	ok(run_until(eng, &c, end, refs, masks, 3, "cpu"), "work due times");
	ref_read(&refs[0], end);
	ref_read(&refs[1], end);
	ref_read(&refs[2], end);
	is_str(show(sys, PSI_CPU), ref_text(&refs[0], PSI_CPU, true), "system cpu text equals the reference");
	is_str(show(a, PSI_CPU), ref_text(&refs[1], PSI_CPU, false), "A cpu text equals the reference");
	is_str(show(b, PSI_CPU), ref_text(&refs[2], PSI_CPU, false), "B cpu text equals the reference");
	ok(same_as_ref(sys, &refs[0], "cpu/system") && same_as_ref(a, &refs[1], "cpu/A") &&
	   same_as_ref(b, &refs[2], "cpu/B"), "all totals and averages equal the reference");
	ok(psi_group_avg(sys, PSI_CPU_SOME, PSI_AVG10) == 50 * CALC_LOAD_FIXED_1,
	   "system cpu some avg10 = 50.00 (one of two non-idle CPUs contended)");
	ok(psi_group_total(sys, PSI_CPU_SOME) == end / 2, "system cpu some total = half the elapsed time");
	ok(strstr(show(sys, PSI_CPU), "\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n") != NULL,
	   "system cpu full line forced to zeros");
	ok(strstr(show(b, PSI_CPU), "full avg10=100.00 ") != NULL &&
	   psi_group_total(b, PSI_CPU_FULL) == end, "cgroup B's cpu full is real: 100.00, all the time");
	is_str(show(a, PSI_CPU), zeros_text, "cgroup A (always on its CPUs) has no cpu pressure");
	psi_engine_destroy(eng);

	/*
	 * The system group's full state does exist internally (a task runnable
	 * while its CPU is still idle) but is never printed.
	 */
	{
		struct vclock c2 = { 0 };
		struct psi_engine *e2 = mk_engine(&c2, 1, PSI_CLOCK_ONCE, false);
		struct psi_group *s2 = psi_system_group(e2), *g2 = mk_group(e2, s2);
		struct psi_task w;
		const char *txt;

		psi_task_init(&w, g2, 0);
		psi_task_wakeup(&w);
		c2.now = T_PERIOD;
		txt = show(s2, PSI_CPU);
		ok(psi_group_total(s2, PSI_CPU_FULL) == T_PERIOD &&
		   strstr(txt, "\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n") != NULL,
		   "system cpu full accumulates internally (%" PRIu64 ") but prints zeros",
		   psi_group_total(s2, PSI_CPU_FULL));
		ok(strstr(show(g2, PSI_CPU), "full avg10=18.11 avg60=3.27 avg300=0.68 total=2004000\n") != NULL,
		   "while the cgroup prints its full line");
		psi_engine_destroy(e2);
	}
}

/* ------------------------------------------------------------------ */
/* (c) an idle machine                                                 */

static void test_idle(void)
{
	struct vclock c = { 0 };
	struct psi_engine *eng = mk_engine(&c, 2, PSI_CLOCK_ONCE, false);
	struct psi_group *sys = psi_system_group(eng), *a = mk_group(eng, sys);
	struct psi_task t;
	int bad = 0;
	uint64_t due;

	ok(!psi_next_avgs_work(eng, &due), "no work armed on a machine that never ran anything");
	for (int i = 1; i <= 100; i++) {
		c.now = (uint64_t)i * 1000000000ull;
		if (psi_avgs_tick(eng) != 0)
			bad++;
		if (i % 10 == 0)
			for (int res = PSI_IO; res <= PSI_CPU; res++)
				if (strcmp(show(sys, res), zeros_text) || strcmp(show(a, res), zeros_text))
					bad++;
	}
	ok(!bad, "100 s idle: no work runs and every file reads all zeros");

	/* A task alone on its CPU is busy, not stalled: the clock runs, nothing accrues. */
	psi_task_init(&t, a, 1);
	psi_task_wakeup(&t);
	psi_task_switch(NULL, &t, false);
	for (int i = 0; i < 20; i++) {
		if (!psi_next_avgs_work(eng, &due))
			break;
		c.now = due;
		psi_avgs_tick(eng);
	}
	ok(psi_next_avgs_work(eng, &due), "a running task keeps the averaging work going");
	for (int s = 0; s < PSI_NONIDLE; s++)
		if (psi_group_total(sys, (enum psi_states)s) || psi_group_total(a, (enum psi_states)s))
			bad++;
	ok(!bad, "one running task per CPU accumulates no stall time");
	is_str(show(sys, PSI_CPU), zeros_text, "cpu reads zeros");

	/* The task sleeps: the work runs once more and then stops. */
	psi_task_switch(&t, NULL, true);
	for (int i = 0; i < 5 && psi_next_avgs_work(eng, &due); i++) {
		c.now = due;
		psi_avgs_tick(eng);
	}
	ok(!psi_next_avgs_work(eng, &due), "the work stops once every CPU is idle");
	c.now += 600ull * 1000000000ull;
	is_str(show(a, PSI_IO), zeros_text, "ten idle minutes later: still zeros");
	psi_engine_destroy(eng);
}

/* ------------------------------------------------------------------ */
/* (d) decay after the load stops, with missed periods                  */

static void test_decay(void)
{
	struct vclock c = { 0 };
	struct psi_engine *eng = mk_engine(&c, 2, PSI_CLOCK_ONCE, false);
	struct psi_group *sys = psi_system_group(eng);
	struct ref_grp ref[1];
	uint32_t stall[1][T_NCPU_MAX] = { { IO_STALL, 0 } };
	uint32_t idle[1][T_NCPU_MAX] = { { 0, 0 } };
	struct psi_task t;
	uint64_t stop, due, last_avg10;
	int rises = 0;

	ref_init(ref, 2, 0);
	psi_task_init(&t, sys, 0);
	t.in_iowait = true;
	psi_task_change(&t, 0, PSI_TSK_IOWAIT);
	ref_arm(ref, 0);
	ok(run_until(eng, &c, 30ull * 1000000000ull, ref, stall, 1, "load"), "30 s of io stall");

	/* Stop half-way through a period (the task goes away). */
	stop = c.now + 700000000ull;
	run_until(eng, &c, stop, ref, stall, 1, "load");
	psi_task_change(&t, PSI_TSK_IOWAIT, 0);
	last_avg10 = psi_group_avg(sys, PSI_IO_SOME, PSI_AVG10);

	/* The work sees the partial period, then an empty one, and stops. */
	ok(run_until(eng, &c, stop + 20ull * 1000000000ull, ref, idle, 1, "stop"),
	   "work after the stop at the kernel's times");
	ok(!psi_next_avgs_work(eng, &due), "the work stopped after one quiet period");
	ok(same_as_ref(sys, ref, "after stop"), "averages after the stop equal the reference");
	ok(psi_group_avg(sys, PSI_IO_SOME, PSI_AVG10) < last_avg10, "avg10 went down (%lu -> %lu)",
	   last_avg10, psi_group_avg(sys, PSI_IO_SOME, PSI_AVG10));

	/* Nobody looks for a long time; a read decays all missed periods at once. */
	for (int k = 0; k < 4; k++) {
		uint64_t next_read = c.now + (uint64_t)(37 + 11 * k) * 1000000000ull + 123456789ull;

		ref_advance(ref, 0, 0, next_read - c.now);
		c.now = next_read;
		ref_read(ref, c.now);
		if (!is_str(show(sys, PSI_IO), ref_text(ref, PSI_IO, true),
			    "read %d after %d s of silence: text equals the reference", k, 37 + 11 * k))
			break;
		rises += psi_group_avg(sys, PSI_IO_SOME, PSI_AVG10) > last_avg10;
		last_avg10 = psi_group_avg(sys, PSI_IO_SOME, PSI_AVG10);
		ok(same_as_ref(sys, ref, "decay"), "decayed values equal the reference (missed periods)");
	}
	ok(!rises && psi_group_avg(sys, PSI_IO_SOME, PSI_AVG10) == 0 &&
	   psi_group_avg(sys, PSI_IO_SOME, PSI_AVG300) > 0,
	   "avg10 fell steadily to 0.00; avg300 still %lu", psi_group_avg(sys, PSI_IO_SOME, PSI_AVG300));
	ok(psi_group_total(sys, PSI_IO_SOME) == stop, "total stopped growing at the stop");
	psi_engine_destroy(eng);
}

/* ------------------------------------------------------------------ */
/* (e) one clock read per change at every depth; same numbers both ways */

struct tree {
	struct vclock c;
	struct psi_engine *eng;
	struct psi_group *g[10];	/* g[0] system ... g[depth] leaf */
	struct psi_group *sib;		/* sibling of the leaf */
	struct psi_task t1, t2, t3;
};

static void tree_build(struct tree *tr, unsigned int depth, enum psi_clock_mode mode)
{
	memset(tr, 0, sizeof(*tr));
	tr->eng = mk_engine(&tr->c, 2, mode, false);
	tr->g[0] = psi_system_group(tr->eng);
	for (unsigned int i = 1; i <= depth; i++)
		tr->g[i] = mk_group(tr->eng, tr->g[i - 1]);
	tr->sib = mk_group(tr->eng, tr->g[depth - 1]);
	psi_task_init(&tr->t1, tr->g[depth], 0);
	psi_task_init(&tr->t2, tr->sib, 0);
	psi_task_init(&tr->t3, tr->g[depth], 1);
}

enum op_kind { OP_CHANGE, OP_SWITCH };

/* One step of the script: returns the kind of the operation it did. */
static enum op_kind tree_step(struct tree *tr, int step, int *ret)
{
	struct psi_task *t1 = &tr->t1, *t2 = &tr->t2, *t3 = &tr->t3;

	switch (step % 14) {
	case 0: *ret = psi_task_wakeup(t1); return OP_CHANGE;
	case 1: *ret = psi_task_switch(NULL, t1, false); return OP_SWITCH;
	case 2: *ret = psi_task_wakeup(t2); return OP_CHANGE;
	case 3: *ret = psi_memstall_enter(t1); return OP_CHANGE;
	case 4: *ret = psi_task_switch(t1, t2, false); return OP_SWITCH;	/* preempt */
	case 5: t2->in_iowait = true;
		*ret = psi_task_switch(t2, t1, true); return OP_SWITCH;		/* io sleep */
	case 6: *ret = psi_memstall_leave(t1); return OP_CHANGE;
	case 7: *ret = psi_task_wakeup(t2); t2->in_iowait = false; return OP_CHANGE;
	case 8: *ret = psi_task_wakeup(t3); return OP_CHANGE;
	case 9: *ret = psi_task_switch(NULL, t3, false); return OP_SWITCH;
	case 10: *ret = psi_task_switch(t1, NULL, true); return OP_SWITCH;	/* CPU0 idles */
	case 11: *ret = psi_task_switch(NULL, t2, false); return OP_SWITCH;
	case 12: *ret = psi_task_switch(t2, NULL, true); return OP_SWITCH;
	default: *ret = psi_task_switch(t3, NULL, true); return OP_SWITCH;
	}
}

static void test_clock_reads(void)
{
	for (unsigned int depth = 1; depth <= 8; depth++) {
		struct tree *nw = malloc(sizeof(*nw)), *old = malloc(sizeof(*old));
		int bad_new = 0, bad_old = 0, bad_ret = 0, bad_same = 0;
		struct psi_stats s0, s1;

		tree_build(nw, depth, PSI_CLOCK_ONCE);
		tree_build(old, depth, PSI_CLOCK_PER_GROUP);
		for (int step = 0; step < 14 * 40; step++) {
			uint64_t dt = 3700000ull + (uint64_t)(step % 7) * 1100000ull;
			struct tree *trs[2] = { nw, old };

			for (int k = 0; k < 2; k++) {
				struct tree *tr = trs[k];
				enum op_kind kind;
				uint64_t reads, groups;
				int ret;

				tr->c.now += dt;
				psi_get_stats(tr->eng, &s0);
				kind = tree_step(tr, step, &ret);
				psi_get_stats(tr->eng, &s1);
				reads = s1.change_clock_reads - s0.change_clock_reads;
				groups = s1.group_changes - s0.group_changes;
				bad_ret += ret != 0;
				if (k == 0 && reads != 1 && bad_new++ < 3)
					diag("depth %u step %d: %" PRIu64 " reads in the new mode", depth, step, reads);
				if (k == 1 && (reads != groups || (kind == OP_CHANGE && reads != depth + 1)) &&
				    bad_old++ < 3)
					diag("depth %u step %d: %" PRIu64 " reads, %" PRIu64 " group updates (old mode)",
					     depth, step, reads, groups);
				/* Let the averaging work run now and then. */
				if (step % 5 == 4) {
					tr->c.now += 2 * T_PERIOD / 3;
					psi_avgs_tick(tr->eng);
				}
			}
		}
		ok(!bad_ret, "depth %u: the 560-step script ran without errors", depth);
		ok(!bad_new, "depth %u: exactly one clock read per change and per switch (new)", depth);
		ok(!bad_old, "depth %u: %u reads per task change, one per group update (old)", depth,
		   depth + 1);
		show(nw->sib, PSI_IO);
		show(old->sib, PSI_IO);
		for (unsigned int i = 0; i <= depth; i++) {
			for (int res = PSI_IO; res <= PSI_CPU; res++)
				bad_same += strcmp(show(nw->g[i], res), show(old->g[i], res)) != 0 &&
					    (diag("%s", show(nw->g[i], res)), diag("%s", show(old->g[i], res)), 1);
			for (int s = 0; s < PSI_NONIDLE; s++)
				for (unsigned int w = 0; w < 3; w++)
					bad_same += psi_group_total(nw->g[i], s) != psi_group_total(old->g[i], s) ||
						    psi_group_avg(nw->g[i], s, w) != psi_group_avg(old->g[i], s, w);
		}
		ok(!bad_same && psi_group_total(nw->g[0], PSI_CPU_SOME) > 0 &&
		   psi_group_total(nw->g[depth], PSI_MEM_SOME) > 0 &&
		   psi_group_total(nw->sib, PSI_IO_SOME) > 0,
		   "depth %u: identical totals, averages and text in both modes (non-trivial)", depth);
		psi_engine_destroy(nw->eng);
		psi_engine_destroy(old->eng);
		free(nw);
		free(old);
	}
}

/* ------------------------------------------------------------------ */
/* (f) nested cgroups: ancestors stall, siblings do not                 */

static void test_nested(void)
{
	struct vclock c = { 0 };
	struct psi_engine *eng = mk_engine(&c, 2, PSI_CLOCK_ONCE, false);
	struct psi_group *sys = psi_system_group(eng);
	struct psi_group *a = mk_group(eng, sys), *b = mk_group(eng, sys);
	struct psi_group *a1 = mk_group(eng, a), *a2 = mk_group(eng, a);
	struct psi_group *a1x = mk_group(eng, a1);
	struct psi_task t, r;
	const uint64_t end = 10ull * 1000000000ull;
	uint64_t due;

	ok(psi_group_depth(a1x) == 3 && psi_group_parent(a1x) == a1 && psi_group_parent(sys) == NULL,
	   "tree shape");
	psi_task_init(&t, a1x, 1);
	t.in_iowait = true;
	psi_task_change(&t, 0, PSI_TSK_IOWAIT);
	/* A running task in B on the other CPU must not mask A's stall. */
	psi_task_init(&r, b, 0);
	psi_task_wakeup(&r);
	psi_task_switch(NULL, &r, false);
	while (psi_next_avgs_work(eng, &due) && due <= end) {
		c.now = due;
		psi_avgs_tick(eng);
	}
	c.now = end;
	ok(psi_group_state_mask(a1x, 1) & B(PSI_IO_FULL) && psi_group_state_mask(a1, 1) & B(PSI_IO_FULL) &&
	   psi_group_state_mask(a, 1) & B(PSI_IO_FULL) && psi_group_state_mask(sys, 1) & B(PSI_IO_FULL),
	   "the leaf and every ancestor are in io full on CPU1");
	ok(psi_group_state_mask(a2, 1) == 0 && psi_group_state_mask(b, 1) == 0,
	   "siblings have no state on CPU1");
	show(a1x, PSI_IO);
	show(a1, PSI_IO);
	show(a, PSI_IO);
	show(sys, PSI_IO);
	ok(psi_group_total(a1x, PSI_IO_SOME) == end && psi_group_total(a1, PSI_IO_SOME) == end &&
	   psi_group_total(a, PSI_IO_SOME) == end, "leaf and ancestors: io some total = elapsed");
	/* System: CPU1 stalled, CPU0 busy with r -> weighted half. */
	ok(psi_group_total(sys, PSI_IO_SOME) == end / 2,
	   "system io some = half: the stalled CPU is one of two non-idle ones (%" PRIu64 ")",
	   psi_group_total(sys, PSI_IO_SOME));
	is_str(show(a2, PSI_IO), zeros_text, "sibling A2 reads zeros");
	is_str(show(b, PSI_IO), zeros_text, "B (busy, not stalled) reads zeros");
	ok(psi_group_destroy(a1) == -EBUSY && psi_group_destroy(a1x) == -EBUSY &&
	   psi_group_destroy(sys) == -EINVAL, "groups with children or tasks cannot be destroyed");
	ok(psi_task_move(&t, a2) == 0 && psi_group_tasks(a2, 1, PSI_NR_IOWAIT) == 1 &&
	   psi_group_tasks(a1x, 1, PSI_NR_IOWAIT) == 0 && psi_group_tasks(a, 1, PSI_NR_IOWAIT) == 1,
	   "moving the task carries its iowait count to the new leaf only");
	ok(psi_group_destroy(a1x) == 0 && psi_group_destroy(a1) == 0, "emptied groups are destroyed");
	psi_engine_destroy(eng);
}

/* ------------------------------------------------------------------ */
/* (h) the text, byte for byte, and through a mach_pressure snapshot    */

/* seq_single_open style: the group is the seq_file's private data. */
static int show_io_cb(struct seq_file *m, void *v)
{
	(void)v;
	return print_pressure(m, m->private, PSI_IO);
}

static void test_text(void)
{
	struct vclock c = { 0 };
	struct psi_engine *eng = mk_engine(&c, 2, PSI_CLOCK_ONCE, false);
	struct psi_group *sys = psi_system_group(eng);
	struct mach_pressure p[MACH_NR_PSI_RES], one;
	static const char io_one_period[] =
		"some avg10=18.11 avg60=3.27 avg300=0.68 total=2004000\n"
		"full avg10=18.11 avg60=3.27 avg300=0.68 total=2004000\n";
	struct psi_task t;
	struct seq_file m;
	char buf[256], small[8];
	char *out = NULL;
	size_t len = 0;

	for (int res = PSI_IO; res <= PSI_CPU; res++)
		is_str(show(sys, res), zeros_text, "fresh engine: resource %d reads all zeros", res);
	is_str(show(sys, PSI_IRQ), "<error -95>", "no irq file without irq accounting (-EOPNOTSUPP)");

	/* One full period of io stall, read at its end: hand-computed. */
	psi_task_init(&t, sys, 0);
	t.in_iowait = true;
	psi_task_change(&t, 0, PSI_TSK_IOWAIT);
	c.now = T_PERIOD;
	is_bytes(show(sys, PSI_IO), strlen(show(sys, PSI_IO)), io_one_period, sizeof(io_one_period) - 1,
		 "one period of stall prints 18.11 / 3.27 / 0.68, total=2004000");

	/* Snapshot for the machine model, printed by the same putters. */
	ok(psi_fill_pressure_all(sys, p) == 0, "fill all four resources");
	ok(p[MACH_PSI_IO].present && p[MACH_PSI_IO].has_some && p[MACH_PSI_IO].has_full &&
	   p[MACH_PSI_IO].some.avg[0] == 37100 && p[MACH_PSI_IO].some.avg[1] == 6700 &&
	   p[MACH_PSI_IO].some.avg[2] == 1400 && p[MACH_PSI_IO].full.total_us == 2004000,
	   "io snapshot: avg 37100/6700/1400, total 2004000 µs");
	ok(p[MACH_PSI_CPU].present && p[MACH_PSI_CPU].has_full && !p[MACH_PSI_IRQ].present,
	   "cpu present with a full line, irq absent");
	seq_init_buffer(&m, buf, sizeof(buf));
	pfs_print_pressure(&m, &p[MACH_PSI_IO]);
	is_bytes(buf, m.count, io_one_period, sizeof(io_one_period) - 1, "snapshot prints the same bytes");
	ok(psi_fill_pressure(sys, PSI_MEM, &one) == 0 && one.some.total_us == 0 && one.has_full,
	   "single-resource fill");
	ok(psi_fill_pressure(sys, (enum psi_res)9, &one) == -EINVAL, "bad resource -> -EINVAL");

	/* Overflow: a too-small fixed buffer overflows; the driver regrows. */
	seq_init_buffer(&m, small, sizeof(small));
	print_pressure(&m, sys, PSI_IO);
	ok(seq_has_overflowed(&m), "an 8-byte buffer overflows");
	ok(seq_render_single(show_io_cb, sys, 16, &out, &len) == 0 &&
	   len == sizeof(io_one_period) - 1 && !memcmp(out, io_one_period, len),
	   "seq_render_single from 16 bytes regrows to the full text");
	free(out);
	psi_engine_destroy(eng);

	/* irq accounting: a single full line. */
	{
		struct vclock c2 = { 0 };
		struct psi_engine *e2 = mk_engine(&c2, 1, PSI_CLOCK_ONCE, true);
		struct psi_group *s2 = psi_system_group(e2);
		struct psi_task w;

		psi_task_init(&w, s2, 0);
		psi_task_wakeup(&w);
		psi_task_switch(NULL, &w, false);
		for (int i = 1; i <= 10; i++) {
			c2.now = (uint64_t)i * 100000000ull;
			psi_account_irqtime(&w, 1000000);	/* 1 ms of irq per 100 ms */
		}
		c2.now = T_PERIOD;
		is_str(show(s2, PSI_IRQ), "full avg10=0.00 avg60=0.00 avg300=0.00 total=10000\n",
		       "irq file: one full line, total 10 ms (pct 0 of a period rounds down)");
		psi_engine_destroy(e2);
	}
}

/* ------------------------------------------------------------------ */
/* Errors and odd corners                                              */

static void test_errors(void)
{
	/* Far from 0 but on a jiffy boundary, so the work's grid is simple. */
	struct vclock c = { .now = 274877ull * T_NSEC_PER_JIFFY };
	struct psi_engine *eng = mk_engine(&c, 2, PSI_CLOCK_ONCE, false);
	struct psi_group *sys = psi_system_group(eng), *g = mk_group(eng, sys);
	struct psi_config bad = { .ncpus = 0 };
	struct psi_engine *none = NULL;
	struct psi_task t, u;
	struct psi_stats st;

	ok(psi_engine_create(&bad, &none) == -EINVAL && !none, "0 CPUs -> -EINVAL");
	bad.ncpus = 2;
	bad.hz = 300;	/* 10^9 / 300 is not a whole number of ns */
	ok(psi_engine_create(&bad, &none) == -EINVAL, "HZ=300 -> -EINVAL");
	ok(psi_task_init(&t, g, 2) == -EINVAL && psi_task_init(&t, g, -1) == -EINVAL,
	   "task on a CPU that does not exist");
	psi_task_init(&t, g, 0);
	psi_task_init(&u, g, 0);
	psi_get_stats(eng, &st);
	ok(psi_task_change(&t, PSI_TSK_RUNNING, 0) == -EINVAL, "clearing a flag the task lacks");
	ok(psi_task_change(&t, 0, 1u << 7) == -EINVAL, "unknown flag");
	ok(psi_task_change(&t, 0, PSI_TSK_RUNNING) == 0 && psi_task_change(&t, 0, PSI_TSK_RUNNING) == -EINVAL,
	   "setting a flag twice");
	ok(psi_task_switch(&t, NULL, true) == -EINVAL, "switching out a task that is not on the CPU");
	ok(psi_task_switch(NULL, NULL, false) == -EINVAL, "switch with no task");
	ok(psi_task_switch(NULL, &t, false) == 0 && psi_task_switch(NULL, &u, false) == -EINVAL,
	   "a CPU has one current task");
	ok(psi_task_migrate(&t, 1) == -EBUSY, "a task on its CPU cannot migrate");
	ok(psi_memstall_enter(&u) == -EINVAL, "only a running task enters a memstall");
	ok(psi_account_irqtime(&t, 5) == -EOPNOTSUPP, "irq time without irq accounting");
	ok(psi_group_tasks(sys, 0, PSI_NR_RUNNING) == 1 && psi_group_tasks(g, 0, PSI_NR_RUNNING) == 1,
	   "refused changes left the counts alone");
	ok(psi_group_set_enabled(sys, false) == -EINVAL, "the system group cannot be disabled");

	/* cgroup.pressure=0 hides the file and stops the clocks; 1 restarts them. */
	ok(psi_group_set_enabled(g, false) == 0 && strcmp(show(g, PSI_CPU), "<error -95>") == 0,
	   "disabled group: no file");
	psi_task_wakeup(&u);	/* u waits behind t: cpu some for g while enabled */
	advance(eng, &c, 10 * T_PERIOD);
	ok(psi_group_set_enabled(g, true) == 0, "re-enable");
	advance(eng, &c, T_PERIOD);
	show(g, PSI_CPU);
	show(sys, PSI_CPU);
	ok(psi_group_total(g, PSI_CPU_SOME) == T_PERIOD &&
	   psi_group_total(sys, PSI_CPU_SOME) == 11 * T_PERIOD,
	   "the disabled stretch is not counted in the group, but is in the system (%" PRIu64 ", %" PRIu64 ")",
	   psi_group_total(g, PSI_CPU_SOME), psi_group_total(sys, PSI_CPU_SOME));

	psi_get_stats(eng, &st);
	ok(st.underflows == 0 && st.task_changes > 0, "no count underflow");
	psi_engine_destroy(eng);
	psi_engine_destroy(NULL);

	/*
	 * A kernel quirk kept on purpose: a fold that sees less than one
	 * non-idle jiffy on every CPU has zero weight, and its stall time is
	 * dropped for good (times_prev has moved on).
	 */
	{
		struct vclock c2 = { 0 };
		struct psi_engine *e2 = mk_engine(&c2, 1, PSI_CLOCK_ONCE, false);
		struct psi_group *s2 = psi_system_group(e2);
		struct psi_task w;

		psi_task_init(&w, s2, 0);
		w.in_iowait = true;
		psi_task_change(&w, 0, PSI_TSK_IOWAIT);
		c2.now = T_PERIOD;
		psi_avgs_tick(e2);
		c2.now = T_PERIOD + 3000000;	/* 3 ms: under one jiffy */
		show(s2, PSI_IO);
		ok(psi_group_total(s2, PSI_IO_SOME) == T_PERIOD, "a 3 ms fold adds nothing");
		c2.now = T_PERIOD + 10000000;	/* 7 ms more: one whole jiffy */
		show(s2, PSI_IO);
		ok(psi_group_total(s2, PSI_IO_SOME) == T_PERIOD + 7000000,
		   "the next 7 ms count, the 3 ms never come back (%" PRIu64 ")",
		   psi_group_total(s2, PSI_IO_SOME));
		psi_engine_destroy(e2);
	}
}

int main(void)
{
	plan(0);
	test_calc_load();
	test_iowait_converges();
	test_cpu_some_weighted();
	test_idle();
	test_decay();
	test_clock_reads();
	test_nested();
	test_text();
	test_errors();
	return tap_done();
}
