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
#include <sys/stat.h>
#include <unistd.h>

#include "../src/util/readfile.h"
#include "capture_read.h"
#include "uprocfs/procfs.h"

#define BLOCK_SIZE ((size_t)1 << 20)

/* A block of member bytes; members larger than a block get one of their own. */
struct block {
	struct block *next;
	size_t used, cap;
	char data[];
};

/* What reading an archive holds while it goes. */
struct reader {
	struct capture_archive *a;
	size_t cap;        /* of a->m */
	size_t total;      /* bytes held */
	char *err;
	size_t errlen;
};

/* @len bytes of memory for a member (NUL-terminated beyond), from the blocks; NULL on ENOMEM. */
static char *take(struct reader *r, size_t len)
{
	struct block *b = r->a->blocks;
	char *p;

	if (!b || b->cap - b->used < len + 1) {
		size_t cap = len + 1 > BLOCK_SIZE ? len + 1 : BLOCK_SIZE;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
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

/* The bytes of the current member, at most @limit, into memory of the reader. */
static int read_data(struct reader *r, struct archive *ar, const char *path, size_t size, const char **data,
		     size_t *len)
{
	char *buf = take(r, size);
	size_t got = 0;

	if (!buf)
		return fail(r, -ENOMEM, "%s: out of memory%s", path, NULL);
	while (got <= size) {
		la_ssize_t n = archive_read_data(ar, buf + got, size - got + (got == size));

		if (n < 0)
			return fail(r, -EIO, "%s: %s", path, archive_error_string(ar));
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got != size)
		return fail(r, -EIO, "%s: %s", path, got > size ? "more bytes than its header says" : "truncated");
	buf[got] = '\0';
	*data = buf;
	*len = got;
	return 0;
}

/* What the member's type says: 'f', 'd', 'l', or 0 after refusing it. */
static char member_type(struct reader *r, struct archive_entry *e, const char *path)
{
	switch (archive_entry_filetype(e)) {
	case AE_IFREG:
		if (archive_entry_hardlink(e))
			return fail(r, 0, "member \"%s\": a hard link (to \"%s\"): not in a capture, refused", path,
				    archive_entry_hardlink(e));
		return 'f';
	case AE_IFDIR:
		return 'd';
	case AE_IFLNK:
		return 'l';
	default:
		return fail(r, 0, "member \"%s\": a device, FIFO or socket: not in a capture, refused%s", path, NULL);
	}
}

/* The current member, checked, into the reader's list. */
static int add_member(struct reader *r, struct archive *ar, struct archive_entry *e)
{
	const char *raw = archive_entry_pathname(e);
	struct mach_tree_member *m;
	char path[4096];
	const char *data = NULL;
	size_t len = 0;
	char type;
	int rc;

	if (!raw)
		return fail(r, -EINVAL, "a member whose name cannot be read%s%s", "", NULL);
	if (!clean_member_path(raw, path, sizeof(path)))
		return fail(r, -EINVAL, "member \"%s\": a path that leaves the archive (absolute or ..), refused%s",
			    raw, NULL);
	if (!(type = member_type(r, e, raw)))
		return -EINVAL;
	if (!path[0])
		return 0; /* the archive's root itself */
	if (type == 'f') {
		la_int64_t size = archive_entry_size_is_set(e) ? archive_entry_size(e) : 0;

		if (size < 0 || (uint64_t)size > UF_LIMIT_DEFAULT) {
			char more[80];

			snprintf(more, sizeof(more), "%lld bytes, more than the %u MiB the loader reads of one file",
				 (long long)size, UF_LIMIT_DEFAULT >> 20);
			return fail(r, -EFBIG, "member \"%s\": %s", raw, more);
		}
		if (r->total + (size_t)size > CAPTURE_TOTAL_LIMIT)
			return fail(r, -EFBIG, "member \"%s\": the archive holds more than %s", raw, "4 GiB");
		if ((rc = read_data(r, ar, raw, (size_t)size, &data, &len)))
			return rc;
		r->total += len;
	} else if (type == 'l') {
		const char *t = archive_entry_symlink(e);

		if (!t)
			return fail(r, -EINVAL, "member \"%s\": a symlink whose target cannot be read%s", raw, NULL);
		len = strlen(t);
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
	*m = (struct mach_tree_member){ .type = type, .mode = archive_entry_perm(e), .data = data, .len = len,
					.mtime_ns = (int64_t)archive_entry_mtime(e) * 1000000000 +
						    archive_entry_mtime_nsec(e) };
	m->path = take(r, strlen(path));
	if (!m->path)
		return fail(r, -ENOMEM, "%s: out of memory%s", raw, NULL);
	memcpy((char *)m->path, path, strlen(path));
	r->a->n++;
	return 0;
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

		look(a, root, &lv);
		if (lv.proc_file || lv.pid_dir)
			return 0;
		/* a sosreport: /proc copied to proc/ beside sys/, etc/, sos_commands/ */
		snprintf(root + rlen, size - rlen, "proc/");
		look(a, root, &lv);
		if (lv.proc_file || lv.pid_dir)
			return 0;
		root[rlen] = '\0';
		/* one directory holding everything (tar's usual wrapper): look inside it */
		look(a, root, &lv);
		if (lv.ntops != 1 || !lv.top_is_dir || rlen + lv.top_len + 2 > size)
			break;
		memcpy(root + rlen, lv.top, lv.top_len);
		root[rlen + lv.top_len] = '/';
		root[rlen + lv.top_len + 1] = '\0';
	}
	return -ENOENT;
}

/*
 * A symlink of the /proc tree at @path may hold any target when /proc has
 * a link there (fd/3 -> /dev/null, cwd, exe, ns/net -> net:[...]); any
 * other must stay within the tree.
 */
static bool link_ok(const char *path, const char *target)
{
	struct pfs_node n;
	char perr[64];
	int depth = 0;

	if (target[0] == '/')
		return !pfs_parse_path(path, NULL, &n, perr, sizeof(perr)) && n.entry && n.entry->kind == PFS_LINK;
	if (!strstr(target, ".."))
		return true; /* "pipe:[42]", "net:[4026531840]", "self/mounts": beneath the link's directory */
	if (!pfs_parse_path(path, NULL, &n, perr, sizeof(perr)) && n.entry && n.entry->kind == PFS_LINK)
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
	size_t rlen = strlen(root), k = 0;

	for (size_t i = 0; i < r->a->n; i++) {
		struct mach_tree_member m = r->a->m[i];

		if (strncmp(m.path, root, rlen) || !m.path[rlen])
			continue;
		m.path += rlen;
		if (m.type == 'l' && !link_ok(m.path, m.data))
			return fail(r, -EINVAL, "member \"%s\": a symlink pointing outside the capture (to \"%s\"), "
				    "refused", r->a->m[i].path, m.data);
		r->a->m[k++] = m;
	}
	r->a->n = k;
	return 0;
}

int capture_archive_read(const char *path, const void *data, size_t len, struct capture_archive *a, char *err,
			 size_t errlen)
{
	struct reader r = { .a = a, .err = err, .errlen = errlen };
	struct archive *ar = archive_read_new();
	char root[1024];
	int rc;

	memset(a, 0, sizeof(*a));
	a->name = strdup(path);
	if (!ar || !a->name) {
		archive_read_free(ar);
		snprintf(err, errlen, "%s: out of memory", path);
		capture_archive_free(a);
		return -ENOMEM;
	}
	archive_read_support_filter_all(ar);
	archive_read_support_format_all(ar);
	if ((data ? archive_read_open_memory(ar, data, len) : archive_read_open_filename(ar, path, 1 << 16)) !=
	    ARCHIVE_OK)
		rc = fail(&r, -EINVAL, "not an archive libarchive reads: %s%s",
			  archive_error_string(ar) ? archive_error_string(ar) : "?", NULL);
	else
		rc = read_members(&r, ar);
	archive_read_free(ar);
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
	free(a->name);
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
	rc = pfs_load_tree(a.name, &o, out, report, err, errlen);
	capture_archive_free(&a);
	return rc;
}
