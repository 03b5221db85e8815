/* SPDX-License-Identifier: MIT */
/*
 * vec.h - growable arrays: one way to grow a (pointer, capacity) pair.
 *
 * Capacity doubles (from 8) so n pushes cost O(n) copies; a failed growth
 * leaves the array as it was, so the caller's cleanup path frees it once.
 */
#ifndef UPROCFS_UTIL_VEC_H
#define UPROCFS_UTIL_VEC_H

#include <errno.h>
#include <stddef.h>

/**
 * Grow @items (capacity *@cap elements of @elem bytes) to hold at least
 * @need elements.  Returns the (possibly moved) array, with *@cap updated,
 * or NULL on overflow or allocation failure (then @items is untouched).
 */
void *uv_grow(void *items, size_t *cap, size_t need, size_t elem);

/** Make room for @need elements in @ptr/@cap: 0 or -ENOMEM. */
#define VEC_RESERVE(ptr, cap, need)                                               \
	({                                                                        \
		int vec_rc__ = 0;                                                 \
		if ((size_t)(need) > (cap)) {                                     \
			void *vec_n__ = uv_grow((ptr), &(cap), (need), sizeof(*(ptr))); \
			if (vec_n__)                                              \
				(ptr) = vec_n__;                                  \
			else                                                      \
				vec_rc__ = -ENOMEM;                               \
		}                                                                 \
		vec_rc__;                                                         \
	})

/** Append a zeroed slot to @ptr (@n used of @cap): a pointer to it, or NULL. */
#define VEC_PUSH(ptr, n, cap)                                                     \
	({                                                                        \
		__typeof__(ptr) vec_slot__ = NULL;                                \
		if (!VEC_RESERVE(ptr, cap, (n) + 1)) {                            \
			vec_slot__ = &(ptr)[(n)++];                               \
			__builtin_memset(vec_slot__, 0, sizeof(*vec_slot__));     \
		}                                                                 \
		vec_slot__;                                                       \
	})

#endif /* UPROCFS_UTIL_VEC_H */
