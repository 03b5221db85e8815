// SPDX-License-Identifier: MIT
/*
 * load_sysctl.c - one key of /proc/sys into the model's tree (load.h
 * mach_loader_sysctl).
 *
 * What a read gives decides the type: decimals in the canonical form the
 * proc_dointvec family prints (no sign but '-', no leading zero, TABs
 * between them, a newline after) are numbers, signed if one is negative;
 * any other text ending in one newline is a string; no bytes at all is an
 * empty key.  A string key whose text happens to be a number is loaded as
 * a number: it prints the same.  Keys another part of the model holds
 * (mach_sysctl_src_of) go there, when the files agree.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_int.h"

/* One canonical decimal at *@p (before @end): 0, or -1 when it is not one. */
static int canon_decimal(const char **p, const char *end, uint64_t *mag, bool *neg)
{
	const char *q = *p;
	uint64_t v = 0;

	*neg = q < end && *q == '-';
	q += *neg;
	if (q >= end || *q < '0' || *q > '9' || (*q == '0' && q + 1 < end && q[1] >= '0' && q[1] <= '9'))
		return -1;
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		if (v > (UINT64_MAX - (uint64_t)(*q - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*q - '0');
	}
	if (*neg && (v == 0 || v > (uint64_t)INT64_MAX + 1))
		return -1; /* "-0" is no number the kernel prints */
	*mag = v;
	*p = q;
	return 0;
}

/* The numbers of @text (without its newline), or false when it is not a vector of them. */
static bool parse_nums(const char *text, size_t len, uint64_t **vals, uint32_t *n, bool *is_signed)
{
	const char *p = text, *end = text + len;
	uint64_t *v = NULL;
	bool any_neg = false, big = false;
	uint32_t k = 0;

	*vals = NULL;
	while (p < end) {
		uint64_t mag, *nv;
		bool neg;

		if ((k && *p++ != '\t') || canon_decimal(&p, end, &mag, &neg) || (p < end && *p != '\t') || k == 4096)
			goto no;
		nv = realloc(v, (k + 1) * sizeof(*v));
		if (!nv)
			goto no;
		v = nv;
		v[k++] = neg ? 0 - mag : mag;
		any_neg |= neg;
		big |= !neg && mag > INT64_MAX;
	}
	if (!k || (any_neg && big))
		goto no; /* one handler prints either signed or unsigned values */
	*vals = v;
	*n = k;
	*is_signed = any_neg;
	return true;
no:
	free(v);
	return false;
}

/* The value a read of key @id gave: numbers, a string, or nothing. */
static int put_value(struct mach_sysctl *t, uint32_t id, const char *path, const char *text, size_t len, char *err,
		     size_t errlen)
{
	uint64_t *vals;
	uint32_t n;
	bool is_signed;
	int rc;

	if (!len) {
		mach_sysctl_set_kind(t, id, MACH_SYSCTL_EMPTY);
		return 0;
	}
	if (text[len - 1] != '\n') {
		snprintf(err, errlen, "%s: expected the value to end with a newline", path);
		return -EINVAL;
	}
	if (parse_nums(text, len - 1, &vals, &n, &is_signed)) {
		rc = mach_sysctl_set_nums(t, id, vals, n, is_signed);
		free(vals);
		return rc;
	}
	return mach_sysctl_set_string(t, id, text, len - 1);
}

/*
 * A key that another file shows too: the model holds it there.  0 when
 * taken; *@skip when the value moved since that file was read (the key
 * still shows the other file's value).
 */
static int put_derived(struct mach_loader *ld, uint32_t id, enum mach_sysctl_src src, const char **skip)
{
	struct mach_machine *m = ld->m;
	struct mach_sysctl_node *n = &m->sysctl->nodes[id];
	bool one_num = n->kind == MACH_SYSCTL_NUMS && n->nvals == 1;

	switch (src) {
	case MACH_SYSCTL_SRC_OSRELEASE:
		if (n->kind != MACH_SYSCTL_STRING || n->len >= sizeof(m->profile.kernel_release) ||
		    memchr(n->str, '\0', n->len))
			return 0; /* not a release the profile can hold: the key keeps its own */
		memcpy(m->profile.kernel_release, n->str, n->len + 1);
		break;
	case MACH_SYSCTL_SRC_PID_MAX:
		if (!one_num || n->vals[0] > INT32_MAX)
			return 0;
		m->pid_max = (pid_t)n->vals[0];
		break;
	case MACH_SYSCTL_SRC_NS_LAST_PID:
		if (!one_num || n->vals[0] > INT32_MAX)
			return 0;
		if (ld->have_loadavg && m->last_pid != (pid_t)n->vals[0]) {
			*skip = "moved since /proc/loadavg was read (its last pid is this key's value)";
			break;
		}
		m->last_pid = (pid_t)n->vals[0];
		break;
	case MACH_SYSCTL_SRC_FILE_NR: {
		int64_t max = mach_sysctl_find(m->sysctl, "fs/file-max");
		const struct mach_sysctl_node *fm = max > 0 ? &m->sysctl->nodes[max] : NULL;

		if (n->kind != MACH_SYSCTL_NUMS || n->nvals != 3 || n->is_signed || n->vals[1] || !fm ||
		    fm->kind != MACH_SYSCTL_NUMS || fm->nvals != 1 || fm->vals[0] != n->vals[2])
			return 0;
		m->sysctl->nr_files = n->vals[0];
		break;
	}
	case MACH_SYSCTL_SRC_RANDOM_UUID:
		*skip = "a new random UUID on every read";
		break;
	default:
		return 0;
	}
	mach_sysctl_set_kind(m->sysctl, id, MACH_SYSCTL_STRING);
	n->src = (uint8_t)src;
	return 0;
}

int mach_loader_sysctl(struct mach_loader *ld, const char *key, unsigned int mode, int read_rc, const char *text,
		       size_t len, const char **skip, char *err, size_t errlen)
{
	struct mach_machine *m = ld ? ld->m : NULL;
	uint32_t id;
	int rc;

	*skip = NULL;
	if (!m || !key || (!text && len) || (read_rc && read_rc != -EIO)) {
		snprintf(err, errlen, "mach_loader_sysctl: missing loader, key or text");
		return -EINVAL;
	}
	if (!m->sysctl && !(m->sysctl = mach_sysctl_new()))
		return -ENOMEM;
	rc = mach_sysctl_make(m->sysctl, key, false, &id);
	if (rc) {
		snprintf(err, errlen, "sys/%s: %s", key,
			 rc == -ENOTDIR ? "a key where the tree has a directory, or below a key" : strerror(-rc));
		return rc;
	}
	m->sysctl->nodes[id].mode = (uint16_t)(mode & 07777);
	if (!(mode & 0400)) {
		mach_sysctl_set_kind(m->sysctl, id, MACH_SYSCTL_WRITE_ONLY);
		*skip = "write-only: its owner may not read it";
		return 0;
	}
	if (read_rc == -EIO) {
		mach_sysctl_set_kind(m->sysctl, id, MACH_SYSCTL_UNSET);
		*skip = "a read fails with EIO (not set)";
		return 0;
	}
	if ((rc = ld_refuse_nul(key, text, len, err, errlen)))
		return rc;
	rc = put_value(m->sysctl, id, key, text, len, err, errlen);
	if (!rc)
		rc = put_derived(ld, id, mach_sysctl_src_of(key), skip);
	return rc;
}
