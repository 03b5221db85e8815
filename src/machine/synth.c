// SPDX-License-Identifier: MIT
/* synth.c - placeholder until the synthetic generator lands. */
#include <errno.h>
#include <stdio.h>

#include "uprocfs/machine.h"

void mach_synth_defaults(struct mach_synth_opts *o)
{
	*o = (struct mach_synth_opts){ .cpus = 8, .tasks = 200, .threads = 50, .seed = 1,
				       .depth = 2, .load = 0.5, .io = 0.05, .mem = 0.02 };
}

int mach_synth_parse(struct mach_synth_opts *o, const char *spec, char *err, size_t errlen)
{
	(void)o; (void)spec;
	snprintf(err, errlen, "synth: not built yet");
	return -ENOSYS;
}

int mach_synth_build(const struct mach_synth_opts *o, struct machine **out, char *err, size_t errlen)
{
	(void)o; (void)out;
	snprintf(err, errlen, "synth: not built yet");
	return -ENOSYS;
}
