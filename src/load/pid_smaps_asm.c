// SPDX-License-Identifier: MIT
/*
 * pid_smaps_asm.c - a process's smaps and smaps_rollup into its mm.
 *
 * Every thread's smaps shows the one mm, so all must be the same text.  Its
 * records are maps' lines with counters: where maps was read too, the two
 * must name the same VMAs.  A record prints Locked as its Pss exactly when
 * VmFlags has "lo" (4.14-4.18: always); the model derives Locked so, and
 * refuses a text where it is otherwise.  The rollup spans the mm's own VMAs
 * (not the gate VMA) and prints their sums: byte counts exactly,
 * proportional sizes through the fixed point (pss_fit.c).  Rss and
 * Anonymous are what status calls VmRSS and RssAnon: the page walk and the
 * mm counters agree on a quiet mm.
 *
 * The lines say which kernel wrote the file (load_smaps.c): the first
 * smaps of a load decides the machine's smaps profile and every other
 * must show the same; what Locked counts shows in the values only, and
 * the first file whose values tell decides it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "load_mmsched.h"

#define U (UINT64_C(1) << 10)

/* The records of kind @which of every slot, the first one, and a check that the rest agree. */
static int same_smaps(const struct ld_msg *ms, struct ld_pid *lp, struct ld_smaps **first)
{
	*first = NULL;
	for (size_t i = 0; i <= lp->ntasks; i++) {
		struct ld_task *t = i ? &lp->tasks[i - 1] : &lp->whole;
		struct ld_smaps *s = t->mms ? t->mms->smaps : NULL;
		bool same;

		if (!s)
			continue;
		if (!*first) {
			*first = s;
			continue;
		}
		same = s->n == (*first)->n && (!s->n || mach_smaps_profile_equal(&s->prof, &(*first)->prof));
		for (size_t k = 0; same && k < s->n; k++) {
			const struct ld_smap *a = &s->v[k], *b = &(*first)->v[k];

			same = !memcmp(a->kb, b->kb, sizeof(a->kb)) && a->vma.start == b->vma.start &&
			       a->vma.end == b->vma.end && a->vma.flags == b->vma.flags &&
			       a->vma.thp_eligible == b->vma.thp_eligible;
		}
		/*
		 * A moving mm reads differently a moment later: the walk reads the
		 * process again.  Should it still differ, the model, which has one mm
		 * per process, cannot hold the threads' views: the process is skipped.
		 */
		if (!same)
			return ld_say(ms, -ENOTSUP, "%s and %s show one mm but differ", (*first)->path, s->path);
	}
	return 0;
}

static int same_rollup(const struct ld_msg *ms, struct ld_pid *lp, struct ld_rollup **first)
{
	*first = NULL;
	for (size_t i = 0; i <= lp->ntasks; i++) {
		struct ld_task *t = i ? &lp->tasks[i - 1] : &lp->whole;
		struct ld_rollup *r = t->mms ? t->mms->rollup : NULL;

		if (!r)
			continue;
		if (!*first)
			*first = r;
		else if (memcmp(r->kb, (*first)->kb, sizeof(r->kb)) || r->start != (*first)->start ||
			 r->end != (*first)->end)
			return ld_say(ms, -ENOTSUP, "%s and %s show one mm but differ", (*first)->path, r->path);
	}
	return 0;
}

static bool same_name(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The VMAs maps named (already in the mm) are smaps' VMAs. */
static int against_maps(const struct ld_msg *ms, const struct mach_mm *mm, const struct ld_smaps *sm)
{
	const uint64_t perms = MACH_VM_READ | MACH_VM_WRITE | MACH_VM_EXEC | MACH_VM_MAYSHARE;

	if (!mm->nvmas)
		return 0;
	if (mm->nvmas != sm->n)
		return ld_say(ms, -EINVAL, "%s: %zu mappings, but maps shows %zu", sm->path, sm->n, mm->nvmas);
	for (size_t i = 0; i < sm->n; i++) {
		const struct mach_vma *a = &mm->vmas[i], *b = &sm->v[i].vma;

		if (a->start != b->start || a->end != b->end || a->offset != b->offset ||
		    a->dev_major != b->dev_major || a->dev_minor != b->dev_minor || a->inode != b->inode ||
		    (a->flags & perms) != (b->flags & perms) || a->kind != b->kind ||
		    a->deleted != b->deleted || !same_name(a->name, b->name))
			return ld_say(ms, -EINVAL, "%s:%u: the mapping is not maps' line %zu", sm->path,
				      sm->v[i].line, i + 1);
	}
	return 0;
}

/* One record's counters in bytes (proportional sizes at what they print, fractions to come). */
static int record_counters(const struct ld_msg *ms, const struct ld_smaps *sm, struct ld_smap *r, unsigned int rule)
{
	struct mach_mss *s = &r->vma.mss;
	const uint64_t *kb = r->kb;
	uint64_t locked_want = rule == MACH_SMAPS_LOCKED_ALL || (r->vma.flags & MACH_VM_LOCKED) ? kb[SM_PSS] : 0;

	if (kb[SM_KPAGE] != kb[SM_MMUPAGE] || kb[SM_KPAGE] > UINT32_MAX)
		return ld_say(ms, -ENOTSUP, "%s:%u: KernelPageSize %" PRIu64 " kB, MMUPageSize %" PRIu64
			      " kB: the model keeps one page size", sm->path, r->line, kb[SM_KPAGE],
			      kb[SM_MMUPAGE]);
	if (kb[SM_ANONYMOUS] > kb[SM_RSS] || kb[SM_PSS] > kb[SM_RSS])
		return ld_say(ms, -EINVAL, "%s:%u: Anonymous or Pss beyond Rss", sm->path, r->line);
	if (kb[SM_LOCKED] != locked_want)
		return ld_say(ms, -ENOTSUP, "%s:%u: Locked %" PRIu64 " kB, not %" PRIu64 " (the Pss of %s): the "
			      "model derives Locked so", sm->path, r->line, kb[SM_LOCKED], locked_want,
			      rule == MACH_SMAPS_LOCKED_ALL ? "the mapping, as 4.14-4.18 print it"
							    : "a VM_LOCKED mapping");
	*s = (struct mach_mss){
		.resident = kb[SM_RSS] * U, .shared_clean = kb[SM_SHARED_CLEAN] * U,
		.shared_dirty = kb[SM_SHARED_DIRTY] * U, .private_clean = kb[SM_PRIVATE_CLEAN] * U,
		.private_dirty = kb[SM_PRIVATE_DIRTY] * U, .referenced = kb[SM_REFERENCED] * U,
		.anonymous = kb[SM_ANONYMOUS] * U, .ksm = kb[SM_KSM] * U, .lazyfree = kb[SM_LAZYFREE] * U,
		.anonymous_thp = kb[SM_ANON_THP] * U, .shmem_thp = kb[SM_SHMEM_PMD] * U,
		.file_thp = kb[SM_FILE_PMD] * U, .shared_hugetlb = kb[SM_SHARED_HUGETLB] * U,
		.private_hugetlb = kb[SM_PRIVATE_HUGETLB] * U, .swap = kb[SM_SWAP] * U,
		.pss = kb[SM_PSS] << (MACH_PSS_SHIFT + 10),
		.pss_dirty = kb[SM_PSS_DIRTY] << (MACH_PSS_SHIFT + 10),
		.swap_pss = kb[SM_SWAP_PSS] << (MACH_PSS_SHIFT + 10),
	};
	/* without a rollup, a VMA's whole pss is of the kind its pages mostly are */
	if (kb[SM_ANONYMOUS] * 2 >= kb[SM_RSS])
		s->pss_anon = s->pss;
	else
		s->pss_file = s->pss;
	return 0;
}

/* The rollup's byte counts are the VMAs' sums; its span is theirs. */
static int against_rollup(const struct ld_msg *ms, const struct ld_smaps *sm, size_t own,
			  const struct ld_rollup *ro)
{
	static const enum ld_sm exact[] = {
		SM_RSS, SM_SHARED_CLEAN, SM_SHARED_DIRTY, SM_PRIVATE_CLEAN, SM_PRIVATE_DIRTY,
		SM_REFERENCED, SM_ANONYMOUS, SM_KSM, SM_LAZYFREE, SM_ANON_THP, SM_SHMEM_PMD,
		SM_FILE_PMD, SM_SHARED_HUGETLB, SM_PRIVATE_HUGETLB, SM_SWAP,
	};
	uint64_t start = own ? sm->v[0].vma.start : 0, end = own ? sm->v[own - 1].vma.end : 0;
	unsigned char want[SM_NR];
	unsigned int nwant = mach_smaps_lines(&sm->prof, true, want);

	if (!sm->prof.rollup)
		return ld_say(ms, -EINVAL, "%s: a rollup, but %s is of a kernel before 4.14, which had none", ro->path,
			      sm->path);
	if (nwant != ro->nseq || memcmp(want, ro->seq, nwant) || ro->filepmd_narrow != sm->prof.filepmd_narrow)
		return ld_say(ms, -EINVAL, "%s: its lines are not those of the kernel %s's lines show", ro->path,
			      sm->path);
	if (ro->start != start || ro->end != end)
		return ld_say(ms, -EINVAL, "%s:1: spans %" PRIx64 "-%" PRIx64 ", but %s's mappings span %"
			      PRIx64 "-%" PRIx64, ro->path, ro->start, ro->end, sm->path, start, end);
	for (size_t k = 0; k < sizeof(exact) / sizeof(exact[0]); k++) {
		uint64_t sum = 0;

		for (size_t i = 0; i < own; i++)
			sum += sm->v[i].kb[exact[k]];
		if (sum != ro->kb[exact[k]])
			return ld_say(ms, -EINVAL, "%s: %s %" PRIu64 " kB, but %s's add up to %" PRIu64 " kB",
				      ro->path, ld_sm_label(exact[k]), ro->kb[exact[k]], sm->path, sum);
	}
	return 0;
}

/* Rss and Anonymous of the whole mm are status' VmRSS and RssAnon. */
static int against_status(const struct ld_msg *ms, const struct ld_pid *lp, const struct ld_smaps *sm,
			  size_t own)
{
	const struct ld_status *st = lp->whole.status;
	uint64_t rss = 0, anon = 0;

	for (size_t i = 0; !st && i < lp->ntasks; i++)
		st = lp->tasks[i].status;
	if (!st || !st->present[ST_VMRSS])
		return 0;
	for (size_t i = 0; i < own; i++) {
		rss += sm->v[i].kb[SM_RSS];
		anon += sm->v[i].kb[SM_ANONYMOUS];
	}
	if (rss != st->v[ST_VMRSS][0])
		return ld_disagree_u(ms, sm->path, 1, st->path, st->line[ST_VMRSS], "the sum of Rss:", rss,
				     st->v[ST_VMRSS][0]);
	/* RssAnon came in 4.5: without it only VmRSS is there to agree */
	if (st->present[ST_RSSANON] && anon != st->v[ST_RSSANON][0])
		return ld_disagree_u(ms, sm->path, 1, st->path, st->line[ST_RSSANON],
				     "the sum of Anonymous:", anon, st->v[ST_RSSANON][0]);
	return 0;
}

/* smaps' VMAs, with their counters, replace the mm's (moving the names). */
static int move_vmas(struct mach_mm *mm, struct ld_smaps *sm)
{
	struct mach_vma *v = calloc(sm->n ? sm->n : 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < sm->n; i++) {
		v[i] = sm->v[i].vma;
		sm->v[i].vma.name = NULL;
	}
	for (size_t i = 0; i < mm->nvmas; i++)
		free(mm->vmas[i].name);
	free(mm->vmas);
	mm->vmas = v;
	mm->nvmas = sm->n;
	return 0;
}

/*
 * What Locked counts, as far as @sm's records show it: 4.14-4.18 print
 * every mapping's Pss, the others that of a VM_LOCKED one.  -1 when no
 * record tells (no pss outside locked mappings).
 */
static int locked_evidence(const struct ld_smaps *sm)
{
	for (size_t i = 0; i < sm->n; i++) {
		const struct ld_smap *r = &sm->v[i];

		if (!(r->vma.flags & MACH_VM_LOCKED) && r->kb[SM_PSS])
			return r->kb[SM_LOCKED] == r->kb[SM_PSS] ? MACH_SMAPS_LOCKED_ALL : MACH_SMAPS_LOCKED_PSS;
	}
	return -1;
}

/*
 * The Locked rules @sm may follow, likeliest first, into @rules: one, fixed
 * by its lines, before 4.14 and from 5.0 (THPeligible); for 4.14-4.20 what
 * its records allow, the load's decision first.  *@told: how much its
 * records decide (struct ld_smaps_dec.locked).  How many.
 */
static unsigned int locked_rules(const struct mach_loader *ld, const struct ld_smaps *sm, unsigned char rules[3],
				 unsigned char *told)
{
	int seen = locked_evidence(sm);
	unsigned int n = 0;

	*told = 0;
	if (!sm->prof.sizes_first || sm->prof.thp != MACH_SMAPS_THP_NONE) {
		rules[0] = MACH_SMAPS_LOCKED_PSS;
		return 1;
	}
	if (ld->smaps.locked && (seen < 0 || (seen == MACH_SMAPS_LOCKED_ALL) ==
					       (ld->smaps.prof.locked == MACH_SMAPS_LOCKED_ALL)))
		rules[n++] = ld->smaps.prof.locked;
	*told = seen < 0 ? 0 : seen == MACH_SMAPS_LOCKED_ALL ? 2 : 1;
	for (unsigned char r = MACH_SMAPS_LOCKED_ALL; r <= MACH_SMAPS_LOCKED_RUNNING; r++)
		if ((seen < 0 || (seen == MACH_SMAPS_LOCKED_ALL) == (r == MACH_SMAPS_LOCKED_ALL)) && (!n || rules[0] != r))
			rules[n++] = r;
	/* 4.19-4.20 before 4.14-4.18's fix reached them: the running sum first */
	if (n == 3 && rules[1] == MACH_SMAPS_LOCKED_PSS && rules[0] != MACH_SMAPS_LOCKED_RUNNING) {
		rules[1] = MACH_SMAPS_LOCKED_RUNNING;
		rules[2] = MACH_SMAPS_LOCKED_PSS;
	}
	return n;
}

/* @sm's profile against what the load decided: 0, or -EINVAL naming the file that decided. */
static int against_decided(const struct ld_msg *ms, const struct mach_loader *ld, const struct ld_smaps *sm,
			   unsigned int rule, unsigned char told)
{
	struct mach_smaps_profile a = ld->smaps.prof, b = sm->prof;
	bool all = rule == MACH_SMAPS_LOCKED_ALL;

	a.locked = b.locked = 0;
	if (ld->smaps.lines && !mach_smaps_profile_equal(&a, &b))
		return ld_say(ms, -EINVAL, "%s: its lines are not those of %s, which decided the kernel profile",
			      sm->path, ld->smaps.by);
	if (told && ld->smaps.locked && all != (ld->smaps.prof.locked == MACH_SMAPS_LOCKED_ALL))
		return ld_say(ms, -EINVAL, "%s: Locked counts %s, but in %s, which decided the kernel profile, %s",
			      sm->path, all ? "every mapping's Pss" : "locked memory", ld->smaps.locked_by,
			      all ? "locked memory" : "every mapping's Pss");
	if (told == 2 && ld->smaps.locked == 2 && rule != ld->smaps.prof.locked)
		return ld_say(ms, -EINVAL, "%s: its Locked is summed by another rule than in %s, which decided the "
			      "kernel profile", sm->path, ld->smaps.locked_by);
	return 0;
}

/*
 * Whether the rollup's Locked by 4.19's running sum and by 5.0's rule are a
 * kB apart or more: then the rule it fitted is the kernel's.
 */
static bool running_differs(const struct ld_smaps *sm, size_t own)
{
	uint64_t before = 0;

	for (size_t i = 0; i < own; i++) {
		if ((sm->v[i].vma.flags & MACH_VM_LOCKED) && before)
			return true;
		before += sm->v[i].kb[SM_PSS];
	}
	return false;
}

/*
 * The records' counters and the rollup's fixed-point sums under the first
 * of @rules they fit, into *@rule: the error of the first rule when none.
 */
static int fit_rules(const struct ld_msg *ms, struct ld_smaps *sm, size_t own, const struct ld_rollup *ro,
		     const unsigned char *rules, unsigned int n, unsigned int *rule)
{
	struct mach_smaps_profile p = sm->prof;
	int first = 0;

	for (unsigned int k = 0; k < n; k++) {
		int rc = 0;

		for (size_t i = 0; i < sm->n && !rc; i++)
			rc = record_counters(ms, sm, &sm->v[i], rules[k]);
		p.locked = rules[k];
		if (!rc && ro)
			rc = ld_fit_pss(ms, sm->v, own, ro, &p);
		if (!rc) {
			*rule = rules[k];
			return 0;
		}
		if (rc == -ENOMEM || rc == -EINVAL)
			return rc;
		if (!k)
			first = rc;
	}
	return first;
}

int ld_assemble_smaps(const struct ld_msg *ms, const struct mach_loader *ld, struct ld_pid *lp,
		      struct mach_process *out)
{
	struct ld_smaps *sm;
	struct ld_rollup *ro;
	unsigned char rules[3], told;
	unsigned int nrules, rule = 0;
	size_t own;
	int rc;

	if ((rc = same_smaps(ms, lp, &sm)) || (rc = same_rollup(ms, lp, &ro)))
		return rc;
	if (!sm && ro)
		return ld_say(ms, -ENOTSUP, "%s without smaps: the model keeps the counters per mapping",
			      ro->path);
	if (!sm)
		return 0;
	/* the rollup, where there is one, says whether the kernel splits Pss (smaps' lines only tell its era) */
	if (ro && ro->nseq > 2) {
		sm->prof.lines &= ~MACH_SMAPS_PSS_SPLIT;
		for (unsigned int i = 0; i < ro->nseq; i++)
			if (ro->seq[i] == SM_PSS_ANON)
				sm->prof.lines |= MACH_SMAPS_PSS_SPLIT;
	}
	nrules = locked_rules(ld, sm, rules, &told);
	/* a task without an mm prints no record: its empty file shows no kernel */
	if (sm->n && (rc = against_decided(ms, ld, sm, rules[0], told)))
		return rc;
	if (!out->mm)
		return sm->n || ro ? ld_say(ms, -EINVAL, "%s: mappings of a task without an mm", sm->path) : 0;
	if ((rc = against_maps(ms, out->mm, sm)))
		return rc;
	own = sm->n && sm->v[sm->n - 1].vma.kind == MACH_VMA_VSYSCALL ? sm->n - 1 : sm->n;
	if ((rc = against_status(ms, lp, sm, own)) || (ro && (rc = against_rollup(ms, sm, own, ro))) ||
	    (rc = fit_rules(ms, sm, own, ro, rules, nrules, &rule)))
		return rc;
	if (told == 1 && ro && running_differs(sm, own))
		told = 2;
	if (told == 2 && ld->smaps.locked == 2 && rule != ld->smaps.prof.locked)
		return ld_say(ms, -ENOTSUP, "%s: its rollup's Locked follows another rule than %s's, which decided the "
			      "kernel profile", ro ? ro->path : sm->path, ld->smaps.locked_by);
	lp->smaps = (struct ld_smaps_dec){ .lines = sm->n != 0, .locked = told, .prof = sm->prof, .by = sm->path,
					   .locked_by = sm->path };
	lp->smaps.prof.locked = (unsigned char)rule;
	return move_vmas(out->mm, sm);
}

int ld_smaps_commit(struct mach_loader *ld, const struct ld_pid *lp)
{
	struct ld_smaps_dec *d = &ld->smaps;
	char *by;

	if (lp->smaps.lines && !d->lines) {
		if (!(by = strdup(lp->smaps.by)))
			return -ENOMEM;
		d->lines = true;
		d->by = by;
		d->prof = lp->smaps.prof;
	}
	if (lp->smaps.locked > d->locked) {
		if (!(by = strdup(lp->smaps.locked_by)))
			return -ENOMEM;
		free((char *)d->locked_by);
		d->locked = lp->smaps.locked;
		d->locked_by = by;
		d->prof.locked = lp->smaps.prof.locked;
	}
	if (d->lines)
		ld->m->profile.smaps = d->prof;
	return 0;
}
