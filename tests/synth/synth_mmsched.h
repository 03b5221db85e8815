/* SPDX-License-Identifier: MIT */
/*
 * synth_mmsched.h - test_synth's checks of smaps, smaps_rollup, schedstat,
 * wchan, stack, syscall and children (synth_mmsched.c): the files as
 * rendered must agree with status, statm and stat, and with each other.
 */
#ifndef UPROCFS_TEST_SYNTH_MMSCHED_H
#define UPROCFS_TEST_SYNTH_MMSCHED_H

#include "uprocfs/machine.h"

enum mms_prop { MMS_SMAPS, MMS_SCHED, MMS_WAITS, MMS_CHILDREN, MMS_NR };

/** Record one check of @prop: false with a message is a violation. */
typedef void (*mms_check_fn)(enum mms_prop prop, int cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

extern const char *const mms_prop_names[MMS_NR];

/** Check every process of @m (its memory files when @memory, the rest always). */
void mms_check_machine(const struct mach_machine *m, bool memory, mms_check_fn check);

#endif
