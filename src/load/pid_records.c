// SPDX-License-Identifier: MIT
/*
 * pid_records.c - the records of one process's files, and what an accepted
 * process adds to the session (bounds on the mask widths, the kernel
 * profile's decisions).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"
#include "load_mmsched.h"
#include "load_net.h"

/* ------------------------------------------------------------------ */
/* Records                                                              */

static void stat_free(struct ld_stat *s)
{
	if (s) {
		free(s->path);
		free(s);
	}
}

static void statm_free(struct ld_statm *s)
{
	if (s) {
		free(s->path);
		free(s);
	}
}

void ld_task_clear(struct ld_task *t)
{
	ld_misc_clear(&t->misc);
	ld_status_free(t->status);
	stat_free(t->stat);
	statm_free(t->statm);
	ld_maps_free(t->maps);
	ld_bytes_free(t->cmdline);
	ld_bytes_free(t->comm);
	ld_nsrec_free(t->nsr);
	t->nsr = NULL;
	ld_mms_free(t->mms);
	t->mms = NULL;
	t->status = NULL;
	t->stat = NULL;
	t->statm = NULL;
	t->maps = NULL;
	t->cmdline = NULL;
	t->comm = NULL;
	for (int k = 0; k < LD_NR_NET; k++) {
		ld_net_file_free(t->net[k]);
		t->net[k] = NULL;
	}
	t->net_ref = 0;
}

void ld_pid_free(struct ld_pid *lp)
{
	if (!lp)
		return;
	ld_task_clear(&lp->whole);
	for (size_t i = 0; i < lp->ntasks; i++)
		ld_task_clear(&lp->tasks[i]);
	free(lp->tasks);
	free(lp);
}

struct ld_pid *ld_pid_new(pid_t tgid)
{
	struct ld_pid *lp = calloc(1, sizeof(*lp));

	if (lp) {
		lp->tgid = tgid;
		lp->whole.tid = tgid;
	}
	return lp;
}

struct ld_task *ld_pid_task(struct ld_pid *lp, pid_t tid)
{
	struct ld_task *t;

	for (size_t i = 0; i < lp->ntasks; i++)
		if (lp->tasks[i].tid == tid)
			return &lp->tasks[i];
	t = VEC_PUSH(lp->tasks, lp->ntasks, lp->cap);
	if (t)
		t->tid = tid;
	return t;
}

#define REC_NEW(t, rec) (((t)->rec = calloc(1, sizeof(*(t)->rec))) ? &(t)->rec->path : NULL)
#define REC_SWAP(a, b, rec)                         \
	do {                                        \
		__typeof__((a)->rec) rec_tmp__ = (a)->rec; \
		(a)->rec = (b)->rec;                \
		(b)->rec = rec_tmp__;               \
	} while (0)

/* An empty record of @kind in @t, named @path: 0 or -ENOMEM (what was made is @t's). */
static int rec_new(struct ld_task *t, enum mach_ld_kind kind, const char *path)
{
	char **name = NULL;

	if (ld_kind_nsrec(kind))
		return 0; /* ld_nsrec_parse makes its own */
	if (ld_mms_kind(kind))
		return ld_mms_new(&t->mms, kind, path);
	if (mach_ld_kind_net(kind)) {
		t->net[kind - MACH_LD_PID_NET_FIRST] = ld_net_file_new(kind, path);
		return t->net[kind - MACH_LD_PID_NET_FIRST] ? 0 : -ENOMEM;
	}
	switch (kind) {
	case MACH_LD_PID_STATUS: name = REC_NEW(t, status); break;
	case MACH_LD_PID_STAT: name = REC_NEW(t, stat); break;
	case MACH_LD_PID_STATM: name = REC_NEW(t, statm); break;
	case MACH_LD_PID_MAPS: name = REC_NEW(t, maps); break;
	case MACH_LD_PID_CMDLINE: name = REC_NEW(t, cmdline); break;
	case MACH_LD_PID_COMM: name = REC_NEW(t, comm); break;
	default: return -EINVAL;
	}
	if (!name || !(*name = strdup(path)))
		return -ENOMEM;
	return 0;
}

static int rec_parse(struct ld_task *t, enum mach_ld_kind kind, pid_t tgid, const char *path, struct lex *lx)
{
	if (ld_kind_nsrec(kind))
		return ld_nsrec_parse(t, kind, path, lx);
	if (ld_mms_kind(kind))
		return ld_mms_parse(t->mms, kind, lx);
	if (mach_ld_kind_net(kind))
		return ld_parse_net(lx, t->net[kind - MACH_LD_PID_NET_FIRST]);
	switch (kind) {
	case MACH_LD_PID_STATUS: return ld_parse_status(lx, tgid, t->tid, t->status);
	case MACH_LD_PID_STAT: return ld_parse_pid_stat(lx, t->tid, t->stat);
	case MACH_LD_PID_STATM: return ld_parse_statm(lx, t->statm);
	case MACH_LD_PID_MAPS: return ld_parse_maps(lx, t->maps);
	case MACH_LD_PID_CMDLINE: return ld_parse_cmdline(lx, t->cmdline);
	default: return ld_parse_comm(lx, t->comm);
	}
}

static int rec_swap(struct ld_task *a, struct ld_task *b, enum mach_ld_kind kind)
{
	if (ld_kind_nsrec(kind))
		return ld_nsrec_swap(a, b, kind);
	if (ld_mms_kind(kind)) {
		ld_mms_swap(&a->mms, &b->mms, kind);
		return 0;
	}
	if (mach_ld_kind_net(kind)) {
		REC_SWAP(a, b, net[kind - MACH_LD_PID_NET_FIRST]);
		return 0;
	}
	switch (kind) {
	case MACH_LD_PID_STATUS: REC_SWAP(a, b, status); break;
	case MACH_LD_PID_STAT: REC_SWAP(a, b, stat); break;
	case MACH_LD_PID_STATM: REC_SWAP(a, b, statm); break;
	case MACH_LD_PID_MAPS: REC_SWAP(a, b, maps); break;
	case MACH_LD_PID_CMDLINE: REC_SWAP(a, b, cmdline); break;
	default: REC_SWAP(a, b, comm); break;
	}
	return 0;
}

int ld_pid_file(struct ld_pid *lp, enum mach_ld_kind kind, pid_t tid, uint32_t inst, const char *path,
		const char *text, size_t len, char *err, size_t errlen)
{
	struct ld_task *t = tid ? ld_pid_task(lp, tid) : &lp->whole;
	struct ld_task fresh = { .tid = t ? t->tid : 0 };
	struct lex lx;
	int rc;

	if (!t)
		return -ENOMEM;
	/* only cmdline holds NULs; any other text holding one would print shorter */
	if (kind != MACH_LD_PID_CMDLINE && (rc = ld_refuse_nul(path, text, len, err, errlen)))
		return rc;
	if (ld_misc_kind(kind))
		return ld_misc_file(&t->misc, kind, inst, path, text, len, err, errlen);
	/* parsed aside, so that a file that does not parse leaves the slot as it was */
	rc = rec_new(&fresh, kind, path);
	if (!rc) {
		lex_init(&lx, path, text, len, err, errlen);
		rc = rec_parse(&fresh, kind, lp->tgid, path, &lx);
	}
	if (!rc)
		rc = rec_swap(t, &fresh, kind);
	ld_task_clear(&fresh);
	return rc;
}

int ld_pid_absent(struct ld_pid *lp, enum mach_ld_kind kind, pid_t tid)
{
	struct ld_task *t;

	/* a link to nothing elsewhere (a kernel thread's exe) is simply not there */
	if (!ld_kind_nsrec(kind))
		return 0;
	t = tid ? ld_pid_task(lp, tid) : &lp->whole;
	if (!t || (!t->nsr && !(t->nsr = calloc(1, sizeof(*t->nsr)))))
		return -ENOMEM;
	t->nsr->absent |= MACH_LD_BIT(kind);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Bounds and commits                                                   */

void ld_bound_lo(struct ld_bound *b, unsigned int lo, const char *by)
{
	if (lo > b->lo) {
		b->lo = lo;
		free(b->lo_by);
		b->lo_by = by ? strdup(by) : NULL;
	}
}

void ld_bound_hi(struct ld_bound *b, unsigned int hi, const char *by)
{
	if (hi && (!b->hi || hi < b->hi)) {
		b->hi = hi;
		free(b->hi_by);
		b->hi_by = by ? strdup(by) : NULL;
	}
}

void ld_commit_clear(struct ld_commit *cm)
{
	free(cm->cpus.lo_by);
	free(cm->cpus.hi_by);
	free(cm->mems.lo_by);
	free(cm->mems.hi_by);
	for (unsigned int i = 0; i < cm->nnets; i++)
		mach_net_clear(&cm->nets[i]);
	free(cm->nets);
	free(cm->net_of);
	free(cm->net_at);
	memset(cm, 0, sizeof(*cm));
}

int ld_commit(struct mach_loader *ld, const struct ld_commit *cm)
{
	for (int f = 0; f < LD_NR_DEC; f++)
		if (ld->dec[f].val < 0 && cm->dec[f].val >= 0) {
			ld->dec[f].val = cm->dec[f].val;
			ld->dec[f].by = cm->dec[f].by ? strdup(cm->dec[f].by) : NULL;
			if (cm->dec[f].by && !ld->dec[f].by)
				return -ENOMEM;
		}
	ld_bound_lo(&ld->cpus, cm->cpus.lo, cm->cpus.lo_by);
	ld_bound_hi(&ld->cpus, cm->cpus.hi, cm->cpus.hi_by);
	ld_bound_lo(&ld->mems, cm->mems.lo, cm->mems.lo_by);
	ld_bound_hi(&ld->mems, cm->mems.hi, cm->mems.hi_by);
	return 0;
}
