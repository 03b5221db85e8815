// SPDX-License-Identifier: MIT
/*
 * test_headers.c - the public headers live beside a program's own names.
 *
 * A real program that reads load averages or pressure defines the kernel's
 * names itself (FSHIFT, FIXED_1, LOAD_INT ...; rpcsvc/rstat.h has an FSHIFT of
 * 8) or gets them from system headers.  This file defines those names with
 * values of its own before including every public header, and declares
 * enum constants and functions with the kernel's names after them: any
 * header that still used a bare kernel name would fail to compile here
 * (-Werror turns a macro redefinition into an error, a second enum constant
 * or function of the same name is one already) or would read the program's
 * value instead of its own, which the checks below catch.
 *
 * test_headers_after.c does the opposite order: the headers first, then the
 * program's definitions, for a header that guarded its names with #ifndef.
 * header_names.sh checks that this file includes every public header.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>
#include <sys/sysinfo.h>
#include <linux/kernel.h>

/* The program's own meanings of kernel names, all different from the kernel's. */
#define FSHIFT 8
#define FIXED_1 (1 << FSHIFT)
#define FSCALE FIXED_1
#define EXP_1 17
#define EXP_5 18
#define EXP_15 19
#define EXP_10s 20
#define LOAD_INT(x) ((x) + 1000)
#define LOAD_FRAC(x) ((x) + 2000)
#define LOAD_FREQ (60 * 100)
#define NR_RUNNING 99
#define TSK_RUNNING 0x4000
#define TSK_ONCPU 0x8000
#define ESCAPE_SPACE 0x1000

#include "uprocfs/calc_load.h"
#include "uprocfs/control.h"
#include "uprocfs/load.h"
#include "uprocfs/mach_sysctl.h"
#include "uprocfs/mach_ns.h"
#include "uprocfs/mach_sys.h"
#include "uprocfs/mach_sysfs.h"
#include "uprocfs/mach_platform.h"
#include "uprocfs/mach_vm.h"
#include "uprocfs/mach_net.h"
#include "uprocfs/mach_net_vocab.h"
#include "uprocfs/mach_netsys.h"
#include "uprocfs/mach_vocab.h"
#include "uprocfs/machine.h"
#include "uprocfs/pfs_fuse.h"
#include "uprocfs/pfs_sysobj.h"
#include "uprocfs/pfs_ctx.h"
#include "uprocfs/procfs.h"
#include "uprocfs/psi.h"
#include "uprocfs/seq_file.h"
#include "uprocfs/seq_num.h"
#include "uprocfs/sim.h"
#include "uprocfs/source.h"

#include "tap.h"

/*
 * Enum constants and functions under the kernel's names: each would clash
 * with a header that declared the same identifier.
 */
enum program_task_counts { NR_IOWAIT = 7, NR_MEMSTALL, NR_MEMSTALL_RUNNING, NR_PSI_TASK_COUNTS };
enum program_states { NR_PSI_STATES = 3, NR_PSI_RESOURCES, NR_PSI_AVGS };
static int single_open(const char *name) { return name ? 11 : 12; }
static int single_open_size(int size) { return size + 1; }
static long load_int(const char *s) { return strtol(s, NULL, 10); }
static double fixed_power_int(double x) { return x * 2; }

/* Values test_headers_after.c saw; see that file. */
long headers_after_fshift(void);
long headers_after_calc_fixed_1(void);
long headers_after_nr_running(void);
long headers_after_psi_nr_running(void);

int main(void)
{
	char num[] = "42";

	plan(12);

	/* The program's macros are untouched by the headers it included. */
	ok(FSHIFT == 8 && FIXED_1 == 256 && EXP_1 == 17 && EXP_10s == 20,
	   "the program's FSHIFT, FIXED_1, EXP_1, EXP_10s keep their values");
	ok(NR_RUNNING == 99 && TSK_RUNNING == 0x4000 && ESCAPE_SPACE == 0x1000,
	   "the program's NR_RUNNING, TSK_RUNNING, ESCAPE_SPACE keep their values");
	ok(LOAD_INT(1) == 1001 && LOAD_FRAC(1) == 2001, "the program's LOAD_INT/LOAD_FRAC keep theirs");
	ok(NR_IOWAIT == 7 && NR_PSI_STATES == 3 && single_open("x") == 11 &&
	   single_open_size(4) == 5 && load_int(num) == 42 && fixed_power_int(1.5) == 3.0,
	   "the program's own enum constants and functions under kernel names");

	/* The headers' own names keep the kernel's values. */
	ok(CALC_LOAD_FSHIFT == 11 && CALC_LOAD_FIXED_1 == 2048 && MACH_FSHIFT == CALC_LOAD_FSHIFT &&
	   MACH_FIXED_1 == CALC_LOAD_FIXED_1,
	   "CALC_LOAD_FSHIFT is 11 and agrees with MACH_FSHIFT");
	ok(CALC_LOAD_EXP_1 == 1884 && CALC_LOAD_EXP_5 == 2014 && CALC_LOAD_EXP_15 == 2037,
	   "CALC_LOAD_EXP_1/5/15 are the kernel's 1884/2014/2037");
	ok(PSI_EXP_10s == 1677 && PSI_EXP_60s == 1981 && PSI_EXP_300s == 2034,
	   "PSI_EXP_10s/60s/300s are the kernel's 1677/1981/2034");
	ok(PSI_NR_RUNNING == 2 && PSI_TSK_RUNNING == 4 && PSI_TSK_ONCPU == 16 && PSI_NR_STATES == 8,
	   "PSI_NR_RUNNING, PSI_TSK_RUNNING, PSI_TSK_ONCPU, PSI_NR_STATES have the kernel's values");
	ok(SEQ_ESCAPE_SPACE == 1 && SEQ_ESCAPE_OCTAL == 8, "SEQ_ESCAPE_* have the kernel's values");

	/* The inline arithmetic ran on the headers' scale, not the program's. */
	ok(calc_load(0, CALC_LOAD_EXP_1, CALC_LOAD_FIXED_1) == 164 &&
	   calc_load_int(3 * CALC_LOAD_FIXED_1 + 1024) == 3 && calc_load_frac(3 * 2048 + 1024) == 50,
	   "calc_load and calc_load_int/frac compute in 11-bit fixed point");
	ok(calc_load_fixed_power_int(CALC_LOAD_FIXED_1 / 2, CALC_LOAD_FSHIFT, 2) == CALC_LOAD_FIXED_1 / 4,
	   "calc_load_fixed_power_int squares 0.5 to 0.25");

	/* The other order: headers first, then the program's names. */
	ok(headers_after_fshift() == 8 && headers_after_calc_fixed_1() == 2048 &&
	   headers_after_nr_running() == 99 && headers_after_psi_nr_running() == 2,
	   "defined after the headers, the program's names and the headers' differ too");
	return tap_done();
}
