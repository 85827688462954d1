/*
 * textcheck.h - small parsers for the tests of machine-readable output: a
 * JSON parser (a tree the test can query) and an XML well-formedness
 * checker (the review's HTML is written as XHTML, its SVG as XML) that
 * reports every element to a callback.
 */
#ifndef EMILIA_TEXTCHECK_H
#define EMILIA_TEXTCHECK_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } JsonType;

typedef struct Json {
	JsonType type;
	bool b;
	double num;
	char *str;            /* JSON_STRING */
	int n;                /* items of an array or object */
	char **keys;          /* JSON_OBJECT */
	struct Json *items;
} Json;

/* The whole text must be one JSON value (blanks around it allowed).
 * NULL with err (>= 128 bytes) saying where on a syntax error. */
Json *json_parse(const char *text, char *err);
void json_free(Json *j);
/* Member of an object, NULL when absent or j is not an object. */
const Json *json_get(const Json *j, const char *key);

/* Called for every start (or empty-element) tag. */
typedef void (*XmlTagFn)(void *user, const char *name, int nattr, char **names, char **values);

/* Well-formed XML (a <!DOCTYPE>, comments and <?...?> allowed): tags
 * nested and closed, attributes quoted and not repeated, only the five
 * named entities and numeric ones, one root element.  false with err
 * (>= 160 bytes) saying what and where. */
bool xml_check(const char *text, XmlTagFn fn, void *user, char *err);

#endif
