/* SPDX-License-Identifier: MIT */
/*
 * spec.h - `--machine SPEC`: which model the command line, the benchmarks
 * and the tests build.
 *
 *   synth[:key=value,...]   the seeded synthetic generator
 *   tree:PATH               a captured /proc tree: a directory (`uprocfs capture`, cp -r,
 *                           a sosreport), or an archive of one (capture_read.h)
 *   live                    this machine's /proc
 *
 * This is a front end's choice between the model's builders (the generator
 * of machine.h, the loader of load.h), so it lives with the front ends and
 * the model layer depends on neither the loader nor the renderers.
 */
#ifndef UPROCFS_TOOLS_SPEC_H
#define UPROCFS_TOOLS_SPEC_H

#include <stddef.h>

#include "uprocfs/machine.h"
#include "uprocfs/sim.h"

/**
 * Build the machine @spec names (NULL or "" is "synth").  On failure returns
 * -errno with a message in @err naming the place (a synth key, the tree's
 * file:line).
 */
int mach_from_spec(const char *spec, struct mach_machine **out, char *err, size_t errlen);

/**
 * The simulator options @spec implies: the synth keys depth, load, io, mem
 * and seed; the defaults for tree: and live.  -EINVAL naming a bad key.
 */
int mach_sim_opts_from_spec(const char *spec, struct mach_sim_opts *o, char *err, size_t errlen);

#endif
