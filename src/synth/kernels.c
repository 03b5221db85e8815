// SPDX-License-Identifier: MIT
/*
 * kernels.c - `synth:kernel=V`: the machine built as usual (its counters
 * are the same whatever the kernel), then given the profile of kernel V
 * from the facts table (kernel_facts.c): the vmstat and meminfo lines V
 * printed, in its order, the values of counters 6.18 no longer has derived
 * from those it has; V's status lines; its stat, schedstat and pressure
 * formats.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "synth_int.h"

bool sy_kfact_holds(const struct sy_kfact *f, unsigned int v)
{
	return f->since <= v && (!f->until || v < f->until);
}

const unsigned int *mach_synth_kernels(size_t *n)
{
	*n = sy_nkernels;
	return sy_kernels;
}

static int vmstat_id(const char *name)
{
	for (int i = 0; name && i < MACH_NR_VMSTAT; i++)
		if (!strcmp(mach_vmstat_names[i], name))
			return i;
	return -1;
}

static int meminfo_id(const char *label)
{
	size_t len = label ? strlen(label) : 0;

	for (int i = 0; i < MACH_NR_MEMINFO; i++) {
		const char *l = mach_meminfo_formats[i].label;

		if (!strncmp(l, label, len) && l[len] == ':')
			return i;
	}
	return -1;
}

void sy_kernel_begin(struct synth *s)
{
	struct mach_profile *p = &s->m->profile;
	unsigned int v = s->o->kernel;

	if (!v)
		return;
	p->kernel_major = v / 100;
	p->kernel_minor = v % 100;
	snprintf(p->kernel_release, sizeof(p->kernel_release), "%u.%u.0-uprocfs", v / 100, v % 100);
}

/* The value of a counter @f names that the vocabulary does not have. */
static uint64_t derived(const struct mach_machine *m, const struct sy_kfact *f)
{
	int a = vmstat_id(f->from), b = vmstat_id(f->from2);
	uint64_t x = a >= 0 ? m->vmstat[a] : 0;

	switch ((enum sy_kderive)f->derive) {
	case KD_COPY:
		return x;
	case KD_SUM:
		return x + (b >= 0 ? m->vmstat[b] : 0);
	case KD_FRAC:
		return x / 1024;
	case KD_MEMINFO:
		a = meminfo_id(f->from);
		return a >= 0 ? m->meminfo[a] / 4 : 0;
	/* a per-zone split of a counter that later kernels keep per node: dma32 a sixteenth */
	case KD_ZONE_DMA32:
		return x / 16;
	case KD_ZONE_NORMAL:
		return x - x / 16;
	case KD_ZONE_DMA:
	case KD_ZONE_MOVABLE:
	case KD_ZERO:
	case KD_NONE:
		break;
	}
	return 0;
}

static int add_line(struct mach_machine *m, const struct sy_kfact *f, char *err, size_t errlen)
{
	struct mach_profile *p = &m->profile;
	int id = f->kind == KF_VMSTAT ? vmstat_id(f->name) : meminfo_id(f->name);

	if (f->kind == KF_MEMINFO) {
		if (id < 0 || p->nmeminfo == MACH_NR_MEMINFO)
			goto bad;
		p->meminfo_order[p->nmeminfo++] = (uint16_t)id;
		return 0;
	}
	if (id >= 0) {
		for (unsigned int i = 0; i < p->nvmstat; i++)
			if (p->vmstat_order[i] == id)
				goto bad;
		p->vmstat_order[p->nvmstat++] = (uint16_t)id;
		return 0;
	}
	if (p->nvmstat_extra == MACH_MAX_EXTRA_KEYS || strlen(f->name) >= sizeof(p->vmstat_extra[0].name) ||
	    f->derive == KD_NONE)
		goto bad;
	memset(&p->vmstat_extra[p->nvmstat_extra], 0, sizeof(p->vmstat_extra[0]));
	strcpy(p->vmstat_extra[p->nvmstat_extra].name, f->name);
	m->vmstat_extra[p->nvmstat_extra] = derived(m, f);
	p->vmstat_order[p->nvmstat++] = (uint16_t)(MACH_NR_VMSTAT + p->nvmstat_extra++);
	return 0;
bad:
	snprintf(err, errlen, "synth: kernel facts: %s line \"%s\" cannot be placed",
		 f->kind == KF_VMSTAT ? "vmstat" : "meminfo", f->name);
	return -EINVAL;
}

/* zoneinfo prints vmstat's names: keep those this kernel's vmstat has. */
static void filter_items(enum mach_vmstat_id *items, unsigned int *n, const struct mach_profile *p)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < *n; i++)
		for (unsigned int j = 0; j < p->nvmstat; j++)
			if (p->vmstat_order[j] == items[i]) {
				items[k++] = items[i];
				break;
			}
	*n = k;
}

/*
 * get_wchan()'s address (stat field 35 before 4.4): the return address in
 * the function wchan names, so tasks waiting in one function show addresses
 * in one place.  The function's start is made from its name alone; the
 * offset is its frame's on the task's stack.  0 where nothing is named.
 */
static uint64_t wchan_address(const struct mach_machine *m, const struct mach_thread *t)
{
	const struct mach_kstack *ks = t->kstack < m->nkstacks ? &m->kstacks[t->kstack] : NULL;
	const char *name = mach_ksym_name(m, t->wchan_sym);
	uint64_t h = 0xcbf29ce484222325ull;
	uint32_t off = 0;

	if (!t->wchan_sym || !name)
		return 0;
	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
	if (ks && ks->nframes && ks->frames[0].sym == t->wchan_sym)
		off = ks->frames[0].off;
	return 0xffffffff81000000ull + ((h >> 40) & 0x7ffff0) + off;
}

/* 0, or -ENOMEM when a thread cannot hold its wchan address. */
static int apply_tasks(struct mach_machine *m, const bool *have)
{
	for (size_t i = 0; i < m->nprocs; i++) {
		struct mach_process *pr = &m->procs[i];

		/* task_mem counted PMD pages apart, one per GiB of address space spanned */
		if (pr->mm && have[SY_KF_VMPMD])
			pr->mm->vm_pmd = 4 * (1 + pr->mm->vm_size / (1u << 20));
		for (unsigned int k = 0; k < pr->nthreads; k++) {
			struct mach_thread *t = &pr->threads[k];
			struct mach_thread_rare r = *mach_thread_rare(t);

			if (!have[SY_KF_STATE_IDLE] && t->state == MACH_TASK_IDLE)
				t->state = MACH_TASK_SLEEPING;
			r.wchan_addr = have[SY_KF_WCHAN_ADDR] && t->state != MACH_TASK_RUNNING ? wchan_address(m, t) : 0;
			if (mach_thread_rare_set(t, &r))
				return -ENOMEM;
		}
	}
	return 0;
}

/*
 * Before 5.15 the ELF loader mapped the executable and its interpreter
 * MAP_DENYWRITE, and each of their mappings kept VM_DENYWRITE ("dw"), the
 * ones mprotect later split off too.
 */
void sy_deny_write_vmas(struct mach_vma *v, size_t n, const char *exe)
{
	for (size_t k = 0; k < n; k++)
		if (v[k].kind == MACH_VMA_FILE && v[k].name &&
		    ((exe && !strcmp(v[k].name, exe)) || (v[k].inode == LD_SO_INODE && !strcmp(v[k].name, LD_SO_PATH))))
			v[k].flags |= MACH_VM_BIT(MACH_VMB_DENYWRITE);
}

/* The mms that store their VMAs get the flags now; the maker adds them to the ones it makes. */
static void deny_write(struct synth *s)
{
	struct mach_machine *m = s->m;

	for (size_t i = 0; i < m->nprocs; i++) {
		struct mach_mm *mm = m->procs[i].mm;

		if (mm && !mm->maker)
			sy_deny_write_vmas(mm->vmas, mm->nvmas, mm->exe);
	}
	sy_maker_deny_write(s);
}

/* The smaps lines and formats of the kernel (mach_vm.h). */
static void apply_smaps(struct synth *s, struct mach_machine *m, const bool *have)
{
	static const struct { unsigned char fact; unsigned char bit; } lines[] = {
		{ SY_KF_SM_SWAP_PSS, MACH_SMAPS_SWAP_PSS }, { SY_KF_SM_HUGETLB, MACH_SMAPS_HUGETLB },
		{ SY_KF_SM_SHMEM_PMD, MACH_SMAPS_SHMEM_PMD }, { SY_KF_SM_LAZYFREE, MACH_SMAPS_LAZYFREE },
		{ SY_KF_SM_PSS_SPLIT, MACH_SMAPS_PSS_SPLIT }, { SY_KF_SM_FILE_PMD, MACH_SMAPS_FILE_PMD },
		{ SY_KF_SM_PSS_DIRTY, MACH_SMAPS_PSS_DIRTY }, { SY_KF_SM_KSM, MACH_SMAPS_KSM },
	};
	struct mach_smaps_profile *p = &m->profile.smaps;

	p->lines = 0;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (have[lines[i].fact])
			p->lines |= lines[i].bit;
	p->sizes_first = p->rollup = have[SY_KF_SM_ROLLUP];
	p->locked = have[SY_KF_SM_LOCKED_ALL] ? MACH_SMAPS_LOCKED_ALL :
		    have[SY_KF_SM_LOCKED_RUNNING] ? MACH_SMAPS_LOCKED_RUNNING : MACH_SMAPS_LOCKED_PSS;
	p->thp = !have[SY_KF_SM_THP] ? MACH_SMAPS_THP_NONE : have[SY_KF_SM_THP_TABS] ? MACH_SMAPS_THP_TABS :
		 have[SY_KF_SM_THP_WIDE] ? MACH_SMAPS_THP_WIDE : MACH_SMAPS_THP_PLAIN;
	p->filepmd_narrow = have[SY_KF_SM_FILE_PMD_NARROW];
	if (have[SY_KF_DENYWRITE])
		deny_write(s);
}

static int apply_flags(struct synth *s, struct mach_machine *m, const bool *have)
{
	struct mach_profile *p = &m->profile;

	p->status_ngid = have[SY_KF_NGID];
	p->status_ns_lines = have[SY_KF_NS];
	p->status_umask = have[SY_KF_UMASK];
	p->status_groups_space = have[SY_KF_GROUPS_SPACE];
	p->status_kthread = have[SY_KF_KTHREAD];
	p->status_vmpin = have[SY_KF_VMPIN];
	p->status_rss = have[SY_KF_RSS];
	p->status_hugetlb = have[SY_KF_HUGETLB];
	p->status_vmpmd = have[SY_KF_VMPMD];
	p->status_core_dumping = have[SY_KF_COREDUMP];
	p->status_thp_enabled = have[SY_KF_THP];
	p->status_untag_mask = have[SY_KF_UNTAG];
	p->status_capamb = have[SY_KF_CAPAMB];
	p->status_nnp = have[SY_KF_NNP];
	p->status_seccomp = have[SY_KF_SECCOMP];
	p->status_seccomp_filters = have[SY_KF_SECCOMP_FILTERS];
	p->status_ssb = have[SY_KF_SSB];
	p->status_spec_ib = have[SY_KF_SIB];
	p->stat_wchan_addr = have[SY_KF_WCHAN_ADDR];
	p->schedstat_version = have[SY_KF_SCHEDSTAT_17] ? 17 : have[SY_KF_SCHEDSTAT_16] ? 16 : 15;
	for (int r = 0; r < MACH_NR_PSI_RES; r++)
		if (!have[SY_KF_PRESSURE])
			memset(&m->pressure[r], 0, sizeof(m->pressure[r]));
	if (!have[SY_KF_PRESSURE_CPU_FULL]) {
		m->pressure[MACH_PSI_CPU].has_full = false;
		memset(&m->pressure[MACH_PSI_CPU].full, 0, sizeof(m->pressure[MACH_PSI_CPU].full));
	}
	apply_smaps(s, m, have);
	return apply_tasks(m, have);
}

int sy_kernel_finish(struct synth *s)
{
	struct mach_machine *m = s->m;
	struct mach_profile *p = &m->profile;
	unsigned int v = s->o->kernel;
	bool have[SY_NR_KF] = { false };
	char err[160];
	int rc;

	if (!v)
		return 0;
	p->nvmstat = p->nvmstat_extra = p->nmeminfo = p->nmeminfo_extra = 0;
	for (size_t i = 0; i < sy_nkfacts; i++) {
		const struct sy_kfact *f = &sy_kfacts[i];

		if (!sy_kfact_holds(f, v))
			continue;
		if (f->kind == KF_FLAG)
			have[f->flag] = true;
		else if ((rc = add_line(m, f, err, sizeof(err))))
			return rc;
	}
	if ((rc = apply_flags(s, m, have)))
		return rc;
	filter_items(p->sys.zone_items, &p->sys.nzone_items, p);
	filter_items(p->sys.node_items, &p->sys.nnode_items, p);
	return 0;
}
