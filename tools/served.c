// SPDX-License-Identifier: MIT
/*
 * served.c - the machine behind `uprocfs mount` and `uprocfs run`.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "served.h"
#include "spec.h"
#include "uprocfs/sim.h"

/* The machine's clock follows CLOCK_BOOTTIME from the moment it is served. */
static int follow_boottime(void *ctx, struct mach_machine *m, uint64_t now_ns)
{
	struct served *s = ctx;

	(void)m;
	return mach_sim_advance(s->sim, s->model_base_ns + (now_ns - s->boot_base_ns));
}

int served_open(struct served *s, const char *spec, char *err, size_t errlen)
{
	struct mach_sim_opts so;
	int rc;

	memset(s, 0, sizeof(*s));
	s->live_proc_fd = -1;
	if (spec && !strcmp(spec, "live")) {
		/* live: every open reads the kernel's file and renders it again */
		s->live_proc_fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (s->live_proc_fd < 0) {
			snprintf(err, errlen, "/proc: %s", strerror(errno));
			return -errno;
		}
		return 0;
	}
	rc = mach_from_spec(spec, &s->mach, err, errlen);
	if (!rc)
		rc = mach_sim_opts_from_spec(spec, &so, err, errlen);
	if (!rc)
		rc = mach_sim_create(s->mach, &so, &s->sim, err, errlen);
	if (rc) {
		mach_free(s->mach);
		s->mach = NULL;
		return rc;
	}
	/*
	 * A synthetic machine is served now: its boot was uptime ago on the wall
	 * clock.  A capture keeps its own boot time, so that it shows the
	 * machine as it was when taken (processes' start times, ages and the
	 * uptime as captured).
	 */
	if (!spec || strncmp(spec, "tree:", 5) || !s->mach->btime)
		s->mach->btime = (uint64_t)time(NULL) - s->mach->uptime_ns / 1000000000u;
	s->model_base_ns = s->mach->uptime_ns;
	s->boot_base_ns = psi_clock_boottime(NULL, -1);
	return 0;
}

int served_source(struct served *s, int reader_proc_fd, pid_t mirror_from, struct pfs_source **out)
{
	struct pfs_model_opts o = { .advance = s->stop_clock ? NULL : follow_boottime, .advance_ctx = s,
				    .reader_proc_fd = reader_proc_fd, .mirror_from = mirror_from };

	if (s->live_proc_fd >= 0)
		return pfs_live_source_new(s->live_proc_fd, out);
	return pfs_model_source_new(s->mach, &o, out);
}

void served_close(struct served *s)
{
	if (s->live_proc_fd >= 0)
		close(s->live_proc_fd);
	mach_sim_destroy(s->sim);
	mach_free(s->mach);
	memset(s, 0, sizeof(*s));
	s->live_proc_fd = -1;
}
