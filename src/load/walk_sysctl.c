// SPDX-License-Identifier: MIT
#include "walk.h"

int ld_walk_sysctl(struct walk *w, const struct mach_ld_name *g)
{
	(void)w;
	(void)g;
	return 0;
}
