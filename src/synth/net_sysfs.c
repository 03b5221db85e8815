// SPDX-License-Identifier: MIT
/*
 * net_sysfs.c - what sysfs shows of a synthetic machine's network devices
 * (mach_netsys.h): where each hangs under /sys/devices and the link state
 * its driver reports.
 *
 * Only the host's namespace (init_net) is shown in /sys/class/net, so only
 * its devices get a sysfs side.  Each follows from what the device is:
 *   - lo: virtual, no link settings (speed and duplex refuse), a
 *     predictable name, carrier on since boot;
 *   - the uplink: a guest's virtio-net on PCI slot 3 (as its queue irqs
 *     name 0000:00:03.0 and virtio0; ens3 is named after the slot), which
 *     reports no speed and an unknown duplex; a server's NIC at
 *     0000:02:00.0 behind a root port, 10 Gb/s full duplex; udev renamed
 *     it from eth0 unless it is still eth0;
 *   - docker0: a bridge whose MAC docker set, as fast as its fastest port
 *     that is up, duplex unknown (br_get_link_ksettings);
 *   - the veth host ends: random MACs, 10 Gb/s full duplex (veth's fixed
 *     link settings), named by docker.
 * A device that is up came up once: its carrier went down at registration
 * and up when the link came (one of each), lo's never changed.
 */
#include <stdio.h>
#include <string.h>

#include "synth_int.h"

#define SPEED_10000 10000

/* The fastest speed among the up veth ports of a bridge (all the host's veth ends). */
static int bridge_speed(const struct mach_net *n)
{
	int best = -1;

	for (unsigned int i = 0; i < n->ndevs; i++)
		if (!strncmp(n->devs[i].name, "veth", 4) && mach_netdev_running(&n->devs[i]) && n->devs[i].speed > best)
			best = n->devs[i].speed;
	return best;
}

/* The uplink: @virt a KVM guest's virtio-net, else a server's NIC. */
static void uplink(struct mach_netdev *d, bool virt)
{
	struct mach_netdev_sys *y = &d->sys;

	snprintf(y->parent, sizeof(y->parent), "%s",
		 virt ? "pci0000:00/0000:00:03.0/virtio0" : "pci0000:00/0000:00:1c.0/0000:02:00.0");
	y->link_ksettings = true;
	y->duplex = virt ? MACH_DUPLEX_UNKNOWN : MACH_DUPLEX_FULL;
	y->name_assign_type = strcmp(d->name, "eth0") ? MACH_NET_NAME_RENAMED : MACH_NET_NAME_ENUM;
}

static void device(struct mach_net *n, struct mach_netdev *d, bool virt)
{
	struct mach_netdev_sys *y = &d->sys;

	memset(y, 0, sizeof(*y));
	y->known = true;
	y->carrier = true;
	y->duplex = MACH_DUPLEX_UNKNOWN;
	if (d->type == MACH_ARPHRD_LOOPBACK) {
		y->name_assign_type = MACH_NET_NAME_PREDICTABLE;
		return;
	}
	y->carrier_up = y->carrier_down = 1;
	y->link_ksettings = true;
	y->name_assign_type = MACH_NET_NAME_USER;
	if (!d->is_virtual) {
		uplink(d, virt);
	} else if (!strncmp(d->name, "veth", 4)) {
		y->addr_assign_type = MACH_NET_ADDR_RANDOM;
		y->duplex = MACH_DUPLEX_FULL;
	} else {
		/* docker0 */
		y->addr_assign_type = MACH_NET_ADDR_SET;
		d->speed = bridge_speed(n);
	}
}

int sy_build_net_sysfs(struct synth *s)
{
	struct mach_net *n = s->m->nnets ? &s->m->nets[0] : NULL;

	for (unsigned int i = 0; n && i < n->ndevs; i++)
		device(n, &n->devs[i], s->virt);
	return 0;
}
