// SPDX-License-Identifier: MIT
/*
 * bench_putters.c - `uprocfs bench putters`: the engine's number putters,
 * our seq_printf and the /proc/<pid>/maps line prefix, each against libc.
 *
 * Method (docs/number-formatting.md, section 3): every operation appends one
 * field and a delimiter into a 4 KiB seq buffer and rewinds it when nearly
 * full, as a seq_file page fills and is copied out.  Inputs come from arrays;
 * "trained" sets repeat 4096 values so the branch predictor learns them,
 * "cold" sets stream a million values it cannot.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "seq/seq_testing.h"
#include "uprocfs/seq_file.h"

#define TRAINED 4096
#define COLD (1u << 20)

/* A userspace port's seq_printf: libc vsnprintf into the seq buffer. */
static __attribute__((noinline, format(printf, 2, 3))) void libc_seq_printf(struct seq_file *m,
									     const char *fmt, ...)
{
	va_list ap;
	size_t room = m->size - m->count;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->count, room, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < room)
		m->count += (size_t)n;
	else
		m->count = m->size;
}

struct num_job {
	const uint64_t *v;
	size_t n;        /* values in the set */
	size_t ops;      /* operations per pass */
	struct seq_file m;
	char buf[4096];
};

static inline void rewind_if_full(struct seq_file *m)
{
	if (m->count > m->size - 96)
		m->count = 0;
}

static void job_init(struct num_job *j, const uint64_t *v, size_t n, size_t ops)
{
	j->v = v;
	j->n = n;
	j->ops = ops;
	seq_init_buffer(&j->m, j->buf, sizeof(j->buf));
}

static void dec_putter(void *arg)
{
	struct num_job *j = arg;
	for (size_t i = 0, k = 0; i < j->ops; i++) {
		seq_put_decimal_ull(&j->m, " ", j->v[k]);
		rewind_if_full(&j->m);
		if (++k == j->n)
			k = 0;
	}
	bench_escape(j->buf);
}

static void dec_libc(void *arg)
{
	struct num_job *j = arg;
	for (size_t i = 0, k = 0; i < j->ops; i++) {
		libc_seq_printf(&j->m, " %" PRIu64, j->v[k]);
		rewind_if_full(&j->m);
		if (++k == j->n)
			k = 0;
	}
	bench_escape(j->buf);
}

static void hex_putter(void *arg)
{
	struct num_job *j = arg;
	for (size_t i = 0, k = 0; i < j->ops; i++) {
		seq_put_hex_ll(&j->m, " ", j->v[k], 8);
		rewind_if_full(&j->m);
		if (++k == j->n)
			k = 0;
	}
	bench_escape(j->buf);
}

static void hex_libc(void *arg)
{
	struct num_job *j = arg;
	for (size_t i = 0, k = 0; i < j->ops; i++) {
		libc_seq_printf(&j->m, " %08" PRIx64, j->v[k]);
		rewind_if_full(&j->m);
		if (++k == j->n)
			k = 0;
	}
	bench_escape(j->buf);
}

/* --- the maps line prefix ------------------------------------------------ */

struct vma_sample {
	unsigned long start, end;
	unsigned long long pgoff;
	unsigned int major, minor;
	unsigned long inode;
	char perms[4];
};

struct maps_job {
	struct vma_sample *vmas;
	size_t n, ops;
	struct seq_file m;
	char buf[4096];
};

#define MAPS_PREFIX_FMT "%08lx-%08lx %c%c%c%c %08llx %02x:%02x %lu "

static void maps_libc(void *arg)
{
	struct maps_job *j = arg;
	for (size_t i = 0, k = 0; i < j->ops; i++) {
		const struct vma_sample *v = &j->vmas[k];
		libc_seq_printf(&j->m, MAPS_PREFIX_FMT, v->start, v->end, v->perms[0], v->perms[1],
				v->perms[2], v->perms[3], v->pgoff, v->major, v->minor, v->inode);
		rewind_if_full(&j->m);
		if (++k == j->n)
			k = 0;
	}
	bench_escape(j->buf);
}

static void maps_seq_printf(void *arg)
{
	struct maps_job *j = arg;
	for (size_t i = 0, k = 0; i < j->ops; i++) {
		const struct vma_sample *v = &j->vmas[k];
		seq_printf(&j->m, MAPS_PREFIX_FMT, v->start, v->end, v->perms[0], v->perms[1],
			   v->perms[2], v->perms[3], v->pgoff, v->major, v->minor, v->inode);
		rewind_if_full(&j->m);
		if (++k == j->n)
			k = 0;
	}
	bench_escape(j->buf);
}

static void maps_putters(void *arg)
{
	struct maps_job *j = arg;
	for (size_t i = 0, k = 0; i < j->ops; i++) {
		const struct vma_sample *v = &j->vmas[k];
		struct seq_file *m = &j->m;
		seq_put_hex_ll(m, NULL, v->start, 8);
		seq_put_hex_ll(m, "-", v->end, 8);
		seq_putc(m, ' ');
		seq_write(m, v->perms, 4);
		seq_put_hex_ll(m, " ", v->pgoff, 8);
		seq_put_hex_ll(m, " ", v->major, 2);
		seq_put_hex_ll(m, ":", v->minor, 2);
		seq_put_decimal_ull(m, " ", v->inode);
		seq_putc(m, ' ');
		rewind_if_full(m);
		if (++k == j->n)
			k = 0;
	}
	bench_escape(j->buf);
}

/* --- data sets ----------------------------------------------------------- */

static uint64_t rng_state = 0x853c49e6748fea9bull;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1Dull;
}

/* /proc-like: 40% zero, 20% one digit, 20% two, 20% three. */
static uint64_t small_value(void)
{
	unsigned int r = (unsigned int)(rnd() % 10);
	if (r < 4)
		return 0;
	if (r < 6)
		return 1 + rnd() % 9;
	if (r < 8)
		return 10 + rnd() % 90;
	return 100 + rnd() % 900;
}

static uint64_t mixed_value(void)
{
	unsigned int bits = 1 + (unsigned int)(rnd() % 64);
	uint64_t v = rnd();
	if (bits < 64)
		v &= (1ull << bits) - 1;
	return v | (1ull << (bits - 1));
}

static uint64_t wide_value(void)
{
	uint64_t v;
	do
		v = rnd();
	while (v < 10000000000000000000ull); /* exactly 20 digits */
	return v;
}

static uint64_t addr_value(void)
{
	return 0x550000000000ull + (rnd() & 0xffffffffffull) * 4096 % 0x2a0000000000ull;
}

static uint64_t *make_set(size_t n, uint64_t (*gen)(void))
{
	uint64_t *v = malloc(n * sizeof(*v));
	if (!v) {
		fprintf(stderr, "bench: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < n; i++)
		v[i] = gen();
	return v;
}

static void run_num_case(const struct bench_opts *o, const char *name, uint64_t (*gen)(void),
			 size_t setsize, bench_fn cand, bench_fn base, const char *base_name)
{
	uint64_t *v = make_set(setsize, gen);
	size_t ops = o->quick ? 100000 : 500000;
	int passes = o->quick ? 31 : 81;
	struct num_job *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	double base_ns, cand_ns;

	job_init(a, v, setsize, ops);
	job_init(b, v, setsize, ops);
	bench_progress(o, "putters: %s", name);
	bench_pair(base, b, cand, a, passes, &base_ns, &cand_ns);
	struct bench_result r = {
		.bench = "putters", .case_name = name, .unit = "ns/op",
		.value = cand_ns / (double)ops, .baseline = base_name,
		.baseline_value = base_ns / (double)ops,
	};
	bench_report(o, &r);
	free(a);
	free(b);
	free(v);
}

/*
 * VMAs laid out as a real process maps them (compare /proc/self/maps): each
 * shared object as r--p, r-xp, r--p, r--p, rw-p over one inode with rising
 * offsets, followed by an anonymous rw-p (bss, arenas); heap and stack
 * anonymous too.  The branch predictor sees the same rhythm it sees on a
 * real maps file.
 */
static void make_vmas(struct vma_sample *v, size_t n)
{
	static const char *const object_perms[] = { "r--p", "r-xp", "r--p", "r--p", "rw-p" };
	unsigned long addr = 0x7f1c2a000000ul;
	size_t i = 0;

	while (i < n) {
		unsigned long inode = 100000 + rnd() % 900000;
		unsigned long long off = 0;

		for (int k = 0; k < 5 && i < n; k++, i++) {
			unsigned long len = (1 + rnd() % 64) * 4096;
			v[i] = (struct vma_sample){ .start = addr, .end = addr + len, .pgoff = off,
						    .major = 0xfe, .minor = 0, .inode = inode };
			memcpy(v[i].perms, object_perms[k], 4);
			off += len;
			addr += len;
		}
		if (i < n) {
			unsigned long len = (1 + rnd() % 16) * 4096;
			v[i] = (struct vma_sample){ .start = addr, .end = addr + len };
			memcpy(v[i].perms, "rw-p", 4);
			addr += len;
			i++;
		}
	}
}

static void run_maps_case(const struct bench_opts *o, const char *name, bench_fn cand)
{
	size_t n = 1024;
	struct maps_job *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct vma_sample *v = malloc(n * sizeof(*v));
	size_t ops = o->quick ? 25000 : 100000;
	int passes = o->quick ? 31 : 81;
	double base_ns, cand_ns;

	make_vmas(v, n);
	a->vmas = b->vmas = v;
	a->n = b->n = n;
	a->ops = b->ops = ops;
	seq_init_buffer(&a->m, a->buf, sizeof(a->buf));
	seq_init_buffer(&b->m, b->buf, sizeof(b->buf));
	bench_progress(o, "putters: %s", name);
	bench_pair(maps_libc, b, cand, a, passes, &base_ns, &cand_ns);
	struct bench_result r = {
		.bench = "putters", .case_name = name, .unit = "ns/line",
		.value = cand_ns / (double)ops, .baseline = "libc_vsnprintf",
		.baseline_value = base_ns / (double)ops,
	};
	bench_report(o, &r);
	free(a);
	free(b);
	free(v);
}

int bench_putters(const struct bench_opts *o)
{
	run_num_case(o, "decimal_small", small_value, TRAINED, dec_putter, dec_libc, "snprintf");
	run_num_case(o, "decimal_mixed", mixed_value, TRAINED, dec_putter, dec_libc, "snprintf");
	run_num_case(o, "decimal_20digit", wide_value, TRAINED, dec_putter, dec_libc, "snprintf");
	run_num_case(o, "decimal_mixed_cold", mixed_value, COLD, dec_putter, dec_libc, "snprintf");
	run_num_case(o, "hex_width8", addr_value, TRAINED, hex_putter, hex_libc, "snprintf");
	run_maps_case(o, "maps_prefix_putters", maps_putters);
	run_maps_case(o, "maps_prefix_seq_printf", maps_seq_printf);
	bench_progress(o, "%s", "");
	return 0;
}
