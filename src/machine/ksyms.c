// SPDX-License-Identifier: MIT
/*
 * ksyms.c - the machine's tables of kernel functions and kernel stacks that
 * tasks wait in, and the names of the vm_flags bits.
 *
 * Both tables start with an entry 0 meaning "none", so a task's wchan_sym
 * and kstack of 0 need no table at all.  Interning searches linearly: a
 * machine has a few hundred distinct functions and stacks, and the loader
 * interns once per thread.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uprocfs/machine.h"

/*
 * The mnemonics of fs/proc/task_mmu.c show_smap_vma_flags, Linux 6.18 x86_64:
 * "sd" too, which kernels built with CONFIG_MEM_SOFT_DIRTY print (most
 * distributions'; not the reference VM's, which never sets the bit), and "dw",
 * which kernels before 5.15 printed at a bit 6.18 leaves unused.
 */
static const char *const vm_flag_names[MACH_NR_VM_BITS] = {
	[MACH_VMB_READ] = "rd", [MACH_VMB_WRITE] = "wr", [MACH_VMB_EXEC] = "ex",
	[MACH_VMB_SHARED] = "sh", [MACH_VMB_MAYREAD] = "mr", [MACH_VMB_MAYWRITE] = "mw",
	[MACH_VMB_MAYEXEC] = "me", [MACH_VMB_MAYSHARE] = "ms", [MACH_VMB_GROWSDOWN] = "gd",
	[MACH_VMB_UFFD_MISSING] = "um", [MACH_VMB_PFNMAP] = "pf", [MACH_VMB_DENYWRITE] = "dw",
	[MACH_VMB_UFFD_WP] = "uw",
	[MACH_VMB_LOCKED] = "lo", [MACH_VMB_IO] = "io", [MACH_VMB_SEQ_READ] = "sr",
	[MACH_VMB_RAND_READ] = "rr", [MACH_VMB_DONTCOPY] = "dc", [MACH_VMB_DONTEXPAND] = "de",
	[MACH_VMB_LOCKONFAULT] = "lf", [MACH_VMB_ACCOUNT] = "ac", [MACH_VMB_NORESERVE] = "nr",
	[MACH_VMB_HUGETLB] = "ht", [MACH_VMB_SYNC] = "sf", [MACH_VMB_ARCH_1] = "ar",
	[MACH_VMB_WIPEONFORK] = "wf", [MACH_VMB_DONTDUMP] = "dd", [MACH_VMB_SOFTDIRTY] = "sd",
	[MACH_VMB_MIXEDMAP] = "mm",
	[MACH_VMB_HUGEPAGE] = "hg", [MACH_VMB_NOHUGEPAGE] = "nh", [MACH_VMB_MERGEABLE] = "mg",
	[MACH_VMB_PKEY_BIT0] = "", [MACH_VMB_PKEY_BIT0 + 1] = "", [MACH_VMB_PKEY_BIT0 + 2] = "",
	[MACH_VMB_PKEY_BIT0 + 3] = "", [MACH_VMB_SHADOW_STACK] = "ss", [MACH_VMB_UFFD_MINOR] = "ui",
	[MACH_VMB_DROPPABLE] = "dp", [MACH_VMB_SEALED] = "sl",
};

const char *mach_vm_flag_name(unsigned int bit)
{
	return bit < MACH_NR_VM_BITS ? vm_flag_names[bit] : NULL;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Entry 0 of a table that has none yet: "none". */
static int ensure_none(void **arr, size_t *n, size_t elem)
{
	if (*n)
		return 0;
	*arr = calloc(1, elem);
	if (!*arr)
		return -ENOMEM;
	*n = 1;
	return 0;
}

/* Room for one more element; the array grows in powers of two. */
static int grow(void **arr, size_t n, size_t elem)
{
	void *bigger;

	if (n & (n - 1))
		return 0;
	bigger = realloc(*arr, 2 * n * elem);
	if (!bigger)
		return -ENOMEM;
	*arr = bigger;
	return 0;
}

int mach_ksym_intern(struct mach_machine *m, const char *name, size_t len, uint32_t size,
		     const char *module, uint32_t *id)
{
	struct mach_ksym *k;
	int rc = ensure_none((void **)&m->ksyms, &m->nksyms, sizeof(*m->ksyms));

	if (rc)
		return rc;
	for (size_t i = 1; i < m->nksyms; i++) {
		k = &m->ksyms[i];
		if (k->size == size && strlen(k->name) == len && !memcmp(k->name, name, len) &&
		    same_str(k->module, module)) {
			*id = (uint32_t)i;
			return 0;
		}
	}
	if ((rc = grow((void **)&m->ksyms, m->nksyms, sizeof(*m->ksyms))))
		return rc;
	k = &m->ksyms[m->nksyms];
	*k = (struct mach_ksym){ .name = strndup(name, len), .size = size,
				 .module = module ? strdup(module) : NULL };
	if (!k->name || (module && !k->module)) {
		free(k->name);
		free(k->module);
		return -ENOMEM;
	}
	*id = (uint32_t)m->nksyms++;
	return 0;
}

int mach_kstack_intern(struct mach_machine *m, const struct mach_kframe *frames, unsigned int n,
		       uint32_t *id)
{
	struct mach_kstack *st;
	int rc;

	*id = 0;
	if (!n)
		return 0;
	if ((rc = ensure_none((void **)&m->kstacks, &m->nkstacks, sizeof(*m->kstacks))))
		return rc;
	for (size_t i = 1; i < m->nkstacks; i++) {
		st = &m->kstacks[i];
		if (st->nframes == n && !memcmp(st->frames, frames, n * sizeof(*frames))) {
			*id = (uint32_t)i;
			return 0;
		}
	}
	if ((rc = grow((void **)&m->kstacks, m->nkstacks, sizeof(*m->kstacks))))
		return rc;
	st = &m->kstacks[m->nkstacks];
	st->frames = malloc(n * sizeof(*frames));
	if (!st->frames)
		return -ENOMEM;
	memcpy(st->frames, frames, n * sizeof(*frames));
	st->nframes = n;
	*id = (uint32_t)m->nkstacks++;
	return 0;
}

const char *mach_ksym_name(const struct mach_machine *m, uint32_t id)
{
	return id && id < m->nksyms ? m->ksyms[id].name : NULL;
}
