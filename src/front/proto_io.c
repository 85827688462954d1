#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "proto_io.h"
#include "util.h"

/* The cleaning every protocol applies to a line: blanks become spaces,
 * other control characters are dropped, and text past the buffer marks
 * the line as too long. */
static void proto_put_char(ProtoLine *line, int c, size_t *n, bool *too_long)
{
	if (c == '\t' || c == '\r' || c == '\v' || c == '\f')
		c = ' ';
	else if (c < 32 || c == 127) {
		line->dropped++;
		return;
	}
	if (*n + 1 < PROTO_LINE_MAX)
		line->text[(*n)++] = (char)c;
	else
		*too_long = true;
}

ProtoLineStatus proto_read_line(FILE *in, ProtoLine *line)
{
	size_t n = 0;
	bool too_long = false, any = false;
	line->dropped = 0;
	for (;;) {
		int c = getc(in);
		if (c == EOF) {
			if (!any) {
				line->text[0] = 0;
				line->len = 0;
				return PROTO_LINE_EOF;
			}
			break;
		}
		any = true;
		if (c == '\n')
			break;
		proto_put_char(line, c, &n, &too_long);
	}
	line->text[n] = 0;
	line->len = n;
	return too_long ? PROTO_LINE_TOO_LONG : PROTO_LINE_OK;
}

ProtoLineStatus proto_clean_line(const char *s, ProtoLine *line)
{
	size_t n = 0;
	bool too_long = false;
	line->dropped = 0;
	for (; *s; s++)
		proto_put_char(line, (unsigned char)*s, &n, &too_long);
	line->text[n] = 0;
	line->len = n;
	return too_long ? PROTO_LINE_TOO_LONG : PROTO_LINE_OK;
}

int proto_split(char *s, char **argv, int max)
{
	int n = 0;
	while (*s && n < max) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		argv[n++] = s;
		if (n == max)
			break;
		while (*s && *s != ' ')
			s++;
		if (*s)
			*s++ = 0;
	}
	return n;
}

size_t proto_join(char *out, size_t cap, char **argv, int from, int to)
{
	size_t n = 0;
	out[0] = 0;
	for (int i = from; i < to; i++) {
		size_t len = strlen(argv[i]);
		if (n && n + 1 < cap)
			out[n++] = ' ';
		if (n + 1 >= cap)
			break;
		if (len > cap - 1 - n)
			len = cap - 1 - n;
		memcpy(out + n, argv[i], len);
		n += len;
		out[n] = 0;
	}
	return n;
}

void proto_put_byte(FILE *f, unsigned char c, bool newline_ok)
{
	if ((c >= 32 && c < 127) || (c == '\n' && newline_ok))
		fputc(c, f);
	else
		fprintf(f, "\\x%02x", c);
}

bool proto_is_integer(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

FILE *proto_open_regular(const char *path, char *why, size_t len)
{
	struct stat st;
	int fd = util_open_regular(path, &st);
	if (fd < 0) {
		snprintf(why, len, "%s", fd == UTIL_NOT_REGULAR ? "not a regular file" : strerror(errno));
		return NULL;
	}
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		snprintf(why, len, "%s", strerror(errno));
		close(fd);
	}
	return f;
}

bool proto_eq(const char *a, const char *b)
{
	return strcasecmp(a, b) == 0;
}

void proto_out_init(ProtoOut *o, FILE *f)
{
	o->f = f;
	pthread_mutex_init(&o->lock, NULL);
}

void proto_out_destroy(ProtoOut *o)
{
	pthread_mutex_destroy(&o->lock);
}

void proto_out_line(ProtoOut *o, const char *fmt, ...)
{
	/* format first, then write byte by byte: whatever a caller echoes,
	 * one call is one line of printable ASCII (other bytes as \xHH) */
	char small[1024], *text = small;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof small) {
		text = malloc((size_t)n + 1);
		if (text) {
			va_start(ap, fmt);
			vsnprintf(text, (size_t)n + 1, fmt, ap);
			va_end(ap);
		} else {
			text = small;
			n = (int)sizeof small - 1;
		}
	}
	pthread_mutex_lock(&o->lock);
	for (int i = 0; i < n; i++)
		proto_put_byte(o->f, (unsigned char)text[i], false);
	fputc('\n', o->f);
	fflush(o->f);
	pthread_mutex_unlock(&o->lock);
	if (text != small)
		free(text);
}

void proto_buf_init(ProtoBuf *b)
{
	b->cap = 256;
	b->len = 0;
	b->s = malloc(b->cap);
	if (!b->s)
		abort();
	b->s[0] = 0;
}

void proto_buf_free(ProtoBuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

void proto_buf_clear(ProtoBuf *b)
{
	b->len = 0;
	b->s[0] = 0;
}

void proto_buf_vprintf(ProtoBuf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	if ((size_t)n >= b->cap - b->len) {
		size_t cap = b->cap;
		while (cap - b->len <= (size_t)n)
			cap *= 2;
		char *s = realloc(b->s, cap);
		if (!s)
			abort();
		b->s = s;
		b->cap = cap;
		vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}
