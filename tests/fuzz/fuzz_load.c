// SPDX-License-Identifier: MIT
/*
 * fuzz_load.c - libFuzzer target: the loader's parsers of the files whose
 * formats differ between kernels (meminfo, vmstat, stat, schedstat,
 * pressure, a process's status and stat).  The first byte picks the file,
 * the rest is its text.  Any text must be loaded or refused with a message,
 * never crash; and a text that loads must render back to the same bytes:
 * the loader refuses what it cannot hold exactly, it never reads by value.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const paths[] = {
	"meminfo", "vmstat", "stat", "schedstat", "pressure/cpu", "pressure/irq", "42/status", "42/stat",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path, *text = (const char *)data + 1;
	size_t len = size ? size - 1 : 0;
	struct mach_machine *m;
	struct mach_loader *ld;
	struct pfs_node n;
	struct pfs_ctx c;
	char err[512], *out = NULL;
	size_t olen = 0;
	int rc;

	if (!size)
		return 0;
	path = paths[data[0] % (sizeof(paths) / sizeof(paths[0]))];
	m = mach_new();
	ld = m ? mach_loader_new(m) : NULL;
	if (!ld) {
		mach_free(m);
		return 0;
	}
	rc = pfs_load_text(ld, path, text, len, err, sizeof(err));
	if (!rc)
		rc = mach_loader_finish(ld, err, sizeof(err));
	if (rc && !strchr(err, ':') && rc != -ENOMEM) {
		fprintf(stderr, "%s refused without a place: \"%s\"\n", path, err);
		abort();
	}
	if (!rc && !pfs_resolve(m, path, &n, &c, err, sizeof(err)) && !pfs_render(&n, &c, &out, &olen) &&
	    (olen != len || memcmp(out, text, len))) {
		fprintf(stderr, "%s loaded but renders otherwise (%zu bytes in, %zu out):\n%.*s\n", path, len, olen,
			(int)(olen < 65536 ? olen : 65536), out);
		abort();
	}
	free(out);
	mach_loader_free(ld);
	mach_free(m);
	return 0;
}
