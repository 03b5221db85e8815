// SPDX-License-Identifier: MIT
/*
 * load_registries.c - parse what the kernel has registered (Linux 6.18):
 * /proc/filesystems (filesystems_proc_show: "nodev" or nothing, a tab, the
 * name), /proc/cgroups (proc_cgroupstats_show: a header and tab-separated
 * controller lines), /proc/devices (devinfo_show: "%3d %s" char majors, a
 * blank line, block majors, each list ascending) and /proc/misc
 * (misc_seq_show: "%3i %s" in list order).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"

#define MAJOR_MAX 512 /* CHRDEV_MAJOR_MAX, BLKDEV_MAJOR_MAX */

int ld_parse_filesystems(struct lex *lx, struct mach_machine *m)
{
	struct mach_fstype *list = NULL, *f;
	size_t n = 0, cap = 0;
	int rc = 0;

	lex_ctx(lx, NULL);
	while (!lex_eof(lx) && !rc) {
		if (!(f = VEC_PUSH(list, n, cap))) {
			rc = -ENOMEM;
			break;
		}
		f->requires_dev = !lex_accept(lx, "nodev");
		if (!(rc = lex_expect(lx, "\t")) && !(rc = ld_rest_of_line(lx, f->name, sizeof(f->name), "a name")))
			rc = lex_eol(lx);
	}
	if (rc) {
		free(list);
		return rc;
	}
	free(m->sys.fstypes);
	m->sys.fstypes = list;
	m->sys.nfstypes = n;
	return 0;
}

static int cgroup_line(struct lex *lx, struct mach_cgroup_subsys *ss)
{
	int64_t h, n, en;
	int rc;

	lex_ctx(lx, NULL); /* the last line's name is in an element the list's growth may have moved */
	if ((rc = ld_word(lx, ss->name, sizeof(ss->name), "a controller name")))
		return rc;
	lex_ctx(lx, ss->name);
	/* "%s\t%d\t%d\t%d\n": the exact readers, no padding after a tab */
	if ((rc = lex_expect(lx, "\t")) || (rc = lex_s64_exact(lx, &h)) ||
	    (rc = lex_expect(lx, "\t")) || (rc = lex_s64_exact(lx, &n)) ||
	    (rc = lex_expect(lx, "\t")) || (rc = lex_s64_exact(lx, &en)) || (rc = lex_eol(lx)))
		return rc;
	if (h < INT32_MIN || h > INT32_MAX || n < INT32_MIN || n > INT32_MAX || en < 0 || en > 1)
		return lex_fail(lx, "hierarchy %lld, num_cgroups %lld or enabled %lld out of range", (long long)h,
				(long long)n, (long long)en);
	ss->hierarchy = (int)h;
	ss->num_cgroups = (int)n;
	ss->enabled = en;
	return 0;
}

int ld_parse_cgroups(struct lex *lx, struct mach_machine *m)
{
	struct mach_cgroup_subsys *list = NULL, *ss;
	size_t n = 0, cap = 0;
	int rc;

	lex_ctx(lx, NULL);
	rc = lex_expect(lx, "#subsys_name\thierarchy\tnum_cgroups\tenabled\n");
	while (!rc && !lex_eof(lx)) {
		if (!(ss = VEC_PUSH(list, n, cap)))
			rc = -ENOMEM;
		else
			rc = cgroup_line(lx, ss);
	}
	if (rc) {
		free(list);
		return rc;
	}
	free(m->sys.cgroup_subsys);
	m->sys.cgroup_subsys = list;
	m->sys.ncgroup_subsys = n;
	return 0;
}

/* "%3d NAME\n" lines up to a blank line or the end: majors ascending, below 512. */
static int major_lines(struct lex *lx, struct mach_devmajor **out, size_t *nout)
{
	struct mach_devmajor *list = NULL, *d;
	size_t n = 0, cap = 0;
	uint64_t major;
	int rc = 0;

	while (!rc && !lex_eof(lx) && !lex_peek(lx, '\n')) {
		if (!(d = VEC_PUSH(list, n, cap))) {
			rc = -ENOMEM;
			break;
		}
		lex_ctx(lx, "a major");
		/* "%3d %s\n": right-aligned to three columns, no other padding */
		if ((rc = lex_u64_width(lx, &major, 3)) || (major >= MAJOR_MAX &&
		    (rc = lex_fail(lx, "major %llu beyond %u", (unsigned long long)major, MAJOR_MAX - 1))) ||
		    (rc = lex_expect(lx, " ")) ||
		    (rc = ld_rest_of_line(lx, d->name, sizeof(d->name), "a driver name")) || (rc = lex_eol(lx)))
			break;
		d->major = (unsigned int)major;
		if (n > 1 && d->major < d[-1].major)
			rc = lex_fail(lx, "major %u after %u: the list is ascending", d->major, d[-1].major);
	}
	if (rc) {
		free(list);
		return rc;
	}
	*out = list;
	*nout = n;
	return 0;
}

int ld_parse_devices(struct lex *lx, struct mach_machine *m)
{
	struct mach_devmajor *chr = NULL, *blk = NULL;
	size_t nchr = 0, nblk = 0;
	int rc;

	lex_ctx(lx, NULL);
	if ((rc = lex_expect(lx, "Character devices:\n")) || (rc = major_lines(lx, &chr, &nchr)))
		return rc;
	lex_ctx(lx, NULL);
	if ((rc = lex_expect(lx, "\nBlock devices:\n")) || (rc = major_lines(lx, &blk, &nblk)) ||
	    (rc = lex_expect_eof(lx))) {
		free(chr);
		free(blk);
		return rc;
	}
	free(m->sys.chrdevs);
	free(m->sys.blkdevs);
	m->sys.chrdevs = chr;
	m->sys.nchrdevs = nchr;
	m->sys.blkdevs = blk;
	m->sys.nblkdevs = nblk;
	return 0;
}

int ld_parse_misc(struct lex *lx, struct mach_machine *m)
{
	struct mach_miscdev *list = NULL, *d;
	size_t n = 0, cap = 0;
	uint64_t minor = 0;
	int rc = 0;

	while (!rc && !lex_eof(lx)) {
		if (!(d = VEC_PUSH(list, n, cap))) {
			rc = -ENOMEM;
			break;
		}
		lex_ctx(lx, "a minor");
		if (!(rc = lex_u64_width_max(lx, &minor, 3, (1u << 20) - 1)) && !(rc = lex_expect(lx, " ")) && /* "%3i %s" */
		    !(rc = ld_rest_of_line(lx, d->name, sizeof(d->name), "a device name")))
			rc = lex_eol(lx);
		d->minor = (unsigned int)minor;
	}
	if (rc) {
		free(list);
		return rc;
	}
	free(m->sys.misc);
	m->sys.misc = list;
	m->sys.nmisc = n;
	return 0;
}
