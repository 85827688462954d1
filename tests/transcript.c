#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "transcript.h"

static char *read_file_len(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *s = malloc(cap);
	for (;;) {
		if (n + 2048 > cap) {
			cap *= 2;
			s = realloc(s, cap);
		}
		size_t k = fread(s + n, 1, cap - n - 1, f);
		if (k == 0)
			break;
		n += k;
	}
	fclose(f);
	s[n] = 0;
	*len = n;
	return s;
}

char *transcript_read_file(const char *path)
{
	size_t n;
	return read_file_len(path, &n);
}

/* One line against a pattern line with {*} markers. */
static bool line_match(const char *p, size_t plen, const char *a, size_t alen)
{
	if (plen >= 4 && !strncmp(p, "{**}", 4)) {
		/* zero or more characters of any kind */
		for (size_t k = 0; k <= alen; k++)
			if (line_match(p + 4, plen - 4, a + k, alen - k))
				return true;
		return false;
	}
	if (plen >= 3 && !strncmp(p, "{*}", 3)) {
		/* one or more non-space characters, then the rest */
		for (size_t k = 1; k <= alen; k++) {
			if (a[k - 1] == ' ')
				break;
			if (line_match(p + 3, plen - 3, a + k, alen - k))
				return true;
		}
		return false;
	}
	if (plen == 0)
		return alen == 0;
	if (alen == 0 || *p != *a)
		return false;
	return line_match(p + 1, plen - 1, a + 1, alen - 1);
}

typedef struct Lines {
	const char **s;
	size_t *len;
	size_t n;
} Lines;

static Lines split_lines(const char *t)
{
	Lines l = { NULL, NULL, 0 };
	size_t cap = 16;
	l.s = malloc(cap * sizeof *l.s);
	l.len = malloc(cap * sizeof *l.len);
	const char *p = t;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (l.n == cap) {
			cap *= 2;
			l.s = realloc(l.s, cap * sizeof *l.s);
			l.len = realloc(l.len, cap * sizeof *l.len);
		}
		l.s[l.n] = p;
		l.len[l.n++] = n;
		p += n + (e ? 1 : 0);
	}
	return l;
}

static bool lines_match(const Lines *e, size_t i, const Lines *a, size_t j, size_t *best_i, size_t *best_j)
{
	if (i > *best_i || (i == *best_i && j > *best_j)) {
		*best_i = i;
		*best_j = j;
	}
	if (i == e->n)
		return j == a->n;
	if (e->len[i] == 5 && !strncmp(e->s[i], "{...}", 5)) {
		for (size_t k = j; k <= a->n; k++)
			if (lines_match(e, i + 1, a, k, best_i, best_j))
				return true;
		return false;
	}
	if (j == a->n || !line_match(e->s[i], e->len[i], a->s[j], a->len[j]))
		return false;
	return lines_match(e, i + 1, a, j + 1, best_i, best_j);
}

bool transcript_match(const char *expected, const char *actual, char *why, size_t whylen)
{
	Lines e = split_lines(expected), a = split_lines(actual);
	size_t bi = 0, bj = 0;
	bool ok = lines_match(&e, 0, &a, 0, &bi, &bj);
	if (!ok)
		snprintf(why, whylen, "expected line %zu: '%.*s'\n   got line %zu: '%.*s'", bi + 1,
		         bi < e.n ? (int)(e.len[bi] > 200 ? 200 : e.len[bi]) : 5, bi < e.n ? e.s[bi] : "(end)",
		         bj + 1, bj < a.n ? (int)(a.len[bj] > 200 ? 200 : a.len[bj]) : 5, bj < a.n ? a.s[bj] : "(end)");
	free(e.s);
	free(e.len);
	free(a.s);
	free(a.len);
	return ok;
}

char *transcript_run(const char *args, const char *input_path, char **err_out)
{
	const char *bin = getenv("EMILIA_BIN");
	if (!bin)
		bin = "./emilia";
	char errpath[] = "/tmp/emilia-transcript-XXXXXX";
	int fd = mkstemp(errpath);
	if (fd < 0)
		return NULL;
	close(fd);
	char cmd[8192];
	snprintf(cmd, sizeof cmd, "'%s' %s < '%s' 2> '%s'", bin, args, input_path, errpath);
	FILE *p = popen(cmd, "r");
	if (!p) {
		unlink(errpath);
		return NULL;
	}
	size_t cap = 4096, n = 0;
	char *s = malloc(cap);
	for (;;) {
		if (n + 2048 > cap) {
			cap *= 2;
			s = realloc(s, cap);
		}
		size_t k = fread(s + n, 1, cap - n - 1, p);
		if (k == 0)
			break;
		n += k;
	}
	s[n] = 0;
	pclose(p);
	if (err_out)
		*err_out = transcript_read_file(errpath);
	unlink(errpath);
	return s;
}

bool transcript_session(const char *name, const char *args, char *why, size_t whylen)
{
	const char *dir = getenv("EMILIA_TESTDATA");
	if (!dir)
		dir = "tests/data";
	char path[4096];
	snprintf(path, sizeof path, "%s/proto/%s.in", dir, name);
	size_t inlen = 0;
	char *in = read_file_len(path, &inlen);
	snprintf(path, sizeof path, "%s/proto/%s.out", dir, name);
	char *expected = transcript_read_file(path);
	if (!in || !expected) {
		snprintf(why, whylen, "missing %s/proto/%s.in or .out", dir, name);
		free(in);
		free(expected);
		return false;
	}
	char tmp[] = "/tmp/emilia-session-XXXXXX";
	int fd = mkstemp(tmp);
	FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!f) {
		snprintf(why, whylen, "cannot write a temporary file");
		free(in);
		free(expected);
		return false;
	}
	for (const char *p = in; p < in + inlen;) {
		if ((size_t)(in + inlen - p) >= 9 && !memcmp(p, "$TESTDATA", 9)) {
			fputs(dir, f);
			p += 9;
		} else {
			fputc(*p++, f);
		}
	}
	fclose(f);
	char *err = NULL;
	char *out = transcript_run(args, tmp, &err);
	unlink(tmp);
	bool ok = out != NULL;
	if (!out)
		snprintf(why, whylen, "cannot run the binary");
	else if (!transcript_match(expected, out, why, whylen))
		ok = false;
	else if (err && err[0]) {
		snprintf(why, whylen, "unexpected stderr: %.200s", err);
		ok = false;
	}
	if (out && !ok) {
		snprintf(path, sizeof path, "/tmp/emilia-%s.actual", name);
		FILE *a = fopen(path, "wb");
		if (a) {
			fputs(out, a);
			fclose(a);
		}
	}
	free(in);
	free(expected);
	free(out);
	free(err);
	return ok;
}
