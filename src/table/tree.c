// SPDX-License-Identifier: MIT
/*
 * tree.c - the served tree as the file table shapes it: which entries are
 * the children of which directory, the one path parser, node paths, and
 * binding a node to a model for reading.
 *
 * A directory is a scope and a prefix inside it: the root is (global, ""),
 * a pid directory (tgid, ""), task/<tid> (tid, ""), /proc/<pid>/ns is
 * (tgid, "ns").  Its children are the entries of that scope whose path is
 * the prefix plus one component; they are found once, on first use.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "table_int.h"
#include "table_sys.h"

/* Entries are few (hundreds); a directory's children are a short list of indexes. */
#define MAX_ENTRIES 4096
#define NO_DIR (-1)

struct dir_children {
	unsigned int n;
	unsigned short *idx;
};

/* [scope][1 + directory entry index]; slot 0 is the scope's own root. */
static struct dir_children *children[PFS_NR_SCOPES];
static pthread_once_t children_once = PTHREAD_ONCE_INIT;
/*
 * For each entry, the "*" entry of the deepest collection in its path
 * (itself for a "*" entry), and for each "*" entry the one of the
 * collection before it: how a /sys node's instances name its path.
 */
static int *star_coll, *star_up;

/* Length of the directory part of @path ("a/b/c" -> 3, "c" -> 0). */
static size_t parent_len(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? (size_t)(slash - path) : 0;
}

/* The directory entry (index) whose path is @path[0..len) in @scope, NO_DIR for the scope root. */
static int dir_index(enum pfs_scope scope, const char *path, size_t len)
{
	if (!len)
		return NO_DIR;
	for (size_t i = 0; i < pfs_nentries; i++) {
		const struct pfs_entry *e = &pfs_entries[i];

		if (e->kind == PFS_DIR && (e->scopes & PFS_IN(scope)) && strlen(e->path) == len &&
		    !memcmp(e->path, path, len))
			return (int)i;
	}
	return -2; /* an undeclared directory: a table error, caught by the table test */
}

/* The "*" entry whose path is @path[0..len) in a scope of @scopes, or -1. */
static int star_entry(unsigned int scopes, const char *path, size_t len)
{
	for (size_t i = 0; i < pfs_nentries; i++) {
		const struct pfs_entry *e = &pfs_entries[i];

		if ((e->scopes & scopes) && strlen(e->path) == len && !memcmp(e->path, path, len) &&
		    pfs_entry_is_star(e))
			return (int)i;
	}
	return -1;
}

/* The end of the last "*" component of @path before offset @before, or 0. */
static size_t last_star_end(const char *path, size_t before)
{
	for (size_t i = before; i-- > 0;)
		if (path[i] == '*' && (i == 0 || path[i - 1] == '/') && (path[i + 1] == '/' || !path[i + 1]))
			return i + 1;
	return 0;
}

static void build_star_chains(void)
{
	star_coll = malloc(pfs_nentries * sizeof(*star_coll));
	star_up = malloc(pfs_nentries * sizeof(*star_up));
	if (!star_coll || !star_up)
		abort(); /* at start-up, a few kilobytes */
	for (size_t i = 0; i < pfs_nentries; i++) {
		const struct pfs_entry *e = &pfs_entries[i];
		size_t end = last_star_end(e->path, strlen(e->path));

		star_coll[i] = end ? star_entry(e->scopes, e->path, end) : -1;
		star_up[i] = -1;
		if (pfs_entry_is_star(e)) {
			star_coll[i] = (int)i; /* two collections may share a path (devices/pci0000:00/ *) */
			size_t up = last_star_end(e->path, end - 1);

			star_up[i] = up ? star_entry(e->scopes, e->path, up) : -1;
		}
	}
}

static void build_children(void)
{
	build_star_chains();
	for (int s = 0; s < PFS_NR_SCOPES; s++) {
		struct dir_children *dc = calloc(pfs_nentries + 1, sizeof(*dc));

		if (!dc)
			abort(); /* at start-up, a few kilobytes: nothing sensible to serve without it */
		for (size_t i = 0; i < pfs_nentries && i < MAX_ENTRIES; i++) {
			const struct pfs_entry *e = &pfs_entries[i];
			int d;

			if (!(e->scopes & PFS_IN(s)))
				continue;
			d = dir_index((enum pfs_scope)s, e->path, parent_len(e->path));
			if (d < NO_DIR)
				continue;
			struct dir_children *slot = &dc[d + 1];
			unsigned short *n = realloc(slot->idx, (slot->n + 1) * sizeof(*n));
			if (!n)
				abort();
			slot->idx = n;
			slot->idx[slot->n++] = (unsigned short)i;
		}
		children[s] = dc;
	}
}

/* The scope and directory slot whose children @dir lists; false if @dir is not a directory. */
static bool dir_slot(const struct pfs_node *dir, enum pfs_scope *scope, const struct dir_children **dc)
{
	const struct pfs_entry *e = dir->entry;

	pthread_once(&children_once, build_children);
	if (!e) {
		/* the root of /proc, or of /sys */
		*scope = dir->scope == PFS_SCOPE_SYS ? PFS_SCOPE_SYS : PFS_SCOPE_GLOBAL;
		*dc = &children[*scope][0];
		return true;
	}
	if (e->kind != PFS_DIR)
		return false;
	if (e->child_scope != PFS_SCOPE_GLOBAL) {
		/* a directory that roots a scope: a pid, a thread, a sysctl directory */
		*scope = e->child_scope;
		*dc = &children[e->child_scope][0];
		return true;
	}
	*scope = dir->scope;
	*dc = &children[dir->scope][pfs_entry_index(e) + 1];
	return true;
}

bool pfs_node_is_dir(const struct pfs_node *n)
{
	return !n->entry || n->entry->kind == PFS_DIR;
}

bool pfs_node_mode_needs_machine(const struct pfs_node *n)
{
	const struct pfs_coll_ops *ops = n->entry ? pfs_coll_ops(n->entry->coll) : NULL;

	return ops && ops->mode && pfs_entry_is_star(n->entry);
}

mode_t pfs_node_mode(const struct pfs_node *n, const struct pfs_ctx *c)
{
	mode_t perm;

	if (!n->entry)
		return S_IFDIR | 0555;
	perm = n->entry->mode & 07777;
	if (pfs_node_mode_needs_machine(n) && c && c->mach)
		perm = pfs_coll_ops(n->entry->coll)->mode(c, n->inst) & 07777;
	switch (n->entry->kind) {
	case PFS_DIR:
		return S_IFDIR | perm;
	case PFS_LINK:
		return S_IFLNK | 0777;
	default:
		return S_IFREG | perm;
	}
}

bool pfs_node_whole_at_zero(const struct pfs_node *n, const struct pfs_ctx *c)
{
	const struct pfs_coll_ops *ops = n->entry ? pfs_coll_ops(n->entry->coll) : NULL;

	return ops && ops->whole_at_zero && c && c->mach && pfs_entry_is_star(n->entry) &&
	       ops->whole_at_zero(c, n->inst);
}

static const char *last_component(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

bool pfs_entry_is_star(const struct pfs_entry *e)
{
	const char *last = last_component(e->path);

	return last[0] == '*' && !last[1];
}

/* A decimal component: no sign, no leading zero, below 2^24 (pids) or 2^25; -1 if it is not one. */
static int64_t parse_decimal(const char *s, uint32_t limit)
{
	int64_t v = 0;

	if (!*s || (*s == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v >= limit)
			return -1;
	}
	return v;
}

/* Place a "*" child named @name: a pid or tid roots a scope; other collections give an instance. */
static int child_instance(const struct pfs_node *dir, const struct pfs_entry *e, const char *name,
			  const struct pfs_ctx *c, struct pfs_node *out)
{
	const struct pfs_coll_ops *ops = pfs_coll_ops(e->coll);
	int64_t id;
	uint32_t inst;

	if (!ops) {
		/* pids and tids: 1.. below 2^24 */
		id = parse_decimal(name, 1u << 24);
		if (id <= 0)
			return -ENOENT;
		if (e->coll == PFS_COLL_PIDS)
			out->pid = (pid_t)id;
		else
			out->tid = (pid_t)id;
		return 0;
	}
	if (ops->numeric) {
		id = parse_decimal(name, 1u << 25);
		if (id < 0)
			return -ENOENT;
		out->inst = (uint32_t)id;
		return 0;
	}
	if (ops->syntactic && !c) {
		struct pfs_ctx none = { .mach = NULL };

		if (!ops->lookup || ops->lookup(&none, dir->inst, name, &inst))
			return -ENOENT;
		out->inst = inst;
		return 0;
	}
	if (!c || (!c->mach && !ops->syntactic) || !ops->lookup || ops->lookup(c, dir->inst, name, &inst))
		return -ENOENT;
	out->inst = inst;
	return 0;
}

/*
 * A literal /sys directory that is also an instance of a collection beside
 * it (devices/virtual, the way to a loop disk) stands for that instance:
 * the collections under it list from there.
 */
static void literal_instance(const struct dir_children *dc, const struct pfs_node *dir, const char *name,
			     const struct pfs_ctx *c, struct pfs_node *out)
{
	for (unsigned int i = 0; c && c->mach && i < dc->n; i++) {
		const struct pfs_entry *e = &pfs_entries[dc->idx[i]];
		const struct pfs_coll_ops *ops = pfs_coll_ops(e->coll);
		uint32_t inst;

		if (pfs_entry_is_star(e) && ops && ops->lookup && !ops->numeric && !ops->syntactic &&
		    !ops->lookup(c, dir->inst, name, &inst) && (!ops->has || ops->has(c, inst))) {
			out->inst = inst;
			return;
		}
	}
}

/*
 * The "*" child named @name.  With a machine, a name two collections could
 * take is the instance of the first that has it (0000:00:02.0: a disk's
 * device, not a sensor's); without one, the first that parses it.
 */
static int star_child(const struct dir_children *dc, enum pfs_scope scope, const struct pfs_node *dir,
		      const char *name, const struct pfs_ctx *c, struct pfs_node *out)
{
	struct pfs_node first = { 0 };

	for (unsigned int i = 0; i < dc->n; i++) {
		const struct pfs_entry *e = &pfs_entries[dc->idx[i]];
		const struct pfs_coll_ops *ops = pfs_coll_ops(e->coll);

		*out = (struct pfs_node){ .entry = e, .scope = scope, .pid = dir->pid, .tid = dir->tid,
					  .inst = dir->inst };
		if (!pfs_entry_is_star(e) || child_instance(dir, e, name, c, out))
			continue;
		if (!c || !c->mach || !ops || ops->numeric || !ops->has || ops->has(c, out->inst))
			return 0;
		if (!first.entry)
			first = *out;
	}
	if (!first.entry)
		return -ENOENT;
	*out = first;
	return 0;
}

int pfs_child(const struct pfs_node *dir, const char *name, const struct pfs_ctx *c, struct pfs_node *out)
{
	const struct dir_children *dc;
	enum pfs_scope scope;

	if (!dir_slot(dir, &scope, &dc))
		return -ENOTDIR;
	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return -ENOENT;
	/* literal names first: a "*" never hides one */
	for (unsigned int i = 0; i < dc->n; i++) {
		const struct pfs_entry *e = &pfs_entries[dc->idx[i]];

		if (!pfs_entry_is_star(e) && !strcmp(last_component(e->path), name)) {
			/* a literal directory that roots a scope (/proc/sys) stands for its root: instance 0 */
			*out = (struct pfs_node){ .entry = e, .scope = scope, .pid = dir->pid, .tid = dir->tid,
						  .inst = e->child_scope != PFS_SCOPE_GLOBAL ? 0 : dir->inst };
			/* /sys objects of several kinds share a scope: a name is the file of the kind that has it */
			if (scope == PFS_SCOPE_SYSOBJ && c && c->mach && !pfs_sysobj_placeholder(dir->inst) &&
			    !pfs_node_exists(out, c))
				continue;
			if (scope == PFS_SCOPE_SYS && e->kind == PFS_DIR)
				literal_instance(dc, dir, name, c, out);
			return 0;
		}
	}
	return star_child(dc, scope, dir, name, c, out);
}

bool pfs_dir_needs_machine(const struct pfs_node *dir)
{
	const struct dir_children *dc;
	enum pfs_scope scope;

	if (!dir_slot(dir, &scope, &dc))
		return false;
	for (unsigned int i = 0; i < dc->n; i++) {
		const struct pfs_coll_ops *ops = pfs_coll_ops(pfs_entries[dc->idx[i]].coll);

		if (ops && !ops->numeric && !ops->syntactic)
			return true;
	}
	return false;
}

bool pfs_dir_next_instance(const struct pfs_node *dir, const struct pfs_entry *coll, const struct pfs_ctx *c,
			   uint64_t *pos, struct pfs_node *out, char *name, size_t size)
{
	const struct pfs_coll_ops *ops = pfs_coll_ops(coll->coll);
	uint32_t inst;

	do {
		if (!ops || !ops->next(c, dir->inst, pos, &inst))
			return false;
		*out = *dir;
		out->entry = coll;
		out->scope = dir->entry && dir->entry->child_scope != PFS_SCOPE_GLOBAL ? dir->entry->child_scope
											: dir->scope;
		out->inst = inst;
		if (ops->numeric)
			snprintf(name, size, "%u", inst);
		else if (ops->name(c, inst, name, size))
			continue; /* a name that does not fit: never listed */
		return true;
	} while (1);
}

bool pfs_dir_merged(const struct pfs_node *dir)
{
	const struct pfs_entry *e = pfs_dir_coll(dir, 0);
	const struct pfs_coll_ops *ops = e ? pfs_coll_ops(e->coll) : NULL;

	return ops && ops->shared_cursor;
}

bool pfs_dir_next_merged(const struct pfs_node *dir, const struct pfs_ctx *c, uint64_t *pos, struct pfs_node *out,
			 char *name, size_t size)
{
	const struct pfs_entry *e, *best = NULL;
	uint64_t best_pos = UINT64_MAX;

	/* each collection's next instance from the same cursor: the nearest one is next */
	for (unsigned int k = 0; (e = pfs_dir_coll(dir, k)); k++) {
		const struct pfs_coll_ops *ops = pfs_coll_ops(e->coll);
		uint64_t p = *pos;
		uint32_t inst;

		if (ops && ops->next(c, dir->inst, &p, &inst) && p < best_pos) {
			best = e;
			best_pos = p;
		}
	}
	if (!best)
		return false;
	/* the cursor of the chosen one: its instance is the one before best_pos */
	*pos = best_pos - 1;
	return pfs_dir_next_instance(dir, best, c, pos, out, name, size);
}

/* The files @c's machine, and the task it is bound to, have no text for (a partial or torn capture). */
static mach_file_set lacking(const struct pfs_ctx *c)
{
	mach_file_set s = c->mach ? c->mach->lacks : 0;

	if (c->proc && c->whole) {
		s |= c->proc->lacks;
		/* /proc/<tid> of a thread other than the leader shows that thread */
		if (c->thread && c->thread->tid != c->proc->tgid)
			s |= mach_thread_rare(c->thread)->lacks;
	} else if (c->thread) {
		s |= mach_thread_rare(c->thread)->lacks;
	}
	return s;
}

/*
 * What @n's entry shows: its own file kind, what it needs, and for the
 * directory of a leaf collection (fd/) its entries' kind.
 */
static mach_ld_set shown_kinds(const struct pfs_node *n)
{
	const struct pfs_entry *e = n->entry, *coll;
	mach_ld_set k = e->needs;

	if (e->load != MACH_LD_NONE)
		k |= PFS_NEEDS(e->load);
	if (e->kind == PFS_DIR && !pfs_entry_is_star(e) && (coll = pfs_dir_coll(n, 0)) &&
	    pfs_coll_is_leaf(coll->coll) && coll->load != MACH_LD_NONE)
		k |= PFS_NEEDS(coll->load);
	return k;
}

bool pfs_node_lacks_input(const struct pfs_node *n, const struct pfs_ctx *c)
{
	return n->entry && c && c->mach && (shown_kinds(n) & lacking(c));
}

bool pfs_node_exists(const struct pfs_node *n, const struct pfs_ctx *c)
{
	struct pfs_ctx own;

	if (!n->entry || !c)
		return true;
	if (pfs_node_lacks_input(n, c))
		return false; /* the machine was loaded without this file's text */
	if (!n->entry->exists)
		return true;
	own = *c;
	own.arg = n->entry->arg;
	own.inst = n->inst;
	return n->entry->exists(&own);
}

bool pfs_dir_next(const struct pfs_node *dir, const struct pfs_ctx *c, unsigned int *pos,
		  const char **name, struct pfs_node *out)
{
	const struct dir_children *dc;
	enum pfs_scope scope;

	if (!dir_slot(dir, &scope, &dc))
		return false;
	while (*pos < dc->n) {
		const struct pfs_entry *e = &pfs_entries[dc->idx[(*pos)++]];
		const char *last = last_component(e->path);

		if (last[0] == '*' && !last[1])
			continue; /* collections are listed by whoever knows the instances */
		*out = (struct pfs_node){ .entry = e, .scope = scope, .pid = dir->pid, .tid = dir->tid,
					  .inst = dir->inst };
		if (scope == PFS_SCOPE_SYS && e->kind == PFS_DIR)
			literal_instance(dc, dir, last, c, out);
		if (!pfs_node_exists(out, c))
			continue;
		*name = last;
		return true;
	}
	return false;
}

const struct pfs_entry *pfs_dir_coll(const struct pfs_node *dir, unsigned int k)
{
	const struct dir_children *dc;
	enum pfs_scope scope;

	if (!dir_slot(dir, &scope, &dc))
		return NULL;
	for (unsigned int i = 0; i < dc->n; i++) {
		const struct pfs_entry *e = &pfs_entries[dc->idx[i]];

		if (pfs_entry_is_star(e) && !k--)
			return e;
	}
	return NULL;
}

static int parse_path(const char *path, const struct pfs_ctx *cx, struct pfs_node *out, char *err, size_t errlen)
{
	const struct mach_machine *mach = cx->mach;
	struct pfs_ctx c = *cx;
	const char *p = path;
	char part[256];

	*out = pfs_root();
	if (!strncmp(p, "/proc/", 6))
		p += 6;
	else if (!strcmp(p, "/proc"))
		p += 5;
	else if (!strncmp(p, "/sys/", 5) || !strcmp(p, "/sys")) {
		*out = pfs_tree_root(PFS_SCOPE_SYS);
		p += p[4] ? 5 : 4;
	} else if (*p == '/')
		goto no_file;
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		struct pfs_node child;

		if (len >= sizeof(part))
			goto no_file;
		memcpy(part, p, len);
		part[len] = '\0';
		if (len && pfs_child(out, part, mach ? &c : NULL, &child))
			goto no_file;
		if (len)
			*out = child;
		p += len;
		if (*p == '/')
			p++;
	}
	return 0;
no_file:
	snprintf(err, errlen, "%s: not a file uprocfs serves", path);
	return -ENOENT;
}

int pfs_parse_path(const char *path, const struct mach_machine *mach, struct pfs_node *out, char *err,
		   size_t errlen)
{
	return parse_path(path, &(struct pfs_ctx){ .mach = mach }, out, err, errlen);
}

int pfs_parse_path_loading(const char *path, const struct mach_machine *mach, struct pfs_node *out, char *err,
			   size_t errlen)
{
	return parse_path(path, &(struct pfs_ctx){ .mach = mach, .loading = true }, out, err, errlen);
}

/* Append @s to the path being built; false when it does not fit. */
static bool put(char *buf, size_t size, size_t *at, const char *s, size_t len)
{
	if (*at + len >= size)
		return false;
	memcpy(buf + *at, s, len);
	*at += len;
	buf[*at] = '\0';
	return true;
}

static bool put_id(char *buf, size_t size, size_t *at, unsigned long v)
{
	char num[24];
	int n = snprintf(num, sizeof(num), "%lu", v);

	return put(buf, size, at, num, (size_t)n);
}

/* The literal directory under the root that roots @scope (/proc/sys), or NULL. */
static const struct pfs_entry *scope_root(enum pfs_scope scope)
{
	for (size_t i = 0; i < pfs_nentries; i++) {
		const struct pfs_entry *e = &pfs_entries[i];

		if (e->child_scope == scope && !pfs_entry_is_star(e) && (e->scopes & PFS_IN(PFS_SCOPE_GLOBAL)))
			return e;
	}
	return NULL;
}

#define CHAIN_MAX 8

/* The collections a /sys node's path passes, deepest first: their "*" entries and instances. */
struct chain {
	int n;
	int ent[CHAIN_MAX];
	uint32_t inst[CHAIN_MAX];
};

static int node_chain(const struct pfs_node *n, const struct pfs_ctx *c, struct chain *ch)
{
	int j = star_coll[pfs_entry_index(n->entry)];
	uint32_t inst = n->inst;

	ch->n = 0;
	for (; j >= 0; j = star_up[j]) {
		const struct pfs_coll_ops *ops = pfs_coll_ops(pfs_entries[j].coll);

		if (ch->n == CHAIN_MAX || !ops)
			return -ENOENT;
		ch->ent[ch->n] = j;
		ch->inst[ch->n++] = inst;
		if (ops->parent)
			inst = ops->parent(c, inst);
	}
	return 0;
}

bool pfs_chain_exists(const struct pfs_node *n, const struct pfs_ctx *c)
{
	struct chain ch;

	pthread_once(&children_once, build_children);
	if (node_chain(n, c, &ch))
		return false;
	for (int k = 0; k < ch.n; k++) {
		const struct pfs_coll_ops *ops = pfs_coll_ops(pfs_entries[ch.ent[k]].coll);

		if (ops->has && !ops->has(c, ch.inst[k]))
			return false;
	}
	return true;
}

/* A /sys node's path: its entry's, each "*" replaced by the name of its instance there. */
static int sys_node_path(const struct pfs_node *n, const struct pfs_ctx *c, char *buf, size_t size)
{
	struct pfs_ctx none = { .mach = NULL };
	const char *p = n->entry->path;
	size_t at = 0;
	struct chain ch;
	int star = 0;

	pthread_once(&children_once, build_children);
	if (!c)
		c = &none;
	if (node_chain(n, c, &ch))
		return -ENOENT;
	while (*p) {
		size_t len = strcspn(p, "/");

		if (at && !put(buf, size, &at, "/", 1))
			return -ENAMETOOLONG;
		if (len == 1 && *p == '*') {
			int k = ch.n - 1 - star++;
			char name[256];

			if (k < 0 || pfs_coll_ops(pfs_entries[ch.ent[k]].coll)->name(c, ch.inst[k], name, sizeof(name)))
				return -ENOENT;
			if (!put(buf, size, &at, name, strlen(name)))
				return -ENAMETOOLONG;
		} else if (!put(buf, size, &at, p, len)) {
			return -ENAMETOOLONG;
		}
		p += len + (p[len] == '/');
	}
	return 0;
}

int pfs_node_path(const struct pfs_node *n, const struct pfs_ctx *c, char *buf, size_t size)
{
	const struct pfs_entry *e = n->entry;
	const struct pfs_coll_ops *ops = e ? pfs_coll_ops(e->coll) : NULL;
	size_t at = 0;
	bool ok = true;

	if (!size)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	if (!e)
		return 0;
	if (pfs_sys_node_named(n))
		return pfs_sys_node_path(n, c, buf, size);
	if (n->scope >= PFS_SCOPE_SYS && strchr(e->path, '*'))
		return sys_node_path(n, c, buf, size);
	if (n->pid && (n->scope != PFS_SCOPE_GLOBAL || e->coll == PFS_COLL_PIDS))
		ok = put_id(buf, size, &at, (unsigned long)n->pid);
	if (ok && n->scope == PFS_SCOPE_TID)
		ok = put(buf, size, &at, "/task/", 6) && put_id(buf, size, &at, (unsigned long)n->tid);
	if (e->coll == PFS_COLL_PIDS)
		return ok ? 0 : -ENAMETOOLONG;
	if (n->scope > PFS_SCOPE_TID && n->scope != PFS_SCOPE_SYS) {
		/* a scope rooted under /proc (/proc/sys): its root's path, then the instance's own */
		const struct pfs_entry *root = scope_root(n->scope);
		char rest[4096];

		if (!root || !ops || ops->numeric || !c || !c->mach || ops->path(c, n->inst, rest, sizeof(rest)))
			return -ENOENT;
		ok = put(buf, size, &at, root->path, strlen(root->path)) && put(buf, size, &at, "/", 1) &&
		     put(buf, size, &at, rest, strlen(rest));
		return ok ? 0 : -ENAMETOOLONG;
	}
	if (ok && at)
		ok = put(buf, size, &at, "/", 1);
	for (const char *p = e->path; ok && *p; p++) {
		if (*p == '*')
			ok = put_id(buf, size, &at, e->coll == PFS_COLL_TIDS ? (unsigned long)n->tid : n->inst);
		else
			ok = put(buf, size, &at, p, 1);
	}
	return ok ? 0 : -ENAMETOOLONG;
}
