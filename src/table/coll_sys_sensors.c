// SPDX-License-Identifier: MIT
/*
 * coll_sys_sensors.c - the collections of /sys for the sensors: the PCI
 * functions hwmon devices are bound to, the hwmon devices under them or
 * under a thermal zone, their temperature files, the thermal zones, and
 * the class/ links to both.  Named by syntax, as coll_sys.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "table_int.h"

#define NO_PARENT UINT32_MAX

static const struct mach_platform *plat(const struct pfs_ctx *c)
{
	return c->mach ? &c->mach->platform : NULL;
}

/* "<prefix><decimal>" (no leading zero) below @limit. */
static int parse_num(const char *s, const char *prefix, uint32_t limit, uint32_t *out, const char **rest)
{
	size_t plen = strlen(prefix);
	uint64_t v = 0;
	const char *p = s + plen;

	if (strncmp(s, prefix, plen) || *p < '0' || *p > '9' || (*p == '0' && p[1] >= '0' && p[1] <= '9'))
		return -ENOENT;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v >= limit)
			return -ENOENT;
	}
	*out = (uint32_t)v;
	if (rest)
		*rest = p;
	else if (*p)
		return -ENOENT;
	return 0;
}

static int put_name(char *buf, size_t size, const char *prefix, uint32_t v)
{
	return snprintf(buf, size, "%s%u", prefix, v) < (int)size ? 0 : -ENAMETOOLONG;
}

/* ------------------------------------------------------------------ */
/* devices/pci0000:00/<function>: a PCI function a hwmon device is bound to */

static int hex_digit(char ch)
{
	return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* "0000:BB:DD.F" in lower case, domain 0: bus << 8 | device << 3 | function, or -1. */
static int64_t parse_pci(const char *s)
{
	int d[5];

	if (strlen(s) != 12 || strncmp(s, "0000:", 5) || s[7] != ':' || s[10] != '.')
		return -1;
	d[0] = hex_digit(s[5]);
	d[1] = hex_digit(s[6]);
	d[2] = hex_digit(s[8]);
	d[3] = hex_digit(s[9]);
	d[4] = hex_digit(s[11]);
	for (int i = 0; i < 5; i++)
		if (d[i] < 0)
			return -1;
	if ((d[2] << 4 | d[3]) > 31 || d[4] > 7)
		return -1;
	return (int64_t)(d[0] << 12 | d[1] << 8 | (d[2] << 4 | d[3]) << 3 | d[4]);
}

static int pci_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	int64_t v = parse_pci(name);

	(void)c;
	(void)parent;
	if (v < 0)
		return -ENOENT;
	*inst = (uint32_t)v;
	return 0;
}

static int pci_name(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	(void)c;
	return snprintf(buf, size, "0000:%02x:%02x.%x", inst >> 8, inst >> 3 & 31u, inst & 7u) < (int)size
		       ? 0
		       : -ENAMETOOLONG;
}

/* The function hwmon device @h is bound to, or NO_PARENT. */
static uint32_t pci_of(const struct mach_platform *p, uint32_t h)
{
	int64_t v = p && h < p->nhwmon && p->hwmon[h].present && p->hwmon[h].parent == MACH_HWMON_PCI
			    ? parse_pci(p->hwmon[h].pci)
			    : -1;

	return v < 0 ? NO_PARENT : (uint32_t)v;
}

static bool pci_has(const struct pfs_ctx *c, uint32_t inst)
{
	const struct mach_platform *p = plat(c);

	for (uint32_t h = 0; p && h < p->nhwmon; h++)
		if (pci_of(p, h) == inst)
			return true;
	return false;
}

static bool pci_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	const struct mach_platform *p = plat(c);

	(void)parent;
	while (p && *pos < p->nhwmon) {
		uint32_t v = pci_of(p, (uint32_t)(*pos)++);

		if (v != NO_PARENT) {
			*inst = v;
			return true;
		}
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* hwmonN under a PCI function's hwmon/, or under a thermal zone        */

static int hwmon_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst,
			uint32_t (*parent_of)(const struct mach_platform *p, uint32_t h))
{
	if (parse_num(name, "hwmon", 1u << 12, inst, NULL))
		return -ENOENT;
	return c->mach && parent_of(plat(c), *inst) != parent ? -ENOENT : 0;
}

static int hwmon_name(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	(void)c;
	return put_name(buf, size, "hwmon", inst);
}

static uint32_t zone_of(const struct mach_platform *p, uint32_t h)
{
	return p && h < p->nhwmon && p->hwmon[h].present && p->hwmon[h].parent == MACH_HWMON_THERMAL ? p->hwmon[h].zone
													       : NO_PARENT;
}

static int pci_hwmon_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	return hwmon_lookup(c, parent, name, inst, pci_of);
}

static int zone_hwmon_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	return hwmon_lookup(c, parent, name, inst, zone_of);
}

static bool pci_hwmon_has(const struct pfs_ctx *c, uint32_t inst)
{
	return pci_of(plat(c), inst) != NO_PARENT;
}

static bool zone_hwmon_has(const struct pfs_ctx *c, uint32_t inst)
{
	return zone_of(plat(c), inst) != NO_PARENT;
}

static bool hwmon_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst,
		       uint32_t (*parent_of)(const struct mach_platform *p, uint32_t h))
{
	const struct mach_platform *p = plat(c);

	while (p && *pos < p->nhwmon) {
		uint32_t h = (uint32_t)(*pos)++;

		if (parent_of(p, h) == parent) {
			*inst = h;
			return true;
		}
	}
	return false;
}

static bool pci_hwmon_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	return hwmon_next(c, parent, pos, inst, pci_of);
}

static bool zone_hwmon_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	return hwmon_next(c, parent, pos, inst, zone_of);
}

static uint32_t pci_hwmon_parent(const struct pfs_ctx *c, uint32_t inst)
{
	return pci_of(plat(c), inst);
}

static uint32_t zone_hwmon_parent(const struct pfs_ctx *c, uint32_t inst)
{
	return zone_of(plat(c), inst);
}

/* ------------------------------------------------------------------ */
/* hwmonN/tempC_ATTR                                                    */

static int temps_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	const char *rest;
	uint32_t ch;

	(void)c;
	if (parse_num(name, "temp", 256, &ch, &rest) || *rest != '_')
		return -ENOENT;
	for (int a = 0; a < MACH_NR_HWMON_ATTRS; a++)
		if (!strcmp(rest + 1, mach_hwmon_attr_name((enum mach_hwmon_attr)a))) {
			*inst = mach_hwmon_file_inst(parent, ch, (enum mach_hwmon_attr)a);
			return 0;
		}
	return -ENOENT;
}

static int temps_name(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	(void)c;
	return snprintf(buf, size, "temp%u_%s", inst >> 4 & 0xffu, mach_hwmon_attr_name((enum mach_hwmon_attr)(inst & 15u))) <
			       (int)size
		       ? 0
		       : -ENAMETOOLONG;
}

static bool temps_has(const struct pfs_ctx *c, uint32_t inst)
{
	const struct mach_hwmon_temp *t = plat(c) ? mach_hwmon_channel(plat(c), inst >> 12, inst >> 4 & 0xffu) : NULL;
	unsigned int a = inst & 15u;

	return t && a < MACH_NR_HWMON_ATTRS && (a == MACH_HWMON_ATTR_INPUT || (t->files & (1u << a)));
}

static bool temps_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	const struct mach_platform *p = plat(c);

	/* the cursor walks channel by attribute */
	while (p && parent < p->nhwmon && *pos < (uint64_t)p->hwmon[parent].ntemps * MACH_NR_HWMON_ATTRS) {
		const struct mach_hwmon_temp *t = &p->hwmon[parent].temps[*pos / MACH_NR_HWMON_ATTRS];
		uint32_t v = mach_hwmon_file_inst(parent, t->index, (enum mach_hwmon_attr)(*pos % MACH_NR_HWMON_ATTRS));

		(*pos)++;
		if (temps_has(c, v)) {
			*inst = v;
			return true;
		}
	}
	return false;
}

static uint32_t temps_parent(const struct pfs_ctx *c, uint32_t inst)
{
	(void)c;
	return inst >> 12;
}

/* ------------------------------------------------------------------ */
/* class/hwmon/hwmonN, devices/virtual/thermal/thermal_zoneK, class/thermal/thermal_zoneK */

static int links_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	(void)c;
	(void)parent;
	return parse_num(name, "hwmon", 1u << 12, inst, NULL);
}

static bool links_has(const struct pfs_ctx *c, uint32_t inst)
{
	return plat(c) && inst < plat(c)->nhwmon && plat(c)->hwmon[inst].present;
}

static bool links_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	(void)parent;
	while (plat(c) && *pos < plat(c)->nhwmon)
		if (links_has(c, (uint32_t)(*pos)++)) {
			*inst = (uint32_t)*pos - 1;
			return true;
		}
	return false;
}

static int zones_lookup(const struct pfs_ctx *c, uint32_t parent, const char *name, uint32_t *inst)
{
	(void)c;
	(void)parent;
	return parse_num(name, "thermal_zone", 1u << 12, inst, NULL);
}

static int zones_name(const struct pfs_ctx *c, uint32_t inst, char *buf, size_t size)
{
	(void)c;
	return put_name(buf, size, "thermal_zone", inst);
}

static bool zones_has(const struct pfs_ctx *c, uint32_t inst)
{
	return plat(c) && inst < plat(c)->nzones && plat(c)->zones[inst].present;
}

static bool zones_next(const struct pfs_ctx *c, uint32_t parent, uint64_t *pos, uint32_t *inst)
{
	(void)parent;
	while (plat(c) && *pos < plat(c)->nzones)
		if (zones_has(c, (uint32_t)(*pos)++)) {
			*inst = (uint32_t)*pos - 1;
			return true;
		}
	return false;
}

static const struct pfs_coll_ops pci_ops = {
	.syntactic = true, .lookup = pci_lookup, .name = pci_name, .next = pci_next, .has = pci_has,
};
static const struct pfs_coll_ops pci_hwmons_ops = {
	.syntactic = true, .lookup = pci_hwmon_lookup, .name = hwmon_name, .next = pci_hwmon_next,
	.has = pci_hwmon_has, .parent = pci_hwmon_parent,
};
static const struct pfs_coll_ops zone_hwmons_ops = {
	.syntactic = true, .lookup = zone_hwmon_lookup, .name = hwmon_name, .next = zone_hwmon_next,
	.has = zone_hwmon_has, .parent = zone_hwmon_parent,
};
static const struct pfs_coll_ops temps_ops = {
	.syntactic = true, .lookup = temps_lookup, .name = temps_name, .next = temps_next, .has = temps_has,
	.parent = temps_parent,
};
static const struct pfs_coll_ops hwmon_links_ops = {
	.syntactic = true, .lookup = links_lookup, .name = hwmon_name, .next = links_next, .has = links_has,
};
static const struct pfs_coll_ops zones_ops = {
	.syntactic = true, .lookup = zones_lookup, .name = zones_name, .next = zones_next, .has = zones_has,
};

const struct pfs_coll_ops *pfs_sys_sensor_coll_ops(enum pfs_coll coll)
{
	switch (coll) {
	case PFS_COLL_SYS_HWMON_PCI: return &pci_ops;
	case PFS_COLL_SYS_HWMONS_PCI: return &pci_hwmons_ops;
	case PFS_COLL_SYS_HWMONS_ZONE: return &zone_hwmons_ops;
	case PFS_COLL_SYS_HWMON_TEMPS: return &temps_ops;
	case PFS_COLL_SYS_HWMON_LINKS: return &hwmon_links_ops;
	case PFS_COLL_SYS_ZONES:
	case PFS_COLL_SYS_ZONE_LINKS: return &zones_ops;
	default: return NULL;
	}
}
