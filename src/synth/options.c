// SPDX-License-Identifier: MIT
/*
 * options.c - the options of `--machine synth:key=value,...`: defaults and
 * the parser.
 *
 * Strict on purpose: a spec is typed by people and stored in scripts, so
 * an unknown key or a value out of range is an error naming it, never a
 * silent default.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../util/num.h"
#include "synth_int.h"

/* A small general-purpose server: what "synth" alone gives. */
void mach_synth_defaults(struct mach_synth_opts *o)
{
	*o = (struct mach_synth_opts){
		.cpus = 8,
		.tasks = 200,
		.threads = 200 / 4,
		.seed = 1,
		.depth = 2,
		.load = 0.5,
		.io = 0.05,
		.mem = 0.02,
	};
}

enum opt_type { OPT_UINT, OPT_U64, OPT_FRACTION };

struct opt_key {
	const char *name;
	enum opt_type type;
	unsigned int min, max;    /* OPT_UINT */
	size_t off;
};

#define OPT_OFF(field) offsetof(struct mach_synth_opts, field)

static const struct opt_key opt_keys[] = {
	{ "cpus", OPT_UINT, 1, SYNTH_MAX_CPUS, OPT_OFF(cpus) },
	{ "tasks", OPT_UINT, 1, SYNTH_MAX_TASKS, OPT_OFF(tasks) },
	{ "threads", OPT_UINT, 0, SYNTH_MAX_THREADS, OPT_OFF(threads) },
	{ "seed", OPT_U64, 0, 0, OPT_OFF(seed) },
	{ "depth", OPT_UINT, 0, SYNTH_MAX_DEPTH, OPT_OFF(depth) },
	{ "load", OPT_FRACTION, 0, 0, OPT_OFF(load) },
	{ "io", OPT_FRACTION, 0, 0, OPT_OFF(io) },
	{ "mem", OPT_FRACTION, 0, 0, OPT_OFF(mem) },
};

#define NR_OPT_KEYS (sizeof(opt_keys) / sizeof(opt_keys[0]))

/* The message names the accepted range, so a bad value is fixed in one go. */
static int opt_error(char *err, size_t errlen, const struct opt_key *k, const char *v, size_t vlen)
{
	switch (k->type) {
	case OPT_UINT:
		snprintf(err, errlen, "synth: %s=\"%.*s\": expected an integer from %u to %u",
			 k->name, (int)vlen, v, k->min, k->max);
		break;
	case OPT_U64:
		snprintf(err, errlen, "synth: %s=\"%.*s\": expected an integer from 0 to %llu",
			 k->name, (int)vlen, v, (unsigned long long)UINT64_MAX);
		break;
	case OPT_FRACTION:
		snprintf(err, errlen, "synth: %s=\"%.*s\": expected a decimal from 0 to 1",
			 k->name, (int)vlen, v);
		break;
	}
	return -EINVAL;
}

/* The key named by the @klen bytes at @p; NULL when there is none. */
static const struct opt_key *opt_find(const char *p, size_t klen)
{
	const struct opt_key *k = NULL;

	for (size_t i = 0; i < NR_OPT_KEYS; i++)
		if (strlen(opt_keys[i].name) == klen && !memcmp(opt_keys[i].name, p, klen))
			k = &opt_keys[i];
	return k;
}

/* "kernel=X.Y": one of the versions the facts table describes; the message lists them. */
static int kernel_store(struct mach_synth_opts *n, const char *v, size_t vlen, char *err, size_t errlen)
{
	char list[256];
	size_t len = 0;

	for (size_t i = 0; i < sy_nkernels; i++) {
		char name[16];
		int w = snprintf(name, sizeof(name), "%u.%u", sy_kernels[i] / 100, sy_kernels[i] % 100);

		if ((size_t)w == vlen && !memcmp(name, v, vlen)) {
			n->kernel = sy_kernels[i];
			return 0;
		}
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "", name);
		if (len >= sizeof(list))
			len = sizeof(list) - 1;
	}
	snprintf(err, errlen, "synth: kernel=\"%.*s\": expected one of %s", (int)vlen, v, list);
	return -EINVAL;
}

/*
 * "made" (the default): made from the seed when read, a few bytes per
 * process or table in the model; "stored": the model keeps them all (VMAs
 * some 10 KB per process, a container's mounts some 3 KB, fds 0.5 KB a
 * process), for readers
 * that want no work per read and for tests that compare the two.
 */
static int made_or_stored(const char *key, bool *store, const char *v, size_t vlen, char *err, size_t errlen)
{
	if (vlen == 4 && !memcmp(v, "made", 4))
		*store = false;
	else if (vlen == 6 && !memcmp(v, "stored", 6))
		*store = true;
	else {
		snprintf(err, errlen, "synth: %s=\"%.*s\": expected made or stored", key, (int)vlen, v);
		return -EINVAL;
	}
	return 0;
}

static int vmas_store(struct mach_synth_opts *n, const char *v, size_t vlen, char *err, size_t errlen)
{
	return made_or_stored("vmas", &n->store_vmas, v, vlen, err, errlen);
}

static int mounts_store(struct mach_synth_opts *n, const char *v, size_t vlen, char *err, size_t errlen)
{
	return made_or_stored("mounts", &n->store_mounts, v, vlen, err, errlen);
}

static int fds_store(struct mach_synth_opts *n, const char *v, size_t vlen, char *err, size_t errlen)
{
	return made_or_stored("fds", &n->store_fds, v, vlen, err, errlen);
}

/* Keys whose values are words rather than numbers, each with its own parser. */
struct text_key {
	const char *name;
	int (*store)(struct mach_synth_opts *n, const char *v, size_t vlen, char *err, size_t errlen);
};

static const struct text_key text_keys[] = {
	{ "kernel", kernel_store },
	{ "vmas", vmas_store },
	{ "mounts", mounts_store },
	{ "fds", fds_store },
};

#define NR_TEXT_KEYS (sizeof(text_keys) / sizeof(text_keys[0]))

static const struct text_key *text_key_find(const char *p, size_t klen)
{
	for (size_t i = 0; i < NR_TEXT_KEYS; i++)
		if (strlen(text_keys[i].name) == klen && !memcmp(text_keys[i].name, p, klen))
			return &text_keys[i];
	return NULL;
}

/* Store the @vlen bytes at @v as the value of @k in @n; 0, or -EINVAL with @err set. */
static int opt_store(struct mach_synth_opts *n, const struct opt_key *k, const char *v, size_t vlen,
		     char *err, size_t errlen)
{
	char *field = (char *)n + k->off;
	uint64_t u;
	double f;

	if (k->type == OPT_FRACTION) {
		if (!un_parse_decimal(v, vlen, 1.0, &f))
			return opt_error(err, errlen, k, v, vlen);
		*(double *)field = f;
		return 0;
	}
	if (k->type == OPT_U64) {
		if (!un_parse_uint(v, vlen, 0, UINT64_MAX, &u))
			return opt_error(err, errlen, k, v, vlen);
		*(uint64_t *)field = u;
		return 0;
	}
	if (!un_parse_uint(v, vlen, k->min, k->max, &u))
		return opt_error(err, errlen, k, v, vlen);
	*(unsigned int *)field = (unsigned int)u;
	return 0;
}

/*
 * The threads default follows tasks (tasks/4) unless threads is given in
 * the same spec: "synth:tasks=1000" means 250 extra threads, not the 50 of
 * the 200-task default.  Nothing is stored unless the whole spec parses.
 */
int mach_synth_parse(struct mach_synth_opts *o, const char *spec, char *err, size_t errlen)
{
	struct mach_synth_opts n = *o;
	bool tasks_set = false, threads_set = false, seen[NR_OPT_KEYS] = { false }, text_seen[NR_TEXT_KEYS] = { false };
	const struct text_key *tk;
	const char *p = spec ? spec : "";

	if (!*p) {
		snprintf(err, errlen, "synth: nothing after \"synth:\" (give key=value,... or plain \"synth\")");
		return -EINVAL;
	}
	while (*p) {
		const char *end = strchr(p, ','), *eq;
		const struct opt_key *k;
		size_t len, klen;
		int rc;

		len = end ? (size_t)(end - p) : strlen(p);
		eq = memchr(p, '=', len);
		if (!len) {
			snprintf(err, errlen, "synth: empty option in \"%s\" (expected key=value,...)", spec);
			return -EINVAL;
		}
		if (!eq) {
			snprintf(err, errlen, "synth: \"%.*s\": expected key=value", (int)len, p);
			return -EINVAL;
		}
		klen = (size_t)(eq - p);
		if ((tk = text_key_find(p, klen))) {
			if (text_seen[tk - text_keys]) {
				snprintf(err, errlen, "synth: %s given twice in \"%s\"", tk->name, spec);
				return -EINVAL;
			}
			text_seen[tk - text_keys] = true;
			if ((rc = tk->store(&n, eq + 1, len - klen - 1, err, errlen)))
				return rc;
		} else if ((k = opt_find(p, klen))) {
			if (seen[k - opt_keys]) {
				snprintf(err, errlen, "synth: %s given twice in \"%s\"", k->name, spec);
				return -EINVAL;
			}
			seen[k - opt_keys] = true;
			if ((rc = opt_store(&n, k, eq + 1, len - klen - 1, err, errlen)))
				return rc;
			tasks_set |= k->off == OPT_OFF(tasks);
			threads_set |= k->off == OPT_OFF(threads);
		} else {
			snprintf(err, errlen,
				 "synth: unknown key \"%.*s\" (known: cpus, tasks, threads, seed, depth, load, io, mem, "
				 "kernel, vmas, mounts, fds)",
				 (int)klen, p);
			return -EINVAL;
		}
		p += len;
		if (*p == ',') {
			p++;
			if (!*p) {
				snprintf(err, errlen, "synth: trailing ',' in \"%s\"", spec);
				return -EINVAL;
			}
		}
	}
	if (tasks_set && !threads_set)
		n.threads = n.tasks / 4;
	*o = n;
	return 0;
}
