// SPDX-License-Identifier: MIT
/*
 * served.c - the machine behind `uprocfs mount` and `uprocfs run`.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "served.h"

int served_open(struct served *s, const char *spec, char *err, size_t errlen)
{
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
	if (rc)
		return rc;
	s->src.mach = s->mach;
	return 0;
}

void served_close(struct served *s)
{
	if (s->src.live_proc_fd >= 0)
		close(s->src.live_proc_fd);
	mach_free(s->mach);
	memset(s, 0, sizeof(*s));
	s->src.live_proc_fd = -1;
}
