// SPDX-License-Identifier: MIT
/*
 * spec.c - `--machine SPEC`: choose how a model is built (spec.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "capture_read.h"
#include "spec.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

int mach_from_spec(const char *spec, struct mach_machine **out, char *err, size_t errlen)
{
	*out = NULL;
	if (!spec || !*spec)
		spec = "synth";
	if (!strcmp(spec, "synth") || !strncmp(spec, "synth:", 6)) {
		struct mach_synth_opts o;
		int rc;

		mach_synth_defaults(&o);
		if (spec[5] == ':') {
			rc = mach_synth_parse(&o, spec + 6, err, errlen);
			if (rc)
				return rc;
		}
		return mach_synth_build(&o, out, err, errlen);
	}
	if (!strncmp(spec, "tree:", 5)) {
		if (!spec[5]) {
			snprintf(err, errlen, "--machine tree: needs a capture (tree:DIR or tree:FILE.tar.zst)");
			return -EINVAL;
		}
		return capture_load(spec + 5, NULL, out, NULL, err, errlen);
	}
	if (!strcmp(spec, "live")) {
		struct mach_load_opts o = { .sys_dir = "/sys" }; /* /sys beside /proc */

		return pfs_load_tree("/proc", &o, out, NULL, err, errlen);
	}
	snprintf(err, errlen,
		 "--machine \"%s\": expected synth[:key=value,...], tree:DIR, tree:ARCHIVE or live", spec);
	return -EINVAL;
}

int mach_sim_opts_from_spec(const char *spec, struct mach_sim_opts *o, char *err, size_t errlen)
{
	struct mach_synth_opts so;
	int rc;

	mach_sim_defaults(o);
	if (!spec || strncmp(spec, "synth:", 6))
		return 0;
	/* The synth keys that shape the workload are the simulator's too. */
	mach_synth_defaults(&so);
	rc = mach_synth_parse(&so, spec + 6, err, errlen);
	if (rc)
		return rc;
	o->depth = so.depth;
	o->load = so.load;
	o->io = so.io;
	o->mem = so.mem;
	o->seed = so.seed;
	return 0;
}
