// SPDX-License-Identifier: MIT
/*
 * verify.c - a loaded model rendered back and compared with the text it was
 * loaded from, byte for byte: what `uprocfs verify` and the round-trip tests
 * all do.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uprocfs/procfs.h"

/* A symlink's target into a malloc'd buffer, as the loader keeps a symlink's text. */
static int read_link(const struct pfs_node *n, const struct pfs_ctx *ctx, char **text, size_t *len)
{
	char target[4096];
	int rc = n->entry->readlink(ctx, target, sizeof(target));

	if (rc)
		return rc;
	*len = strlen(target);
	*text = strdup(target);
	return *text ? 0 : -ENOMEM;
}

int pfs_verify(const struct mach_machine *mach, const struct mach_load_report *report,
	       void (*each)(void *arg, const struct pfs_verify_file *f), void *arg,
	       struct pfs_verify_counts *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < report->nfiles; i++) {
		struct pfs_verify_file v = { .loaded = &report->files[i] };
		char *text = NULL, err[256] = "";
		struct pfs_node n;
		struct pfs_ctx ctx;
		int rc;

		if (v.loaded->status != MACH_LOAD_OK) {
			v.verdict = PFS_SKIPPED;
			out->skipped++;
		} else {
			rc = pfs_resolve(mach, v.loaded->path, &n, &ctx, err, sizeof(err));
			if (!rc && n.entry->kind == PFS_LINK)
				rc = read_link(&n, &ctx, &text, &v.len);
			else if (!rc)
				rc = pfs_render(&n, &ctx, &text, &v.len);
			if (rc == -ENOMEM)
				return rc;
			v.text = text;
			v.why = rc ? (rc == -ENOENT && err[0] ? err : strerror(-rc)) : NULL;
			if (rc == -ENOENT && pfs_node_lacks_input(&n, &ctx)) {
				/* it renders from a file the tree lacks or that was skipped: nothing to compare */
				v.why = "renders from a file the tree lacks or that was skipped";
				v.verdict = PFS_SKIPPED;
				out->skipped++;
			} else if (!rc && v.len == v.loaded->len && !memcmp(text, v.loaded->text, v.len)) {
				v.verdict = PFS_IDENTICAL;
				out->identical++;
			} else {
				v.verdict = PFS_DIFFERS;
				out->differ++;
			}
		}
		if (each)
			each(arg, &v);
		free(text);
	}
	return 0;
}
