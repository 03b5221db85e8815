// SPDX-License-Identifier: MIT
/* vec.c - growth for vec.h's arrays. */
#include <stdint.h>
#include <stdlib.h>

#include "vec.h"

void *uv_grow(void *items, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : 8;
	void *n;

	if (need <= *cap)
		return items;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return NULL;
		ncap *= 2;
	}
	if (elem && ncap > SIZE_MAX / elem)
		return NULL;
	n = realloc(items, ncap * elem);
	if (!n)
		return NULL;
	*cap = ncap;
	return n;
}
