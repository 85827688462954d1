/*
 * textcheck.c - JSON parser and XML checker for the tests (textcheck.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "textcheck.h"

/* ---- JSON ------------------------------------------------------------------ */

typedef struct JP {
	const char *s, *start;
	char *err;
	int depth;
} JP;

static void jp_ws(JP *p)
{
	while (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')
		p->s++;
}

static bool jp_fail(JP *p, const char *what)
{
	if (!p->err[0])
		snprintf(p->err, 128, "%s at offset %ld", what, (long)(p->s - p->start));
	return false;
}

static bool jp_value(JP *p, Json *out);

static bool jp_string(JP *p, char **out)
{
	if (*p->s != '"')
		return jp_fail(p, "string expected");
	p->s++;
	size_t cap = 16, n = 0;
	char *b = malloc(cap);
	for (;;) {
		unsigned char c = (unsigned char)*p->s;
		if (!c || c < 0x20) {
			free(b);
			return jp_fail(p, "bad character in string");
		}
		p->s++;
		if (c == '"')
			break;
		if (c == '\\') {
			char e = *p->s++;
			if (e == 'u') {
				for (int i = 0; i < 4; i++)
					if (!isxdigit((unsigned char)p->s[i])) {
						free(b);
						return jp_fail(p, "bad \\u escape");
					}
				c = (unsigned char)strtol((char[5]){ p->s[0], p->s[1], p->s[2], p->s[3], 0 }, NULL, 16);
				p->s += 4;
			} else if (strchr("\"\\/bfnrt", e) && e)
				c = (unsigned char)(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e);
			else {
				free(b);
				return jp_fail(p, "bad escape");
			}
		}
		if (n + 2 > cap)
			b = realloc(b, cap *= 2);
		b[n++] = (char)c;
	}
	b[n] = 0;
	*out = b;
	return true;
}

static bool jp_push(Json *j, Json *item, char *key)
{
	j->items = realloc(j->items, sizeof *j->items * (size_t)(j->n + 1));
	if (j->type == JSON_OBJECT)
		j->keys = realloc(j->keys, sizeof *j->keys * (size_t)(j->n + 1));
	j->items[j->n] = *item;
	if (j->type == JSON_OBJECT)
		j->keys[j->n] = key;
	j->n++;
	return true;
}

static bool jp_value(JP *p, Json *out)
{
	memset(out, 0, sizeof *out);
	if (++p->depth > 100)
		return jp_fail(p, "too deep");
	jp_ws(p);
	char c = *p->s;
	bool ok = true;
	if (c == '{' || c == '[') {
		out->type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
		p->s++;
		jp_ws(p);
		if (*p->s == (c == '{' ? '}' : ']'))
			p->s++;
		else
			for (;;) {
				char *key = NULL;
				if (c == '{') {
					jp_ws(p);
					if (!jp_string(p, &key))
						return false;
					jp_ws(p);
					if (*p->s != ':') {
						free(key);
						return jp_fail(p, "':' expected");
					}
					p->s++;
				}
				Json item;
				if (!jp_value(p, &item)) {
					free(key);
					json_free(&item);
					return false;
				}
				jp_push(out, &item, key);
				jp_ws(p);
				if (*p->s == ',') {
					p->s++;
					continue;
				}
				if (*p->s != (c == '{' ? '}' : ']'))
					return jp_fail(p, "',' or end expected");
				p->s++;
				break;
			}
	} else if (c == '"') {
		out->type = JSON_STRING;
		ok = jp_string(p, &out->str);
	} else if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "false", 5)) {
		out->type = JSON_BOOL;
		out->b = c == 't';
		p->s += out->b ? 4 : 5;
	} else if (!strncmp(p->s, "null", 4)) {
		out->type = JSON_NULL;
		p->s += 4;
	} else if (c == '-' || isdigit((unsigned char)c)) {
		const char *q = p->s;
		if (*q == '-')
			q++;
		if (!isdigit((unsigned char)*q) || (q[0] == '0' && isdigit((unsigned char)q[1])))
			return jp_fail(p, "bad number");
		char *end;
		out->type = JSON_NUMBER;
		out->num = strtod(p->s, &end);
		p->s = end;
	} else
		return jp_fail(p, "value expected");
	p->depth--;
	return ok;
}

static void json_free_items(Json *j)
{
	for (int i = 0; i < j->n; i++) {
		json_free_items(&j->items[i]);
		if (j->keys)
			free(j->keys[i]);
	}
	free(j->items);
	free(j->keys);
	free(j->str);
}

void json_free(Json *j)
{
	if (!j)
		return;
	json_free_items(j);
	memset(j, 0, sizeof *j);
}

Json *json_parse(const char *text, char *err)
{
	JP p = { text, text, err, 0 };
	err[0] = 0;
	Json *j = calloc(1, sizeof *j);
	if (!jp_value(&p, j)) {
		json_free(j);
		free(j);
		return NULL;
	}
	jp_ws(&p);
	if (*p.s) {
		jp_fail(&p, "text after the value");
		json_free(j);
		free(j);
		return NULL;
	}
	return j;
}

const Json *json_get(const Json *j, const char *key)
{
	if (!j || j->type != JSON_OBJECT)
		return NULL;
	for (int i = 0; i < j->n; i++)
		if (!strcmp(j->keys[i], key))
			return &j->items[i];
	return NULL;
}

/* ---- XML ------------------------------------------------------------------- */

static bool name_char(char c, bool first)
{
	return isalpha((unsigned char)c) || c == '_' || c == ':' || (!first && (isdigit((unsigned char)c) || c == '-' || c == '.'));
}

static bool xml_fail(char *err, const char *text, const char *at, const char *what)
{
	int line = 1;
	for (const char *q = text; q < at; q++)
		line += *q == '\n';
	snprintf(err, 160, "line %d: %s", line, what);
	return false;
}

/* an entity at s (after '&'): its length up to and with ';', 0 if bad */
static size_t entity(const char *s)
{
	static const char *const named[] = { "amp;", "lt;", "gt;", "quot;", "apos;" };
	for (int i = 0; i < 5; i++)
		if (!strncmp(s, named[i], strlen(named[i])))
			return strlen(named[i]);
	if (s[0] == '#') {
		size_t k = 1;
		bool hex = s[1] == 'x';
		k += hex;
		size_t d = 0;
		while (hex ? isxdigit((unsigned char)s[k]) : isdigit((unsigned char)s[k]))
			k++, d++;
		if (d && s[k] == ';')
			return k + 1;
	}
	return 0;
}

bool xml_check(const char *text, XmlTagFn fn, void *user, char *err)
{
	enum { MAXD = 256, MAXA = 64 };
	char *stack[MAXD];
	int depth = 0, roots = 0;
	bool ok = true;
	const char *s = text;
	while (*s && ok) {
		if (*s != '<') {
			if (*s == '&') {
				size_t k = entity(s + 1);
				if (!k)
					ok = xml_fail(err, text, s, "bad entity");
				s += k + 1;
				continue;
			}
			if (depth == 0 && !isspace((unsigned char)*s))
				ok = xml_fail(err, text, s, "text outside the root element");
			s++;
			continue;
		}
		if (!strncmp(s, "<!--", 4)) {
			const char *e = strstr(s + 4, "-->");
			if (!e)
				ok = xml_fail(err, text, s, "unterminated comment");
			else
				s = e + 3;
			continue;
		}
		if (!strncmp(s, "<?", 2) || !strncmp(s, "<!DOCTYPE", 9)) {
			if (depth > 0 || roots > 0)
				ok = xml_fail(err, text, s, "declaration inside the document");
			const char *e = strchr(s, '>');
			if (!e)
				ok = xml_fail(err, text, s, "unterminated declaration");
			else
				s = e + 1;
			continue;
		}
		bool close = s[1] == '/';
		const char *q = s + 1 + close;
		if (!name_char(*q, true)) {
			ok = xml_fail(err, text, s, "'<' that starts no tag");
			break;
		}
		const char *n0 = q;
		while (name_char(*q, false))
			q++;
		size_t nlen = (size_t)(q - n0);
		char *name = strndup(n0, nlen);
		if (close) {
			while (isspace((unsigned char)*q))
				q++;
			if (*q != '>')
				ok = xml_fail(err, text, q, "bad end tag");
			else if (depth == 0 || strcmp(stack[depth - 1], name))
				ok = xml_fail(err, text, s, "end tag does not match the open element");
			else
				free(stack[--depth]);
			free(name);
			s = q + 1;
			continue;
		}
		char *an[MAXA], *av[MAXA];
		int na = 0;
		bool empty = false;
		for (;;) {
			bool sp = isspace((unsigned char)*q);
			while (isspace((unsigned char)*q))
				q++;
			if (*q == '>') {
				q++;
				break;
			}
			if (q[0] == '/' && q[1] == '>') {
				empty = true;
				q += 2;
				break;
			}
			if (!sp || !name_char(*q, true) || na == MAXA) {
				ok = xml_fail(err, text, q, "bad attribute");
				break;
			}
			const char *a0 = q;
			while (name_char(*q, false))
				q++;
			char *aname = strndup(a0, (size_t)(q - a0));
			for (int i = 0; i < na; i++)
				if (!strcmp(an[i], aname))
					ok = xml_fail(err, text, a0, "repeated attribute");
			while (isspace((unsigned char)*q))
				q++;
			char quote = q[1];
			if (*q != '=' || (quote != '"' && quote != '\'')) {
				free(aname);
				ok = xml_fail(err, text, q, "attribute value not quoted");
				break;
			}
			const char *v0 = q + 2, *v = v0;
			while (*v && *v != quote && *v != '<') {
				if (*v == '&') {
					size_t k = entity(v + 1);
					if (!k) {
						ok = xml_fail(err, text, v, "bad entity in attribute");
						break;
					}
					v += k;
				}
				v++;
			}
			if (*v != quote) {
				free(aname);
				if (ok)
					ok = xml_fail(err, text, v, "unterminated attribute value");
				break;
			}
			an[na] = aname;
			av[na++] = strndup(v0, (size_t)(v - v0));
			q = v + 1;
			if (!ok)
				break;
		}
		if (ok) {
			if (depth == 0 && roots++ > 0)
				ok = xml_fail(err, text, s, "a second root element");
			if (fn)
				fn(user, name, na, an, av);
		}
		for (int i = 0; i < na; i++) {
			free(an[i]);
			free(av[i]);
		}
		if (ok && !empty) {
			if (depth == MAXD)
				ok = xml_fail(err, text, s, "too deep");
			else {
				stack[depth++] = name;
				name = NULL;
			}
		}
		free(name);
		s = q;
	}
	if (ok && depth > 0)
		ok = xml_fail(err, text, s, "element not closed at the end");
	if (ok && roots == 0)
		ok = xml_fail(err, text, s, "no root element");
	while (depth > 0)
		free(stack[--depth]);
	return ok;
}
