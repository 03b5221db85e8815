/* SPDX-License-Identifier: MIT */
/* psi.h - placeholder until the PSI engine lands (issue 5). */
#ifndef UPROCFS_PSI_H
#define UPROCFS_PSI_H
#endif
