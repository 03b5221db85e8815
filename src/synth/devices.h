/* SPDX-License-Identifier: MIT */
/*
 * devices.h - the synthetic machine's disks and the filesystems on them:
 * the one place their device numbers live.
 *
 * A KVM guest installed from Debian: one virtio disk, vda (254:0), with
 * the root filesystem, /boot, /home and the EFI system partition.  The
 * mount table (ns_mounts.c) mounts them; every mapped file of a host
 * process lives on the root filesystem, so maps shows its device.
 */
#ifndef UPROCFS_SYNTH_DEVICES_H
#define UPROCFS_SYNTH_DEVICES_H

#define SY_VDA_MAJOR 254u   /* virtblk's dynamic major on this kernel, as the reference VM shows */

/** A filesystem on a partition of vda, as the host mounts it. */
struct sy_blockfs {
	const char *dev;        /* the device name mountinfo shows */
	unsigned int minor;     /* partition number: 254:N */
	const char *point;
	const char *fstype;
	const char *opts;       /* the filesystem's own options, after rw */
};

enum sy_blockfs_id { SY_FS_ROOT, SY_FS_BOOT, SY_FS_EFI, SY_FS_HOME, SY_NR_BLOCKFS };

extern const struct sy_blockfs sy_blockfs[SY_NR_BLOCKFS];

/* The root filesystem: what maps shows for every file of a host process. */
#define SY_ROOT_DEV_MAJOR SY_VDA_MAJOR
#define SY_ROOT_DEV_MINOR 1u

/* /run: a tmpfs on anonymous device 0:23 (ns_mounts.c host_tpl), where pid files and their locks live. */
#define SY_RUN_DEV_MINOR 23u

#endif /* UPROCFS_SYNTH_DEVICES_H */
