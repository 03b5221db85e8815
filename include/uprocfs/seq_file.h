/* SPDX-License-Identifier: MIT */
/*
 * seq_file.h - the uprocfs seq_file engine.
 *
 * A userspace re-implementation of the Linux seq_file contract (fs/seq_file.c,
 * include/linux/seq_file.h, Linux 6.18): the same names, the same overflow rule
 * (a record that does not fit leaves count == size and is regenerated into a
 * buffer twice as large) and the same read/lseek protocol.  Renderers are
 * straight lines of putters; they never check for errors themselves.
 *
 * The hot putters are inline so every call site gets its own branch history and
 * constant delimiters fold to fixed-length copies.  Number conversion lives in
 * seq_num.h.
 */
#ifndef UPROCFS_SEQ_FILE_H
#define UPROCFS_SEQ_FILE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "uprocfs/seq_num.h"

#ifdef __cplusplus
extern "C" {
#endif

struct seq_file;

/** Iterator callbacks, as the kernel's struct seq_operations. */
struct seq_operations {
	void *(*start)(struct seq_file *m, loff_t *pos);
	void (*stop)(struct seq_file *m, void *v);
	void *(*next)(struct seq_file *m, void *v, loff_t *pos);
	int (*show)(struct seq_file *m, void *v);
};

/** One open file's formatting state. */
struct seq_file {
	char *buf;          /* output buffer, NULL until the first read */
	size_t size;        /* allocated bytes of buf */
	size_t from;        /* offset in buf of the first byte not yet copied out */
	size_t count;       /* bytes in buf not yet copied out; == size means overflow */
	size_t pad_until;   /* absolute count that seq_pad pads up to */
	loff_t index;       /* iterator position (record number) */
	loff_t read_pos;    /* file offset matching the end of what was returned */
	const struct seq_operations *op;
	void *private;      /* caller data (seq_single_open's data pointer) */
	/* userspace additions: */
	int (*single_show)(struct seq_file *m, void *v); /* show of seq_single_open */
	unsigned int flags; /* the engine's own; 0 for every file opened here */
};

/** Conventional header element returned by start() for record 0. */
#define SEQ_START_TOKEN ((void *)1)
/** show() return value meaning "discard what this record wrote". */
#define SEQ_SKIP 1

/** Error pointers, as the kernel's ERR_PTR/IS_ERR/PTR_ERR, for start()/next(). */
#define SEQ_MAX_ERRNO 4095
/** -errno @error as a pointer start() or next() can return (kernel ERR_PTR). */
static inline void *SEQ_ERR_PTR(long error) { return (void *)error; }
/** The -errno an error pointer carries (kernel PTR_ERR). */
static inline long SEQ_PTR_ERR(const void *p) { return (long)p; }
/** Whether @p is an error pointer rather than an element (kernel IS_ERR). */
static inline int SEQ_IS_ERR(const void *p)
{
	return (uintptr_t)p >= (uintptr_t)-SEQ_MAX_ERRNO;
}

/** First buffer size of every open, as the kernel's PAGE_SIZE. */
#define SEQ_FIRST_BUF_SIZE 4096

/* ------------------------------------------------------------------ */
/* Opening, reading, seeking                                           */

/** Prepare @m for the iterator protocol @op; the buffer comes at the first read. */
int seq_open(struct seq_file *m, const struct seq_operations *op, void *private);

/**
 * Prepare @m to call @show once per regeneration, with @data as m->private
 * (kernel single_open).
 */
int seq_single_open(struct seq_file *m, int (*show)(struct seq_file *, void *), void *data);

/**
 * As seq_single_open, with a first buffer of exactly @size bytes, as
 * /proc/stat has (kernel single_open_size).
 */
int seq_single_open_size(struct seq_file *m, int (*show)(struct seq_file *, void *),
			 void *data, size_t size);

/** Free the buffer; @m may be opened again afterwards. */
void seq_release(struct seq_file *m);

/**
 * Read up to @size bytes at *@ppos into @dst, as the kernel's seq_read_iter.
 * Position 0, or any position other than where the last read ended, regenerates;
 * sequential reads drain the current snapshot.  Returns bytes copied (0 at EOF)
 * or -errno; advances *@ppos.
 */
ssize_t seq_read(struct seq_file *m, char *dst, size_t size, loff_t *ppos);

/** Move *@ppos as the kernel's seq_lseek: SEEK_SET and SEEK_CUR only, else -EINVAL. */
loff_t seq_lseek(struct seq_file *m, loff_t offset, int whence, loff_t *ppos);

/* ------------------------------------------------------------------ */
/* Overflow                                                            */

/** True once a putter ran out of room: the record will be regenerated. */
static inline int seq_has_overflowed(const struct seq_file *m)
{
	return m->count == m->size;
}

/** Mark the buffer as overflowed (sticky until the driver regrows it). */
static inline void seq_set_overflow(struct seq_file *m)
{
	m->count = m->size;
}

/** Bytes still usable by a record: the last byte of the buffer never is. */
static inline size_t seq__room(const struct seq_file *m)
{
	return m->size - m->count;
}

/* ------------------------------------------------------------------ */
/* Putters: void, sticky overflow                                      */

/** Append one byte; may fill the last byte, which then reads as overflow. */
SEQ_INLINE void seq_putc(struct seq_file *m, char c)
{
	size_t count = m->count;

	if (count < m->size) {
		m->buf[count] = c;
		m->count = count + 1;
	}
}

/** Append @len bytes, or overflow if they would reach the end of the buffer. */
SEQ_INLINE void seq_write(struct seq_file *m, const void *data, size_t len)
{
	size_t count = m->count;

	if (__builtin_expect(count + len < m->size, 1)) {
		memcpy(m->buf + count, data, len);
		m->count = count + len;
	} else {
		seq_set_overflow(m);
	}
}

/** Append a NUL-terminated string (a constant one folds to a fixed copy). */
SEQ_INLINE void seq_puts(struct seq_file *m, const char *s)
{
	seq_write(m, s, __builtin_strlen(s));
}

/*
 * Widest thing one decimal field can add besides its delimiter: 20 digits.
 * Checking against it first keeps the common path to one compare per field.
 */
#define SEQ__DEC_MAX 20u

/*
 * The out-of-line path of the decimal putters, taken near the end of the
 * buffer: the field's exact length decides between writing it and overflow.
 */
void seq__put_decimal_slow(struct seq_file *m, const char *delim, size_t dlen,
			   unsigned long long num, unsigned int width, int negative);

/**
 * Append @delim (may be NULL or "") then @num in decimal, right-aligned with
 * spaces to @width columns (as the kernel's seq_put_decimal_ull_width).
 */
SEQ_INLINE void seq_put_decimal_ull_width(struct seq_file *m, const char *delim,
					     unsigned long long num, unsigned int width)
{
	size_t dlen = delim ? __builtin_strlen(delim) : 0;
	size_t count = m->count;
	char *start, *p;

	if (__builtin_expect(count + dlen + SEQ__DEC_MAX + (size_t)width >= m->size, 0)) {
		seq__put_decimal_slow(m, delim, dlen, num, width, 0);
		return;
	}
	start = p = m->buf + count;
	if (dlen == 1)
		*p++ = delim[0]; /* the one-character delimiter fast path */
	else if (dlen)
		p = (char *)memcpy(p, delim, dlen) + dlen;
	if (width > 1) {
		unsigned int len = seq_dec_len(num);
		if (len < width) {
			memset(p, ' ', width - len);
			p += width - len;
		}
	}
	p = seq_dec_u64_spill(p, num); /* the check above left SEQ__DEC_MAX bytes */
	m->count = count + (size_t)(p - start);
}

/** Append @delim then @num in decimal (as the kernel's seq_put_decimal_ull). */
SEQ_INLINE void seq_put_decimal_ull(struct seq_file *m, const char *delim,
				       unsigned long long num)
{
	seq_put_decimal_ull_width(m, delim, num, 0);
}

/** Append @delim then the signed @num in decimal (as seq_put_decimal_ll). */
SEQ_INLINE void seq_put_decimal_ll(struct seq_file *m, const char *delim, long long num)
{
	size_t dlen = delim ? __builtin_strlen(delim) : 0;
	size_t count = m->count;
	unsigned long long mag = num < 0 ? 0ull - (unsigned long long)num
					 : (unsigned long long)num;
	char *start, *p;

	if (__builtin_expect(count + dlen + 1 + SEQ__DEC_MAX >= m->size, 0)) {
		seq__put_decimal_slow(m, delim, dlen, mag, 0, num < 0);
		return;
	}
	start = p = m->buf + count;
	if (dlen == 1)
		*p++ = delim[0];
	else if (dlen)
		p = (char *)memcpy(p, delim, dlen) + dlen;
	if (num < 0)
		*p++ = '-';
	p = seq_dec_u64_spill(p, mag);
	m->count = count + (size_t)(p - start);
}

/**
 * Append @delim then @v in lowercase hex, zero-padded to at least @width digits,
 * no "0x" (as the kernel's seq_put_hex_ll, i.e. "%0<width>llx").
 */
SEQ_INLINE void seq_put_hex_ll(struct seq_file *m, const char *delim,
				  unsigned long long v, unsigned int width)
{
	size_t dlen = delim ? __builtin_strlen(delim) : 0;
	size_t count = m->count;
	unsigned int len = seq_hex_len(v);
	char *p;

	if (len < width)
		len = width;
	if (__builtin_expect(count + dlen + len >= m->size, 0)) {
		seq_set_overflow(m);
		return;
	}
	p = m->buf + count;
	if (dlen == 1)
		*p = delim[0];
	else if (dlen)
		memcpy(p, delim, dlen);
#if defined(__SSE2__) && !defined(SEQ_NO_SIMD)
	/* addresses (9..16 digits) in one vector store when 16 bytes are free */
	if (len > 8 && len <= 16 && count + dlen + 16 < m->size) {
		seq_hex16_sse2(p + dlen, len == 16 ? v : v << (4 * (16 - len)));
		m->count = count + dlen + len;
		return;
	}
#endif
	seq_hex_fill(p + dlen, v, len);
	/* From the lengths, not from p: a reload of m->buf after the stores is avoided. */
	m->count = count + dlen + len;
}

/** Start a padded field of @width columns at the current position (seq_setwidth). */
static inline void seq_setwidth(struct seq_file *m, size_t width)
{
	m->pad_until = m->count + width;
}

/** Pad with spaces up to the seq_setwidth column, then append @c unless it is 0. */
void seq_pad(struct seq_file *m, char c);

/* ------------------------------------------------------------------ */
/* Escaping (lib/string_helpers.c string_escape_mem flags)             */

/* The kernel's ESCAPE_SPACE, ESCAPE_SPECIAL, ... with the SEQ_ prefix. */
#define SEQ_ESCAPE_SPACE   0x01u /* \f \n \r \t \v as two-character escapes */
#define SEQ_ESCAPE_SPECIAL 0x02u /* \\ \a \e \" */
#define SEQ_ESCAPE_NULL    0x04u /* NUL as \0 */
#define SEQ_ESCAPE_OCTAL   0x08u /* \ooo */
#define SEQ_ESCAPE_HEX     0x20u /* \xhh */

/**
 * Append @len bytes of @src, escaping those in @esc (all bytes if @esc is empty
 * or NULL) by the classes in @flags, in the kernel's order: space, special,
 * null, octal, hex; bytes no class takes are copied as they are.
 */
void seq_escape_mem(struct seq_file *m, const char *src, size_t len,
		    unsigned int flags, const char *esc);

/** seq_escape_mem over a NUL-terminated string. */
void seq_escape_str(struct seq_file *m, const char *s, unsigned int flags, const char *esc);

/** Octal-escape the bytes of @s found in @esc (as the kernel's seq_escape). */
void seq_escape(struct seq_file *m, const char *s, const char *esc);

/* ------------------------------------------------------------------ */
/* Bitmaps (vsprintf %*pb and %*pbl)                                   */

/**
 * Append the first @nbits bits of @bits as comma-separated 32-bit lowercase hex
 * groups, most significant first; the top group is only as wide as its bits
 * need (Cpus_allowed: "3" for 2 CPUs), the others 8 digits.
 */
void seq_put_bitmap(struct seq_file *m, const uint64_t *bits, unsigned int nbits);

/** Append the set bits of @bits as a range list such as "0-3,8,10-11". */
void seq_put_bitmap_list(struct seq_file *m, const uint64_t *bits, unsigned int nbits);

/* ------------------------------------------------------------------ */
/* printf family: our own formatter, byte-identical to glibc           */

/**
 * Format like C vsnprintf for the conversions /proc needs: d i u x X o c s %
 * with hh h l ll z j t modifiers, width, precision, '*', and - 0 + space #.
 * Writes at most @cap bytes including a NUL; returns the full length.
 * An unsupported conversion is copied through literally.
 */
int seq_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap);

/** seq_vsnprintf with variadic arguments. */
int seq_snprintf(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** Append formatted text, or overflow if it does not fit (as seq_vprintf). */
void seq_vprintf(struct seq_file *m, const char *fmt, va_list ap);

/** Append formatted text, or overflow if it does not fit (as seq_printf). */
void seq_printf(struct seq_file *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
}
#endif

#endif /* UPROCFS_SEQ_FILE_H */
