/*
 * checkpoint.c - emilia-mpi's record of finished work (checkpoint.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "checkpoint.h"

#define MAGIC_HEADER "emilia-mpi checkpoint 1\n"
#define MAGIC_RECORD "EMCR"

struct Checkpoint {
	char path[1024];
	int fd;
	/* open addressing on (p, o, param); cap a power of two, n < cap / 2 */
	CkptKey *keys;
	CkptValue *vals;
	bool *used;
	size_t cap, n;
};

uint32_t ckpt_crc32(const void *buf, size_t len)
{
	static uint32_t table[256];
	static bool ready;
	if (!ready) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
		ready = true;
	}
	const unsigned char *p = buf;
	uint32_t c = 0xFFFFFFFFu;
	for (size_t i = 0; i < len; i++)
		c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
	return c ^ 0xFFFFFFFFu;
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v = 0;
	for (int i = 0; i < 4; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static size_t slot_of(const Checkpoint *c, const CkptKey *k)
{
	uint64_t h = k->p * 0x9E3779B97F4A7C15ull ^ (k->o + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full
	             ^ (uint64_t)(uint32_t)k->param * 0x165667B19E3779F9ull;
	h ^= h >> 29;
	return (size_t)h & (c->cap - 1);
}

static bool same_key(const CkptKey *a, const CkptKey *b)
{
	return a->p == b->p && a->o == b->o && a->param == b->param;
}

static bool map_put(Checkpoint *c, const CkptKey *k, const CkptValue *v)
{
	if (2 * (c->n + 1) > c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 1024;
		CkptKey *nk = malloc(cap * sizeof *nk);
		CkptValue *nv = malloc(cap * sizeof *nv);
		bool *nu = calloc(cap, sizeof *nu);
		if (!nk || !nv || !nu) {
			free(nk);
			free(nv);
			free(nu);
			return false;
		}
		Checkpoint old = *c;
		c->keys = nk;
		c->vals = nv;
		c->used = nu;
		c->cap = cap;
		c->n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.used[i])
				map_put(c, &old.keys[i], &old.vals[i]);
		free(old.keys);
		free(old.vals);
		free(old.used);
	}
	size_t j = slot_of(c, k);
	while (c->used[j]) {
		if (same_key(&c->keys[j], k)) {
			c->vals[j] = *v;
			return true;
		}
		j = (j + 1) & (c->cap - 1);
	}
	c->used[j] = true;
	c->keys[j] = *k;
	c->vals[j] = *v;
	c->n++;
	return true;
}

bool ckpt_find(const Checkpoint *c, const CkptKey *key, CkptValue *v)
{
	if (!c->cap)
		return false;
	for (size_t j = slot_of(c, key); c->used[j]; j = (j + 1) & (c->cap - 1))
		if (same_key(&c->keys[j], key)) {
			*v = c->vals[j];
			return true;
		}
	return false;
}

static void header_of(const char *job, unsigned char h[CKPT_HEADER])
{
	memset(h, 0, CKPT_HEADER);
	size_t m = strlen(MAGIC_HEADER);
	memcpy(h, MAGIC_HEADER, m);
	size_t l = strlen(job);
	if (l > CKPT_JOB_MAX)
		l = CKPT_JOB_MAX;
	memcpy(h + m, job, l);
	put32(h + CKPT_HEADER - 4, ckpt_crc32(h, CKPT_HEADER - 4));
}

static void encode(unsigned char r[CKPT_RECORD], const CkptKey *k, const CkptValue *v)
{
	memcpy(r, MAGIC_RECORD, 4);
	put64(r + 4, k->p);
	put64(r + 12, k->o);
	put32(r + 20, (uint32_t)k->param);
	put32(r + 24, (uint32_t)v->score);
	put32(r + 28, (uint32_t)v->move);
	put32(r + 32, (uint32_t)v->flags);
	put32(r + 36, ckpt_crc32(r, 36));
}

static void ckpt_free(Checkpoint *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->keys);
	free(c->vals);
	free(c->used);
	free(c);
}

/* Read and check the whole file; records into the map. */
static bool load(Checkpoint *c, const char *job, char *err)
{
	struct stat st;
	if (fstat(c->fd, &st) != 0) {
		snprintf(err, CKPT_ERR, "%s: %s", c->path, strerror(errno));
		return false;
	}
	unsigned char h[CKPT_HEADER], want[CKPT_HEADER];
	if (st.st_size < CKPT_HEADER || pread(c->fd, h, CKPT_HEADER, 0) != CKPT_HEADER
	    || memcmp(h, MAGIC_HEADER, strlen(MAGIC_HEADER)) != 0
	    || get32(h + CKPT_HEADER - 4) != ckpt_crc32(h, CKPT_HEADER - 4)) {
		snprintf(err, CKPT_ERR, "%s is not an emilia-mpi checkpoint, or its header is damaged", c->path);
		return false;
	}
	header_of(job, want);
	if (memcmp(h, want, CKPT_HEADER) != 0) {
		const char *had = (const char *)h + strlen(MAGIC_HEADER);
		snprintf(err, CKPT_ERR, "%s belongs to another job ('%.*s', not '%s')", c->path, CKPT_JOB_MAX, had,
		         job);
		return false;
	}
	off_t body = st.st_size - CKPT_HEADER;
	off_t whole = body / CKPT_RECORD * CKPT_RECORD;
	unsigned char buf[CKPT_RECORD * 256];
	for (off_t at = 0; at < whole;) {
		size_t want_bytes = (size_t)(whole - at < (off_t)sizeof buf ? whole - at : (off_t)sizeof buf);
		if (pread(c->fd, buf, want_bytes, CKPT_HEADER + at) != (ssize_t)want_bytes) {
			snprintf(err, CKPT_ERR, "%s: read error: %s", c->path, strerror(errno));
			return false;
		}
		for (size_t i = 0; i < want_bytes; i += CKPT_RECORD) {
			const unsigned char *r = buf + i;
			if (memcmp(r, MAGIC_RECORD, 4) != 0 || get32(r + 36) != ckpt_crc32(r, 36)) {
				snprintf(err, CKPT_ERR, "%s is corrupt: record %lld (byte %lld) fails its check", c->path,
				         (long long)((at + (off_t)i) / CKPT_RECORD) + 1, (long long)(CKPT_HEADER + at + (off_t)i));
				return false;
			}
			CkptKey k = { get64(r + 4), get64(r + 12), (int32_t)get32(r + 20) };
			CkptValue v = { (int32_t)get32(r + 24), (int32_t)get32(r + 28), (int32_t)get32(r + 32) };
			if (!map_put(c, &k, &v)) {
				snprintf(err, CKPT_ERR, "%s: out of memory", c->path);
				return false;
			}
		}
		at += (off_t)want_bytes;
	}
	if (whole != body) {
		fprintf(stderr, "checkpoint: %s ends inside a record (the job was killed while writing it): "
		        "cutting off its %lld bytes; that work is done again\n", c->path, (long long)(body - whole));
		if (ftruncate(c->fd, CKPT_HEADER + whole) != 0) {
			snprintf(err, CKPT_ERR, "%s: cannot cut off the incomplete record: %s", c->path, strerror(errno));
			return false;
		}
	}
	return true;
}

Checkpoint *ckpt_open(const char *path, const char *job, bool resume, char *err)
{
	Checkpoint *c = calloc(1, sizeof *c);
	if (!c) {
		snprintf(err, CKPT_ERR, "out of memory");
		return NULL;
	}
	c->fd = -1;
	if (strlen(path) >= sizeof c->path) {
		snprintf(err, CKPT_ERR, "the checkpoint path is too long");
		ckpt_free(c);
		return NULL;
	}
	snprintf(c->path, sizeof c->path, "%s", path);
	if (resume) {
		c->fd = open(path, O_RDWR);
		if (c->fd < 0) {
			snprintf(err, CKPT_ERR, "cannot resume: no checkpoint %s (%s)", path, strerror(errno));
			ckpt_free(c);
			return NULL;
		}
		if (!load(c, job, err) || lseek(c->fd, 0, SEEK_END) < 0) {
			ckpt_free(c);
			return NULL;
		}
		return c;
	}
	c->fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
	if (c->fd < 0) {
		if (errno == EEXIST)
			snprintf(err, CKPT_ERR, "the checkpoint %s exists: add --resume to go on with that job, "
			         "or remove the file to start again", path);
		else
			snprintf(err, CKPT_ERR, "cannot create the checkpoint %s: %s", path, strerror(errno));
		ckpt_free(c);
		return NULL;
	}
	unsigned char h[CKPT_HEADER];
	header_of(job, h);
	if (write(c->fd, h, CKPT_HEADER) != CKPT_HEADER || fsync(c->fd) != 0) {
		snprintf(err, CKPT_ERR, "cannot write the checkpoint %s: %s", path, strerror(errno));
		unlink(path);
		ckpt_free(c);
		return NULL;
	}
	return c;
}

bool ckpt_append(Checkpoint *c, const CkptKey *keys, const CkptValue *vals, size_t n, char *err)
{
	if (!n)
		return true;
	unsigned char *buf = malloc(n * CKPT_RECORD);
	if (!buf) {
		snprintf(err, CKPT_ERR, "out of memory");
		return false;
	}
	for (size_t i = 0; i < n; i++)
		encode(buf + i * CKPT_RECORD, &keys[i], &vals[i]);
	size_t done = 0;
	while (done < n * CKPT_RECORD) {
		ssize_t w = write(c->fd, buf + done, n * CKPT_RECORD - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			snprintf(err, CKPT_ERR, "cannot write the checkpoint %s: %s", c->path, strerror(errno));
			free(buf);
			return false;
		}
		done += (size_t)w;
	}
	free(buf);
	if (fsync(c->fd) != 0) {
		snprintf(err, CKPT_ERR, "cannot sync the checkpoint %s: %s", c->path, strerror(errno));
		return false;
	}
	for (size_t i = 0; i < n; i++)
		if (!map_put(c, &keys[i], &vals[i])) {
			snprintf(err, CKPT_ERR, "out of memory");
			return false;
		}
	return true;
}

size_t ckpt_count(const Checkpoint *c)
{
	return c->n;
}

void ckpt_close(Checkpoint *c, bool remove_file)
{
	if (!c)
		return;
	if (remove_file)
		unlink(c->path);
	ckpt_free(c);
}
