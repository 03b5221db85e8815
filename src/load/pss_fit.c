// SPDX-License-Identifier: MIT
/*
 * pss_fit.c - the fixed-point proportional sizes behind the printed kB of
 * smaps and smaps_rollup.
 *
 * The kernel sums each page's share (PAGE_SIZE << 12) / mapcount per VMA
 * and prints the sum truncated to kB; smaps_rollup adds the VMAs' sums
 * before truncating, so its Pss may exceed the per-VMA lines' sum by up to
 * one kB per VMA.  The model keeps the fixed-point sums, as the kernel
 * does, so the loader must choose them: each between what the VMA prints
 * and one kB more, with a fraction only where shared pages allow one (Pss
 * below Rss, ...), such that the sums print what the rollup prints.
 * Locked memory is the pss of the VM_LOCKED VMAs, so the locked and the
 * other VMAs' fractions are chosen apart; the split of each VMA's pss into
 * anon, file and shmem, which only the rollup prints, is chosen within
 * what the VMA's Anonymous and Rss allow.  Fractions go to the first VMAs
 * that can take them: which VMA holds which sub-kB share is not in the text.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "load_mmsched.h"

#define KB_FIXED (UINT64_C(1) << (MACH_PSS_SHIFT + 10)) /* one kB in the fixed point */

typedef unsigned __int128 u128;

/* One field of the VMAs taking part: pointers to it, the room above each, and the sums. */
struct fit {
	uint64_t **val;
	uint64_t *cap;
	size_t n;
	u128 base, room;
};

/*
 * The lines' values as the model holds them (fixed point, per VMA) cannot
 * make the rollup's line: not a disagreement of the files (the same bytes
 * read twice still say so) but what the model cannot represent.
 */
static int no_fit(const struct ld_msg *ms, const struct ld_rollup *ro, enum ld_sm f)
{
	return ld_say(ms, -ENOTSUP,
		      "%s: %s %" PRIu64 " kB cannot be the sum of the smaps lines' values (each truncated)",
		      ro->path, ld_sm_label(f), ro->kb[f]);
}

/* Add @need to the values, each at most its room; what could not be placed. */
static u128 fill(struct fit *w, u128 need)
{
	for (size_t i = 0; i < w->n && need; i++) {
		uint64_t take = need < w->cap[i] ? (uint64_t)need : w->cap[i];

		*w->val[i] += take;
		need -= take;
	}
	return need;
}

/*
 * Set field @field of the VMAs whose VM_LOCKED is @locked (-1: all) to what
 * line @f prints, and note the room each has below the next kB: a fraction
 * only where @can says shared pages allow one.
 */
static void collect(struct fit *w, struct ld_smap *v, size_t n, uint64_t *(*field)(struct mach_mss *),
		    enum ld_sm f, int locked, bool (*can)(const struct ld_smap *))
{
	w->n = 0;
	w->base = w->room = 0;
	for (size_t i = 0; i < n; i++) {
		if (locked >= 0 && !!(v[i].vma.flags & MACH_VM_LOCKED) != locked)
			continue;
		*field(&v[i].vma.mss) = v[i].kb[f] * KB_FIXED;
		w->val[w->n] = field(&v[i].vma.mss);
		w->cap[w->n] = can(&v[i]) ? KB_FIXED - 1 : 0;
		w->base += v[i].kb[f] * KB_FIXED;
		w->room += w->cap[w->n++];
	}
}

static uint64_t *f_dirty(struct mach_mss *s) { return &s->pss_dirty; }
static uint64_t *f_swap(struct mach_mss *s) { return &s->swap_pss; }

static bool shares_swap(const struct ld_smap *v) { return v->kb[SM_SWAP_PSS] < v->kb[SM_SWAP]; }
static bool shares_dirty(const struct ld_smap *v)
{
	return v->kb[SM_PSS_DIRTY] < v->kb[SM_SHARED_DIRTY] + v->kb[SM_PRIVATE_DIRTY];
}

/* A line nothing else depends on: what the VMAs print, raised to the rollup's sum. */
static int fit_line(const struct ld_msg *ms, struct fit *w, struct ld_smap *v, size_t n,
		    const struct ld_rollup *ro, uint64_t *(*field)(struct mach_mss *), enum ld_sm f,
		    bool (*can)(const struct ld_smap *))
{
	u128 lo = (u128)ro->kb[f] * KB_FIXED;

	collect(w, v, n, field, f, -1, can);
	if (w->base >= lo + KB_FIXED || (w->base < lo && fill(w, lo - w->base)))
		return no_fit(ms, ro, f);
	return 0;
}

/* A mapping of shared memory (tmpfs, SysV, memfd, shared anonymous): where shmem pss goes first. */
static bool shmem_like(const struct mach_vma *vma)
{
	return vma->kind == MACH_VMA_ANON_SHMEM ||
	       (vma->kind == MACH_VMA_FILE && vma->dev_major == 0 && (vma->flags & MACH_VM_MAYSHARE));
}

/* One window of the fixed point: what a rollup line of @kb allows a sum to be. */
struct window {
	u128 lo, hi;
};

static struct window kb_window(uint64_t kb, unsigned int lines)
{
	return (struct window){ (u128)kb * KB_FIXED, (u128)kb * KB_FIXED + lines * (KB_FIXED - 1) };
}

/* The sums being fitted: anon and the rest (file + shmem), and locked. */
struct sums {
	u128 anon, other, locked;
	struct window w_anon, w_other, w_all, w_locked;
};

static u128 min128(u128 a, u128 b) { return a < b ? a : b; }
static u128 sub0(u128 a, u128 b) { return a > b ? a - b : 0; }

/*
 * Add up to @want of fraction to VMA @v's anon (@anon) or other part, as
 * much as the VMA has room for below its next kB and pages of that kind to
 * hold, and the sums' ceilings allow.
 */
static void add(struct sums *S, struct ld_smap *v, bool anon, u128 want)
{
	struct mach_mss *m = &v->vma.mss;
	uint64_t rss = v->kb[SM_RSS] * KB_FIXED, an = v->kb[SM_ANONYMOUS] * KB_FIXED;
	bool locked = v->vma.flags & MACH_VM_LOCKED;
	u128 t = v->kb[SM_PSS] < v->kb[SM_RSS] ? sub0(v->kb[SM_PSS] * KB_FIXED + KB_FIXED - 1, m->pss) : 0;

	t = min128(t, want);
	t = min128(t, sub0(S->w_all.hi, S->anon + S->other));
	if (locked)
		t = min128(t, sub0(S->w_locked.hi, S->locked));
	if (anon)
		t = min128(min128(t, sub0(an, m->pss_anon)), sub0(S->w_anon.hi, S->anon));
	else
		t = min128(min128(t, sub0(rss - an, m->pss_file)), sub0(S->w_other.hi, S->other));
	m->pss += (uint64_t)t;
	if (anon) {
		m->pss_anon += (uint64_t)t;
		S->anon += t;
	} else {
		m->pss_file += (uint64_t)t;
		S->other += t;
	}
	if (locked)
		S->locked += t;
}

/* What the sums still need before they print their lines: locked, anon, other, or any. */
static u128 need(const struct sums *S, int what)
{
	switch (what) {
	case 0: return sub0(S->w_locked.lo, S->locked);
	case 1: return sub0(S->w_anon.lo, S->anon);
	case 2: return sub0(S->w_other.lo, S->other);
	default: return sub0(S->w_all.lo, S->anon + S->other);
	}
}

/*
 * Move pss between the anon and the other part of VMAs, within what each
 * one's pages allow, until Pss_Anon's line is met (or nothing can move).
 */
static void trade(struct sums *S, struct ld_smap *v, size_t n)
{
	for (size_t i = 0; i < n && (S->anon < S->w_anon.lo || S->anon > S->w_anon.hi); i++) {
		struct mach_mss *m = &v[i].vma.mss;
		uint64_t an = v[i].kb[SM_ANONYMOUS] * KB_FIXED;
		uint64_t other = v[i].kb[SM_RSS] * KB_FIXED - an;
		u128 t;

		if (S->anon < S->w_anon.lo) {
			t = min128(min128(S->w_anon.lo - S->anon, m->pss_file), sub0(an, m->pss_anon));
			m->pss_anon += (uint64_t)t;
			m->pss_file -= (uint64_t)t;
			S->anon += t;
			S->other -= t;
		} else {
			t = min128(min128(S->anon - S->w_anon.hi, m->pss_anon), sub0(other, m->pss_file));
			m->pss_anon -= (uint64_t)t;
			m->pss_file += (uint64_t)t;
			S->anon -= t;
			S->other += t;
		}
	}
}

/*
 * Each VMA's pss and its anon part.  A VMA starts at what it prints, its
 * anon part as small as its other pages allow; then fractions go, where a
 * VMA has room for one, first to what Locked needs (locked VMAs), then to
 * what Pss_Anon and the other lines need, then to what Pss still needs.
 * Before and after, anon and other trade within VMAs to meet Pss_Anon.
 */
static int fit_classes(const struct ld_msg *ms, struct ld_smap *v, size_t n, const struct ld_rollup *ro)
{
	struct sums S = { .w_anon = kb_window(ro->kb[SM_PSS_ANON], 1),
			  .w_other = kb_window(ro->kb[SM_PSS_FILE] + ro->kb[SM_PSS_SHMEM], 2),
			  .w_all = kb_window(ro->kb[SM_PSS], 1), .w_locked = kb_window(ro->kb[SM_LOCKED], 1) };

	for (size_t i = 0; i < n; i++) {
		struct mach_mss *m = &v[i].vma.mss;
		uint64_t other = (v[i].kb[SM_RSS] - v[i].kb[SM_ANONYMOUS]) * KB_FIXED;

		m->pss = v[i].kb[SM_PSS] * KB_FIXED;
		m->pss_anon = m->pss > other ? m->pss - other : 0;
		m->pss_file = m->pss - m->pss_anon;   /* the other part, until split_shmem */
		m->pss_shmem = 0;
		S.anon += m->pss_anon;
		S.other += m->pss_file;
		if (v[i].vma.flags & MACH_VM_LOCKED)
			S.locked += m->pss;
	}
	trade(&S, v, n);
	for (int what = 0; what < 4; what++)
		for (size_t i = 0; i < n && need(&S, what); i++) {
			if (what == 0 && !(v[i].vma.flags & MACH_VM_LOCKED))
				continue;
			if (what != 2)
				add(&S, &v[i], true, need(&S, what));
			if (what != 1)
				add(&S, &v[i], false, need(&S, what));
		}
	trade(&S, v, n);
	if (S.anon + S.other < S.w_all.lo || S.anon + S.other > S.w_all.hi)
		return no_fit(ms, ro, SM_PSS);
	if (S.locked < S.w_locked.lo || S.locked > S.w_locked.hi)
		return no_fit(ms, ro, SM_LOCKED);
	if (S.anon < S.w_anon.lo || S.anon > S.w_anon.hi)
		return no_fit(ms, ro, SM_PSS_ANON);
	return 0;
}

/* The rest of each VMA's pss is file or shmem; Pss_Shmem goes first to shared memory. */
static int split_shmem(const struct ld_msg *ms, struct fit *w, struct ld_smap *v, size_t n,
		       const struct ld_rollup *ro)
{
	u128 rest = 0, lo = (u128)ro->kb[SM_PSS_SHMEM] * KB_FIXED, file = (u128)ro->kb[SM_PSS_FILE] * KB_FIXED;
	u128 want;

	for (size_t i = 0; i < n; i++) {
		struct mach_mss *s = &v[i].vma.mss;

		s->pss_shmem = 0;
		rest += s->pss - s->pss_anon;
	}
	/* shmem + file = rest, each within its line's kB */
	want = rest > file + KB_FIXED - 1 ? rest - (file + KB_FIXED - 1) : 0;
	if (want < lo)
		want = lo;
	if (want > rest || want >= lo + KB_FIXED || rest - want < file)
		return no_fit(ms, ro, want >= lo + KB_FIXED ? SM_PSS_SHMEM : SM_PSS_FILE);
	for (int pass = 0; pass < 2 && want; pass++) {
		w->n = 0;
		for (size_t i = 0; i < n; i++)
			if (shmem_like(&v[i].vma) == !pass) {
				w->val[w->n] = &v[i].vma.mss.pss_shmem;
				w->cap[w->n++] = v[i].vma.mss.pss - v[i].vma.mss.pss_anon;
			}
		want = fill(w, want);
	}
	for (size_t i = 0; i < n; i++) {
		struct mach_mss *s = &v[i].vma.mss;

		s->pss_file = s->pss - s->pss_anon - s->pss_shmem;
	}
	return 0;
}

int ld_fit_pss(const struct ld_msg *ms, struct ld_smap *v, size_t n, const struct ld_rollup *ro)
{
	uint64_t **vals = malloc((n ? n : 1) * sizeof(*vals));
	uint64_t *caps = malloc((n ? n : 1) * sizeof(*caps));
	struct fit a = { .val = vals, .cap = caps };
	int rc = -ENOMEM;

	if (vals && caps && !(rc = fit_classes(ms, v, n, ro)) &&
	    !(rc = fit_line(ms, &a, v, n, ro, f_dirty, SM_PSS_DIRTY, shares_dirty)) &&
	    !(rc = fit_line(ms, &a, v, n, ro, f_swap, SM_SWAP_PSS, shares_swap)))
		rc = split_shmem(ms, &a, v, n, ro);
	free(vals);
	free(caps);
	return rc;
}
