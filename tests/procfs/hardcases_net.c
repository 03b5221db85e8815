// SPDX-License-Identifier: MIT
/*
 * hardcases_net.c - a veth pair with one end up and one down (hardcases_net.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "hardcases_net.h"

int hardcases_net_start(struct hardcases_net *hn)
{
	char cmd[256];

	snprintf(hn->up, sizeof(hn->up), "upv%da", (int)(getpid() % 100000));
	snprintf(hn->down, sizeof(hn->down), "upv%db", (int)(getpid() % 100000));
	snprintf(cmd, sizeof(cmd), "ip link add %s type veth peer name %s 2>/dev/null && ip link set %s up",
		 hn->up, hn->down, hn->up);
	if (system(cmd)) {
		hardcases_net_stop(hn);
		return -1;
	}
	return 0;
}

void hardcases_net_stop(struct hardcases_net *hn)
{
	char cmd[128];

	if (hn->up[0]) {
		snprintf(cmd, sizeof(cmd), "ip link del %s 2>/dev/null", hn->up);
		if (system(cmd) && 0)
			fprintf(stderr, "%s failed\n", cmd); /* already gone: nothing to do */
	}
	hn->up[0] = hn->down[0] = '\0';
}
