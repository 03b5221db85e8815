// SPDX-License-Identifier: MIT
/*
 * test_synth_vmas.c - a synthetic machine's VMAs made on demand are the
 * VMAs its build made (issue 16).
 *
 * Each machine is built twice from one spec: with synth:vmas=stored, which
 * keeps the VMAs the build mapped, and with the default vmas=made, which
 * drops them and replays the build of one mm when a reader asks.  Every
 * field of every VMA of every mm must match, names and smaps counters
 * included, on the shapes where the replay could drift: swap spread over
 * anonymous mappings, a JVM's huge pages, an old kernel's VM_DENYWRITE,
 * containers' root devices, and machines big enough to build on several
 * threads.  Then several threads make VMAs at once, each in its own order.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "test_vmas.h"
#include "uprocfs/machine.h"

#define READERS 4

/* Whether @a and @b are the same VMA: every field, names by content. */
static bool vma_same(const struct mach_vma *a, const struct mach_vma *b)
{
	struct mach_vma x = *a, y = *b;

	if ((a->name == NULL) != (b->name == NULL) || (a->name && strcmp(a->name, b->name)))
		return false;
	x.name = y.name = NULL;
	return !memcmp(&x, &y, sizeof(x));
}

/* The mms of @made that differ from @stored's (the first few named), or -1 when the machines do. */
static long compare(const struct mach_machine *made, const struct mach_machine *stored, size_t *nmade)
{
	long bad = 0;

	*nmade = 0;
	if (made->nprocs != stored->nprocs)
		return -1;
	for (size_t i = 0; i < made->nprocs; i++) {
		const struct mach_mm *a = made->procs[i].mm, *b = stored->procs[i].mm;
		const struct mach_vma *va;
		size_t k = 0;

		if (!a || !b) {
			bad += (a == NULL) != (b == NULL);
			continue;
		}
		*nmade += a->maker && !a->vmas;
		if (a->nvmas != b->nvmas || b->maker || mach_mm_vmas(a, &va)) {
			bad++;
			continue;
		}
		while (k < a->nvmas && vma_same(&va[k], &b->vmas[k]))
			k++;
		if (k < a->nvmas && bad++ < 3)
			diag("pid %d: VMA %zu (%llx) differs", (int)made->procs[i].tgid, k,
			     (unsigned long long)b->vmas[k].start);
	}
	return bad;
}

struct reader {
	const struct mach_machine *made, *stored;
	size_t first, step;
	long bad;
};

/* Walk the mms from reader's own start and stride, so threads make different mms at once. */
static void *read_all(void *arg)
{
	struct reader *r = arg;
	size_t n = r->made->nprocs;

	for (size_t j = 0; j < n; j++) {
		size_t i = (r->first + j * r->step) % n;
		const struct mach_mm *a = r->made->procs[i].mm, *b = r->stored->procs[i].mm;
		const struct mach_vma *va;

		if (!a)
			continue;
		if (mach_mm_vmas(a, &va)) {
			r->bad++;
			continue;
		}
		for (size_t k = 0; k < a->nvmas; k++)
			r->bad += !vma_same(&va[k], &b->vmas[k]);
	}
	return NULL;
}

static void test_threads(const struct mach_machine *made, const struct mach_machine *stored, const char *spec)
{
	static const size_t steps[READERS] = { 1, 7, 13, 31 };
	struct reader r[READERS];
	pthread_t t[READERS];
	bool started[READERS];
	long bad = 0;

	for (int i = 0; i < READERS; i++) {
		r[i] = (struct reader){ .made = made, .stored = stored, .first = (size_t)i * 101, .step = steps[i] };
		started[i] = !pthread_create(&t[i], NULL, read_all, &r[i]);
	}
	for (int i = 0; i < READERS; i++) {
		if (started[i])
			pthread_join(t[i], NULL);
		else
			read_all(&r[i]);
		bad += r[i].bad;
	}
	is_i64(bad, 0, "%s: %d threads making VMAs at once each see the stored ones", spec, READERS);
}

static void test_spec(const char *spec, bool threads)
{
	struct mach_synth_opts o;
	struct mach_machine *made = NULL, *stored = NULL;
	char err[256];
	size_t nmade;
	long bad;

	mach_synth_defaults(&o);
	if (mach_synth_parse(&o, spec, err, sizeof(err))) {
		ok(0, "%s: %s", spec, err);
		return;
	}
	o.store_vmas = false;
	if (mach_synth_build(&o, &made, err, sizeof(err)) ||
	    (o.store_vmas = true, mach_synth_build(&o, &stored, err, sizeof(err)))) {
		ok(0, "%s: %s", spec, err);
		mach_free(made);
		return;
	}
	bad = compare(made, stored, &nmade);
	ok(bad == 0 && nmade > made->nprocs / 2 && made->vma_maker && !stored->vma_maker,
	   "%s: the VMAs made of %zu mms are the ones the build made (%ld differ)", spec, nmade, bad);
	if (threads)
		test_threads(made, stored, spec);
	mach_free(made);
	mach_free(stored);
}

/* The oldest kernel the generator speaks: before 5.15, exec'd files' VMAs are VM_DENYWRITE. */
static void test_old_kernel(void)
{
	size_t n;
	const unsigned int *k = mach_synth_kernels(&n);
	char spec[64];

	snprintf(spec, sizeof(spec), "seed=4,kernel=%u.%u", k[0] / 100, k[0] % 100);
	test_spec(spec, false);
}

static void test_parse(void)
{
	struct mach_synth_opts o;
	char err[256];

	mach_synth_defaults(&o);
	ok(!o.store_vmas, "VMAs are made on demand by default");
	ok(!mach_synth_parse(&o, "vmas=stored", err, sizeof(err)) && o.store_vmas, "vmas=stored keeps them");
	ok(!mach_synth_parse(&o, "vmas=made", err, sizeof(err)) && !o.store_vmas, "vmas=made makes them");
	ok(mach_synth_parse(&o, "vmas=kept", err, sizeof(err)) == -EINVAL &&
		   strstr(err, "vmas=\"kept\": expected made or stored"),
	   "vmas=kept is refused by name: %s", err);
	ok(mach_synth_parse(&o, "vmas=made,vmas=stored", err, sizeof(err)) == -EINVAL && strstr(err, "given twice"),
	   "vmas twice is refused: %s", err);
}

int main(void)
{
	plan(0);
	test_parse();
	test_spec("seed=1", true);
	test_spec("seed=2,mem=1,tasks=600", false);
	test_spec("seed=3,cpus=64,tasks=2000,threads=3000", true);
	test_old_kernel();
	/* past the parallel build's threshold: the build's workers lend and take back their own lists */
	test_spec("seed=5,cpus=32,tasks=25000", true);
	return tap_done();
}
