// SPDX-License-Identifier: MIT
/*
 * vocab.c - name tables of the meminfo and vmstat vocabularies (mach_vocab.h).
 */
#include "uprocfs/machine.h"

#define MEMINFO_FORMAT(id, label, width, kb) [MACH_##id] = { label, width, kb },
const struct mach_meminfo_format mach_meminfo_formats[MACH_NR_MEMINFO] = {
	MACH_MEMINFO_FIELDS(MEMINFO_FORMAT)
};

#define VMSTAT_NAME(id, name) [MACH_##id] = name,
const char *const mach_vmstat_names[MACH_NR_VMSTAT] = {
	MACH_VMSTAT_FIELDS(VMSTAT_NAME)
};
