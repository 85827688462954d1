/*
 * json.c - see json.h.
 */
#include "json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Reader {
	const char *s, *end;
	char *why;
	size_t whylen;
} Reader;

static bool fail(Reader *r, const char *what)
{
	snprintf(r->why, r->whylen, "%s", what);
	return false;
}

static void skip_space(Reader *r)
{
	while (r->s < r->end && (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r'))
		r->s++;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool read_hex4(Reader *r, unsigned *v)
{
	if (r->end - r->s < 4)
		return false;
	*v = 0;
	for (int i = 0; i < 4; i++) {
		const int d = hex_digit(r->s[i]);
		if (d < 0)
			return false;
		*v = *v * 16 + (unsigned)d;
	}
	r->s += 4;
	return true;
}

/* Append code point c as UTF-8 to out[*n..cap); false when it does not fit. */
static bool put_utf8(char *out, size_t *n, size_t cap, unsigned c)
{
	char tmp[4];
	size_t k;
	if (c < 0x80) {
		tmp[0] = (char)c;
		k = 1;
	} else if (c < 0x800) {
		tmp[0] = (char)(0xc0 | c >> 6);
		tmp[1] = (char)(0x80 | (c & 0x3f));
		k = 2;
	} else if (c < 0x10000) {
		tmp[0] = (char)(0xe0 | c >> 12);
		tmp[1] = (char)(0x80 | (c >> 6 & 0x3f));
		tmp[2] = (char)(0x80 | (c & 0x3f));
		k = 3;
	} else {
		tmp[0] = (char)(0xf0 | c >> 18);
		tmp[1] = (char)(0x80 | (c >> 12 & 0x3f));
		tmp[2] = (char)(0x80 | (c >> 6 & 0x3f));
		tmp[3] = (char)(0x80 | (c & 0x3f));
		k = 4;
	}
	if (*n + k >= cap)
		return false;
	memcpy(out + *n, tmp, k);
	*n += k;
	return true;
}

/* The length of the valid UTF-8 sequence at s (at most `left` bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	size_t k;
	unsigned c;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		k = 2;
		c = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		k = 3;
		c = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		k = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (k > left)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* no over-long forms, no surrogates, nothing past U+10FFFF */
	if ((k == 2 && c < 0x80) || (k == 3 && c < 0x800) || (k == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return k;
}

static bool read_string(Reader *r, char *out, size_t cap)
{
	size_t n = 0;
	r->s++; /* the opening quote */
	while (r->s < r->end && *r->s != '"') {
		const unsigned char c = (unsigned char)*r->s;
		if (c < 0x20)
			return fail(r, "a control character in a string");
		if (c == '\\') {
			r->s++;
			if (r->s >= r->end)
				return fail(r, "an unfinished string");
			const char e = *r->s++;
			unsigned u;
			switch (e) {
			case '"': u = '"'; break;
			case '\\': u = '\\'; break;
			case '/': u = '/'; break;
			case 'b': u = '\b'; break;
			case 'f': u = '\f'; break;
			case 'n': u = '\n'; break;
			case 'r': u = '\r'; break;
			case 't': u = '\t'; break;
			case 'u':
				if (!read_hex4(r, &u))
					return fail(r, "a bad \\u escape");
				if (u >= 0xd800 && u <= 0xdbff) {
					unsigned lo;
					if (r->end - r->s < 6 || r->s[0] != '\\' || r->s[1] != 'u')
						return fail(r, "a lone surrogate in a \\u escape");
					r->s += 2;
					if (!read_hex4(r, &lo) || lo < 0xdc00 || lo > 0xdfff)
						return fail(r, "a lone surrogate in a \\u escape");
					u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
				} else if (u >= 0xdc00 && u <= 0xdfff) {
					return fail(r, "a lone surrogate in a \\u escape");
				}
				if (u == 0)
					return fail(r, "a NUL character in a string");
				break;
			default:
				return fail(r, "a bad escape in a string");
			}
			if (!put_utf8(out, &n, cap, u))
				return fail(r, "a string too long");
			continue;
		}
		const size_t k = utf8_len((const unsigned char *)r->s, (size_t)(r->end - r->s));
		if (!k)
			return fail(r, "text that is not UTF-8");
		if (n + k >= cap)
			return fail(r, "a string too long");
		memcpy(out + n, r->s, k);
		n += k;
		r->s += k;
	}
	if (r->s >= r->end)
		return fail(r, "an unfinished string");
	r->s++;
	out[n] = 0;
	return true;
}

static bool read_number(Reader *r, double *v)
{
	/* the JSON grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
	const char *p = r->s;
	char buf[64];
	if (p < r->end && *p == '-')
		p++;
	if (p >= r->end || *p < '0' || *p > '9')
		return fail(r, "a bad number");
	if (*p == '0')
		p++;
	else
		while (p < r->end && *p >= '0' && *p <= '9')
			p++;
	if (p < r->end && *p == '.') {
		p++;
		if (p >= r->end || *p < '0' || *p > '9')
			return fail(r, "a bad number");
		while (p < r->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < r->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < r->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= r->end || *p < '0' || *p > '9')
			return fail(r, "a bad number");
		while (p < r->end && *p >= '0' && *p <= '9')
			p++;
	}
	const size_t k = (size_t)(p - r->s);
	if (k >= sizeof buf)
		return fail(r, "a number too long");
	memcpy(buf, r->s, k);
	buf[k] = 0;
	*v = strtod(buf, NULL);
	r->s = p;
	return true;
}

static bool read_word(Reader *r, const char *w)
{
	const size_t k = strlen(w);
	if ((size_t)(r->end - r->s) < k || memcmp(r->s, w, k) != 0)
		return false;
	r->s += k;
	return true;
}

bool json_parse(const char *text, size_t len, JsonObject *o, char *why, size_t whylen)
{
	Reader r = { text, text + len, why, whylen };
	o->n = 0;
	skip_space(&r);
	if (r.s >= r.end || *r.s != '{')
		return fail(&r, "not a JSON object");
	r.s++;
	skip_space(&r);
	if (r.s < r.end && *r.s == '}') {
		r.s++;
	} else {
		for (;;) {
			skip_space(&r);
			if (r.s >= r.end || *r.s != '"')
				return fail(&r, "a member name expected");
			if (o->n == JSON_MAX_MEMBERS)
				return fail(&r, "too many members");
			JsonMember *m = &o->m[o->n];
			memset(m, 0, sizeof *m);
			if (!read_string(&r, m->name, sizeof m->name))
				return fail(&r, "a bad member name");
			for (int i = 0; i < o->n; i++)
				if (!strcmp(o->m[i].name, m->name))
					return fail(&r, "a member given twice");
			skip_space(&r);
			if (r.s >= r.end || *r.s != ':')
				return fail(&r, "':' expected");
			r.s++;
			skip_space(&r);
			if (r.s >= r.end)
				return fail(&r, "a value expected");
			if (*r.s == '"') {
				m->type = JSON_STRING;
				if (!read_string(&r, m->str, sizeof m->str))
					return false;
			} else if (*r.s == '-' || (*r.s >= '0' && *r.s <= '9')) {
				m->type = JSON_NUMBER;
				if (!read_number(&r, &m->num))
					return false;
			} else if (read_word(&r, "true")) {
				m->type = JSON_BOOL;
				m->b = true;
			} else if (read_word(&r, "false")) {
				m->type = JSON_BOOL;
			} else if (read_word(&r, "null")) {
				m->type = JSON_NULL;
			} else if (*r.s == '{' || *r.s == '[') {
				return fail(&r, "a nested value (no message has one)");
			} else {
				return fail(&r, "a bad value");
			}
			o->n++;
			skip_space(&r);
			if (r.s < r.end && *r.s == ',') {
				r.s++;
				continue;
			}
			if (r.s < r.end && *r.s == '}') {
				r.s++;
				break;
			}
			return fail(&r, "',' or '}' expected");
		}
	}
	skip_space(&r);
	if (r.s != r.end)
		return fail(&r, "text after the object");
	return true;
}

const JsonMember *json_get(const JsonObject *o, const char *name)
{
	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->m[i].name, name))
			return &o->m[i];
	return NULL;
}

void jb_init(JsonBuf *b)
{
	memset(b, 0, sizeof *b);
}

void jb_free(JsonBuf *b)
{
	free(b->s);
	jb_init(b);
}

static bool jb_room(JsonBuf *b, size_t more)
{
	if (b->failed)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + more + 1)
		cap *= 2;
	char *s = realloc(b->s, cap);
	if (!s) {
		b->failed = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

void jb_raw(JsonBuf *b, const char *s)
{
	const size_t k = strlen(s);
	if (!jb_room(b, k))
		return;
	memcpy(b->s + b->len, s, k + 1);
	b->len += k;
}

void jb_printf(JsonBuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char tmp[256];
	const int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	if ((size_t)k < sizeof tmp) {
		jb_raw(b, tmp);
		return;
	}
	if (!jb_room(b, (size_t)k))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)k + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)k;
}

void jb_str(JsonBuf *b, const char *s)
{
	jb_raw(b, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char tmp[8];
		if (*p == '"' || *p == '\\') {
			tmp[0] = '\\';
			tmp[1] = (char)*p;
			tmp[2] = 0;
		} else if (*p < 0x20) {
			snprintf(tmp, sizeof tmp, "\\u%04x", *p);
		} else {
			tmp[0] = (char)*p;
			tmp[1] = 0;
		}
		jb_raw(b, tmp);
	}
	jb_raw(b, "\"");
}
