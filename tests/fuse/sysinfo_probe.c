// SPDX-License-Identifier: MIT
/*
 * sysinfo_probe.c - print what sysinfo(2) says, in bytes: what a runtime that
 * never opens /proc (Node's os.totalmem, Java's OperatingSystemMXBean) sees.
 * usage: sysinfo_probe  ->  "totalram BYTES freeram BYTES uptime S procs N"
 */
#include <stdio.h>
#include <sys/sysinfo.h>

int main(void)
{
	struct sysinfo si;

	if (sysinfo(&si)) {
		perror("sysinfo");
		return 1;
	}
	printf("totalram %llu freeram %llu uptime %ld procs %u\n",
	       (unsigned long long)si.totalram * si.mem_unit, (unsigned long long)si.freeram * si.mem_unit,
	       si.uptime, (unsigned int)si.procs);
	return 0;
}
