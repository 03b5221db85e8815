// SPDX-License-Identifier: MIT
/* psi.c - placeholder until the PSI engine lands (issue 5). */
#include "uprocfs/psi.h"
