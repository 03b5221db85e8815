// SPDX-License-Identifier: MIT
/*
 * load_platform.c - the files of /sys the platform model holds
 * (mach_platform.h), one at a time (load.h mach_loader_sys), and what they
 * must say of each other, checked when the session finishes: every mask
 * the kernel builds from ids (thread_siblings, shared_cpu_map, a node's
 * cpumap) against the ids loaded, a cache's size against its geometry,
 * the CPU and node lists against the CPUs and nodes.  A mask is kept as
 * text until then and lexed against the mask the model builds, so what
 * loads is what the model prints back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/vec.h"
#include "load_int.h"
#include "load_platform.h"

void ld_sys_free(struct ld_sys *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->checks[i].path);
		free(s->checks[i].text);
	}
	free(s->checks);
	free(s->cg_threads);
	ld_sys_net_free(s->net);
	free(s);
}

struct ld_sys *ld_sys_of(struct mach_loader *ld)
{
	if (!ld->sys)
		ld->sys = calloc(1, sizeof(*ld->sys));
	return ld->sys;
}

int ld_sys_defer(struct mach_loader *ld, const struct mach_ld_sys_file *f, const char *path, const char *text,
		 size_t len)
{
	struct ld_sys *s = ld_sys_of(ld);
	struct ld_sys_check *c = s ? VEC_PUSH(s->checks, s->n, s->cap) : NULL;

	if (!c)
		return -ENOMEM;
	*c = (struct ld_sys_check){ .kind = f->kind, .attr = f->attr, .inst = f->inst, .len = len };
	c->path = strdup(path);
	c->text = malloc(len ? len : 1);
	if (!c->path || !c->text)
		return -ENOMEM;
	memcpy(c->text, text, len);
	return 0;
}

int ld_sys_list(struct lex *lx, struct mach_bitmap *b, unsigned int maxbits)
{
	unsigned int top = 0;
	const char *start = lx->p;

	/* one pass for the width, one to set the bits */
	for (int pass = 0; pass < 2; pass++) {
		lx->p = start;
		if (pass && mach_bitmap_alloc(b, top))
			return -ENOMEM;
		while (!lex_peek(lx, '\n')) {
			uint64_t lo, hi;

			if (lex_u64_max(lx, &lo, maxbits - 1))
				return -EINVAL;
			hi = lo;
			if (lex_accept(lx, "-") && lex_u64_max(lx, &hi, maxbits - 1))
				return -EINVAL;
			if (hi < lo)
				return lex_fail(lx, "a range from %llu down to %llu", (unsigned long long)lo,
						(unsigned long long)hi);
			if (!pass && hi + 1 > top)
				top = (unsigned int)hi + 1;
			for (uint64_t v = lo; pass && v <= hi; v++)
				mach_bitmap_set(b, (unsigned int)v);
			if (!lex_accept(lx, ","))
				break;
		}
	}
	return lex_eol(lx) ? -EINVAL : lex_expect_eof(lx);
}

int ld_sys_number(struct lex *lx, int64_t *v, int64_t min, int64_t max)
{
	const char *start = lx->p;

	if (lex_peek(lx, ' ') || lex_s64(lx, v, min, max))
		return lex_fail_at(lx, start, "expected a number from %lld to %lld", (long long)min, (long long)max);
	if (lex_eol(lx))
		return -EINVAL;
	return lex_expect_eof(lx);
}

int ld_sys_word(struct lex *lx, char *buf, size_t size, const char *what)
{
	if (ld_rest_of_line(lx, buf, size, what) || lex_eol(lx))
		return -EINVAL;
	return lex_expect_eof(lx);
}

/*
 * A file of the block devices or of cgroupfs, named by its path.  What
 * moved since /proc was read (a group's tasks, a disk's counters), or was
 * not loaded from it (a process left out), is the model's already: the
 * file is skipped, not an error.
 */
static int sys_object(struct lex *lx, struct mach_loader *ld, const struct mach_ld_sys_file *f, const char **skip)
{
	int rc;

	if (!f->rel)
		return 0;
	rc = f->kind == MACH_LD_SYS_BLOCK ? ld_parse_sys_block(lx, ld, f->rel) : ld_parse_sys_cgroup(lx, ld, f->rel);
	if (rc == -EAGAIN) {
		*skip = "it moved since /proc was read, or names what /proc did not load";
		return 0;
	}
	return rc;
}

int mach_loader_sys(struct mach_loader *ld, const struct mach_ld_sys_file *f, const char *path, const char *text,
		    size_t len, const char **skip, char *err, size_t errlen)
{
	struct lex lx;

	*skip = NULL;
	if (text && memchr(text, '\0', len)) {
		*skip = "holds a NUL byte, which no /sys attribute prints";
		return 0;
	}
	lex_init(&lx, path, text ? text : "", text ? len : 0, err, errlen);
	if (!ld_sys_of(ld))
		return -ENOMEM;
	ld->globals |= MACH_LD_BIT(f->kind);
	switch (f->kind) {
	case MACH_LD_SYS_CPU: return ld_sys_cpu(&lx, ld, f, skip);
	case MACH_LD_SYS_NODE: return ld_sys_node(&lx, ld, f, skip);
	case MACH_LD_SYS_HWMON: return ld_sys_hwmon(&lx, ld, f, skip);
	case MACH_LD_SYS_THERMAL: return ld_sys_thermal(&lx, ld, f);
	case MACH_LD_SYS_THP: return ld_sys_thp(&lx, ld, f);
	/* the objects' trees: the path names the object (a subtree's root says nothing) */
	case MACH_LD_SYS_BLOCK:
	case MACH_LD_SYS_CGROUP: return text ? sys_object(&lx, ld, f, skip) : 0;
	case MACH_LD_SYS_NET: return text && f->rel ? ld_sys_net(&lx, ld, f, skip) : 0;
	default:
		snprintf(err, errlen, "%s: not a /sys file the loader parses", path);
		return -EINVAL;
	}
}

/* Thermal zones know their hwmon device from the device's link; gaps in the numbering stay absent. */
static void place_sensors(struct mach_platform *p)
{
	for (unsigned int h = 0; h < p->nhwmon; h++) {
		struct mach_hwmon *hw = &p->hwmon[h];

		if (hw->present && hw->parent == MACH_HWMON_THERMAL && hw->zone < p->nzones)
			p->zones[hw->zone].hwmon = (int)h;
	}
}

int ld_sys_finish(struct mach_loader *ld, char *err, size_t errlen)
{
	struct ld_sys *s = ld->sys;
	int rc = 0;

	s->final = true;
	for (size_t i = 0; i < s->n && !rc; i++) {
		unsigned int a = s->checks[i].attr;

		if (s->checks[i].kind == MACH_LD_SYS_BLOCK)
			rc = ld_sys_block_again(ld, &s->checks[i], err, errlen);
		else if (a >= MACH_SYSA_NODES_POSSIBLE && a <= MACH_SYSA_NODE_CPU_LINK)
			rc = ld_sys_check_node(ld, &s->checks[i], err, errlen);
		else
			rc = ld_sys_check_cpu(ld, &s->checks[i], err, errlen);
	}
	if (!rc)
		place_sensors(&ld->m->platform);
	return rc;
}
