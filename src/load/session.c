// SPDX-License-Identifier: MIT
/*
 * session.c - a loading session (load.h): what the files of one load have
 * said so far, and the finish that turns it into processes.
 *
 * Machine-wide files parse straight into the machine.  Per-task files are
 * kept as records, one struct ld_pid per process, until mach_loader_finish
 * checks each process's records against each other and builds it
 * (pid_assemble.c): a file on its own cannot say whether the process
 * changed between two reads.  What the accepted processes said about the kernel
 * (which optional status lines it prints, how wide its CPU and node masks
 * are) is gathered across processes and set once at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"
#include "uprocfs/load.h"

/* ------------------------------------------------------------------ */
/* The session                                                          */

static void session_start(struct mach_loader *ld)
{
	struct mach_machine *m = ld->m;

	for (int f = 0; f < LD_NR_DEC; f++)
		ld->dec[f].val = -1;
	/* processes already in the model were built for these widths: they stay the floor */
	ld->prev_nr_cpu_ids = m->nprocs ? m->nr_cpu_ids : 0;
	ld->prev_max_numnodes = m->nprocs ? m->max_numnodes : 0;
}

static void session_end(struct mach_loader *ld)
{
	struct mach_machine *m = ld->m;

	for (size_t i = 0; i < ld->npids; i++)
		ld_pid_free(ld->pids[i]);
	free(ld->pids);
	for (int f = 0; f < LD_NR_DEC; f++)
		free(ld->dec[f].by);
	free(ld->cpus.lo_by);
	free(ld->cpus.hi_by);
	free(ld->mems.lo_by);
	free(ld->mems.hi_by);
	free(ld->sched_cpus.id);
	free((char *)ld->smaps.by);
	free((char *)ld->smaps.locked_by);
	ld_sys_free(ld->sys);
	memset(ld, 0, sizeof(*ld));
	ld->m = m;
}

struct mach_loader *mach_loader_new(struct mach_machine *m)
{
	struct mach_loader *ld = m ? calloc(1, sizeof(*ld)) : NULL;

	if (ld) {
		ld->m = m;
		session_start(ld);
	}
	return ld;
}

void mach_loader_free(struct mach_loader *ld)
{
	if (!ld)
		return;
	session_end(ld);
	free(ld);
}

/* The records of process @tgid, created if needed; NULL on ENOMEM. */
static struct ld_pid *session_pid(struct mach_loader *ld, pid_t tgid)
{
	struct ld_pid *lp;

	for (size_t i = 0; i < ld->npids; i++)
		if (ld->pids[i]->tgid == tgid)
			return ld->pids[i];
	if (VEC_RESERVE(ld->pids, ld->cap, ld->npids + 1))
		return NULL;
	lp = ld_pid_new(tgid);
	if (lp)
		ld->pids[ld->npids++] = lp;
	return lp;
}

/* ------------------------------------------------------------------ */
/* Files                                                                */

static int load_global(struct mach_loader *ld, enum mach_ld_kind kind, const char *path,
		       const char *text, size_t len, char *err, size_t errlen)
{
	struct mach_machine *m = ld->m;
	struct lex lx;
	int rc;

	/* the model's strings end at a NUL: a text holding one would print shorter */
	if ((rc = ld_refuse_nul(path, text, len, err, errlen)))
		return rc;
	lex_init(&lx, path, text, len, err, errlen);
	switch (kind) {
	case MACH_LD_STAT:
		rc = ld_parse_stat(&lx, m, ld->globals & MACH_LD_BIT(MACH_LD_SCHEDSTAT) ? &ld->sched_cpus : NULL);
		if (!rc && m->ncpus)
			ld_bound_lo(&ld->cpus, m->cpus[m->ncpus - 1].id + 1, path);
		return rc;
	case MACH_LD_MEMINFO:
		return ld_parse_meminfo(&lx, m);
	case MACH_LD_VMSTAT:
		return ld_parse_vmstat(&lx, m);
	case MACH_LD_LOADAVG:
		rc = ld_parse_loadavg(&lx, m);
		ld->have_loadavg |= !rc;
		return rc;
	case MACH_LD_UPTIME:
		return ld_parse_uptime(&lx, m);
	case MACH_LD_SCHEDSTAT:
		return ld_parse_schedstat(&lx, m, &ld->cpus, ld->globals & MACH_LD_BIT(MACH_LD_STAT), &ld->sched_cpus);
	case MACH_LD_PRESSURE_IO:
		return ld_parse_pressure(&lx, m, MACH_PSI_IO);
	case MACH_LD_PRESSURE_MEMORY:
		return ld_parse_pressure(&lx, m, MACH_PSI_MEM);
	case MACH_LD_PRESSURE_CPU:
		return ld_parse_pressure(&lx, m, MACH_PSI_CPU);
	case MACH_LD_PRESSURE_IRQ:
		return ld_parse_pressure(&lx, m, MACH_PSI_IRQ);
	case MACH_LD_SOFTIRQS:
		return ld_parse_softirqs(&lx, m);
	case MACH_LD_INTERRUPTS:
		return ld_parse_interrupts(&lx, m);
	case MACH_LD_DISKSTATS:
		return ld_parse_diskstats(&lx, ld);
	case MACH_LD_PARTITIONS:
		return ld_parse_partitions(&lx, ld);
	case MACH_LD_SWAPS:
		return ld_parse_swaps(&lx, ld);
	case MACH_LD_ZONEINFO:
		return ld_parse_zoneinfo(&lx, ld);
	case MACH_LD_BUDDYINFO:
		return ld_parse_buddyinfo(&lx, ld);
	case MACH_LD_SLABINFO:
		return ld_parse_slabinfo(&lx, m);
	case MACH_LD_VERSION:
		return ld_parse_version(&lx, m);
	case MACH_LD_CMDLINE:
		return ld_parse_kcmdline(&lx, m);
	case MACH_LD_FILESYSTEMS:
		return ld_parse_filesystems(&lx, m);
	case MACH_LD_CGROUPS:
		return ld_parse_cgroups(&lx, m);
	case MACH_LD_DEVICES:
		return ld_parse_devices(&lx, m);
	case MACH_LD_MISC:
		return ld_parse_misc(&lx, m);
	case MACH_LD_LOCKS:
		return ld_parse_locks(&lx, m);
	default:
		return lex_fail(&lx, "file kind %d is not a machine-wide file", (int)kind);
	}
}

int mach_loader_file(struct mach_loader *ld, enum mach_ld_kind kind, pid_t pid, pid_t tid,
		     const char *path, const char *text, size_t len, char *err, size_t errlen)
{
	return mach_loader_file_inst(ld, kind, pid, tid, 0, path, text, len, err, errlen);
}

int ld_refuse_nul(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
	const char *nul = len ? memchr(text, '\0', len) : NULL;
	unsigned int line = 1;

	if (!nul)
		return 0;
	for (const char *p = text; p < nul; p++)
		line += *p == '\n';
	snprintf(err, errlen, "%s:%u: a NUL byte, which the kernel prints in no text file (only cmdline and "
		 "environ hold them)", path, line);
	return -EINVAL;
}

int mach_loader_file_inst(struct mach_loader *ld, enum mach_ld_kind kind, pid_t pid, pid_t tid, uint32_t inst,
			  const char *path, const char *text, size_t len, char *err, size_t errlen)
{
	struct ld_pid *lp;
	int rc;

	if (!ld || !path || (!text && len)) {
		snprintf(err, errlen, "mach_loader_file: missing loader, path or text");
		return -EINVAL;
	}
	if (!text)
		text = "";
	if (kind == MACH_LD_NONE || (unsigned int)kind >= MACH_LD_NR_KINDS) {
		snprintf(err, errlen, "%s: unknown file kind %d", path, (int)kind);
		return -EINVAL;
	}
	if (!mach_ld_kind_per_task(kind)) {
		if (pid || tid) {
			snprintf(err, errlen, "%s: a machine-wide file given for pid %d, tid %d",
				 path, (int)pid, (int)tid);
			return -EINVAL;
		}
		rc = load_global(ld, kind, path, text, len, err, errlen);
		if (!rc)
			ld->globals |= MACH_LD_BIT(kind);
	} else {
		if (pid <= 0 || tid < 0) {
			snprintf(err, errlen, "%s: pid %d, tid %d do not name a task", path,
				 (int)pid, (int)tid);
			return -EINVAL;
		}
		lp = session_pid(ld, pid);
		rc = lp ? ld_pid_file(lp, kind, tid, inst, path, text, len, err, errlen) : -ENOMEM;
	}
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	return rc;
}

int mach_loader_listing(struct mach_loader *ld, enum mach_ld_kind kind, pid_t pid, pid_t tid, const char *path,
			const uint32_t *insts, size_t n, char *err, size_t errlen)
{
	struct ld_pid *lp;
	struct ld_task *t;
	int rc;

	if (!ld || !mach_ld_kind_coll(kind) || pid <= 0 || tid < 0 || (n && !insts)) {
		snprintf(err, errlen, "%s: not a listing of a task's collection", path ? path : "?");
		return -EINVAL;
	}
	lp = session_pid(ld, pid);
	t = !lp ? NULL : tid ? ld_pid_task(lp, tid) : &lp->whole;
	rc = t ? ld_misc_listing(&t->misc, kind, insts, n) : -ENOMEM;
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path ? path : "?");
	return rc;
}

/* ------------------------------------------------------------------ */
/* Finishing                                                            */

static int resize_bitmap(struct mach_bitmap *b, unsigned int nbits)
{
	struct mach_bitmap n;
	int rc;

	if (b->words && b->nbits == nbits)
		return 0;
	rc = mach_bitmap_alloc(&n, nbits);
	if (rc)
		return rc;
	for (unsigned int i = 0; i < b->nbits && i < nbits; i++)
		if (mach_bitmap_test(b, i))
			mach_bitmap_set(&n, i);
	mach_bitmap_free(b);
	*b = n;
	return 0;
}

/* Insert @p into m->procs by tgid, replacing a process with the same tgid. */
static int put_process(struct mach_machine *m, struct mach_process *p)
{
	size_t lo = 0, hi = m->nprocs;
	struct mach_process *n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->procs[mid].tgid < p->tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nprocs && m->procs[lo].tgid == p->tgid) {
		mach_process_clear(&m->procs[lo]);
		m->procs[lo] = *p;
		return 0;
	}
	n = realloc(m->procs, (m->nprocs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	m->procs = n;
	memmove(&n[lo + 1], &n[lo], (m->nprocs - lo) * sizeof(*n));
	n[lo] = *p;
	m->nprocs++;
	return 0;
}

static int bound_conflict(const char *what, const struct ld_bound *b, unsigned int lo, char *err,
			  size_t errlen)
{
	snprintf(err, errlen,
		 "%s: %s needs at least %u, but the bitmap width in %s allows at most %u", what,
		 b->lo_by ? b->lo_by : "an earlier load", lo, b->hi_by ? b->hi_by : "?", b->hi);
	return -EINVAL;
}

/* Widths of the CPU and node masks, the kernel profile. */
static int finish_machine(struct mach_loader *ld, char *err, size_t errlen)
{
	static const size_t dec_flag[LD_NR_DEC] = {
		[DEC_UMASK] = offsetof(struct mach_profile, status_umask),
		[DEC_NGID] = offsetof(struct mach_profile, status_ngid),
		[DEC_NS] = offsetof(struct mach_profile, status_ns_lines),
		[DEC_KTHREAD] = offsetof(struct mach_profile, status_kthread),
		[DEC_HUGETLB] = offsetof(struct mach_profile, status_hugetlb),
		[DEC_COREDUMP] = offsetof(struct mach_profile, status_core_dumping),
		[DEC_THP] = offsetof(struct mach_profile, status_thp_enabled),
		[DEC_UNTAG] = offsetof(struct mach_profile, status_untag_mask),
		[DEC_SECCOMP] = offsetof(struct mach_profile, status_seccomp),
		[DEC_SECCOMP_FILTERS] = offsetof(struct mach_profile, status_seccomp_filters),
		[DEC_SIB] = offsetof(struct mach_profile, status_spec_ib),
		[DEC_MEMS] = offsetof(struct mach_profile, status_mems_allowed),
		[DEC_X86] = offsetof(struct mach_profile, status_x86_features),
		[DEC_VMPIN] = offsetof(struct mach_profile, status_vmpin),
		[DEC_RSS] = offsetof(struct mach_profile, status_rss),
		[DEC_VMPMD] = offsetof(struct mach_profile, status_vmpmd),
		[DEC_CAPAMB] = offsetof(struct mach_profile, status_capamb),
		[DEC_NNP] = offsetof(struct mach_profile, status_nnp),
		[DEC_SSB] = offsetof(struct mach_profile, status_ssb),
		[DEC_GROUPS_SPACE] = offsetof(struct mach_profile, status_groups_space),
		[DEC_STAT_BRK] = offsetof(struct mach_profile, stat_brk_fields),
		[DEC_STAT_ARGS] = offsetof(struct mach_profile, stat_arg_fields),
		[DEC_STAT_WCHAN_ADDR] = offsetof(struct mach_profile, stat_wchan_addr),
	};
	struct mach_machine *m = ld->m;
	unsigned int ncpu, nnode, lo;

	/* nr_cpu_ids: the highest CPU + 1, raised as far as a mask's width demands */
	lo = ld->cpus.lo > ld->prev_nr_cpu_ids ? ld->cpus.lo : ld->prev_nr_cpu_ids;
	if (m->ncpus && m->cpus[m->ncpus - 1].id + 1 > lo)
		lo = m->cpus[m->ncpus - 1].id + 1;
	if (ld->cpus.hi && lo > ld->cpus.hi)
		return bound_conflict("nr_cpu_ids", &ld->cpus, lo, err, errlen);
	ncpu = lo ? lo : m->nr_cpu_ids ? m->nr_cpu_ids : 1;

	/* MAX_NUMNODES is a power of two; take one if the widths allow */
	lo = ld->mems.lo > ld->prev_max_numnodes ? ld->mems.lo : ld->prev_max_numnodes;
	if (ld->mems.hi && lo > ld->mems.hi)
		return bound_conflict("MAX_NUMNODES", &ld->mems, lo, err, errlen);
	if (ld->mems.lo) {
		unsigned int p2 = 1;

		while (p2 < lo)
			p2 <<= 1;
		nnode = !ld->mems.hi || p2 <= ld->mems.hi ? p2 : ld->mems.hi;
	} else {
		nnode = m->max_numnodes ? m->max_numnodes : MACH_MAX_NUMNODES_DEFAULT;
	}

	for (size_t i = 0; i < m->nprocs; i++)
		for (unsigned int k = 0; k < m->procs[i].nthreads; k++) {
			struct mach_thread *t = &m->procs[i].threads[k];

			if (resize_bitmap(&t->cpus_allowed, ncpu) ||
			    resize_bitmap(&t->mems_allowed, nnode))
				goto nomem;
		}
	for (unsigned int i = 0; i < m->ncpus; i++)
		for (unsigned int d = 0; d < m->cpus[i].sched.ndomains; d++)
			if (resize_bitmap(&m->cpus[i].sched.domains[d].span, ncpu))
				goto nomem;
	m->nr_cpu_ids = ncpu;
	m->max_numnodes = nnode;

	for (int f = 0; f < LD_NR_DEC; f++) {
		bool *flag = (bool *)((char *)&m->profile + dec_flag[f]);

		/* Umask is only ever decided present: absence is the task's, not the kernel's */
		if (ld->dec[f].val >= 0)
			*flag = ld->dec[f].val;
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

int ld_add_process(struct mach_loader *ld, struct ld_pid *lp, char *err, size_t errlen)
{
	struct mach_process p;
	struct ld_commit cm;
	int rc;

	memset(&p, 0, sizeof(p));
	rc = ld_assemble(ld, lp, &p, &cm, err, errlen);
	if (!rc)
		rc = ld_commit(ld, &cm);
	if (!rc)
		rc = ld_commit_nets(ld->m, &cm, &p);
	if (!rc)
		rc = ld_smaps_commit(ld, lp);
	if (!rc)
		rc = put_process(ld->m, &p);
	if (rc) {
		if (rc == -ENOMEM)
			snprintf(err, errlen, "%d: out of memory", lp->tgid);
		mach_process_clear(&p);
	}
	ld_commit_clear(&cm);
	return rc;
}

int mach_loader_finish(struct mach_loader *ld, char *err, size_t errlen)
{
	int rc = 0;

	if (!ld) {
		snprintf(err, errlen, "mach_loader_finish: no loader");
		return -EINVAL;
	}
	for (size_t i = 0; i < ld->npids && !rc; i++)
		rc = ld_add_process(ld, ld->pids[i], err, errlen);
	if (!rc)
		rc = finish_machine(ld, err, errlen);
	if (!rc && ld->sys)
		rc = ld_sys_finish(ld, err, errlen);
	if (!rc)
		mach_topo_link(ld->m);
	session_end(ld);
	session_start(ld);
	return rc;
}

enum mach_ld_kind mach_ld_group(enum mach_ld_kind kind)
{
	switch (kind) {
	case MACH_LD_SOFTIRQS:
	case MACH_LD_INTERRUPTS:
		return MACH_LD_STAT;
	case MACH_LD_SWAPS:
		return MACH_LD_MEMINFO;
	case MACH_LD_BUDDYINFO:
		return MACH_LD_ZONEINFO;
	case MACH_LD_PARTITIONS:
		return MACH_LD_DISKSTATS;
	default:
		return kind;
	}
}

bool mach_ld_required(enum mach_ld_kind kind)
{
	switch (kind) {
	case MACH_LD_STAT:
	case MACH_LD_MEMINFO:
	case MACH_LD_VMSTAT:
	case MACH_LD_LOADAVG:
	case MACH_LD_UPTIME:
	case MACH_LD_PID_STATUS:
	case MACH_LD_PID_STAT:
		return true;
	default:
		return false;
	}
}
