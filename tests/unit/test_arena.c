// SPDX-License-Identifier: MIT
/*
 * test_arena.c - the fixed-address heap: blocks of every size keep their
 * contents through realloc and are reused after free; a copy mapped at the
 * same address in another process holds the same linked structure, its
 * pointers valid there without translation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "util/arena.h"

struct node {
	struct node *next;
	char *name;
	uint64_t value;
};

int main(void)
{
	struct ua_arena *a;
	struct node *head = NULL;
	unsigned long bad = 0;
	size_t used;
	int fd, status;

	if (ua_create(&a, 0, (size_t)1 << 30))
		skip_all("cannot reserve the arena's address range here");
	/* sizes across classes, contents checked after realloc */
	for (size_t sz = 1; sz < 300000; sz = sz * 3 / 2 + 1) {
		unsigned char *p = ua_malloc(a, sz), *q;

		if (!p || (uintptr_t)p % 16) {
			bad++;
			continue;
		}
		memset(p, (int)(sz & 0xff), sz);
		q = ua_realloc(a, p, sz * 2 + 7);
		for (size_t i = 0; q && i < sz; i++)
			bad += q[i] != (unsigned char)(sz & 0xff);
		ua_free(a, q);
	}
	ok(bad == 0, "blocks of every size are aligned and keep their contents through realloc (%lu bad)", bad);
	{
		void *p = ua_malloc(a, 1000);
		ua_free(a, p);
		ok(ua_malloc(a, 1000) == p, "a freed block is reused");
	}
	for (int i = 0; i < 1000; i++) {
		struct node *n = ua_calloc(a, 1, sizeof(*n));
		char name[32];

		snprintf(name, sizeof(name), "node-%d", i);
		n->name = ua_strdup(a, name);
		n->value = (uint64_t)i * 7;
		n->next = head;
		head = n;
	}
	used = ua_used(a);
	fd = ua_copy(a);
	ok(fd >= 0 && used > 1000 * sizeof(struct node), "the used part copies into a memory file (%zu bytes)", used);
	if (fork() == 0) {
		/* another view of the same addresses: drop ours, map the copy where it was */
		size_t len;
		uint64_t sum = 0;
		int count = 0;

		munmap((void *)ua_base(a), (size_t)1 << 30);
		if (ua_map_copy(fd, ua_base(a), &len) != (void *)ua_base(a))
			_exit(2);
		for (struct node *n = head; n; n = n->next, count++)
			sum += n->value + (strncmp(n->name, "node-", 5) != 0);
		_exit(count == 1000 && sum == 7ull * 999 * 1000 / 2 ? 0 : 1);
	}
	wait(&status);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "a process mapping the copy at the same address follows the same pointers (status %d)", status);
	close(fd);
	ua_destroy(a);
	return tap_done();
}
