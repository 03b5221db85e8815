// SPDX-License-Identifier: MIT
/*
 * test_headers_after.c - a program that defines the kernel's names after
 * including the public headers (test_headers.c does it before).
 *
 * A header that still defined FSHIFT or NR_RUNNING, even behind #ifndef,
 * would make the definitions below a redefinition (an error under -Werror)
 * or a second enum constant of the same name.
 */
#include "uprocfs/calc_load.h"
#include "uprocfs/machine.h"
#include "uprocfs/psi.h"
#include "uprocfs/seq_file.h"
#include "uprocfs/sim.h"

#define FSHIFT 8
#define FIXED_1 (1 << FSHIFT)
#define EXP_1 17
#define LOAD_INT(x) ((x) + 1000)
#define TSK_RUNNING 0x4000
#define ESCAPE_OCTAL 0x2000

enum { NR_RUNNING = 99, NR_IOWAIT, NR_PSI_STATES };

long headers_after_fshift(void);
long headers_after_calc_fixed_1(void);
long headers_after_nr_running(void);
long headers_after_psi_nr_running(void);

/** The program's FSHIFT as this file sees it. */
long headers_after_fshift(void)
{
	return FSHIFT;
}

/** The header's 1.0 as this file sees it. */
long headers_after_calc_fixed_1(void)
{
	return (long)CALC_LOAD_FIXED_1;
}

/** The program's NR_RUNNING. */
long headers_after_nr_running(void)
{
	return NR_RUNNING;
}

/** The header's PSI_NR_RUNNING. */
long headers_after_psi_nr_running(void)
{
	return PSI_NR_RUNNING;
}
