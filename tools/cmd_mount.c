// SPDX-License-Identifier: MIT
/*
 * cmd_mount.c - `uprocfs mount`: serve a machine at a mount point until
 * unmounted (fusermount3 -u) or interrupted.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "served.h"

static void mount_usage(FILE *f)
{
	fprintf(f,
		"usage: uprocfs mount [--machine SPEC] [--sys] [-o OPTIONS] [--foreground] [--allow-other]\n"
		"                     [--no-passthrough] [--io-uring] [--debug] MOUNTPOINT\n"
		"\n"
		"Serve a machine's /proc (with --sys: its /sys) at MOUNTPOINT.  SIGINT, SIGTERM or `fusermount3 -u\n"
		"MOUNTPOINT` unmount it.  A process reading the tree sees its own pid directory\n"
		"and /proc/self; every other pid is the machine's (a caller whose pid is also a\n"
		"synthetic pid shadows it for itself: use `uprocfs run` to avoid that).\n"
		"\n"
		"  --machine SPEC   synth[:cpus=N,tasks=M,...] (default), tree:DIR, or live\n"
		"  --sys            serve the machine's /sys tree instead of its /proc\n"
		"  --foreground     stay in the foreground (default: detach once mounted)\n"
		"  -o OPTIONS       procfs mount options: hidepid=off|noaccess|invisible|ptraceable\n"
		"                   (or 0|1|2|4), gid=GID (exempt from hidepid), subset=pid\n"
		"  --allow-other    let other users read the tree (needs user_allow_other)\n"
		"  --no-passthrough read every file through FUSE requests, even where the kernel\n"
		"                   could read a small file's text itself (FUSE passthrough, root)\n"
		"  --io-uring       take requests over io_uring, each on the CPU of the task that\n"
		"                   sent it (Linux 6.14+, root; /sys/module/fuse/parameters/enable_uring)\n"
		"  --debug          log every FUSE request on stderr (implies --foreground)\n");
}

int cmd_mount(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "sys", no_argument, NULL, 's' },
		{ "options", required_argument, NULL, 'o' },
		{ "allow-other", no_argument, NULL, 'a' },
		{ "debug", no_argument, NULL, 'd' },
		{ "no-passthrough", no_argument, NULL, 'T' },
		{ "io-uring", no_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pfs_fuse_opts o = { .caller_proc_fd = -1, .mounted_fd = -1 };
	const char *spec = "synth";
	bool foreground = false;
	struct pfs_fuse *fs = NULL;
	struct pfs_source *src = NULL;
	struct served s;
	char err[512];
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+m:fo:adh", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': spec = optarg; break;
		case 'f': foreground = true; break;
		case 's': o.tree = PFS_SCOPE_SYS; break;
		case 'a': o.allow_other = true; break;
		case 'o':
			if (pfs_fuse_parse_options(&o, optarg, err, sizeof(err))) {
				fprintf(stderr, "uprocfs mount: %s\n", err);
				return 2;
			}
			break;
		case 'd': o.debug = true; foreground = true; break;
		case 'T': o.no_passthrough = true; break;
		case 'U': o.io_uring = true; break;
		case 'h': mount_usage(stdout); return 0;
		default: mount_usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "uprocfs mount: give exactly one MOUNTPOINT\n");
		mount_usage(stderr);
		return 2;
	}
	o.mountpoint = argv[optind];
	rc = served_open(&s, spec, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "uprocfs mount: %s\n", err);
		return 1;
	}
	/* Callers are this namespace's processes: its procfs describes them. */
	o.caller_proc_fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	rc = served_source(&s, o.caller_proc_fd, 0, &src);
	if (rc) {
		fprintf(stderr, "uprocfs mount: %s\n", strerror(-rc));
		goto out;
	}
	rc = pfs_fuse_create(&fs, src, &o, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "uprocfs mount: %s\n", err);
		goto out;
	}
	if (pfs_fuse_set_signal_handlers(fs) || pfs_fuse_daemonize(foreground)) {
		fprintf(stderr, "uprocfs mount: cannot set up signals or detach\n");
		rc = -EIO;
		goto out;
	}
	rc = pfs_fuse_loop(fs);
out:
	pfs_fuse_destroy(fs);
	pfs_source_free(src);
	served_close(&s);
	return rc ? 1 : 0;
}
