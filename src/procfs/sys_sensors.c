// SPDX-License-Identifier: MIT
/*
 * sys_sensors.c - hwmon devices (drivers/hwmon/hwmon.c name_show,
 * hwmon_attr_show: "%ld\n", labels "%s\n") and thermal zones
 * (drivers/thermal/thermal_sysfs.c type_show, temp_show, mode_show,
 * policy_show, trip_point_*_show), and the links of class/hwmon and
 * class/thermal to the devices.
 */
#include <errno.h>
#include <stdio.h>

#include "render.h"

static const struct mach_hwmon *hwmon_of(const struct pfs_ctx *c, uint32_t h)
{
	return h < c->mach->platform.nhwmon ? &c->mach->platform.hwmon[h] : NULL;
}

/* Where hwmon device @h's directory is, below /sys/devices. */
static int hwmon_dir(const struct pfs_ctx *c, uint32_t h, char *buf, size_t size)
{
	const struct mach_hwmon *hw = hwmon_of(c, h);
	int n;

	if (!hw)
		return -ENOENT;
	if (hw->parent == MACH_HWMON_PCI)
		n = snprintf(buf, size, "pci0000:00/%s/hwmon/hwmon%u", hw->pci, h);
	else
		n = snprintf(buf, size, "virtual/thermal/thermal_zone%u/hwmon%u", hw->zone, h);
	return n < (int)size ? 0 : -ENAMETOOLONG;
}

/* class/hwmon/hwmonN -> ../../devices/... */
int pfs_link_sys_hwmon(const struct pfs_ctx *c, char *buf, size_t size)
{
	char dir[128];
	int rc = hwmon_dir(c, c->inst, dir, sizeof(dir));

	if (rc)
		return rc;
	return snprintf(buf, size, "../../devices/%s", dir) < (int)size ? 0 : -ENAMETOOLONG;
}

/* hwmonN/device -> the PCI function it is bound to, three levels up */
int pfs_link_sys_hwmon_device(const struct pfs_ctx *c, char *buf, size_t size)
{
	const struct mach_hwmon *hw = hwmon_of(c, c->inst);

	if (!hw || hw->parent != MACH_HWMON_PCI)
		return -ENOENT;
	return snprintf(buf, size, "../../../%s", hw->pci) < (int)size ? 0 : -ENAMETOOLONG;
}

int pfs_show_sys_hwmon_name(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_hwmon *hw = hwmon_of(c, c->inst);

	(void)v;
	if (!hw)
		return -ENOENT;
	seq_puts(m, hw->name);
	seq_putc(m, '\n');
	return 0;
}

/* tempN_ATTR of hwmon device inst >> 12 (mach_hwmon_file_inst) */
int pfs_show_sys_hwmon_temp(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_hwmon_temp *t = mach_hwmon_channel(&c->mach->platform, c->inst >> 12, c->inst >> 4 & 0xffu);

	(void)v;
	if (!t)
		return -ENOENT;
	switch (c->inst & 15u) {
	case MACH_HWMON_ATTR_INPUT: seq_put_decimal_ll(m, NULL, t->input); break;
	case MACH_HWMON_ATTR_MAX: seq_put_decimal_ll(m, NULL, t->max); break;
	case MACH_HWMON_ATTR_CRIT: seq_put_decimal_ll(m, NULL, t->crit); break;
	case MACH_HWMON_ATTR_CRIT_ALARM: seq_putc(m, t->crit_alarm ? '1' : '0'); break;
	default: seq_puts(m, t->label); break;
	}
	seq_putc(m, '\n');
	return 0;
}

/* class/thermal/thermal_zoneK -> ../../devices/virtual/thermal/thermal_zoneK */
int pfs_link_sys_zone(const struct pfs_ctx *c, char *buf, size_t size)
{
	return snprintf(buf, size, "../../devices/virtual/thermal/thermal_zone%u", c->inst) < (int)size ? 0
												: -ENAMETOOLONG;
}

int pfs_show_sys_zone(struct seq_file *m, void *v)
{
	const struct pfs_ctx *c = m->private;
	const struct mach_thermal_zone *z =
		c->inst < c->mach->platform.nzones ? &c->mach->platform.zones[c->inst] : NULL;

	(void)v;
	if (!z)
		return -ENOENT;
	switch (c->arg) {
	case MACH_SYSA_ZONE_TYPE: seq_puts(m, z->type); break;
	case MACH_SYSA_ZONE_TEMP: seq_put_decimal_ll(m, NULL, z->temp); break;
	case MACH_SYSA_ZONE_MODE: seq_puts(m, z->enabled ? "enabled" : "disabled"); break;
	case MACH_SYSA_ZONE_POLICY: seq_puts(m, z->policy); break;
	case MACH_SYSA_ZONE_TRIP_TYPE: seq_puts(m, "critical"); break;
	default: seq_put_decimal_ll(m, NULL, z->crit); break;
	}
	seq_putc(m, '\n');
	return 0;
}
