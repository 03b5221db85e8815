/* SPDX-License-Identifier: MIT */
/*
 * devices.h - the synthetic machine's filesystems on its block devices: the
 * one place the mount tables, the mappings' devices, the fd tables and the
 * lock list learn them from.
 *
 * The disks themselves are m->sys.blk (sys_storage.c): whatever the layout,
 * the root filesystem is on 254:0 (device-mapper's dynamic major, or
 * virtio_blk's when there is no device-mapper), so maps can name it before
 * the disks are built.  /boot and /boot/efi are partitions 2 and 1 of the
 * disk under the root (none on a microVM's whole-disk root), /home a data
 * disk when the layout has one.
 */
#ifndef UPROCFS_SYNTH_DEVICES_H
#define UPROCFS_SYNTH_DEVICES_H

#include <stdbool.h>
#include <stdint.h>

/** A filesystem on a block device, as the host mounts it. */
struct sy_blockfs {
	bool present;
	char dev[96];           /* the source mountinfo shows ("/dev/mapper/...", "/dev/vda2") */
	uint32_t major, minor;
	const char *point;
	const char *fstype;
	const char *opts;       /* the filesystem's own options, after rw */
};

enum sy_blockfs_id { SY_FS_ROOT, SY_FS_BOOT, SY_FS_EFI, SY_FS_HOME, SY_NR_BLOCKFS };

/* The root filesystem's device in every layout: what maps shows for every file of a host process. */
#define SY_ROOT_DEV_MAJOR 254u
#define SY_ROOT_DEV_MINOR 0u

/* /run: a tmpfs on anonymous device 0:23 (ns_mounts.c host_tpl), where pid files and their locks live. */
#define SY_RUN_DEV_MINOR 23u

struct synth;

/** Fill s->blockfs from the built disks (m->sys): call after sy_build_storage, before the mount tables. */
void sy_plan_blockfs(struct synth *s);

#endif /* UPROCFS_SYNTH_DEVICES_H */
