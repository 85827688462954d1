/*
 * json.h - the JSON of emilia-serve's messages (docs/serve.md): a strict
 * reader of one flat object (members whose values are strings, numbers,
 * booleans or null; nothing nested, which no client message needs) and a
 * growing text buffer that writes JSON values.
 */
#ifndef EMILIA_SERVE_JSON_H
#define EMILIA_SERVE_JSON_H

#include <stdbool.h>
#include <stddef.h>

#define JSON_MAX_MEMBERS 24
#define JSON_MAX_STRING 256

typedef enum { JSON_STRING, JSON_NUMBER, JSON_BOOL, JSON_NULL } JsonType;

typedef struct JsonMember {
	char name[32];
	JsonType type;
	char str[JSON_MAX_STRING]; /* JSON_STRING: the decoded UTF-8 text */
	double num;                /* JSON_NUMBER */
	bool b;                    /* JSON_BOOL */
} JsonMember;

typedef struct JsonObject {
	int n;
	JsonMember m[JSON_MAX_MEMBERS];
} JsonObject;

/* Parse text[0..len) as one object; false with a reason in why (a
 * sentence for the sender) on anything else: a nested value, a repeated
 * or over-long name, too many members, trailing text, invalid UTF-8. */
bool json_parse(const char *text, size_t len, JsonObject *o, char *why, size_t whylen);

/* The member called name, or NULL. */
const JsonMember *json_get(const JsonObject *o, const char *name);

/* A growing buffer; `failed` is set when memory ran out (the text is then
 * incomplete and must not be sent). */
typedef struct JsonBuf {
	char *s;
	size_t len, cap;
	bool failed;
} JsonBuf;

void jb_init(JsonBuf *b);
void jb_free(JsonBuf *b);
void jb_raw(JsonBuf *b, const char *s);
void jb_printf(JsonBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A JSON string with its quotes, escaped. */
void jb_str(JsonBuf *b, const char *s);

#endif
