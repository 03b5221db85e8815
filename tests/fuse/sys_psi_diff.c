// SPDX-License-Identifier: MIT
/*
 * sys_psi_diff.c - a child cgroup's cpu, io and memory.pressure read
 * through a served /sys (the FUSE mount `uprocfs mount --sys` makes) equal
 * what the PSI engine prints for that group at the same served time.
 *
 * A synthetic machine is simulated to --at seconds (as `uprocfs render
 * --at` does), then served standing still: /sys is mounted from it in a
 * temporary directory and every group the simulator made a PSI group for
 * is read through the mount, byte for byte against the engine's own
 * snapshot of that group (psi_fill_pressure, printed as psi_show does).
 *
 * TAP.  usage: sys_psi_diff [SPEC [AT-SECONDS]]; needs root and /dev/fuse.
 * The mount is unmounted and the serving thread joined before exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine/sim_testing.h"
#include "../psi/psi_text.h"
#include "spec.h"
#include "tap.h"
#include "uprocfs/pfs_fuse.h"
#include "uprocfs/source.h"

static const struct {
	const char *file;
	enum psi_res res;
} files[] = { { "cpu", PSI_CPU }, { "io", PSI_IO }, { "memory", PSI_MEM } };

static void *serve(void *fs)
{
	pfs_fuse_loop(fs);
	return NULL;
}

/* The whole file at @path, NUL-terminated, into @buf; its length or -errno. */
static long read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	long n = 0, r;

	if (fd < 0)
		return -errno;
	while ((r = read(fd, buf + n, size - 1 - (size_t)n)) > 0)
		n += r;
	close(fd);
	if (r < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

/* Read every simulated group's pressure files under @mnt; the count of files equal to the engine's. */
static unsigned int compare(const struct mach_machine *m, struct mach_sim *sim, const char *mnt, unsigned int *nfiles,
			    unsigned int *busy)
{
	unsigned int same = 0;

	for (uint32_t g = 0; g < m->ncgroups; g++) {
		const struct psi_group *pg = mach_sim_cgroup_psi(sim, g);
		char rel[2048] = "", path[4200], got[1024], want[1024];

		if (!pg || m->cgroups[g].parent == MACH_NONE || m->cgroups[g].dead || mach_cg_path(m, g, rel, sizeof(rel)))
			continue;
		for (size_t r = 0; r < sizeof(files) / sizeof(files[0]); r++) {
			long n;

			snprintf(path, sizeof(path), "%s/fs/cgroup%s/%s/%s.pressure", mnt, mach_cg_hybrid(m) ? "/unified" : "",
				 rel, files[r].file);
			n = read_file(path, got, sizeof(got));
			psi_text(pg, files[r].res, want, sizeof(want));
			++*nfiles;
			*busy += n > 0 && !strstr(got, "total=0\n");
			if (n >= 0 && !strcmp(got, want)) {
				same++;
				continue;
			}
			diag("%s: %s", path, n < 0 ? strerror((int)-n) : got);
			diag("  the engine: %s", want);
		}
	}
	return same;
}

int main(int argc, char **argv)
{
	const char *spec = argc > 1 ? argv[1] : "synth:cpus=16,tasks=500,seed=7";
	double at = argc > 2 ? atof(argv[2]) : 20;
	struct pfs_model_opts mo = { .reader_proc_fd = -1 };
	struct pfs_fuse_opts fo = { .tree = PFS_SCOPE_SYS, .caller_proc_fd = -1, .mounted_fd = -1 };
	char mnt[] = "/tmp/uprocfs-syspsi.XXXXXX", err[512];
	struct mach_machine *m = NULL;
	struct mach_sim *sim = NULL;
	struct pfs_source *src = NULL;
	struct pfs_fuse *fs = NULL;
	struct mach_sim_opts so;
	unsigned int nfiles = 0, busy = 0, same;
	pthread_t loop;

	if (geteuid() != 0 || access("/dev/fuse", R_OK | W_OK)) {
		printf("1..0 # SKIP needs root and /dev/fuse\n");
		return 0;
	}
	plan(0);
	if (mach_from_spec(spec, &m, err, sizeof(err)) || mach_sim_opts_from_spec(spec, &so, err, sizeof(err)) ||
	    mach_sim_create(m, &so, &sim, err, sizeof(err)) ||
	    mach_sim_advance(sim, m->uptime_ns + (uint64_t)(at * 1e9))) {
		ok(0, "%s simulates %.0f s: %s", spec, at, err);
		return tap_done();
	}
	if (!mkdtemp(mnt) || pfs_model_source_new(m, &mo, &src)) {
		ok(0, "a mount point and a source: %s", strerror(errno));
		return tap_done();
	}
	fo.mountpoint = mnt;
	if (!ok(pfs_fuse_create(&fs, src, &fo, err, sizeof(err)) == 0, "/sys of %s mounted at %s", spec, mnt)) {
		diag("%s", err);
		rmdir(mnt);
		return tap_done();
	}
	pthread_create(&loop, NULL, serve, fs);
	same = compare(m, sim, mnt, &nfiles, &busy);
	ok(nfiles >= 6 && same == nfiles && busy,
	   "at %.0f s, every simulated group's cpu/io/memory.pressure through the mount is the PSI engine's text for it "
	   "(%u of %u the same, %u with stalls)", at, same, nfiles, busy);
	pfs_fuse_unmount(fs);
	pfs_fuse_exit(fs);
	pthread_join(loop, NULL);
	pfs_fuse_destroy(fs);
	rmdir(mnt);
	pfs_source_free(src);
	mach_sim_destroy(sim);
	mach_free(m);
	return tap_done();
}
