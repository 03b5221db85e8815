// SPDX-License-Identifier: MIT
/* file_table.c - placeholder while the table is written. */
#include <errno.h>
#include "uprocfs/procfs.h"

const struct pfs_file pfs_files[] = { { 0 } };
const size_t pfs_nfiles = 0;
