// SPDX-License-Identifier: MIT
/*
 * fuzz_parsers.c - libFuzzer target: every file parser of the loader.  The
 * first byte picks the loader kind (enum mach_ld_kind, modulo the kinds the
 * file table loads: /proc/net, smaps, fdinfo, mountinfo, cgroup, sysctl,
 * diskstats, ...), the rest is the text of one such file.  For the /proc/sys
 * tree the text's first line is the key.  Any text must be loaded or refused
 * with a message naming its place, never crash or leak.  A machine-wide file
 * that loads must render back to its bytes when it belongs to no group
 * (mach_ld_group: diskstats needs partitions' sizes, softirqs stat's
 * CPUs); groups and per-task files (which need their status and stat) are
 * checked whole by fuzz_tree.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_paths.h"
#include "uprocfs/load.h"
#include "uprocfs/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A sysctl key: the text's first line, the value after it. */
static int load_sysctl(struct mach_loader *ld, const char *text, size_t len, char *err, size_t errlen)
{
	const char *nl = memchr(text, '\n', len), *skip = NULL;
	char key[256];
	size_t klen = nl ? (size_t)(nl - text) : len;

	if (klen >= sizeof(key))
		return 0;
	memcpy(key, text, klen);
	key[klen] = '\0';
	if (memchr(key, '\0', klen))
		return 0; /* a key is a path: no NUL in a name */
	text += nl ? klen + 1 : len;
	len -= nl ? klen + 1 : len;
	/* an odd length reads as a failed read (an unset key), a write-only mode now and then */
	return mach_loader_sysctl(ld, key, (len % 7) == 3 ? 0200 : 0644, (len % 5) == 4 ? -EIO : 0, text, len, &skip,
				  err, errlen);
}

/* Whether @kind is read alone: no group (mach_ld_group) with another file, whose data it would need. */
static bool alone(enum mach_ld_kind kind)
{
	if (mach_ld_group(kind) != kind)
		return false;
	for (int k = MACH_LD_NONE + 1; k < MACH_LD_NR_KINDS; k++)
		if (k != (int)kind && mach_ld_group((enum mach_ld_kind)k) == kind)
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data + 1;
	size_t len = size ? size - 1 : 0, olen = 0;
	enum mach_ld_kind kind;
	struct mach_machine *m;
	struct mach_loader *ld;
	struct pfs_node n;
	struct pfs_ctx c;
	char err[512] = "", path[128], *out = NULL;
	int rc;

	if (!size || !(kind = fz_kind_of_byte(data[0])))
		return 0;
	m = mach_new();
	ld = m ? mach_loader_new(m) : NULL;
	if (!ld) {
		mach_free(m);
		return 0;
	}
	if (mach_ld_kind_tree(kind)) {
		rc = load_sysctl(ld, text, len, err, sizeof(err));
		snprintf(path, sizeof(path), "sys");
	} else {
		fz_path_of_kind(kind, path, sizeof(path));
		rc = pfs_load_text(ld, path, text, len, err, sizeof(err));
	}
	if (!rc)
		rc = mach_loader_finish(ld, err, sizeof(err));
	if (rc && rc != -ENOMEM && !strchr(err, ':')) {
		fprintf(stderr, "%s refused without a place: \"%s\"\n", path, err);
		abort();
	}
	if (!rc && !mach_ld_kind_per_task(kind) && !mach_ld_kind_tree(kind) && alone(kind) &&
	    !pfs_resolve(m, path, &n, &c, err, sizeof(err)) && !pfs_render(&n, &c, &out, &olen) &&
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
