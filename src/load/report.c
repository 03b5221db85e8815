// SPDX-License-Identifier: MIT
/* report.c - the list of files a tree walk read, with their text or why not (load.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"
#include "uprocfs/load.h"

int ld_report_add(struct ld_report *r, const char *path, enum mach_load_status status,
		  const char *reason, const char *text, size_t len)
{
	struct mach_load_file *f = VEC_PUSH(r->files, r->n, r->cap);

	if (!f)
		return -ENOMEM;
	f->status = status;
	f->path = strdup(path);
	if (reason)
		f->reason = strdup(reason);
	if (status == MACH_LOAD_OK) {
		f->text = malloc(len + 1);
		if (f->text) {
			memcpy(f->text, text, len);
			f->text[len] = '\0';
			f->len = len;
		}
	}
	if (!f->path || (reason && !f->reason) || (status == MACH_LOAD_OK && !f->text))
		return -ENOMEM;
	return 0;
}

void mach_load_report_free(struct mach_load_report *report)
{
	if (!report)
		return;
	for (size_t i = 0; i < report->nfiles; i++) {
		free(report->files[i].path);
		free(report->files[i].reason);
		free(report->files[i].text);
	}
	free(report->files);
	report->files = NULL;
	report->nfiles = 0;
}
