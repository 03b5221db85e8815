// SPDX-License-Identifier: MIT
/* devices.c - the synthetic machine's disk partitions and their filesystems (devices.h). */
#include <stddef.h>

#include "devices.h"

const struct sy_blockfs sy_blockfs[SY_NR_BLOCKFS] = {
	[SY_FS_ROOT] = { "/dev/vda1", SY_ROOT_DEV_MINOR, "/", "ext4", "errors=remount-ro" },
	[SY_FS_BOOT] = { "/dev/vda2", 2, "/boot", "ext4", NULL },
	[SY_FS_EFI] = { "/dev/vda15", 15, "/boot/efi", "vfat",
			"fmask=0077,dmask=0077,codepage=437,iocharset=ascii,shortname=mixed,utf8,errors=remount-ro" },
	[SY_FS_HOME] = { "/dev/vda3", 3, "/home", "ext4", NULL },
};
