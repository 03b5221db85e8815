// SPDX-License-Identifier: MIT
/*
 * capture_read.c - captures as people take them, opened for loading
 * (capture_read.h): directories, sosreport-style trees and archives.
 *
 * An archive is read whole into memory with libarchive (any format and
 * compression it knows) and handed to the loader as members
 * (mach_load_opts.members): nothing is written to disk, so no member can
 * land outside a directory, and nothing an archive says is followed.  Its
 * members are checked before anything is loaded; the first hostile one
 * refuses the archive, with its name.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../src/util/readfile.h"
#include "capture_read.h"
#include "tar_read.h"
#include "uprocfs/procfs.h"

/*
 * Blocks of 8 MiB on huge-page boundaries, which the kernel may back with
 * huge pages: a capture's distinct bytes run to hundreds of MiB, and a
 * page fault per 4 KiB of them costs more than their copying.
 */
#define BLOCK_SIZE (((size_t)8 << 20) - sizeof(struct block))
#define HUGE_PAGE ((size_t)2 << 20)

/* A block of member bytes; members larger than a block get one of their own. */
struct block {
	struct block *next;
	size_t used, cap;
	char data[];
};

/* A member's bytes already held: the same bytes again share them. */
struct held {
	uint64_t hash;
	const char *data;  /* NULL: an empty slot */
	size_t len;
};

/* What reading an archive holds while it goes. */
struct reader {
	struct capture_archive *a;
	size_t cap;        /* of a->m */
	size_t total;      /* bytes held */
	size_t unpacked;   /* bytes read, shared or not */
	char *scratch;     /* a member read before it is known to be new */
	size_t scratch_cap;
	struct held *held; /* open addressing, a power of two; half full at most */
	size_t nheld, held_cap;
	char *err;
	size_t errlen;
};

/* Below this, a member is held without looking for its twin. */
#define SHARE_MIN 256

/* A hash of @len bytes at @p from their length, their ends and 64 bytes spread between. */
static uint64_t sample_hash(const unsigned char *p, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len;
	size_t step = len / 64 ? len / 64 : 1;

	for (size_t i = 0; i < 32 && i < len; i++)
		h = (h ^ p[i] ^ (uint64_t)p[len - 1 - i] << 8) * 0x100000001b3ull;
	for (size_t i = 0; i < len; i += step)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h ^ (h >> 31);
}

/* The slot of the held bytes equal to @p (@len, @hash), or the empty one where they would go. */
static struct held *held_find(struct reader *r, const char *p, size_t len, uint64_t hash)
{
	size_t i = hash & (r->held_cap - 1);

	for (;; i = (i + 1) & (r->held_cap - 1)) {
		struct held *e = &r->held[i];

		if (!e->data || (e->hash == hash && e->len == len && !memcmp(e->data, p, len)))
			return e;
	}
}

/* Room for one more held member: 0 or -ENOMEM. */
static int held_grow(struct reader *r)
{
	struct held *old = r->held;
	size_t n = r->held_cap;

	if (r->nheld * 2 < r->held_cap)
		return 0;
	r->held_cap = n ? n * 2 : 4096;
	r->held = calloc(r->held_cap, sizeof(*r->held));
	if (!r->held) {
		r->held = old;
		r->held_cap = n;
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (old[i].data)
			*held_find(r, old[i].data, old[i].len, old[i].hash) = old[i];
	free(old);
	return 0;
}

/* @len bytes of memory for a member (NUL-terminated beyond), from the blocks; NULL on ENOMEM. */
static char *take(struct reader *r, size_t len)
{
	struct block *b = r->a->blocks;
	char *p;

	if (!b || b->cap - b->used < len + 1) {
		size_t cap = len + 1 > BLOCK_SIZE ? len + 1 : BLOCK_SIZE;

		if (posix_memalign((void **)&b, HUGE_PAGE, sizeof(*b) + cap))
			return NULL;
		madvise(b, sizeof(*b) + cap, MADV_HUGEPAGE);
		b->used = 0;
		b->cap = cap;
		/* a big member's own block goes behind the current one, which keeps filling */
		if (r->a->blocks && cap > BLOCK_SIZE) {
			b->next = ((struct block *)r->a->blocks)->next;
			((struct block *)r->a->blocks)->next = b;
		} else {
			b->next = r->a->blocks;
			r->a->blocks = b;
		}
	}
	p = b->data + b->used;
	b->used += len + 1;
	p[len] = '\0';
	return p;
}

static int fail(struct reader *r, int rc, const char *fmt, const char *member, const char *more)
{
	char msg[600];

	snprintf(msg, sizeof(msg), fmt, member, more ? more : "");
	snprintf(r->err, r->errlen, "%s: %s", r->a->name, msg);
	return rc;
}

/*
 * @raw as a clean path beneath the archive's root into @out ("./a//b/" ->
 * "a/b"; "" for the root itself); false when it leaves the root.
 */
static bool clean_member_path(const char *raw, char *out, size_t size)
{
	const char *p = raw;
	size_t n = 0;

	if (*p == '/')
		return false;
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (len == 2 && p[0] == '.' && p[1] == '.')
			return false;
		if (len && !(len == 1 && p[0] == '.')) {
			if (n + len + 2 > size)
				return false;
			if (n)
				out[n++] = '/';
			memcpy(out + n, p, len);
			n += len;
		}
		p += len + (slash != NULL);
	}
	out[n] = '\0';
	return true;
}

/* Room for @size bytes and a NUL in the reader's scratch buffer: 0 or -ENOMEM. */
static int scratch_fit(struct reader *r, size_t size)
{
	char *p;

	if (size < r->scratch_cap)
		return 0;
	if (!(p = realloc(r->scratch, size + 1)))
		return -ENOMEM;
	r->scratch = p;
	r->scratch_cap = size + 1;
	return 0;
}

/*
 * A file member's @len bytes, read at @bytes, into memory of the reader
 * (*@data).  A capture holds every task's net/ tables, the same
 * bytes for each task of a namespace: a member equal to one read before
 * shares its bytes (the walk then knows them the same by their address).
 */
static int hold(struct reader *r, const char *path, const char *bytes, size_t len, const char **data)
{
	struct held *e = NULL;
	uint64_t h = 0;
	char *buf;

	if (len >= SHARE_MIN) {
		if (held_grow(r))
			return fail(r, -ENOMEM, "%s: out of memory%s", path, NULL);
		h = sample_hash((const unsigned char *)bytes, len);
		e = held_find(r, bytes, len, h);
		if (e->data) {
			*data = e->data;
			return 0;
		}
	}
	if (!(buf = take(r, len)))
		return fail(r, -ENOMEM, "%s: out of memory%s", path, NULL);
	memcpy(buf, bytes, len);
	buf[len] = '\0';
	r->total += len;
	if (e) {
		*e = (struct held){ .hash = h, .data = buf, .len = len };
		r->nheld++;
	}
	*data = buf;
	return 0;
}

/* The current member's @size bytes from libarchive into the scratch buffer. */
static int read_data(struct reader *r, struct archive *ar, const char *path, size_t size)
{
	size_t got = 0;

	while (got <= size) {
		la_ssize_t n = archive_read_data(ar, r->scratch + got, size - got + (got == size));

		if (n < 0)
			return fail(r, -EIO, "%s: %s", path, archive_error_string(ar));
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got != size)
		return fail(r, -EIO, "%s: %s", path, got > size ? "more bytes than its header says" : "truncated");
	return 0;
}

/* Whether a file member of @size bytes may be read: 0, or -EFBIG with the reason. */
static int size_ok(struct reader *r, const char *raw, uint64_t size)
{
	char more[80];

	if (size > UF_LIMIT_DEFAULT) {
		snprintf(more, sizeof(more), "%llu bytes, more than the %u MiB the loader reads of one file",
			 (unsigned long long)size, UF_LIMIT_DEFAULT >> 20);
		return fail(r, -EFBIG, "member \"%s\": %s", raw, more);
	}
	if (r->total + size > CAPTURE_TOTAL_LIMIT || r->unpacked + size > CAPTURE_UNPACK_LIMIT)
		return fail(r, -EFBIG, "member \"%s\": the archive holds more than %s", raw,
			    r->total + size > CAPTURE_TOTAL_LIMIT ? "4 GiB of distinct bytes" : "64 GiB");
	if (scratch_fit(r, (size_t)size))
		return fail(r, -ENOMEM, "%s: out of memory%s", raw, NULL);
	r->unpacked += size;
	return 0;
}

/* A member of kind @type ('f', 'd', 'l', 'h' hard link, 'o' other) that a capture may hold: 0 when refused. */
static char kind_ok(struct reader *r, char type, const char *path, const char *hardlink)
{
	if (type == 'h')
		return fail(r, 0, "member \"%s\": a hard link (to \"%s\"): not in a capture, refused", path,
			    hardlink ? hardlink : "?");
	if (type == 'o')
		return fail(r, 0, "member \"%s\": a device, FIFO or socket: not in a capture, refused%s", path, NULL);
	return type;
}

/*
 * A member, from whichever reader, checked, into the reader's list: @raw
 * its path as the archive names it, @data and @len a file's bytes (held
 * already) or a link's target (copied here).
 */
static int put_member(struct reader *r, const char *raw, char type, unsigned int mode, int64_t mtime_ns,
		      const char *data, size_t len)
{
	struct mach_tree_member *m;
	char path[4096];

	if (!clean_member_path(raw, path, sizeof(path)))
		return fail(r, -EINVAL, "member \"%s\": a path that leaves the archive (absolute or ..), refused%s",
			    raw, NULL);
	if (!path[0])
		return 0; /* the archive's root itself */
	if (type == 'l') {
		const char *t = data;

		if (!(data = take(r, len)))
			return fail(r, -ENOMEM, "%s: out of memory%s", raw, NULL);
		memcpy((char *)data, t, len);
	}
	if (r->a->n >= CAPTURE_MEMBERS_LIMIT)
		return fail(r, -EFBIG, "member \"%s\": more members than a capture holds%s", raw, NULL);
	if (r->a->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1024;
		struct mach_tree_member *n = realloc(r->a->m, cap * sizeof(*n));

		if (!n)
			return fail(r, -ENOMEM, "%s: out of memory%s", raw, NULL);
		r->a->m = n;
		r->cap = cap;
	}
	m = &r->a->m[r->a->n];
	*m = (struct mach_tree_member){ .type = type, .mode = mode, .data = type == 'd' ? NULL : data,
					.len = type == 'd' ? 0 : len, .mtime_ns = mtime_ns };
	m->path = take(r, strlen(path));
	if (!m->path)
		return fail(r, -ENOMEM, "%s: out of memory%s", raw, NULL);
	memcpy((char *)m->path, path, strlen(path));
	r->a->n++;
	return 0;
}

/* libarchive's current member into the reader's list. */
static int add_member(struct reader *r, struct archive *ar, struct archive_entry *e)
{
	const char *raw = archive_entry_pathname(e), *data = NULL;
	char type = archive_entry_filetype(e) == AE_IFREG ? (archive_entry_hardlink(e) ? 'h' : 'f') :
		    archive_entry_filetype(e) == AE_IFDIR ? 'd' : archive_entry_filetype(e) == AE_IFLNK ? 'l' : 'o';
	size_t len = 0;
	int rc;

	if (!raw)
		return fail(r, -EINVAL, "a member whose name cannot be read%s%s", "", NULL);
	if (!kind_ok(r, type, raw, archive_entry_hardlink(e)))
		return -EINVAL;
	if (type == 'f') {
		la_int64_t size = archive_entry_size_is_set(e) ? archive_entry_size(e) : 0;

		if ((rc = size_ok(r, raw, size < 0 ? UINT64_MAX : (uint64_t)size)) ||
		    (rc = read_data(r, ar, raw, (size_t)size)) || (rc = hold(r, raw, r->scratch, (size_t)size, &data)))
			return rc;
		len = (size_t)size;
	} else if (type == 'l') {
		if (!(data = archive_entry_symlink(e)))
			return fail(r, -EINVAL, "member \"%s\": a symlink whose target cannot be read%s", raw, NULL);
		len = strlen(data);
	}
	return put_member(r, raw, type, archive_entry_perm(e),
			  (int64_t)archive_entry_mtime(e) * 1000000000 + archive_entry_mtime_nsec(e), data, len);
}

/*
 * Every member of a tar stream, read with tar_read.c from the bytes @ar
 * decompresses: -ENOTSUP when it is no tar that reader knows (the caller
 * reads the archive again with libarchive's readers).
 */
static int read_tar(struct reader *r, struct archive *ar)
{
	struct tar_reader *t = tar_open(ar);
	struct archive_entry *e;
	struct tar_member tm;
	const char *data;
	int rc;

	if (!t)
		return -ENOMEM;
	if (archive_read_next_header(ar, &e) != ARCHIVE_OK) {
		tar_close(t);
		return -ENOTSUP;
	}
	while (!(rc = tar_next(t, &tm))) {
		data = tm.type == 'l' ? tm.link : NULL;
		if (!kind_ok(r, tm.type, tm.path, tm.link)) {
			rc = -EINVAL;
			break;
		}
		if (tm.type == 'f' && ((rc = size_ok(r, tm.path, tm.size)) ||
				       (rc = tar_data(t, r->scratch, (size_t)tm.size, &data) ?
					     fail(r, -EINVAL, "not an archive libarchive reads, or a damaged or truncated "
						  "one: %s%s", tar_error(t), NULL) : 0) ||
				       (rc = hold(r, tm.path, data, (size_t)tm.size, &data))))
			break;
		if ((rc = put_member(r, tm.path, tm.type, tm.mode, tm.mtime_ns, data,
				     tm.type == 'f' ? (size_t)tm.size : data ? strlen(data) : 0)))
			break;
	}
	if (rc == -EINVAL && !r->err[0])
		fail(r, -EINVAL, "not an archive libarchive reads, or a damaged or truncated one: %s%s", tar_error(t),
		     NULL);
	tar_close(t);
	return rc > 0 ? 0 : rc;
}

/* Every member of the open archive @ar. */
static int read_members(struct reader *r, struct archive *ar)
{
	struct archive_entry *e;
	int rc;

	for (;;) {
		int st = archive_read_next_header(ar, &e);

		if (st == ARCHIVE_EOF)
			return 0;
		if (st != ARCHIVE_OK && st != ARCHIVE_WARN)
			return fail(r, -EINVAL, "not an archive libarchive reads, or a damaged or truncated one: %s%s",
				    archive_error_string(ar) ? archive_error_string(ar) : "?", NULL);
		if ((rc = add_member(r, ar, e)))
			return rc;
	}
}

/* What one look at the members beneath a prefix saw. */
struct level {
	bool proc_file;      /* stat, meminfo, ... right beneath it */
	bool pid_dir;        /* a pid directory right beneath it */
	size_t ntops;        /* distinct first components beneath it, counted up to 2 */
	const char *top;     /* the first of them */
	size_t top_len;
	bool top_is_dir;     /* members lie beneath it */
};

/* Whether @name[0..len) is a file only a /proc tree holds at its root. */
static bool proc_name(const char *name, size_t len)
{
	static const char *const names[] = { "stat", "meminfo", "uptime", "loadavg", "version", MACH_CAPTURE_INFO };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && !memcmp(names[i], name, len))
			return true;
	return false;
}

/* One pass over the members beneath @prefix ("" or "dir/"): what lies right beneath it. */
static void look(const struct capture_archive *a, const char *prefix, struct level *lv)
{
	size_t plen = strlen(prefix);

	memset(lv, 0, sizeof(*lv));
	for (size_t i = 0; i < a->n; i++) {
		const char *p = a->m[i].path, *rest, *slash;
		size_t len;

		if (strncmp(p, prefix, plen) || !p[plen])
			continue;
		rest = p + plen;
		slash = strchr(rest, '/');
		len = slash ? (size_t)(slash - rest) : strlen(rest);
		if (!slash && a->m[i].type == 'f' && proc_name(rest, len))
			lv->proc_file = true;
		if (slash && rest[0] >= '1' && rest[0] <= '9' && strspn(rest, "0123456789") == len)
			lv->pid_dir = true;
		if (lv->proc_file || lv->pid_dir)
			return; /* a /proc tree is here: the caller asks no more */
		if (!lv->ntops) {
			lv->ntops = 1;
			lv->top = rest;
			lv->top_len = len;
		} else if (lv->ntops == 1 && (len != lv->top_len || memcmp(rest, lv->top, len))) {
			lv->ntops = 2;
		}
		if (slash && len == lv->top_len && !memcmp(rest, lv->top, len))
			lv->top_is_dir = true;
	}
}

/* Where the /proc tree is: "", "top/", "proc/", "top/proc/"; -ENOENT when nowhere. */
static int find_root(const struct capture_archive *a, char *root, size_t size)
{
	struct level lv;

	root[0] = '\0';
	for (int depth = 0; depth < 4; depth++) {
		size_t rlen = strlen(root);
		struct level in_proc;

		/*
		 * A sosreport: /proc copied to proc/ beside sys/, etc/, sos_commands/;
		 * and a capture's, proc/ beside sys/ and its uprocfs-capture (which
		 * must not make the directory holding them look like a /proc).
		 */
		snprintf(root + rlen, size - rlen, "proc/");
		look(a, root, &in_proc);
		if (in_proc.proc_file || in_proc.pid_dir)
			return 0;
		root[rlen] = '\0';
		look(a, root, &lv);
		if (lv.proc_file || lv.pid_dir)
			return 0;
		/* one directory holding everything (tar's usual wrapper): look inside it */
		if (lv.ntops != 1 || !lv.top_is_dir || rlen + lv.top_len + 2 > size)
			break;
		memcpy(root + rlen, lv.top, lv.top_len);
		root[rlen + lv.top_len] = '/';
		root[rlen + lv.top_len + 1] = '\0';
	}
	return -ENOENT;
}

/* The shapes of link paths asked about, and the answers. */
struct link_shapes {
	size_t n;
	char shape[64][128];
	bool yes[64];
};

/*
 * A symlink of the /proc tree at @path may hold any target when /proc has
 * a link there (fd/3 -> /dev/null, cwd, exe, ns/net -> net:[...]); any
 * other must stay within the tree.
 */
/*
 * Whether /proc has a link at @path.  The answer depends on the path's
 * shape only (its ids aside: 42/fd/3 as 7/fd/9), and a capture holds tens
 * of thousands of fd/ links of a few shapes: each shape is asked once.
 */
static bool proc_link(struct link_shapes *c, const char *path)
{
	char shape[128];
	size_t n = 0;
	struct pfs_node node;
	char perr[64];
	bool yes;

	for (const char *p = path; *p && n < sizeof(shape) - 1; p++)
		if (!(*p >= '0' && *p <= '9' && n && shape[n - 1] == '#'))
			shape[n++] = *p >= '0' && *p <= '9' ? '#' : *p;
	shape[n] = '\0';
	for (size_t i = 0; i < c->n && n < sizeof(shape) - 1; i++)
		if (!strcmp(c->shape[i], shape))
			return c->yes[i];
	yes = !pfs_parse_path(path, NULL, &node, perr, sizeof(perr)) && node.entry && node.entry->kind == PFS_LINK;
	if (c->n < sizeof(c->yes) / sizeof(c->yes[0]) && n < sizeof(shape) - 1) {
		memcpy(c->shape[c->n], shape, n + 1);
		c->yes[c->n++] = yes;
	}
	return yes;
}

static bool link_ok(struct link_shapes *c, const char *path, const char *target)
{
	int depth = 0;

	if (target[0] == '/')
		return proc_link(c, path);
	if (!strstr(target, ".."))
		return true; /* "pipe:[42]", "net:[4026531840]", "self/mounts": beneath the link's directory */
	if (proc_link(c, path))
		return true;
	for (const char *p = path; *p; p++)
		depth += *p == '/';
	for (const char *p = target; *p;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (len == 2 && !memcmp(p, "..", 2) && --depth < 0)
			return false;
		else if (len && !(len == 1 && *p == '.') && !(len == 2 && !memcmp(p, "..", 2)))
			depth++;
		p += len + (slash != NULL);
	}
	return true;
}

/* Keep the members beneath @root, its prefix taken off; refuse a symlink among them that leaves it. */
static int keep_root(struct reader *r, const char *root)
{
	size_t rlen = strlen(root), k = 0, slen = 0;
	struct link_shapes shapes = { 0 };
	char sys[1024] = "";

	/* a root "X/proc/" has its /sys at "X/sys/" (a capture's, a sosreport's) */
	if (rlen >= 5 && !strcmp(root + rlen - 5, "proc/") && (rlen == 5 || root[rlen - 6] == '/')) {
		snprintf(sys, sizeof(sys), "%.*ssys/", (int)(rlen - 5), root);
		slen = strlen(sys);
	}
	for (size_t i = 0; slen && i < r->a->n; i++) {
		struct mach_tree_member m = r->a->m[i];

		if (strncmp(m.path, sys, slen) || !m.path[slen])
			continue;
		if (r->a->sys_n % 1024 == 0) {
			struct mach_tree_member *nm = realloc(r->a->sys_m, (r->a->sys_n + 1024) * sizeof(*nm));

			if (!nm)
				return fail(r, -ENOMEM, "out of memory%s%s", "", NULL);
			r->a->sys_m = nm;
		}
		/* its links are read as text, never followed: /sys's point anywhere beneath it */
		m.path += slen;
		r->a->sys_m[r->a->sys_n++] = m;
	}
	for (size_t i = 0; i < r->a->n; i++) {
		struct mach_tree_member m = r->a->m[i];

		if (strncmp(m.path, root, rlen) || !m.path[rlen])
			continue;
		m.path += rlen;
		if (m.type == 'l' && !link_ok(&shapes, m.path, m.data))
			return fail(r, -EINVAL, "member \"%s\": a symlink pointing outside the capture (to \"%s\"), "
				    "refused", r->a->m[i].path, m.data);
		r->a->m[k++] = m;
	}
	r->a->n = k;
	return 0;
}

/* Open @path (or the @len bytes at @data) with every filter, as a raw stream (@raw) or with every format. */
static int open_archive(struct reader *r, struct archive *ar, const char *path, const void *data, size_t len, bool raw)
{
	archive_read_support_filter_all(ar);
	if (raw)
		archive_read_support_format_raw(ar);
	else
		archive_read_support_format_all(ar);
	if ((data ? archive_read_open_memory(ar, data, len) : archive_read_open_filename(ar, path, 1 << 16)) !=
	    ARCHIVE_OK)
		return raw ? -ENOTSUP : fail(r, -EINVAL, "not an archive libarchive reads: %s%s",
					     archive_error_string(ar) ? archive_error_string(ar) : "?", NULL);
	return 0;
}

/* Forget what a reader read, to read the archive again. */
static void restart(struct reader *r)
{
	char *name = r->a->name;

	r->a->name = NULL;
	capture_archive_free(r->a);
	r->a->name = name;
	r->cap = r->total = r->unpacked = r->nheld = 0;
	if (r->held)
		memset(r->held, 0, r->held_cap * sizeof(*r->held));
	r->err[0] = '\0';
}

int capture_archive_read(const char *path, const void *data, size_t len, struct capture_archive *a, char *err,
			 size_t errlen)
{
	struct reader r = { .a = a, .err = err, .errlen = errlen };
	struct archive *ar = archive_read_new();
	char root[1024];
	int rc;

	memset(a, 0, sizeof(*a));
	if (errlen)
		err[0] = '\0';
	a->name = strdup(path);
	if (!ar || !a->name) {
		archive_read_free(ar);
		snprintf(err, errlen, "%s: out of memory", path);
		capture_archive_free(a);
		return -ENOMEM;
	}
	/* a tar, as captures are, read from the decompressed bytes; any other archive by libarchive */
	rc = open_archive(&r, ar, path, data, len, true);
	if (!rc)
		rc = read_tar(&r, ar);
	if (rc == -ENOTSUP) {
		restart(&r);
		archive_read_free(ar);
		ar = archive_read_new();
		rc = ar ? open_archive(&r, ar, path, data, len, false) : -ENOMEM;
		if (!rc)
			rc = read_members(&r, ar);
	}
	archive_read_free(ar);
	free(r.scratch);
	free(r.held);
	if (!rc) {
		if (find_root(a, root, sizeof(root)))
			rc = fail(&r, -ENOENT, "holds no /proc tree (no stat, meminfo or pid directories at its top, in "
				  "its one top directory, or in a proc/ beneath)%s%s", "", NULL);
	}
	if (!rc)
		rc = keep_root(&r, root);
	if (!rc && root[0]) {
		char *name = NULL;

		root[strlen(root) - 1] = '\0';
		if (asprintf(&name, "%s/%s", path, root) < 0)
			rc = fail(&r, -ENOMEM, "out of memory%s%s", "", NULL);
		free(a->name);
		a->name = name;
	}
	if (!rc && a->sys_n) {
		root[strlen(root) - 4] = '\0'; /* "X/proc" to "X/" */
		if (asprintf(&a->sys_name, "%s/%ssys", path, root) < 0)
			rc = fail(&r, -ENOMEM, "out of memory%s%s", "", NULL);
	}
	if (rc)
		capture_archive_free(a);
	return rc;
}

void capture_archive_free(struct capture_archive *a)
{
	for (struct block *b = a->blocks, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	free(a->m);
	free(a->sys_m);
	free(a->name);
	free(a->sys_name);
	memset(a, 0, sizeof(*a));
}

int capture_load(const char *path, const struct mach_load_opts *opts, struct mach_machine **out,
		 struct mach_load_report *report, char *err, size_t errlen)
{
	struct mach_load_opts o = { 0 };
	struct capture_archive a;
	struct stat st;
	int rc;

	if (stat(path, &st)) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	/* a sosreport-style tree (/proc and /sys copied under one root): the walk finds its proc/ and sys/ */
	if (S_ISDIR(st.st_mode))
		return pfs_load_tree(path, opts, out, report, err, errlen);
	rc = capture_archive_read(path, NULL, 0, &a, err, errlen);
	if (rc)
		return rc;
	if (opts)
		o = *opts;
	o.members = a.m;
	o.nmembers = a.n;
	/* the archive's own /sys, loaded as a directory's sys/ beside proc/ is */
	if (a.sys_n) {
		o.sys_members = a.sys_m;
		o.nsys_members = a.sys_n;
		o.sys_dir = a.sys_name;
	}
	rc = pfs_load_tree(a.name, &o, out, report, err, errlen);
	capture_archive_free(&a);
	return rc;
}
