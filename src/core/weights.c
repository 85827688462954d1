/*
 * weights.c - weight file encoding, decoding and validation; the embedded
 * default weights.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "blobs.h"
#include "util.h"
#include "weights.h"

/* The default weights: data/eval.bin, built in by blobs.c. */
const unsigned char *weights_builtin(size_t *len)
{
	return blob_eval_weights(len);
}

static uint32_t get32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t get64(const unsigned char *b)
{
	return (uint64_t)get32(b) | (uint64_t)get32(b + 4) << 32;
}

static void put32(unsigned char *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *b, uint64_t v)
{
	put32(b, (uint32_t)v);
	put32(b + 4, (uint32_t)(v >> 32));
}

static uint64_t fnv(uint64_t h, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001B3ULL;
	return h;
}

uint64_t weights_checksum(const unsigned char *buf, size_t len)
{
	uint64_t h = 0xCBF29CE484222325ULL;
	h = fnv(h, buf, len < 32 ? len : 32);
	if (len > 40)
		h = fnv(h, buf + 40, len - 40);
	return h;
}

bool weights_decode(const unsigned char *buf, size_t len, uint32_t set_id, uint32_t phases,
                    uint32_t nweights, int16_t *out, char *err)
{
	return weights_decode_version(buf, len, WEIGHTS_VERSION, set_id, phases, nweights, out, err);
}

bool weights_decode_version(const unsigned char *buf, size_t len, uint32_t want_version, uint32_t set_id,
                            uint32_t phases, uint32_t nweights, int16_t *out, char *err)
{
	if (len >= 8 && len < WEIGHTS_HEADER && memcmp(buf, WEIGHTS_MAGIC, 8) == 0) {
		snprintf(err, WEIGHTS_ERR, "weight file truncated (%zu bytes, header incomplete)", len);
		return false;
	}
	if (len < WEIGHTS_HEADER || memcmp(buf, WEIGHTS_MAGIC, 8) != 0) {
		snprintf(err, WEIGHTS_ERR, "not an Emilia weight file (bad magic)");
		return false;
	}
	uint32_t version = get32(buf + 8);
	if (version != want_version) {
		if (version == 2 && want_version == WEIGHTS_VERSION)
			snprintf(err, WEIGHTS_ERR, "weight file version 2 is from an older Emilia; emilia-train --widen "
			         "OLD NEW converts it");
		else if (version < want_version)
			snprintf(err, WEIGHTS_ERR,
			         "weight file version %u is from an older Emilia; this one reads version %u (retrain)",
			         version, want_version);
		else
			snprintf(err, WEIGHTS_ERR, "weight file format version %u, this engine reads version %u",
			         version, want_version);
		return false;
	}
	uint32_t ph = get32(buf + 16), nw = get32(buf + 20);
	uint64_t want = WEIGHTS_HEADER + 2ULL * ph * nw;
	if (len != want) {
		snprintf(err, WEIGHTS_ERR, "weight file is %zu bytes, its header announces %llu (truncated?)",
		         len, (unsigned long long)want);
		return false;
	}
	if (get64(buf + 32) != weights_checksum(buf, len)) {
		snprintf(err, WEIGHTS_ERR, "weight file checksum mismatch (corrupt file)");
		return false;
	}
	if (get32(buf + 12) != set_id || ph != phases || nw != nweights) {
		snprintf(err, WEIGHTS_ERR,
		         "weight file is for another feature set (set %08x, %u phases, %u weights; "
		         "expected %08x, %u, %u)", get32(buf + 12), ph, nw, set_id, phases, nweights);
		return false;
	}
	if (get32(buf + 24) != WEIGHTS_SCALE) {
		snprintf(err, WEIGHTS_ERR, "weight file scale %u, expected %d", get32(buf + 24), WEIGHTS_SCALE);
		return false;
	}
	const unsigned char *p = buf + WEIGHTS_HEADER;
	for (size_t i = 0; i < (size_t)ph * nw; i++) {
		int v = (int16_t)(uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
		if (v < -WEIGHTS_MAX || v > WEIGHTS_MAX) {
			snprintf(err, WEIGHTS_ERR, "weight %d out of range -%d..%d (phase %zu, index %zu)", v,
			         WEIGHTS_MAX, WEIGHTS_MAX, i / nw, i % nw);
			return false;
		}
	}
	for (size_t i = 0; i < (size_t)ph * nw; i++)
		out[i] = (int16_t)(uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
	return true;
}

unsigned char *weights_encode(const int16_t *w, uint32_t set_id, uint32_t phases,
                              uint32_t nweights, size_t *len)
{
	size_t n = (size_t)phases * nweights;
	unsigned char *b = calloc(1, WEIGHTS_HEADER + 2 * n);
	if (!b)
		return NULL;
	memcpy(b, WEIGHTS_MAGIC, 8);
	put32(b + 8, WEIGHTS_VERSION);
	put32(b + 12, set_id);
	put32(b + 16, phases);
	put32(b + 20, nweights);
	put32(b + 24, WEIGHTS_SCALE);
	for (size_t i = 0; i < n; i++) {
		int x = w[i] < -WEIGHTS_MAX ? -WEIGHTS_MAX : w[i] > WEIGHTS_MAX ? WEIGHTS_MAX : w[i];
		uint16_t v = (uint16_t)(int16_t)x;
		b[WEIGHTS_HEADER + 2 * i] = (unsigned char)v;
		b[WEIGHTS_HEADER + 2 * i + 1] = (unsigned char)(v >> 8);
	}
	*len = WEIGHTS_HEADER + 2 * n;
	put64(b + 32, weights_checksum(b, *len));
	return b;
}

unsigned char *weights_read_file(const char *path, size_t max, size_t *len, char *err)
{
	/* a FIFO must not block the open; only regular files */
	struct stat st;
	int fd = util_open_regular(path, &st);
	if (fd < 0) {
		snprintf(err, WEIGHTS_ERR, "%.100s: %.50s", path,
		         fd == UTIL_NOT_REGULAR ? "not a regular file" : strerror(errno));
		return NULL;
	}
	if ((uint64_t)st.st_size > max) {
		snprintf(err, WEIGHTS_ERR, "%.100s: file larger than %zu bytes", path, max);
		close(fd);
		return NULL;
	}
	/* the size is a hint: read to the end, one spare byte shows growth */
	size_t cap = (size_t)st.st_size + 1, n = 0;
	unsigned char *b = malloc(cap);
	bool failed = false;
	while (b) {
		if (n == cap) {
			if (cap > max) {
				snprintf(err, WEIGHTS_ERR, "%.100s: file larger than %zu bytes", path, max);
				free(b);
				close(fd);
				return NULL;
			}
			unsigned char *nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, b + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			failed = true;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (!b || failed) {
		snprintf(err, WEIGHTS_ERR, "%.100s: %s", path, b ? "read error" : "out of memory");
		free(b);
		return NULL;
	}
	if (n > max) {
		snprintf(err, WEIGHTS_ERR, "%.100s: file larger than %zu bytes", path, max);
		free(b);
		return NULL;
	}
	*len = n;
	return b;
}

bool weights_write_file(const char *path, const unsigned char *buf, size_t len, char *err)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
		snprintf(err, WEIGHTS_ERR, "path too long");
		return false;
	}
	FILE *f = fopen(tmp, "wb");
	if (!f) {
		snprintf(err, WEIGHTS_ERR, "%.100s: %.50s", tmp, strerror(errno));
		return false;
	}
	bool ok = fwrite(buf, 1, len, f) == len;
	ok = (fclose(f) == 0) && ok;
	if (!ok || rename(tmp, path) != 0) {
		snprintf(err, WEIGHTS_ERR, "%.90s: write failed: %.50s", path, strerror(errno));
		remove(tmp);
		return false;
	}
	return true;
}
