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
 * Locked memory is the pss of the VM_LOCKED VMAs (4.14-4.18: of every
 * VMA; 4.19-4.20: at each locked VMA, the pss of every VMA up to it), so
 * each VMA's fraction weighs in Locked as often as the kernel's sum counts
 * it; the split of each VMA's pss into anon, file and shmem, which only
 * the rollup prints (5.3 on), is chosen within what the VMA's Anonymous and
 * Rss allow.  A line the kernel does not print binds nothing.  Fractions go
 * to the first VMAs that can take them: which VMA holds which sub-kB share
 * is not in the text.
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

/* What a line the kernel does not print allows: anything. */
static const struct window unbound = { 0, ~(u128)0 >> 1 };

/* The sums being fitted: anon and the rest (file + shmem), and locked (each VMA's pss times its weight). */
struct sums {
	u128 anon, other, locked;
	struct window w_anon, w_other, w_all, w_locked;
	const uint32_t *weight;   /* per VMA: how often the kernel's Locked sum counts its pss */
};

static u128 min128(u128 a, u128 b) { return a < b ? a : b; }
static u128 sub0(u128 a, u128 b) { return a > b ? a - b : 0; }

/*
 * Add up to @want of fraction to VMA @v's anon (@anon) or other part, as
 * much as the VMA has room for below its next kB and pages of that kind to
 * hold, and the sums' ceilings allow.
 */
static void add(struct sums *S, struct ld_smap *v, uint32_t w, bool anon, u128 want)
{
	struct mach_mss *m = &v->vma.mss;
	uint64_t rss = v->kb[SM_RSS] * KB_FIXED, an = v->kb[SM_ANONYMOUS] * KB_FIXED;
	u128 t = v->kb[SM_PSS] < v->kb[SM_RSS] ? sub0(v->kb[SM_PSS] * KB_FIXED + KB_FIXED - 1, m->pss) : 0;

	t = min128(t, want);
	t = min128(t, sub0(S->w_all.hi, S->anon + S->other));
	if (w)
		t = min128(t, sub0(S->w_locked.hi, S->locked) / w);
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
	S->locked += t * w;
}

/* What the sums still need before they print their lines: locked (per unit of weight @w), anon, other, or any. */
static u128 need(const struct sums *S, int what, uint32_t w)
{
	switch (what) {
	case 0: return w ? (sub0(S->w_locked.lo, S->locked) + w - 1) / w : 0;
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
static int fit_classes(const struct ld_msg *ms, struct ld_smap *v, size_t n, const struct ld_rollup *ro,
		       const struct mach_smaps_profile *p, const uint32_t *weight)
{
	bool split = p->lines & MACH_SMAPS_PSS_SPLIT;
	struct sums S = { .w_anon = split ? kb_window(ro->kb[SM_PSS_ANON], 1) : unbound,
			  .w_other = split ? kb_window(ro->kb[SM_PSS_FILE] + ro->kb[SM_PSS_SHMEM], 2) : unbound,
			  .w_all = kb_window(ro->kb[SM_PSS], 1), .w_locked = kb_window(ro->kb[SM_LOCKED], 1),
			  .weight = weight };

	for (size_t i = 0; i < n; i++) {
		struct mach_mss *m = &v[i].vma.mss;
		uint64_t other = (v[i].kb[SM_RSS] - v[i].kb[SM_ANONYMOUS]) * KB_FIXED;

		m->pss = v[i].kb[SM_PSS] * KB_FIXED;
		m->pss_anon = m->pss > other ? m->pss - other : 0;
		m->pss_file = m->pss - m->pss_anon;   /* the other part, until split_shmem */
		m->pss_shmem = 0;
		S.anon += m->pss_anon;
		S.other += m->pss_file;
		S.locked += (u128)m->pss * weight[i];
	}
	trade(&S, v, n);
	for (int what = 0; what < 4; what++)
		for (size_t i = 0; i < n && need(&S, what, weight[i] ? weight[i] : 1); i++) {
			if (what == 0 && !weight[i])
				continue;
			if (what != 2)
				add(&S, &v[i], weight[i], true, need(&S, what, weight[i] ? weight[i] : 1));
			if (what != 1)
				add(&S, &v[i], weight[i], false, need(&S, what, weight[i] ? weight[i] : 1));
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

/*
 * The fractions of a rollup without the split of Pss (before 5.3), where
 * Locked may count a VMA's pss many times (4.19's running sum): @t[i] of
 * the room @room[i] each VMA has, in @order of ascending weight, such that
 * their sum lies in [@p.lo, @p.hi] and their weighted sum in [@l.lo, @l.hi].
 * First the least weighty fill what Pss needs; then, while Locked needs
 * more, the weightiest take more where Pss allows, and else take over from
 * the least weighty.  False when Locked stays out of its window.
 */
static bool fill_weighted(const size_t *order, size_t n, const uint64_t *room, const uint32_t *w, struct window p,
			  struct window l, uint64_t *t)
{
	u128 ps = 0, ls = 0;
	size_t lo = 0, hi = n;

	for (size_t k = 0; k < n && ps < p.lo; k++) {
		size_t i = order[k];

		t[i] = (uint64_t)min128(room[i], p.lo - ps);
		ps += t[i];
		ls += (u128)t[i] * w[i];
	}
	while (ls < l.lo && hi > 0) {
		size_t h = order[hi - 1];
		u128 d;

		if (!w[h] || t[h] == room[h]) {
			hi--;
			continue;
		}
		if (ps < p.hi) {
			/* more pss in the weightiest, as far as Pss and Locked allow */
			d = min128(min128(room[h] - t[h], p.hi - ps), (l.lo - ls + w[h] - 1) / w[h]);
			d = min128(d, (l.hi - ls) / w[h]);
			if (!d)
				return false;
			t[h] += (uint64_t)d;
			ps += d;
			ls += d * w[h];
			continue;
		}
		/* Pss is full: move pss from the lightest that has some to the weightiest */
		while (lo < hi - 1 && (!t[order[lo]] || w[order[lo]] >= w[h]))
			lo++;
		if (lo >= hi - 1)
			return false;
		{
			size_t i = order[lo];
			uint32_t gain = w[h] - w[i];

			d = min128(min128(t[i], room[h] - t[h]), (l.lo - ls + gain - 1) / gain);
			d = min128(d, (l.hi - ls) / gain);
			if (!d)
				return false;
			t[i] -= (uint64_t)d;
			t[h] += (uint64_t)d;
			ls += d * gain;
		}
	}
	return ps >= p.lo && ps <= p.hi && ls >= l.lo && ls <= l.hi;
}

static int by_weight(const void *a, const void *b, void *arg)
{
	const uint32_t *w = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (w[x] != w[y])
		return w[x] < w[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/* Each VMA's pss of a rollup without Pss_Anon (before 5.3): Pss and Locked alone bind the fractions. */
static int fit_unsplit(const struct ld_msg *ms, struct ld_smap *v, size_t n, const struct ld_rollup *ro,
		       const uint32_t *weight)
{
	size_t *order = malloc((n ? n : 1) * sizeof(*order));
	uint64_t *room = calloc(n ? n : 1, sizeof(*room)), *t = calloc(n ? n : 1, sizeof(*t));
	struct window p = kb_window(ro->kb[SM_PSS], 1), l = kb_window(ro->kb[SM_LOCKED], 1);
	u128 base = 0, lbase = 0;
	bool ok;

	if (!order || !room || !t) {
		free(order);
		free(room);
		free(t);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		order[i] = i;
		/* a fraction only where shared pages allow one */
		room[i] = v[i].kb[SM_PSS] < v[i].kb[SM_RSS] ? KB_FIXED - 1 : 0;
		base += (u128)v[i].kb[SM_PSS] * KB_FIXED;
		lbase += (u128)v[i].kb[SM_PSS] * KB_FIXED * weight[i];
	}
	qsort_r(order, n, sizeof(*order), by_weight, (void *)weight);
	ok = base <= p.hi && lbase <= l.hi;
	if (ok)
		ok = fill_weighted(order, n, room, weight, (struct window){ sub0(p.lo, base), p.hi - base },
				   (struct window){ sub0(l.lo, lbase), l.hi - lbase }, t);
	for (size_t i = 0; ok && i < n; i++) {
		struct mach_mss *m = &v[i].vma.mss;
		uint64_t other = (v[i].kb[SM_RSS] - v[i].kb[SM_ANONYMOUS]) * KB_FIXED;

		m->pss = v[i].kb[SM_PSS] * KB_FIXED + t[i];
		m->pss_anon = m->pss > other ? m->pss - other : 0;
		m->pss_file = m->pss - m->pss_anon;
	}
	free(order);
	free(room);
	free(t);
	if (ok)
		return 0;
	return no_fit(ms, ro, base > p.hi || (lbase <= l.hi && base < p.lo) ? SM_PSS : SM_LOCKED);
}

/* How often the kernel's Locked sum counts each VMA's pss under rule @locked (enum mach_smaps_locked). */
static void locked_weights(const struct ld_smap *v, size_t n, unsigned int locked, uint32_t *w)
{
	uint32_t after = 0;

	for (size_t i = n; i-- > 0;) {
		bool lo = v[i].vma.flags & MACH_VM_LOCKED;

		after += lo;
		w[i] = locked == MACH_SMAPS_LOCKED_ALL ? 1 : locked == MACH_SMAPS_LOCKED_RUNNING ? after : lo;
	}
}

/* Without the rollup's split the rest of each VMA's pss is shmem in shared memory, else file. */
static void split_unprinted(struct ld_smap *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct mach_mss *s = &v[i].vma.mss;
		uint64_t rest = s->pss - s->pss_anon;

		s->pss_shmem = shmem_like(&v[i].vma) ? rest : 0;
		s->pss_file = rest - s->pss_shmem;
	}
}

int ld_fit_pss(const struct ld_msg *ms, struct ld_smap *v, size_t n, const struct ld_rollup *ro,
	       const struct mach_smaps_profile *p)
{
	uint64_t **vals = malloc((n ? n : 1) * sizeof(*vals));
	uint64_t *caps = malloc((n ? n : 1) * sizeof(*caps));
	uint32_t *weight = malloc((n ? n : 1) * sizeof(*weight));
	struct fit a = { .val = vals, .cap = caps };
	int rc = -ENOMEM;

	if (vals && caps && weight) {
		locked_weights(v, n, p->locked, weight);
		rc = (p->lines & MACH_SMAPS_PSS_SPLIT) ? fit_classes(ms, v, n, ro, p, weight)
						       : fit_unsplit(ms, v, n, ro, weight);
	}
	if (!rc && (p->lines & MACH_SMAPS_PSS_DIRTY))
		rc = fit_line(ms, &a, v, n, ro, f_dirty, SM_PSS_DIRTY, shares_dirty);
	if (!rc && (p->lines & MACH_SMAPS_SWAP_PSS))
		rc = fit_line(ms, &a, v, n, ro, f_swap, SM_SWAP_PSS, shares_swap);
	if (!rc && (p->lines & MACH_SMAPS_PSS_SPLIT))
		rc = split_shmem(ms, &a, v, n, ro);
	else if (!rc)
		split_unprinted(v, n);
	free(vals);
	free(caps);
	free(weight);
	return rc;
}
