// SPDX-License-Identifier: MIT
/*
 * accounts.c - the synthetic machine's /etc/passwd and /etc/group: a name
 * for every uid and gid its tasks hold, as a Debian 12 host with these
 * services and login users would have them.
 *
 * The names are the machine's, not the host's: `uprocfs run` shows them to
 * the command (ps's USER column, htop, psutil's username()), and tools that
 * look up an id they cannot name do so again on every refresh.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth_int.h"

/* The service accounts and system groups the catalog's programs run as. */
static const struct {
	uint32_t id;
	const char *name;
} system_names[] = {
	{ UID_ROOT, "root" }, { UID_DAEMON, "daemon" }, { 4, "adm" }, { 24, "cdrom" }, { 27, "sudo" },
	{ 30, "dip" }, { UID_WWW, "www-data" }, { 46, "plugdev" }, { 100, "users" },
	{ UID_MESSAGEBUS, "messagebus" }, { UID_SYSLOG, "syslog" }, { UID_POSTGRES, "postgres" },
	{ UID_REDIS, "redis" }, { UID_MEMCACHE, "memcache" }, { 110, "ssl-cert" }, { UID_POLKITD, "polkitd" },
	{ UID_TIMESYNC, "systemd-timesync" }, { UID_RESOLVE, "systemd-resolve" },
	{ UID_NETWORK, "systemd-network" }, { UID_APP, "app" }, { UID_NOBODY, "nobody" },
};

/* The name of @id into @out: a system name, a login user's, or none (0). */
static int account_name(char out[32], uint32_t id, bool group)
{
	for (size_t i = 0; i < sizeof(system_names) / sizeof(system_names[0]); i++)
		if (system_names[i].id == id) {
			/* Debian's nobody has the group nogroup */
			snprintf(out, 32, "%s", group && id == UID_NOBODY ? "nogroup" : system_names[i].name);
			return 1;
		}
	if (id >= UID_FIRST_USER && id < UID_NOBODY) {
		sy_login_name(out, id);
		return 1;
	}
	return 0;
}

/* A set of ids, sorted and unique. */
struct id_set {
	uint32_t *ids;
	size_t n, cap;
};

/*
 * Add @id unless the set has it.  A big machine's threads hold millions
 * of ids, a few dozen of them distinct: kept unique as they come, the set
 * stays that small (collecting them all and sorting took 1.6 s at a
 * million tasks).
 */
static int id_add(struct id_set *set, uint32_t id)
{
	size_t lo = 0, hi = set->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (set->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < set->n && set->ids[lo] == id)
		return 0;
	if (set->n == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 64;
		uint32_t *ids = realloc(set->ids, cap * sizeof(*ids));

		if (!ids)
			return -ENOMEM;
		set->ids = ids;
		set->cap = cap;
	}
	memmove(&set->ids[lo + 1], &set->ids[lo], (set->n - lo) * sizeof(*set->ids));
	set->ids[lo] = id;
	set->n++;
	return 0;
}

/* @set's named ids as accounts into *@out; users take their own gid as the primary group. */
static int name_all(const struct id_set *set, bool group, struct mach_account **out, size_t *nout)
{
	struct mach_account *list = calloc(set->n ? set->n : 1, sizeof(*list));
	size_t n = 0;

	if (!list)
		return -ENOMEM;
	for (size_t i = 0; i < set->n; i++) {
		if (!account_name(list[n].name, set->ids[i], group))
			continue;
		list[n].id = set->ids[i];
		list[n].gid = group ? 0 : set->ids[i] == UID_SYSLOG ? 4 : set->ids[i];
		n++;
	}
	*out = list;
	*nout = n;
	return 0;
}

int sy_build_accounts(struct synth *s)
{
	struct mach_machine *m = s->m;
	struct id_set users = { 0 }, groups = { 0 };
	const struct mach_cred *last = NULL;
	int rc = 0;

	for (size_t i = 0; !rc && i < m->nprocs; i++)
		for (size_t k = 0; !rc && k < m->procs[i].nthreads; k++) {
			const struct mach_cred *cr = mach_thread_cred(&m->procs[i].threads[k]);

			if (cr == last)
				continue; /* threads of a process share theirs, interned */
			last = cr;
			for (int j = 0; !rc && j < 4; j++)
				rc = id_add(&users, cr->uid[j]) ?: id_add(&groups, cr->gid[j]);
			for (unsigned int g = 0; !rc && g < cr->ngroups; g++)
				rc = id_add(&groups, cr->groups[g]);
		}
	/* every user's primary group is named too */
	for (size_t i = 0, n = users.n; !rc && i < n; i++)
		rc = id_add(&groups, users.ids[i] == UID_SYSLOG ? 4 : users.ids[i]);
	if (!rc)
		rc = name_all(&users, false, &m->accounts.users, &m->accounts.nusers);
	if (!rc)
		rc = name_all(&groups, true, &m->accounts.groups, &m->accounts.ngroups);
	free(users.ids);
	free(groups.ids);
	return rc;
}
