// SPDX-License-Identifier: MIT
/* load.c - placeholder until the /proc tree loader lands. */
#include <errno.h>
#include <stdio.h>

#include "uprocfs/load.h"

int mach_load_tree(const char *dir, const struct mach_load_opts *opts, struct machine **out,
		   struct mach_load_report *report, char *err, size_t errlen)
{
	(void)opts; (void)out; (void)report;
	snprintf(err, errlen, "%s: the loader is not built yet", dir);
	return -ENOSYS;
}

void mach_load_report_free(struct mach_load_report *report)
{
	(void)report;
}
