// SPDX-License-Identifier: MIT
/*
 * load_locks.c - parse /proc/locks (fs/locks.c locks_show and
 * lock_get_status; Linux 6.18).
 *
 * "ID: ", for a blocked request "%*s" of "-> " as deep as it is, the class
 * ("POSIX " / "OFDLCK" / "ACCESS" with " ADVISORY  " or " *NOINODE* ",
 * "FLOCK  ADVISORY  ", "LEASE  " / "DELEG  " with a state, "UNKNOWN UNKNOWN
 * "), the type, the pid and "MAJ:MIN:INODE " in hex and decimal (or
 * "<none>:0 "), and the range.  Ids grow from record to record; a waiter
 * has its record's id and is at most one level deeper than the line before.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"

static int lock_class(struct lex *lx, struct mach_file_lock *l)
{
	static const char *const states[MACH_NR_LEASE_STATES] = { "ACTIVE    ", "BREAKING  ", "BREAKER   " };

	if (lex_accept(lx, "POSIX ") || (lex_accept(lx, "OFDLCK") && (l->cls = MACH_LOCK_OFDLCK)) ||
	    (lex_accept(lx, "ACCESS") && (l->cls = MACH_LOCK_ACCESS))) {
		if (lex_accept(lx, " ADVISORY  "))
			l->has_inode = true;
		else if (!lex_accept(lx, " *NOINODE* "))
			return lex_expected(lx, "\" ADVISORY  \" or \" *NOINODE* \"");
		return 0;
	}
	if (lex_accept(lx, "FLOCK  ADVISORY  ")) {
		l->cls = MACH_LOCK_FLOCK;
		return 0;
	}
	if (lex_accept(lx, "UNKNOWN UNKNOWN  ")) {
		l->cls = MACH_LOCK_UNKNOWN;
		return 0;
	}
	if (lex_accept(lx, "LEASE  "))
		l->cls = MACH_LOCK_LEASE;
	else if (lex_accept(lx, "DELEG  "))
		l->cls = MACH_LOCK_DELEG;
	else
		return lex_expected(lx, "a lock class");
	for (int i = 0; i < MACH_NR_LEASE_STATES; i++)
		if (lex_accept(lx, states[i])) {
			l->lease = (enum mach_lease_state)i;
			return 0;
		}
	return lex_expected(lx, "a lease state");
}

/* "MAJ:MIN:INODE " (hex, hex, decimal) or "<none>:0 ", after the pid. */
static int lock_inode(struct lex *lx, struct mach_file_lock *l)
{
	uint64_t major, minor, ino;
	int rc;

	if (!l->has_inode && l->cls != MACH_LOCK_FLOCK && l->cls != MACH_LOCK_UNKNOWN &&
	    l->cls != MACH_LOCK_LEASE && l->cls != MACH_LOCK_DELEG)
		return lex_expect(lx, "<none>:0 ");
	if (lex_accept(lx, "<none>:0 ")) {
		if (l->has_inode)
			return lex_fail(lx, "an ADVISORY lock without an inode");
		return 0;
	}
	l->has_inode = true;
	lex_ctx(lx, "the device");
	/* "%02x:%02x:%lu" */
	if ((rc = lex_hex_min(lx, &major, 2)) || (rc = lex_expect(lx, ":")) || (rc = lex_hex_min(lx, &minor, 2)) ||
	    (rc = lex_expect(lx, ":")) || (rc = lex_u64(lx, &ino)) || (rc = lex_expect(lx, " ")))
		return rc;
	if (major > 4095 || minor > (1u << 20) - 1)
		return lex_fail(lx, "device %llx:%llx out of range", (unsigned long long)major,
				(unsigned long long)minor);
	l->dev_major = (uint32_t)major;
	l->dev_minor = (uint32_t)minor;
	l->ino = ino;
	return 0;
}

static int lock_range(struct lex *lx, struct mach_file_lock *l)
{
	int rc;

	lex_ctx(lx, "the range");
	if (l->cls != MACH_LOCK_POSIX && l->cls != MACH_LOCK_OFDLCK && l->cls != MACH_LOCK_ACCESS)
		return lex_expect(lx, "0 EOF\n");
	if ((rc = lex_s64(lx, &l->start, INT64_MIN, INT64_MAX)) || (rc = lex_expect(lx, " ")))
		return rc;
	if (lex_accept(lx, "EOF"))
		l->end = MACH_LOCK_EOF;
	else if ((rc = lex_s64(lx, &l->end, INT64_MIN, INT64_MAX - 1)))
		return rc;
	return lex_eol(lx);
}

static int lock_line(struct lex *lx, struct mach_file_lock *l, const struct mach_file_lock *prev)
{
	int64_t id;
	size_t pad;
	int rc;

	lex_ctx(lx, "the id");
	if ((rc = lex_s64(lx, &id, INT64_MIN, INT64_MAX)) || (rc = lex_expect(lx, ": ")))
		return rc;
	pad = lex_skip_spaces(lx);
	l->level = lex_accept(lx, "-> ") ? (unsigned int)pad + 1 : 0;
	if (pad && !l->level)
		return lex_expected(lx, "\"-> \"");
	l->id = id;
	if (l->level ? !prev || id != prev->id || l->level > prev->level + 1 : prev && id <= prev->id)
		return lex_fail(lx, "id %lld at depth %u does not follow the line before", (long long)id, l->level);
	return ld_parse_lock_status(lx, l);
}

int ld_parse_lock_status(struct lex *lx, struct mach_file_lock *l)
{
	int64_t pid;
	int rc;

	l->cls = MACH_LOCK_POSIX;
	l->fd = -1;
	if ((rc = lock_class(lx, l)))
		return rc;
	if (lex_accept(lx, "WRITE "))
		l->type = MACH_LOCK_WRITE;
	else if (lex_accept(lx, "READ "))
		l->type = MACH_LOCK_READ;
	else if (lex_accept(lx, "UNLCK "))
		l->type = MACH_LOCK_UNLCK;
	else
		return lex_expected(lx, "a lock type");
	lex_ctx(lx, "the pid");
	if ((rc = lex_s64(lx, &pid, INT32_MIN, INT32_MAX)) || (rc = lex_expect(lx, " ")))
		return rc;
	l->pid = (int)pid;
	if ((rc = lock_inode(lx, l)))
		return rc;
	return lock_range(lx, l);
}

int ld_parse_locks(struct lex *lx, struct mach_machine *m)
{
	struct mach_file_lock *list = NULL, *l;
	size_t n = 0, cap = 0;
	int rc = 0;

	while (!rc && !lex_eof(lx)) {
		if (!(l = VEC_PUSH(list, n, cap))) {
			rc = -ENOMEM;
			break;
		}
		memset(l, 0, sizeof(*l));
		rc = lock_line(lx, l, n > 1 ? l - 1 : NULL);
	}
	if (rc) {
		free(list);
		return rc;
	}
	free(m->sys.locks);
	m->sys.locks = list;
	m->sys.nlocks = n;
	return 0;
}
