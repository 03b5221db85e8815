/* SPDX-License-Identifier: MIT */
/*
 * arena.h - a heap at a fixed virtual address, backed by a memory file.
 *
 * A machine built in an arena can be copied, byte for byte, into another
 * memory file and mapped by another process at the same address: every
 * pointer inside stays valid, so that process renders from the copy with
 * the same code and no translation (`uprocfs run --preload`).  Nothing in an
 * arena may point outside it (no static strings, no function pointers).
 *
 * Blocks come in size classes a quarter of a power of two apart (at most a
 * fifth wasted), each class with its own free list; space is taken from the
 * top as needed.  All calls are thread safe.
 */
#ifndef UPROCFS_UTIL_ARENA_H
#define UPROCFS_UTIL_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ua_arena;

/**
 * An arena of at most @reserve bytes at address @base (page aligned; 0: a
 * default address high in the address space that processes rarely use).
 * Memory is committed as it is used.  0 or -errno (-EEXIST: @base is taken).
 */
int ua_create(struct ua_arena **out, uintptr_t base, size_t reserve);

/**
 * As ua_create, on file @fd (an empty regular file or memory file, which the
 * arena owns from then on, closed by ua_destroy even on failure): a file
 * another process can open by name and map with ua_map_copy.
 */
int ua_create_in(struct ua_arena **out, uintptr_t base, size_t reserve, int fd);

/** Unmap and close it. */
void ua_destroy(struct ua_arena *a);

void *ua_malloc(struct ua_arena *a, size_t size);
void *ua_calloc(struct ua_arena *a, size_t n, size_t size);
void *ua_realloc(struct ua_arena *a, void *p, size_t size);
void ua_free(struct ua_arena *a, void *p);
char *ua_strdup(struct ua_arena *a, const char *s);

/**
 * @size bytes, 16-byte aligned, with no header: a block that is never freed
 * nor resized, for a structure built once and then only read (a snapshot).
 * NULL when the arena is full.
 */
void *ua_take(struct ua_arena *a, size_t size);

/**
 * Shrink the arena's file to the bytes in use (whole pages): what a reader
 * maps.  Nothing may be allocated afterwards.  0 or -errno.
 */
int ua_trim(struct ua_arena *a);

/** The arena's file descriptor (owned by the arena). */
int ua_fd(const struct ua_arena *a);

/** Whether @p lies in @a. */
bool ua_owns(const struct ua_arena *a, const void *p);

/** Where the arena starts, and how many bytes from there are in use (what a copy must hold). */
uintptr_t ua_base(const struct ua_arena *a);
size_t ua_used(const struct ua_arena *a);

/**
 * Copy the arena's used bytes into a new memory file (for a reader to map
 * with ua_map_copy).  The caller keeps writers out meanwhile.  A descriptor
 * or -errno.
 */
int ua_copy(struct ua_arena *a);

/**
 * Map a copy made by ua_copy, read only, at @base: the caller's view of the
 * arena as it was.  The mapping's address, or NULL with errno set (EEXIST:
 * something else lies there).  ua_unmap_copy releases it.
 */
void *ua_map_copy(int fd, uintptr_t base, size_t *len);
void ua_unmap_copy(void *p, size_t len);

/** The default base address of ua_create. */
#define UA_DEFAULT_BASE ((uintptr_t)0x6f0000000000ull)

#endif
