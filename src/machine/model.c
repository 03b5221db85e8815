// SPDX-License-Identifier: MIT
/*
 * model.c - lifetimes, lookups and printed names of the machine model.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uprocfs/machine.h"

static const char *const task_state_names[MACH_NR_TASK_STATES] = {
	[MACH_TASK_RUNNING] = "R (running)",
	[MACH_TASK_SLEEPING] = "S (sleeping)",
	[MACH_TASK_DISK_SLEEP] = "D (disk sleep)",
	[MACH_TASK_STOPPED] = "T (stopped)",
	[MACH_TASK_TRACED] = "t (tracing stop)",
	[MACH_TASK_DEAD] = "X (dead)",
	[MACH_TASK_ZOMBIE] = "Z (zombie)",
	[MACH_TASK_PARKED] = "P (parked)",
	[MACH_TASK_IDLE] = "I (idle)",
};

const char *mach_task_state_name(enum mach_task_state s)
{
	return (unsigned int)s < MACH_NR_TASK_STATES ? task_state_names[s] : "?";
}

char mach_task_state_letter(enum mach_task_state s)
{
	return mach_task_state_name(s)[0];
}

static const char *const ssb_names[MACH_NR_SSB] = {
	[MACH_SSB_UNKNOWN] = "unknown",
	[MACH_SSB_NOT_VULNERABLE] = "not vulnerable",
	[MACH_SSB_THREAD_FORCE_MITIGATED] = "thread force mitigated",
	[MACH_SSB_THREAD_MITIGATED] = "thread mitigated",
	[MACH_SSB_THREAD_VULNERABLE] = "thread vulnerable",
	[MACH_SSB_GLOBALLY_MITIGATED] = "globally mitigated",
	[MACH_SSB_VULNERABLE] = "vulnerable",
};

const char *mach_ssb_name(enum mach_spec_store_bypass v)
{
	return (unsigned int)v < MACH_NR_SSB ? ssb_names[v] : "unknown";
}

static const char *const sib_names[MACH_NR_SIB] = {
	[MACH_SIB_UNSUPPORTED] = "unsupported",
	[MACH_SIB_NOT_AFFECTED] = "not affected",
	[MACH_SIB_CONDITIONAL_FORCE_DISABLED] = "conditional force disabled",
	[MACH_SIB_CONDITIONAL_DISABLED] = "conditional disabled",
	[MACH_SIB_CONDITIONAL_ENABLED] = "conditional enabled",
	[MACH_SIB_ALWAYS_ENABLED] = "always enabled",
	[MACH_SIB_ALWAYS_DISABLED] = "always disabled",
	[MACH_SIB_UNKNOWN] = "unknown",
};

const char *mach_sib_name(enum mach_spec_indirect_branch v)
{
	return (unsigned int)v < MACH_NR_SIB ? sib_names[v] : "unknown";
}

static const char *const sd_level_names[MACH_NR_SD_LEVELS] = {
	[MACH_SD_SMT] = "SMT", [MACH_SD_CLS] = "CLS", [MACH_SD_MC] = "MC",
	[MACH_SD_PKG] = "PKG", [MACH_SD_NUMA] = "NUMA",
};

const char *mach_sd_level_name(enum mach_sd_level l)
{
	return (unsigned int)l < MACH_NR_SD_LEVELS ? sd_level_names[l] : "?";
}

static const char *const vma_kind_names[MACH_NR_VMA_KINDS] = {
	[MACH_VMA_HEAP] = "[heap]",
	[MACH_VMA_STACK] = "[stack]",
	[MACH_VMA_VDSO] = "[vdso]",
	[MACH_VMA_VVAR] = "[vvar]",
	[MACH_VMA_VVAR_VCLOCK] = "[vvar_vclock]",
	[MACH_VMA_VSYSCALL] = "[vsyscall]",
	[MACH_VMA_UPROBES] = "[uprobes]",
};

const char *mach_vma_kind_name(enum mach_vma_kind k)
{
	return (unsigned int)k < MACH_NR_VMA_KINDS ? vma_kind_names[k] : NULL;
}

const enum mach_lb_stat *mach_schedstat_lb_fields(unsigned int version, unsigned int *n)
{
	/* v17 ("sched: Report the different kinds of imbalances", 6.15) split lb_imbalance in four */
	static const enum mach_lb_stat v17[] = {
		MACH_LB_COUNT, MACH_LB_BALANCED, MACH_LB_FAILED, MACH_LB_IMBALANCE_LOAD,
		MACH_LB_IMBALANCE_UTIL, MACH_LB_IMBALANCE_TASK, MACH_LB_IMBALANCE_MISFIT,
		MACH_LB_GAINED, MACH_LB_HOT_GAINED, MACH_LB_NOBUSYQ, MACH_LB_NOBUSYG,
	};
	static const enum mach_lb_stat v15[] = {
		MACH_LB_COUNT, MACH_LB_BALANCED, MACH_LB_FAILED, MACH_LB_IMBALANCE,
		MACH_LB_GAINED, MACH_LB_HOT_GAINED, MACH_LB_NOBUSYQ, MACH_LB_NOBUSYG,
	};

	if (version >= 17) {
		*n = sizeof(v17) / sizeof(v17[0]);
		return v17;
	}
	*n = sizeof(v15) / sizeof(v15[0]);
	return v15;
}

const enum mach_idle_type *mach_schedstat_idle_order(unsigned int version)
{
	/* v16 (6.10) reordered enum cpu_idle_type: __CPU_NOT_IDLE before CPU_IDLE */
	static const enum mach_idle_type v16[] = { MACH_IDLE_BUSY, MACH_IDLE_IDLE, MACH_IDLE_NEWLY };
	static const enum mach_idle_type v15[] = { MACH_IDLE_IDLE, MACH_IDLE_BUSY, MACH_IDLE_NEWLY };

	return version >= 16 ? v16 : v15;
}

void mach_profile_default(struct mach_profile *p)
{
	static const enum mach_meminfo_id meminfo_618[] = {
		MACH_MEMINFO_MEMTOTAL, MACH_MEMINFO_MEMFREE, MACH_MEMINFO_MEMAVAILABLE,
		MACH_MEMINFO_BUFFERS, MACH_MEMINFO_CACHED, MACH_MEMINFO_SWAPCACHED,
		MACH_MEMINFO_ACTIVE, MACH_MEMINFO_INACTIVE, MACH_MEMINFO_ACTIVE_ANON,
		MACH_MEMINFO_INACTIVE_ANON, MACH_MEMINFO_ACTIVE_FILE, MACH_MEMINFO_INACTIVE_FILE,
		MACH_MEMINFO_UNEVICTABLE, MACH_MEMINFO_MLOCKED, MACH_MEMINFO_SWAPTOTAL,
		MACH_MEMINFO_SWAPFREE, MACH_MEMINFO_ZSWAP, MACH_MEMINFO_ZSWAPPED, MACH_MEMINFO_DIRTY,
		MACH_MEMINFO_WRITEBACK, MACH_MEMINFO_ANONPAGES, MACH_MEMINFO_MAPPED,
		MACH_MEMINFO_SHMEM, MACH_MEMINFO_KRECLAIMABLE, MACH_MEMINFO_SLAB,
		MACH_MEMINFO_SRECLAIMABLE, MACH_MEMINFO_SUNRECLAIM, MACH_MEMINFO_KERNELSTACK,
		MACH_MEMINFO_PAGETABLES, MACH_MEMINFO_SECPAGETABLES, MACH_MEMINFO_NFS_UNSTABLE,
		MACH_MEMINFO_BOUNCE, MACH_MEMINFO_WRITEBACKTMP, MACH_MEMINFO_COMMITLIMIT,
		MACH_MEMINFO_COMMITTED_AS, MACH_MEMINFO_VMALLOCTOTAL, MACH_MEMINFO_VMALLOCUSED,
		MACH_MEMINFO_VMALLOCCHUNK, MACH_MEMINFO_PERCPU, MACH_MEMINFO_ANONHUGEPAGES,
		MACH_MEMINFO_SHMEMHUGEPAGES, MACH_MEMINFO_SHMEMPMDMAPPED, MACH_MEMINFO_FILEHUGEPAGES,
		MACH_MEMINFO_FILEPMDMAPPED, MACH_MEMINFO_BALLOON, MACH_MEMINFO_HUGEPAGES_TOTAL,
		MACH_MEMINFO_HUGEPAGES_FREE, MACH_MEMINFO_HUGEPAGES_RSVD, MACH_MEMINFO_HUGEPAGES_SURP,
		MACH_MEMINFO_HUGEPAGESIZE, MACH_MEMINFO_HUGETLB, MACH_MEMINFO_DIRECTMAP4K,
		MACH_MEMINFO_DIRECTMAP2M,
	};

	memset(p, 0, sizeof(*p));
	p->kernel_major = 6;
	p->kernel_minor = 18;
	snprintf(p->kernel_release, sizeof(p->kernel_release), "%s", "6.18.0-uprocfs");
	p->status_umask = p->status_ngid = p->status_ns_lines = p->status_kthread = true;
	p->status_hugetlb = p->status_core_dumping = p->status_thp_enabled = true;
	p->status_untag_mask = p->status_seccomp = p->status_seccomp_filters = true;
	p->status_spec_ib = p->status_mems_allowed = true;
	p->status_x86_features = false;
	p->status_vmpin = p->status_rss = p->status_capamb = p->status_nnp = p->status_ssb = true;
	p->status_groups_space = true;
	p->status_vmpmd = false;
	p->stat_brk_fields = p->stat_arg_fields = true;
	p->stat_wchan_addr = false;
	p->stat_cpu_columns = MACH_NR_CPUTIME;
	p->stat_softirq = true;
	p->sig_hex_digits = 16;
	/* CONFIG_X86_MCE off, KVM built in, a KVM guest's HYP vector, no Hyper-V */
#define ROW(r) (1u << MACH_ARCH_IRQ_##r)
	p->arch_irq_rows = ROW(NMI) | ROW(LOC) | ROW(SPU) | ROW(PMI) | ROW(IWI) | ROW(RTR) | ROW(RES) | ROW(CAL) |
			   ROW(TLB) | ROW(TRM) | ROW(HYP) | ROW(ERR) | ROW(MIS) | ROW(PIN) | ROW(NPI) | ROW(PIW);
#undef ROW

	p->has_schedstat = true; /* synthetic machines have it; the loader clears it */
	p->schedstat_version = 17;
	p->nmeminfo = sizeof(meminfo_618) / sizeof(meminfo_618[0]);
	for (unsigned int i = 0; i < p->nmeminfo; i++)
		p->meminfo_order[i] = (uint16_t)meminfo_618[i];
	/* vmstat: every name of the vocabulary, which is this kernel's order */
	p->nvmstat = MACH_NR_VMSTAT;
	for (unsigned int i = 0; i < MACH_NR_VMSTAT; i++)
		p->vmstat_order[i] = (uint16_t)i;
	mach_sys_profile_default(&p->sys);
	mach_smaps_profile_default(&p->smaps);
}

/*
 * What every machine's /proc/sys shows, loaded or not: the kernel's name,
 * release and pid_max (top reads the release to know its fields).
 */
static int identity_keys(struct mach_machine *m)
{
	static const char *const derived[] = { "kernel/osrelease", "kernel/pid_max" };
	uint32_t id;
	int rc;

	m->sysctl = mach_sysctl_new();
	if (!m->sysctl)
		return -ENOMEM;
	if ((rc = mach_sysctl_make(m->sysctl, "kernel/ostype", false, &id)) ||
	    (rc = mach_sysctl_set_string(m->sysctl, id, "Linux", 5)))
		return rc;
	m->sysctl->nodes[id].mode = 0444;
	for (size_t i = 0; i < sizeof(derived) / sizeof(derived[0]); i++) {
		if ((rc = mach_sysctl_make(m->sysctl, derived[i], false, &id)))
			return rc;
		m->sysctl->nodes[id].src = (uint8_t)mach_sysctl_src_of(derived[i]);
		m->sysctl->nodes[id].mode = i ? 0644 : 0444;
	}
	return 0;
}

struct mach_machine *mach_new(void)
{
	struct mach_machine *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	mach_profile_default(&m->profile);
	mach_sys_init(&m->sys);
	mach_sysfs_init(&m->sysfs);
	mach_platform_init(&m->platform);
	m->max_numnodes = MACH_MAX_NUMNODES_DEFAULT;
	m->pid_max = 4194304;
	snprintf(m->cpu_model, sizeof(m->cpu_model), "%s", "AMD EPYC 9B14");
	m->cpu_khz = 2600000;
	if (identity_keys(m)) {
		mach_free(m);
		return NULL;
	}
	return m;
}

void mach_irq_clear(struct mach_irq *irq)
{
	free(irq->per_cpu);
	free(irq->chip);
	free(irq->flow);
	free(irq->actions);
	irq->per_cpu = NULL;
	irq->chip = irq->flow = irq->actions = NULL;
}

int mach_bitmap_alloc(struct mach_bitmap *b, unsigned int nbits)
{
	size_t words = (nbits + 63) / 64;

	b->words = calloc(words ? words : 1, sizeof(uint64_t));
	b->nbits = b->words ? nbits : 0;
	b->borrowed = false;
	return b->words ? 0 : -ENOMEM;
}

void mach_bitmap_free(struct mach_bitmap *b)
{
	if (!b->borrowed)
		free(b->words);
	b->words = NULL;
	b->nbits = 0;
	b->borrowed = false;
}

int mach_bitmap_own(struct mach_bitmap *b)
{
	size_t words = (b->nbits + 63) / 64;
	uint64_t *own;

	if (!b->borrowed)
		return 0;
	own = malloc((words ? words : 1) * sizeof(*own));
	if (!own)
		return -ENOMEM;
	memcpy(own, b->words, words * sizeof(*own));
	b->words = own;
	b->borrowed = false;
	return 0;
}

void mach_bitmap_set(struct mach_bitmap *b, unsigned int bit)
{
	if (bit < b->nbits)
		b->words[bit / 64] |= UINT64_C(1) << (bit % 64);
}

bool mach_bitmap_test(const struct mach_bitmap *b, unsigned int bit)
{
	return bit < b->nbits && (b->words[bit / 64] >> (bit % 64)) & 1;
}

/* Serials of mms, fd tables and made mount tables: one counter, so no two of any kind share one. */
uint64_t mach_new_serial(void)
{
	static uint64_t last_serial;

	return __atomic_add_fetch(&last_serial, 1, __ATOMIC_RELAXED);
}

struct mach_mm *mach_mm_new(void)
{
	struct mach_mm *mm = calloc(1, sizeof(*mm));

	if (mm)
		mm->serial = mach_new_serial();
	return mm;
}

struct mach_files *mach_files_new(void)
{
	struct mach_files *f = calloc(1, sizeof(*f));

	if (f)
		f->serial = mach_new_serial();
	return f;
}

void mach_mm_free(struct mach_mm *mm)
{
	if (!mm)
		return;
	if (mm->vmas)
		mach_vmas_free(mm->vmas, mm->nvmas);
	if (!mm->strings_interned) {
		free(mm->cmdline);
		free(mm->environ);
		free(mm->exe);
	}
	free(mm);
}

void mach_fd_clear(struct mach_fd *f)
{
	if (!f->name_interned)
		free(f->name);
	f->name_interned = false;
	if (f->info) {
		free(f->info->epoll);
		free(f->info->marks);
		free(f->info->locks);
		free(f->info);
	}
	f->name = NULL;
	f->info = NULL;
}

const struct mach_fd_info *mach_fd_info(const struct mach_fd *f)
{
	static const struct mach_fd_info none;

	return f->info ? f->info : &none;
}

struct mach_fd_info *mach_fd_info_mut(struct mach_fd *f)
{
	if (!f->info)
		f->info = calloc(1, sizeof(*f->info));
	return f->info;
}

int mach_fd_add_lock(struct mach_fd *f, const struct mach_file_lock *l)
{
	struct mach_fd_info *in = mach_fd_info_mut(f);
	struct mach_file_lock *more;

	if (!in || !(more = realloc(in->locks, (in->nlocks + 1) * sizeof(*more))))
		return -ENOMEM;
	in->locks = more;
	more[in->nlocks++] = *l;
	return 0;
}

void mach_files_drop_fds(struct mach_files *f)
{
	for (unsigned int i = 0; f->fds && i < f->nfds; i++)
		mach_fd_clear(&f->fds[i]);
	free(f->fds);
	f->fds = NULL;
}

void mach_files_free(struct mach_files *f)
{
	if (!f)
		return;
	mach_files_drop_fds(f);
	free(f);
}

void mach_fs_free(struct mach_fs *fs)
{
	if (!fs)
		return;
	if (!fs->interned) {
		free(fs->cwd);
		free(fs->root);
	}
	free(fs);
}

int mach_thread_ns_set(struct mach_thread *t, unsigned int levels, const pid_t ids[MACH_NR_NSIDS][MACH_NS_LEVELS_MAX])
{
	pid_t *v = NULL;

	_Static_assert(MACH_NR_NSIDS <= sizeof(t->ns_ids.one) / sizeof(t->ns_ids.one[0]), "one level fits in the thread");
	if (levels > MACH_NS_LEVELS_MAX)
		return -EINVAL;
	if (levels > 1 && !(v = malloc(MACH_NR_NSIDS * levels * sizeof(*v))))
		return -ENOMEM;
	for (unsigned int k = 0; v && k < MACH_NR_NSIDS; k++)
		memcpy(v + k * levels, ids[k], levels * sizeof(*v));
	if (t->ns_levels > 1)
		free(t->ns_ids.many);
	memset(&t->ns_ids, 0, sizeof(t->ns_ids));
	if (v)
		t->ns_ids.many = v;
	for (unsigned int k = 0; levels == 1 && k < MACH_NR_NSIDS; k++)
		t->ns_ids.one[k] = ids[k][0];
	t->ns_levels = (uint8_t)levels;
	return 0;
}

int mach_thread_set_comm(struct mach_thread *t, const char *name, size_t len)
{
	char *own = NULL;

	if (len >= MACH_COMM_MAX)
		return -EINVAL;
	if (name && !(own = malloc(len + 1)))
		return -ENOMEM;
	if (own) {
		memcpy(own, name, len);
		own[len] = '\0';
	}
	if (t->comm_owned)
		free((char *)t->comm);
	t->comm = own;
	t->comm_owned = own != NULL;
	return 0;
}

void mach_thread_clear(struct mach_thread *t)
{
	/* neither fails when it drops: no allocation */
	mach_thread_set_comm(t, NULL, 0);
	mach_thread_ns_set(t, 0, NULL);
	mach_fs_free(t->fs);
	t->fs = NULL;
	if (t->cred && !t->cred_interned) {
		free(t->cred->groups);
		free(t->cred);
	}
	t->cred = NULL;
	t->cred_interned = false;
	free(t->children);
	t->children = NULL;
	free(t->rare);
	t->rare = NULL;
	mach_bitmap_free(&t->cpus_allowed);
	mach_bitmap_free(&t->mems_allowed);
}

/* What a thread without a block of rare attributes has: all zero (the struct has no padding to compare). */
static const struct mach_thread_rare no_rare;
_Static_assert(sizeof(struct mach_thread_rare) == 2 * sizeof(uint64_t) + 5 * sizeof(uint64_t) + 2 * sizeof(int),
	       "struct mach_thread_rare has no padding");

const struct mach_thread_rare *mach_thread_rare(const struct mach_thread *t)
{
	return t->rare ? t->rare : &no_rare;
}

int mach_thread_rare_set(struct mach_thread *t, const struct mach_thread_rare *r)
{
	if (!memcmp(r, &no_rare, sizeof(no_rare))) {
		free(t->rare);
		t->rare = NULL;
		return 0;
	}
	if (!t->rare && !(t->rare = malloc(sizeof(*t->rare))))
		return -ENOMEM;
	if (r != t->rare)
		*t->rare = *r;
	return 0;
}

const struct mach_cred *mach_thread_cred(const struct mach_thread *t)
{
	static const struct mach_cred none;

	return t->cred ? t->cred : &none;
}

struct mach_cred *mach_thread_cred_mut(struct mach_thread *t)
{
	struct mach_cred *own;

	if (t->cred && !t->cred_interned)
		return t->cred;
	if (!(own = calloc(1, sizeof(*own))))
		return NULL;
	if (t->cred) {
		*own = *t->cred;
		own->groups = NULL;
		own->ngroups = 0;
		if (mach_cred_set_groups(own, t->cred->groups, t->cred->ngroups)) {
			free(own);
			return NULL;
		}
	}
	t->cred = own;
	t->cred_interned = false;
	return own;
}

int mach_cred_set_groups(struct mach_cred *own, const uint32_t *groups, unsigned int n)
{
	uint32_t *g = NULL;

	if (n && !(g = malloc(n * sizeof(*g))))
		return -ENOMEM;
	if (n)
		memcpy(g, groups, n * sizeof(*g));
	free(own->groups);
	own->groups = g;
	own->ngroups = n;
	return 0;
}

const struct mach_rlimit *mach_process_rlim(const struct mach_process *p)
{
	static const struct mach_rlimit none[MACH_RLIM_NLIMITS];

	return p->rlim ? p->rlim : none;
}

struct mach_rlimit *mach_process_rlim_mut(struct mach_process *p)
{
	struct mach_rlimit *own;

	if (p->rlim && !p->rlim_interned)
		return p->rlim;
	if (!(own = calloc(MACH_RLIM_NLIMITS, sizeof(*own))))
		return NULL;
	if (p->rlim)
		memcpy(own, p->rlim, MACH_RLIM_NLIMITS * sizeof(*own));
	p->rlim = own;
	p->rlim_interned = false;
	return own;
}

void mach_process_clear(struct mach_process *p)
{
	/* a half-built process (its builder failed) may count threads it never allocated */
	for (unsigned int i = 0; p->threads && i < p->nthreads; i++)
		mach_thread_clear(&p->threads[i]);
	free(p->threads);
	mach_mm_free(p->mm);
	mach_files_free(p->files);
	mach_fs_free(p->fs);
	free(p->dead_io);
	p->dead_io = NULL;
	if (!p->rlim_interned)
		free(p->rlim);
	p->rlim = NULL;
	p->rlim_interned = false;
	p->threads = NULL;
	p->nthreads = 0;
	p->mm = NULL;
	p->files = NULL;
	p->fs = NULL;
}

/* The namespace, control group and mount tables (mach_ns.h). */
static void free_ns_tables(struct mach_machine *m)
{
	for (size_t i = 0; m->mnt_tables && i < m->nmnt_tables; i++)
		mach_mnt_table_clear(&m->mnt_tables[i]);
	free(m->mnt_tables);
	for (size_t i = 0; m->cgroups && i < m->ncgroups; i++) {
		free(m->cgroups[i].name);
		mach_cg_state_free(m->cgroups[i].st);
	}
	free(m->cgroups);
	for (size_t i = 0; m->cg_roots && i < m->ncg_roots; i++)
		free(m->cg_roots[i].name);
	free(m->cg_roots);
	free(m->css_sets);
	free(m->nssets);
}

void mach_free(struct mach_machine *m)
{
	if (!m)
		return;
	/* a half-built machine may count CPUs and IRQs whose arrays never came */
	for (unsigned int i = 0; m->cpus && i < m->ncpus; i++) {
		struct mach_cpu_schedstat *s = &m->cpus[i].sched;
		for (unsigned int d = 0; d < s->ndomains; d++)
			mach_bitmap_free(&s->domains[d].span);
		free(s->domains);
	}
	free(m->cpus);
	for (unsigned int i = 0; m->irqs && i < m->nirqs; i++)
		mach_irq_clear(&m->irqs[i]);
	free(m->irqs);
	for (size_t i = 0; m->procs && i < m->nprocs; i++)
		mach_process_clear(&m->procs[i]);
	free(m->procs);
	free(m->shared_masks);
	for (struct mach_str_block *b = m->interned, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	if (m->maker && mach_maker_ops(m->maker))
		mach_maker_ops(m->maker)->release(m->maker);
	mach_sysctl_free(m->sysctl);
	free_ns_tables(m);
	mach_sys_clear(&m->sys);
	mach_platform_clear(&m->platform);
	for (size_t i = 0; m->ksyms && i < m->nksyms; i++) {
		free(m->ksyms[i].name);
		free(m->ksyms[i].module);
	}
	free(m->ksyms);
	for (size_t i = 0; m->kstacks && i < m->nkstacks; i++)
		free(m->kstacks[i].frames);
	free(m->kstacks);
	for (unsigned int i = 0; m->nets && i < m->nnets; i++)
		mach_net_clear(&m->nets[i]);
	free(m->nets);
	free(m->accounts.users);
	free(m->accounts.groups);
	free(m);
}

const struct mach_account *mach_account_find(const struct mach_account *list, size_t n, uint32_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (list[mid].id == id)
			return &list[mid];
		if (list[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct mach_process *mach_find_process(const struct mach_machine *m, pid_t tgid)
{
	size_t lo = 0, hi = m->nprocs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->procs[mid].tgid < tgid)
			lo = mid + 1;
		else if (m->procs[mid].tgid > tgid)
			hi = mid;
		else
			return &m->procs[mid];
	}
	return NULL;
}

const struct mach_thread *mach_find_thread(const struct mach_process *p, pid_t tid)
{
	for (unsigned int i = 0; i < p->nthreads; i++)
		if (p->threads[i].tid == tid)
			return &p->threads[i];
	return NULL;
}

const struct mach_thread *mach_find_any_thread(const struct mach_machine *m, pid_t tid,
					       const struct mach_process **proc)
{
	const struct mach_process *p = mach_find_process(m, tid);
	const struct mach_thread *t;

	/* Most tids are process ids; threads of other processes need a scan. */
	if (p && (t = mach_find_thread(p, tid))) {
		if (proc)
			*proc = p;
		return t;
	}
	for (size_t i = 0; i < m->nprocs; i++) {
		t = mach_find_thread(&m->procs[i], tid);
		if (t) {
			if (proc)
				*proc = &m->procs[i];
			return t;
		}
	}
	return NULL;
}
