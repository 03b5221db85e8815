// SPDX-License-Identifier: MIT
/*
 * capture_info.c - what a capture says of itself (MACH_CAPTURE_INFO in
 * load.h): the kernel release and the clocks when it was taken, as lines of
 * "key value".  Written by `uprocfs capture`, read by the tree walk.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "uprocfs/load.h"

/* "S.NNNNNNNNN" (1 to 9 digits after the point, or none) into nanoseconds; false when it is not one. */
static bool parse_time(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, digits = 0;

	if (!len || s[0] < '0' || s[0] > '9')
		return false;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (sec > (UINT64_MAX / 1000000000u - 9) / 10)
			return false;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9' && digits < 9; i++, digits++)
			frac = frac * 10 + (uint64_t)(s[i] - '0');
		if (!digits)
			return false;
		for (size_t d = digits; d < 9; d++)
			frac *= 10;
	}
	if (i != len)
		return false;
	*ns = sec * 1000000000u + frac;
	return true;
}

/* @v[0..len) into @buf (NUL-terminated): false when it does not fit or holds a NUL. */
static bool put_text(char *buf, size_t size, const char *v, size_t len)
{
	if (len >= size || memchr(v, '\0', len))
		return false;
	memcpy(buf, v, len);
	buf[len] = '\0';
	return true;
}

int mach_capture_info_parse(const char *path, const char *text, size_t len, struct mach_capture_info *ci,
			    char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	unsigned int line = 0;

	memset(ci, 0, sizeof(*ci));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *sp;
		size_t klen, vlen;
		const char *v;
		bool ok = true;

		line++;
		if (!nl) {
			snprintf(err, errlen, "%s:%u: expected the line to end with a newline", path, line);
			return -EINVAL;
		}
		sp = memchr(p, ' ', (size_t)(nl - p));
		if (!sp || sp == p) {
			snprintf(err, errlen, "%s:%u: expected \"key value\"", path, line);
			return -EINVAL;
		}
		klen = (size_t)(sp - p);
		v = sp + 1;
		vlen = (size_t)(nl - v);
		if (line == 1 && (klen != 15 || memcmp(p, "uprocfs-capture", 15) || vlen != 1 || *v != '1')) {
			snprintf(err, errlen, "%s:1: expected \"uprocfs-capture 1\"", path);
			return -EINVAL;
		}
		if (klen == 14 && !memcmp(p, "kernel_release", 14))
			ok = put_text(ci->kernel_release, sizeof(ci->kernel_release), v, vlen);
		else if (klen == 8 && !memcmp(p, "hostname", 8))
			ok = put_text(ci->hostname, sizeof(ci->hostname), v, vlen);
		else if (klen == 4 && !memcmp(p, "time", 4))
			ok = parse_time(v, vlen, &ci->time_ns);
		else if (klen == 8 && !memcmp(p, "boottime", 8))
			ok = parse_time(v, vlen, &ci->boottime_ns);
		if (!ok) {
			snprintf(err, errlen, "%s:%u: the value of %.*s is not one a capture writes", path, line, (int)klen,
				 p);
			return -EINVAL;
		}
		p = nl + 1;
	}
	if (!line) {
		snprintf(err, errlen, "%s: empty", path);
		return -EINVAL;
	}
	return 0;
}

int mach_capture_info_format(const struct mach_capture_info *ci, char *buf, size_t size)
{
	int n = snprintf(buf, size,
			 "uprocfs-capture 1\n"
			 "kernel_release %s\n"
			 "time %" PRIu64 ".%09" PRIu64 "\n"
			 "boottime %" PRIu64 ".%09" PRIu64 "\n",
			 ci->kernel_release, ci->time_ns / 1000000000u, ci->time_ns % 1000000000u,
			 ci->boottime_ns / 1000000000u, ci->boottime_ns % 1000000000u);

	if (n > 0 && (size_t)n < size && ci->hostname[0])
		n += snprintf(buf + n, size - (size_t)n, "hostname %s\n", ci->hostname);
	return n < 0 || (size_t)n >= size ? -ENOSPC : n;
}
