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
static int follow_boottime(void *ctx, struct machine *m, uint64_t now_ns)
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
	s->src.live_proc_fd = -1;
	if (spec && !strcmp(spec, "live")) {
		/* live: every open reads the kernel's file and renders it again */
		s->src.live_proc_fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (s->src.live_proc_fd < 0) {
			snprintf(err, errlen, "/proc: %s", strerror(errno));
			return -errno;
		}
		s->mach = mach_new();
		if (!s->mach) {
			close(s->src.live_proc_fd);
			return -ENOMEM;
		}
		s->src.mach = s->mach;
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
	/* served now: its boot was uptime ago on the wall clock */
	s->mach->btime = (uint64_t)time(NULL) - s->mach->uptime_ns / 1000000000u;
	s->src.mach = s->mach;
	s->src.advance = follow_boottime;
	s->src.advance_ctx = s;
	s->model_base_ns = s->mach->uptime_ns;
	s->boot_base_ns = psi_clock_boottime(NULL, -1);
	return 0;
}

void served_close(struct served *s)
{
	if (s->src.live_proc_fd >= 0)
		close(s->src.live_proc_fd);
	mach_sim_destroy(s->sim);
	mach_free(s->mach);
	memset(s, 0, sizeof(*s));
	s->src.live_proc_fd = -1;
}
