// SPDX-License-Identifier: MIT
/*
 * seq_file.c - buffer management and the read/lseek protocol.
 *
 * Mirrors fs/seq_file.c of Linux 6.18 (seq_read_iter, traverse, seq_lseek,
 * single_open, single_open_size, seq_pad): same states, same regeneration
 * points, so a reader sees exactly what it would see on the kernel's /proc.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seq/seq_testing.h"
#include "uprocfs/seq_file.h"

static int seq_alloc_buf(struct seq_file *m, size_t size)
{
	if (m->flags & SEQ_F_FIXED_BUF)
		return m->buf ? 0 : -ENOMEM;
	if (size < 1 || size > (size_t)INT32_MAX)
		return -ENOMEM; /* the kernel refuses more than MAX_RW_COUNT too */
	m->buf = malloc(size);
	if (!m->buf) {
		m->size = 0;
		return -ENOMEM;
	}
	m->size = size;
	return 0;
}

/* Drop the buffer and take one twice as large: a record did not fit. */
static int seq_grow_buf(struct seq_file *m)
{
	size_t size = m->size * 2;

	if (m->flags & SEQ_F_FIXED_BUF)
		return -EOVERFLOW;
	free(m->buf);
	m->buf = NULL;
	m->count = 0;
	return seq_alloc_buf(m, size);
}

static void seq_reset(struct seq_file *m, const struct seq_operations *op, void *private)
{
	memset(m, 0, sizeof(*m));
	m->op = op;
	m->private = private;
}

int seq_open(struct seq_file *m, const struct seq_operations *op, void *private)
{
	if (!m || !op || !op->start || !op->next || !op->stop || !op->show)
		return -EINVAL;
	seq_reset(m, op, private);
	return 0;
}

static void *single_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	return *pos == 0 ? SEQ_START_TOKEN : NULL;
}

static void *single_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)m;
	(void)v;
	++*pos;
	return NULL;
}

static void single_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

static int single_show_trampoline(struct seq_file *m, void *v)
{
	return m->single_show(m, v);
}

static const struct seq_operations single_ops = {
	.start = single_start,
	.next = single_next,
	.stop = single_stop,
	.show = single_show_trampoline,
};

int seq_single_open(struct seq_file *m, int (*show)(struct seq_file *, void *), void *data)
{
	if (!m || !show)
		return -EINVAL;
	seq_reset(m, &single_ops, data);
	m->single_show = show;
	return 0;
}

int seq_single_open_size(struct seq_file *m, int (*show)(struct seq_file *, void *),
			 void *data, size_t size)
{
	int err = seq_single_open(m, show, data);

	if (err)
		return err;
	return seq_alloc_buf(m, size);
}

void seq_release(struct seq_file *m)
{
	if (!(m->flags & SEQ_F_FIXED_BUF))
		free(m->buf);
	m->buf = NULL;
	m->size = m->count = m->from = 0;
}

void seq_init_buffer(struct seq_file *m, char *buf, size_t size)
{
	memset(m, 0, sizeof(*m));
	m->buf = buf;
	m->size = size;
	m->flags = SEQ_F_FIXED_BUF;
}

/*
 * Copy out of the seq buffer.  glibc 2.36's memcpy switches to rep movsb at
 * 2113 bytes, which runs ~30x slower on this CPU family when the destination
 * sits 1..31 bytes after the source modulo 4 KiB (docs/number-formatting.md,
 * section 3).  Large copies in that window go through fixed 32-byte chunks
 * instead.
 */
static void seq_copy_out(char *dst, const char *src, size_t n)
{
	size_t distance = ((uintptr_t)dst - (uintptr_t)src) & 4095;

	if (n < 2048 || distance >= 64) {
		memcpy(dst, src, n);
		return;
	}
	while (n >= 32) {
		char chunk[32];
		memcpy(chunk, src, 32);
		memcpy(dst, chunk, 32);
		dst += 32;
		src += 32;
		n -= 32;
	}
	memcpy(dst, src, n);
}

/*
 * Regenerate from record 0 up to byte @offset, keeping the record that holds
 * it in the buffer (the kernel's traverse).  -EAGAIN: the buffer was grown,
 * call again.
 */
static int seq_traverse(struct seq_file *m, loff_t offset)
{
	loff_t pos = 0;
	int error = 0;
	void *p;

	m->index = 0;
	m->count = m->from = 0;
	if (!offset)
		return 0;
	if (!m->buf) {
		error = seq_alloc_buf(m, SEQ_FIRST_BUF_SIZE);
		if (error)
			return error;
	}
	p = m->op->start(m, &m->index);
	while (p) {
		if (SEQ_IS_ERR(p)) {
			error = (int)SEQ_PTR_ERR(p);
			break;
		}
		error = m->op->show(m, p);
		if (error < 0)
			break;
		if (error) {
			error = 0;
			m->count = 0;
		}
		if (seq_has_overflowed(m)) {
			m->op->stop(m, p);
			error = seq_grow_buf(m);
			return error ? error : -EAGAIN;
		}
		p = m->op->next(m, p, &m->index);
		if (pos + (loff_t)m->count > offset) {
			m->from = (size_t)(offset - pos);
			m->count -= m->from;
			break;
		}
		pos += (loff_t)m->count;
		m->count = 0;
		if (pos == offset)
			break;
	}
	m->op->stop(m, p);
	return error;
}

static int seq_traverse_retry(struct seq_file *m, loff_t offset)
{
	int err;

	while ((err = seq_traverse(m, offset)) == -EAGAIN)
		;
	return err;
}

ssize_t seq_read(struct seq_file *m, char *dst, size_t size, loff_t *ppos)
{
	size_t copied = 0, n;
	int err = 0;
	void *p;

	if (!size)
		return 0;
	if (*ppos < 0)
		return -EINVAL;
	if (size > (size_t)INT32_MAX)
		size = INT32_MAX;
	/* A read from offset 0 always starts a new snapshot. */
	if (*ppos == 0) {
		m->index = 0;
		m->count = 0;
	}
	/* Not where the last read ended (pread, or a seek): replay to it. */
	if (*ppos != m->read_pos) {
		err = seq_traverse_retry(m, *ppos);
		if (err) {
			m->read_pos = 0;
			m->index = 0;
			m->count = 0;
			goto done;
		}
		m->read_pos = *ppos;
	}
	if (!m->buf) {
		err = seq_alloc_buf(m, SEQ_FIRST_BUF_SIZE);
		if (err)
			goto done;
	}
	/* Leftover of a record already generated: drain it first. */
	if (m->count) {
		n = m->count < size ? m->count : size;
		seq_copy_out(dst, m->buf + m->from, n);
		m->count -= n;
		m->from += n;
		copied += n;
		if (m->count)
			goto done;
	}
	/* Get one non-empty record into the buffer, growing it as needed. */
	m->from = 0;
	p = m->op->start(m, &m->index);
	for (;;) {
		if (!p || SEQ_IS_ERR(p)) {
			err = p ? (int)SEQ_PTR_ERR(p) : 0;
			m->op->stop(m, p);
			m->count = 0;
			goto done;
		}
		err = m->op->show(m, p);
		if (err < 0) {
			m->op->stop(m, p);
			m->count = 0;
			goto done;
		}
		if (err)
			m->count = 0;
		if (!m->count) {
			p = m->op->next(m, p, &m->index);
			continue;
		}
		if (!seq_has_overflowed(m))
			break;
		m->op->stop(m, p);
		err = seq_grow_buf(m);
		if (err)
			goto done;
		p = m->op->start(m, &m->index);
	}
	/* Fill: add whole records while the caller wants more. */
	for (;;) {
		size_t offs = m->count;
		loff_t pos = m->index;

		p = m->op->next(m, p, &m->index);
		if (pos == m->index)
			m->index++; /* a buggy next(); the kernel repairs it the same way */
		if (!p || SEQ_IS_ERR(p))
			break;
		if (m->count >= size - copied)
			break;
		err = m->op->show(m, p);
		if (err > 0) {
			m->count = offs;
		} else if (err || seq_has_overflowed(m)) {
			m->count = offs;
			break;
		}
	}
	m->op->stop(m, p);
	n = m->count < size - copied ? m->count : size - copied;
	seq_copy_out(dst + copied, m->buf, n);
	copied += n;
	m->count -= n;
	m->from = n;
done:
	if (!copied)
		return m->count ? -EFAULT : err;
	*ppos += (loff_t)copied;
	m->read_pos += (loff_t)copied;
	return (ssize_t)copied;
}

loff_t seq_lseek(struct seq_file *m, loff_t offset, int whence, loff_t *ppos)
{
	int err;

	switch (whence) {
	case SEEK_CUR:
		if (__builtin_add_overflow(offset, *ppos, &offset))
			return -EINVAL;
		/* fall through */
	case SEEK_SET:
		if (offset < 0)
			return -EINVAL;
		if (offset != m->read_pos) {
			err = seq_traverse_retry(m, offset);
			if (err) {
				*ppos = 0;
				m->read_pos = 0;
				m->index = 0;
				m->count = 0;
				return err;
			}
			m->read_pos = offset;
		}
		*ppos = offset;
		return offset;
	default:
		return -EINVAL;
	}
}

int seq_render_single(int (*show)(struct seq_file *, void *), void *data,
		      size_t first_size, char **out, size_t *len)
{
	struct seq_file m;
	int err;

	err = seq_single_open_size(&m, show, data, first_size ? first_size : SEQ_FIRST_BUF_SIZE);
	if (err)
		return err;
	for (;;) {
		m.count = 0;
		m.pad_until = 0;
		err = show(&m, SEQ_START_TOKEN);
		if (err < 0)
			goto fail;
		if (err)
			m.count = 0; /* SEQ_SKIP: an empty file */
		if (!seq_has_overflowed(&m))
			break;
		err = seq_grow_buf(&m);
		if (err)
			goto fail;
	}
	*out = m.buf;
	*len = m.count;
	return 0;
fail:
	seq_release(&m);
	return err;
}

void seq_pad(struct seq_file *m, char c)
{
	static const char spaces[32] = "                                ";
	size_t size = m->pad_until - m->count;

	if (m->pad_until > m->count) {
		if (m->count + size < m->size) {
			/* pads are short (maps: about 20): fixed-size copies, no memset call */
			char *p = m->buf + m->count;
			size_t left = size;

			while (left >= 32) {
				memcpy(p, spaces, 32);
				p += 32;
				left -= 32;
			}
			if (m->count + size + 32 < m->size) {
				memcpy(p, spaces, 32); /* past the pad is free space the next putter overwrites */
			} else {
				memcpy(p, spaces, left);
			}
			m->count += size;
		} else {
			seq_set_overflow(m);
			return;
		}
	}
	if (c)
		seq_putc(m, c);
}

/*
 * Out-of-line path of the decimal putters, taken only near the end of the
 * buffer: compute the exact length and either write it all or overflow.
 */
void seq__put_decimal_slow(struct seq_file *m, const char *delim, size_t dlen,
			   unsigned long long num, unsigned int width, int negative)
{
	size_t digits = seq_dec_len(num) + (negative ? 1 : 0);
	size_t field = digits < width ? width : digits;
	char *p;

	if (m->count + dlen + field >= m->size) {
		seq_set_overflow(m);
		return;
	}
	p = m->buf + m->count;
	if (dlen) {
		memcpy(p, delim, dlen);
		p += dlen;
	}
	memset(p, ' ', field - digits);
	p += field - digits;
	if (negative)
		*p++ = '-';
	p = seq_dec_u64(p, num);
	m->count = (size_t)(p - m->buf);
}
