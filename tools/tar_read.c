// SPDX-License-Identifier: MIT
/*
 * tar_read.c - a tar stream's members (tar_read.h), from the blocks
 * libarchive's raw format hands out: 512-byte headers, each member's data
 * padded to 512 bytes, two zero blocks at the end.
 */
#include <archive.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tar_read.h"

#define BLOCK 512
#define NAME_MAX_LEN 4096

struct tar_reader {
	struct archive *ar;
	const unsigned char *blk; /* the decompressed bytes libarchive gave, not yet used */
	size_t left;
	bool eof;
	uint64_t pending;         /* the current member's data and padding not yet read */
	uint64_t data_left;       /* of which data */
	bool any;                 /* a member was read */
	/* what extended headers (pax 'x', GNU 'L'/'K') say of the next member */
	char *xpath, *xlink;
	bool has_size, has_mtime;
	uint64_t xsize;
	int64_t xmtime_ns;
	char name[NAME_MAX_LEN + 1], target[NAME_MAX_LEN + 1];
	char err[160];
};

struct tar_reader *tar_open(struct archive *ar)
{
	struct tar_reader *t = calloc(1, sizeof(*t));

	if (t)
		t->ar = ar;
	return t;
}

void tar_close(struct tar_reader *t)
{
	if (!t)
		return;
	free(t->xpath);
	free(t->xlink);
	free(t);
}

const char *tar_error(const struct tar_reader *t)
{
	return t->err;
}

static int fail(struct tar_reader *t, int rc, const char *what)
{
	snprintf(t->err, sizeof(t->err), "%s", what);
	return rc;
}

/* More decompressed bytes: 0, 1 at the end of the stream, -EINVAL on a read error. */
static int refill(struct tar_reader *t)
{
	const void *buf;
	size_t size;
	la_int64_t off;
	int st;

	while (!t->left && !t->eof) {
		st = archive_read_data_block(t->ar, &buf, &size, &off);
		if (st == ARCHIVE_EOF)
			t->eof = true;
		else if (st != ARCHIVE_OK && st != ARCHIVE_WARN)
			return fail(t, -EINVAL, archive_error_string(t->ar) ? archive_error_string(t->ar) : "read error");
		else {
			t->blk = buf;
			t->left = size;
		}
	}
	return t->left ? 0 : 1;
}

/* @n bytes into @dst (NULL: skipped): 0, 1 at the end before any, -EINVAL when they end midway. */
static int take(struct tar_reader *t, void *dst, uint64_t n)
{
	uint64_t done = 0;

	while (done < n) {
		int rc = refill(t);
		size_t k;

		if (rc)
			return rc < 0 ? rc : done ? fail(t, -EINVAL, "truncated") : 1;
		k = t->left < n - done ? t->left : (size_t)(n - done);
		if (dst)
			memcpy((char *)dst + done, t->blk, k);
		t->blk += k;
		t->left -= k;
		done += k;
	}
	return 0;
}

/* A numeric header field: octal digits padded with spaces or NULs, or base-256 (first byte's top bit). */
static bool number(const unsigned char *f, size_t len, uint64_t *v)
{
	size_t i = 0;

	*v = 0;
	if (f[0] & 0x80) {
		/* base-256, big-endian after the marker byte; a negative one (0xff) is no size or time we take */
		if (f[0] != 0x80)
			return false;
		for (i = 1; i < len; i++) {
			if (*v >> 56)
				return false;
			*v = *v << 8 | f[i];
		}
		return true;
	}
	while (i < len && f[i] == ' ')
		i++;
	for (; i < len && f[i] >= '0' && f[i] <= '7'; i++) {
		if (*v >> 60)
			return false;
		*v = *v * 8 + (uint64_t)(f[i] - '0');
	}
	for (; i < len; i++)
		if (f[i] != ' ' && f[i])
			return false;
	return true;
}

/*
 * The header's checksum: the sum of its bytes, the checksum field read as
 * spaces, unsigned or (old tars) signed.  Summed eight bytes at a time in
 * 16-bit lanes (at most 64 * 255 each); the signed sum is the unsigned one
 * less 256 for each byte with its top bit set.
 */
static bool checksum_ok(const unsigned char *h)
{
	const uint64_t lanes = 0x00ff00ff00ff00ffull;
	uint64_t want, lo = 0, hi = 0;
	long us = 8 * ' ', high = 0, s;

	if (!number(h + 148, 8, &want))
		return false;
	for (int i = 0; i < BLOCK; i += 8) {
		uint64_t w;

		memcpy(&w, h + i, 8);
		lo += w & lanes;
		hi += (w >> 8) & lanes;
		/* the top bits, one per byte, summed into the top byte */
		high += (long)((((w >> 7) & 0x0101010101010101ull) * 0x0101010101010101ull) >> 56);
	}
	for (int k = 0; k < 64; k += 16)
		us += (long)((lo >> k) & 0xffff) + (long)((hi >> k) & 0xffff);
	for (int i = 148; i < 156; i++) {
		us -= h[i];
		high -= h[i] >> 7;
	}
	s = us - 256 * high;
	return (uint64_t)us == want || (uint64_t)s == want;
}

/* A NUL-padded field as a string into @out (@cap bytes). */
static void field(const unsigned char *f, size_t len, char *out)
{
	size_t n = strnlen((const char *)f, len);

	memcpy(out, f, n);
	out[n] = '\0';
}

/* The data of an extended header, @size bytes, into a new string: NULL on ENOMEM or a read error (t->err). */
static char *ext_data(struct tar_reader *t, uint64_t size, int *rc)
{
	uint64_t padded = (size + BLOCK - 1) / BLOCK * BLOCK;
	char *s;

	if (size > (1u << 20)) {
		*rc = fail(t, -ENOTSUP, "an extended header larger than 1 MiB");
		return NULL;
	}
	if (!(s = malloc(size + 1))) {
		*rc = -ENOMEM;
		return NULL;
	}
	if ((*rc = take(t, s, size)) || (*rc = take(t, NULL, padded - size))) {
		if (*rc > 0)
			*rc = fail(t, -EINVAL, "truncated");
		free(s);
		return NULL;
	}
	s[size] = '\0';
	return s;
}

/* A pax time, "seconds[.fraction]", in nanoseconds. */
static bool pax_time(const char *v, const char *end, int64_t *ns)
{
	int64_t sec = 0, frac = 0, scale = 1000000000;
	bool neg = v < end && *v == '-';

	v += neg;
	for (; v < end && *v >= '0' && *v <= '9'; v++)
		sec = sec * 10 + (*v - '0');
	if (v < end && *v == '.')
		for (v++; v < end && *v >= '0' && *v <= '9'; v++)
			if (scale > 1)
				frac += (*v - '0') * (scale /= 10);
	*ns = (neg ? -1 : 1) * (sec * 1000000000 + frac);
	return v == end;
}

/* The records of a pax extended header: "LEN key=value\n" each; those the next member takes. */
static int pax_records(struct tar_reader *t, const char *s, size_t size)
{
	const char *p = s, *end = s + size;

	while (p < end) {
		char *eq, *val, *stop;
		unsigned long len = strtoul(p, &stop, 10);
		const char *rec_end = p + len;

		if (!len || *stop != ' ' || rec_end > end || rec_end[-1] != '\n' ||
		    !(eq = memchr(stop + 1, '=', (size_t)(rec_end - stop - 1))))
			return fail(t, -EINVAL, "a pax extended header record not \"LEN key=value\"");
		val = eq + 1;
#define KEY(k) ((size_t)(eq - stop - 1) == strlen(k) && !memcmp(stop + 1, k, strlen(k)))
		if (KEY("path") || KEY("linkpath")) {
			char **dst = KEY("path") ? &t->xpath : &t->xlink;

			if (memchr(val, '\0', (size_t)(rec_end - 1 - val)))
				return fail(t, -EINVAL, "a pax path holding a NUL");
			free(*dst);
			if (!(*dst = strndup(val, (size_t)(rec_end - 1 - val))))
				return -ENOMEM;
		} else if (KEY("size")) {
			t->has_size = true;
			t->xsize = strtoull(val, NULL, 10);
		} else if (KEY("mtime")) {
			t->has_mtime = pax_time(val, rec_end - 1, &t->xmtime_ns);
		} else if (KEY("GNU.sparse.size") || KEY("GNU.sparse.map") || KEY("GNU.sparse.major")) {
			return fail(t, -ENOTSUP, "a sparse file");
		}
#undef KEY
		p = rec_end;
	}
	return 0;
}

/* An extended header of kind @type ('x', 'g', 'L', 'K'), its data @size bytes. */
static int extended(struct tar_reader *t, char type, uint64_t size)
{
	int rc = 0;
	char *s = ext_data(t, size, &rc);

	if (!s)
		return rc;
	if (type == 'x')
		rc = pax_records(t, s, size);
	else if (type == 'L' || type == 'K') {
		char **dst = type == 'L' ? &t->xpath : &t->xlink;

		free(*dst);
		*dst = s;
		return 0;
	}
	free(s);
	return rc;
}

/* What a typeflag makes of a member, or 0 for one this reader does not read. */
static char member_type(char flag)
{
	switch (flag) {
	case '0': case '\0': case '7': return 'f';
	case '1': return 'h';
	case '2': return 'l';
	case '5': return 'd';
	case '3': case '4': case '6': return 'o';
	default: return 0;
	}
}

/* Fill @m from header @h and what extended headers said of it. */
static int header(struct tar_reader *t, const unsigned char *h, struct tar_member *m)
{
	uint64_t size, mode, mtime;
	char prefix[156];
	bool ustar = !memcmp(h + 257, "ustar", 5);

	if (!number(h + 124, 12, &size) || !number(h + 100, 8, &mode) || !number(h + 136, 12, &mtime))
		return fail(t, -EINVAL, "a header number that is not one");
	if (!(m->type = member_type((char)h[156])))
		return fail(t, -ENOTSUP, "an entry of a kind this reader does not read");
	field(h, 100, t->name);
	/* POSIX ustar splits a long name at a '/': prefix, then name (GNU's "ustar  " keeps other data there) */
	if (ustar && h[345] && memcmp(h + 257, "ustar  ", 8)) {
		size_t pl, nl = strlen(t->name);

		field(h + 345, 155, prefix);
		pl = strlen(prefix);
		memmove(t->name + pl + 1, t->name, nl + 1);
		memcpy(t->name, prefix, pl);
		t->name[pl] = '/';
	}
	field(h + 157, 100, t->target);
	m->path = t->xpath ? t->xpath : t->name;
	m->link = t->xlink ? t->xlink : t->target;
	m->mode = (unsigned int)(mode & 07777);
	m->mtime_ns = t->has_mtime ? t->xmtime_ns : (int64_t)mtime * 1000000000;
	m->size = t->has_size ? t->xsize : size;
	/* data follows a file, and in pax may follow a hard link (skipped); a symlink's size is no data */
	t->data_left = m->type == 'f' ? m->size : 0;
	t->pending = m->type == 'f' || m->type == 'h' ? (m->size + BLOCK - 1) / BLOCK * BLOCK : 0;
	if (m->type != 'f')
		m->size = 0;
	return 0;
}

int tar_next(struct tar_reader *t, struct tar_member *m)
{
	unsigned char h[BLOCK];
	int rc;

	/* what is left of the last member */
	if ((rc = take(t, NULL, t->pending)) < 0)
		return rc;
	t->pending = t->data_left = 0;
	free(t->xpath);
	free(t->xlink);
	t->xpath = t->xlink = NULL;
	t->has_size = t->has_mtime = false;
	for (;;) {
		uint64_t size;

		rc = take(t, h, BLOCK);
		if (rc)
			return rc > 0 ? (t->any ? 1 : fail(t, -ENOTSUP, "empty")) : rc;
		if (!h[0] && !memcmp(h, h + 1, BLOCK - 1))
			return t->any ? 1 : fail(t, -ENOTSUP, "no member");
		if (!checksum_ok(h))
			return fail(t, t->any ? -EINVAL : -ENOTSUP, "a header whose checksum fails");
		if (!strchr("xgLK", (char)h[156]) || !h[156])
			break;
		if (!number(h + 124, 12, &size))
			return fail(t, -EINVAL, "a header number that is not one");
		if ((rc = extended(t, (char)h[156], size)))
			return rc;
	}
	if ((rc = header(t, h, m)))
		return rc;
	if (!m->path[0] && m->type != 'd')
		return fail(t, -EINVAL, "a member without a name");
	t->any = true;
	return 0;
}

int tar_data(struct tar_reader *t, char *dst, size_t n, const char **data)
{
	int rc;

	if (n != t->data_left)
		return fail(t, -EINVAL, "data asked for is not the member's");
	/* within the block decompressed last, it is read where it lies */
	if (!t->left && n)
		refill(t);
	if (t->left >= n) {
		*data = (const char *)t->blk;
		t->blk += n;
		t->left -= n;
		t->pending -= n;
		t->data_left = 0;
		return 0;
	}
	*data = dst;
	rc = take(t, dst, n);
	if (rc)
		return rc > 0 ? fail(t, -EINVAL, "truncated") : rc;
	t->pending -= n;
	t->data_left = 0;
	return 0;
}
