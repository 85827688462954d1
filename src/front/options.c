#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "bounds.h"
#include "eval.h"
#include "options.h"
#include "util.h"

static const char *const variant_choices[] = { "normal", "anti", NULL };
static const char *const scoring_choices[] = { "plain", "official", NULL };
static const char *const size_choices[] = { "8", "6", NULL };

/* The registry.  Order = OptionId. */
static const OptionDef option_defs[OPT_COUNT] = {
	[OPT_THREADS] = { "threads", OPTION_INT, "1", BOUNDS_THREADS_MIN, BOUNDS_THREADS_MAX, NULL, "search threads" },
	[OPT_HASH] = { "hash", OPTION_INT, "64", BOUNDS_HASH_MB_MIN, BOUNDS_HASH_MB_MAX, NULL,
	               "transposition table size in MiB" },
	[OPT_LEVEL] = { "level", OPTION_LEVEL, "hard", 0, BOUNDS_LEVEL_MAX, NULL,
	                "playing level: easy, normal, hard or a depth 0..60" },
	[OPT_VARIANT] = { "variant", OPTION_CHOICE, "normal", 0, 0, variant_choices,
	                  "rules: normal, or anti (fewest discs wins)" },
	[OPT_SCORING] = { "scoring", OPTION_CHOICE, "plain", 0, 0, scoring_choices,
	                  "final score: plain disc count, or official (empties to the winner)" },
	[OPT_SIZE] = { "size", OPTION_CHOICE, "8", 0, 0, size_choices, "board size: 8 or 6" },
	[OPT_BOOK] = { "book", OPTION_STRING, "", 0, 0, NULL, "opening book file (empty: the default book)" },
	[OPT_USEBOOK] = { "usebook", OPTION_BOOL, "true", 0, 0, NULL, "play from the opening book" },
	[OPT_BOOKRANDOM] = { "book-randomness", OPTION_INT, "0", 0, 64, NULL,
	                     "play any book move within this many discs of the best (seeded by seed)" },
	[OPT_EVAL] = { "eval", OPTION_STRING, "", 0, 0, NULL,
	               "evaluation weights file (empty: the built-in weights)" },
	[OPT_SEED] = { "seed", OPTION_INT, "0", 0, 2147483647L, NULL,
	               "random seed of the Easy/Normal levels" },
	[OPT_OVERHEAD] = { "move-overhead", OPTION_INT, "5", 0, 10000, NULL,
	                   "milliseconds the controller's clock loses per move outside the engine (pipes, GUI, network)" },
	[OPT_SOLVE_LIMIT] = { "solve-limit", OPTION_INT, "36", 0, 64, NULL,
	                      "most empties the solve commands accept" },
};

void options_init(Options *o)
{
	memset(o, 0, sizeof *o);
	for (int i = 0; i < OPT_COUNT; i++)
		snprintf(o->value[i], OPTION_VALUE_MAX, "%s", option_defs[i].def);
}

const OptionDef *options_def(OptionId id)
{
	return &option_defs[id];
}

static int name_char(int c)
{
	c = tolower(c);
	return c == '_' || c == ' ' ? '-' : c;
}

int options_find(const char *name)
{
	for (int i = 0; i < OPT_COUNT; i++) {
		const char *a = option_defs[i].name, *b = name;
		while (*a && *b && name_char((unsigned char)*a) == name_char((unsigned char)*b))
			a++, b++;
		if (!*a && !*b)
			return i;
	}
	return -1;
}

bool options_parse_level(const char *s, int *level)
{
	long v;
	if (!s)
		return false;
	if (!strcasecmp(s, "easy"))
		*level = ENGINE_LEVEL_EASY;
	else if (!strcasecmp(s, "normal"))
		*level = ENGINE_LEVEL_NORMAL;
	else if (!strcasecmp(s, "hard"))
		*level = ENGINE_LEVEL_HARD;
	else if (util_parse_int(s, 0, BOUNDS_LEVEL_MAX, &v))
		*level = (int)v;
	else
		return false;
	return true;
}

const char *options_level_name(int level, char *buf)
{
	switch (level) {
	case ENGINE_LEVEL_EASY: return "easy";
	case ENGINE_LEVEL_NORMAL: return "normal";
	case ENGINE_LEVEL_HARD: return "hard";
	default:
		snprintf(buf, 16, "%d", level);
		return buf;
	}
}

static bool parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "true", "on", "yes", "1", NULL };
	static const char *const no[] = { "false", "off", "no", "0", NULL };
	for (int i = 0; yes[i]; i++)
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return true;
		}
	for (int i = 0; no[i]; i++)
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return true;
		}
	return false;
}

bool options_set(Options *o, OptionId id, const char *value, char *err)
{
	const OptionDef *d = &option_defs[id];
	char canon[OPTION_VALUE_MAX];
	long v;
	bool b;
	int level;
	if (!value)
		value = "";
	if (o->sandbox && (id == OPT_BOOK || id == OPT_EVAL)) {
		snprintf(err, OPTIONS_ERR, "%s: file options are disabled in this session", d->name);
		return false;
	}
	if (o->sandbox && (id == OPT_HASH || id == OPT_THREADS) &&
	    (!util_parse_int(value, d->min, id == OPT_HASH ? 16 : 2, &v))) {
		snprintf(err, OPTIONS_ERR, "%s: limited to %d in this session", d->name, id == OPT_HASH ? 16 : 2);
		return false;
	}
	switch (d->type) {
	case OPTION_INT:
		if (!util_parse_int(value, d->min, d->max, &v)) {
			snprintf(err, OPTIONS_ERR, "%s must be an integer in %ld..%ld", d->name, d->min, d->max);
			return false;
		}
		snprintf(canon, sizeof canon, "%ld", v);
		break;
	case OPTION_BOOL:
		if (!parse_bool(value, &b)) {
			snprintf(err, OPTIONS_ERR, "%s must be true or false", d->name);
			return false;
		}
		snprintf(canon, sizeof canon, "%s", b ? "true" : "false");
		break;
	case OPTION_CHOICE: {
		int k = -1;
		for (int i = 0; d->choices[i]; i++)
			if (!strcasecmp(value, d->choices[i]))
				k = i;
		if (k < 0) {
			int n = snprintf(err, OPTIONS_ERR, "%s must be one of:", d->name);
			for (int i = 0; d->choices[i] && n > 0 && n < OPTIONS_ERR - 20; i++)
				n += snprintf(err + n, OPTIONS_ERR - (size_t)n, " %s", d->choices[i]);
			return false;
		}
		snprintf(canon, sizeof canon, "%s", d->choices[k]);
		break;
	}
	case OPTION_LEVEL: {
		char buf[16];
		if (!options_parse_level(value, &level)) {
			snprintf(err, OPTIONS_ERR, "%s must be easy, normal, hard or %ld..%ld", d->name, d->min, d->max);
			return false;
		}
		snprintf(canon, sizeof canon, "%s", options_level_name(level, buf));
		break;
	}
	case OPTION_STRING:
	default:
		if (strlen(value) >= OPTION_VALUE_MAX) {
			snprintf(err, OPTIONS_ERR, "%s: value too long", d->name);
			return false;
		}
		snprintf(canon, sizeof canon, "%s", value);
		break;
	}
	memcpy(o->value[id], canon, sizeof canon);
	if (o->on_change)
		o->on_change(o->user, o, id);
	return true;
}

void options_restore(Options *o, const Options *init, ProtoEngine *pe)
{
	char err[OPTIONS_ERR];
	for (int i = 0; i < OPT_COUNT; i++)
		if (strcmp(o->value[i], init->value[i]) != 0) {
			memcpy(o->value[i], init->value[i], OPTION_VALUE_MAX);
			options_apply(o, (OptionId)i, pe, err);
		}
}

const char *options_get(const Options *o, OptionId id)
{
	return o->value[id];
}

long options_int(const Options *o, OptionId id)
{
	return strtol(o->value[id], NULL, 10);
}

bool options_bool(const Options *o, OptionId id)
{
	return !strcmp(o->value[id], "true");
}

int options_level(const Options *o)
{
	int level = ENGINE_LEVEL_NORMAL;
	options_parse_level(o->value[OPT_LEVEL], &level);
	return level;
}

Variant options_variant(const Options *o)
{
	return strcmp(o->value[OPT_VARIANT], "anti") ? VARIANT_NORMAL : VARIANT_ANTI;
}

Scoring options_scoring(const Options *o)
{
	return strcmp(o->value[OPT_SCORING], "official") ? SCORING_PLAIN : SCORING_OFFICIAL;
}

/* A book file that does not exist yet: not an error, it is where NBoard's
 * `learn` will write a new book. */
static bool book_file_missing(const char *path)
{
	struct stat st;
	return stat(path, &st) != 0 && errno == ENOENT;
}

int options_parse_arg(Options *o, int argc, char **argv, int *i, char *err)
{
	const char *a = argv[*i];
	if (strncmp(a, "--", 2) != 0)
		return 0;
	if (!strcmp(a, "--no-book")) {
		options_set(o, OPT_USEBOOK, "false", err);
		return 1;
	}
	const char *name = a + 2;
	const char *eq = strchr(name, '=');
	char key[64];
	size_t klen = eq ? (size_t)(eq - name) : strlen(name);
	if (klen >= sizeof key)
		return 0;
	memcpy(key, name, klen);
	key[klen] = 0;
	int id = options_find(key);
	if (id < 0)
		return 0;
	const char *value;
	if (eq)
		value = eq + 1;
	else if (*i + 1 < argc)
		value = argv[++*i];
	else {
		snprintf(err, OPTIONS_ERR, "option --%s needs a value", option_defs[id].name);
		return -1;
	}
	if (!options_set(o, (OptionId)id, value, err))
		return -1;
	if (id == OPT_BOOK && value[0])
		options_set(o, OPT_USEBOOK, "true", err);
	return 1;
}

void options_print_usage(void *file)
{
	FILE *f = file;
	fprintf(f, "options (any mode):\n");
	for (int i = 0; i < OPT_COUNT; i++) {
		const OptionDef *d = &option_defs[i];
		char arg[64];
		switch (d->type) {
		case OPTION_INT: snprintf(arg, sizeof arg, "%ld..%ld", d->min, d->max); break;
		case OPTION_BOOL: snprintf(arg, sizeof arg, "true|false"); break;
		case OPTION_LEVEL: snprintf(arg, sizeof arg, "easy|normal|hard|%ld..%ld", d->min, d->max); break;
		case OPTION_CHOICE: {
			size_t n = 0;
			arg[0] = 0;
			for (int k = 0; d->choices[k]; k++)
				n += (size_t)snprintf(arg + n, sizeof arg - n, "%s%s", k ? "|" : "", d->choices[k]);
			break;
		}
		default: snprintf(arg, sizeof arg, "FILE"); break;
		}
		fprintf(f, "  --%-14s %-24s %s (default %s)\n", d->name, arg, d->help,
		        d->def[0] ? d->def : "none");
	}
	fprintf(f, "  --no-book                               do not use the opening book\n");
}

/* (Re)attach the book the options ask for.  Only 8x8 normal games are
 * in a book; the probe itself refuses other games.  err: OPTIONS_ERR
 * bytes. */
static bool attach_book(const Options *o, ProtoEngine *pe, char *err)
{
	if (pe->book) {
		engine_set_book(pe->engine, NULL, NULL);
		book_free(pe->book);
		pe->book = NULL;
	}
	pe->book_path[0] = 0;
	if (!options_bool(o, OPT_USEBOOK))
		return true;
	char berr[BOOK_ERR];
	const char *path = options_get(o, OPT_BOOK);
	Book *b = path[0] ? book_open(path, berr) : book_open_default(berr);
	if (!b) {
		snprintf(err, OPTIONS_ERR, "%.255s", berr);
		return false;
	}
	pe->book = b;
	snprintf(pe->book_path, sizeof pe->book_path, "%s", path);
	book_set_randomness(b, (int)options_int(o, OPT_BOOKRANDOM), (uint64_t)options_int(o, OPT_SEED));
	engine_set_book(pe->engine, book_engine_probe, b);
	return true;
}

bool options_apply(const Options *o, OptionId id, ProtoEngine *pe, char *err)
{
	Engine *e = pe->engine;
	switch (id) {
	case OPT_THREADS:
		engine_set_threads(e, (int)options_int(o, OPT_THREADS));
		return true;
	case OPT_HASH:
		if (!engine_set_hash_mb(e, (int)options_int(o, OPT_HASH))) {
			snprintf(err, OPTIONS_ERR, "%s", engine_hash_error(e));
			return false;
		}
		return true;
	case OPT_LEVEL:
		engine_set_level(e, options_level(o));
		return true;
	case OPT_SEED:
	case OPT_BOOKRANDOM:
		engine_set_seed(e, (uint64_t)options_int(o, OPT_SEED));
		if (pe->book)
			book_set_randomness(pe->book, (int)options_int(o, OPT_BOOKRANDOM),
			                    (uint64_t)options_int(o, OPT_SEED));
		return true;
	case OPT_EVAL: {
		Evaluator *ev = NULL; /* "": the built-in weights */
		if (o->value[OPT_EVAL][0] && !(ev = eval_load(o->value[OPT_EVAL], err)))
			return false;
		engine_set_evaluator(e, ev);
		return true;
	}
	case OPT_BOOK:
	case OPT_USEBOOK:
		return attach_book(o, pe, err);
	default:
		return true;
	}
}

bool options_engine_open(ProtoEngine *pe, const Options *o, char *err, char *book_err)
{
	memset(pe, 0, sizeof *pe);
	pe->engine = engine_new();
	if (!pe->engine) {
		snprintf(err, OPTIONS_ERR, "cannot create the engine");
		return false;
	}
	static const OptionId order[] = { OPT_EVAL, OPT_THREADS, OPT_HASH, OPT_LEVEL, OPT_SEED };
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		if (!options_apply(o, order[i], pe, err)) {
			if (order[i] == OPT_EVAL) {
				char why[OPTIONS_ERR];
				snprintf(why, sizeof why, "%s", err);
				snprintf(err, OPTIONS_ERR, "eval: %.240s", why);
			}
			options_engine_close(pe);
			return false;
		}
	char berr[OPTIONS_ERR];
	const char *path = options_get(o, OPT_BOOK);
	if (!options_bool(o, OPT_USEBOOK) && path[0] && !book_file_missing(path)) {
		/* a book named and then switched off (--book FILE --no-book) must
		 * still be a book: opened once, here, to say so */
		char why[BOOK_ERR];
		Book *b = book_open(path, why);
		if (!b) {
			snprintf(err, OPTIONS_ERR, "book: %.240s", why);
			options_engine_close(pe);
			return false;
		}
		book_free(b);
	}
	if (!attach_book(o, pe, berr)) {
		if (path[0] && !book_file_missing(path)) {
			/* named by the user: fatal, whichever protocol was asked for */
			snprintf(err, OPTIONS_ERR, "book: %.240s", berr);
			options_engine_close(pe);
			return false;
		}
		/* the default book, or a --book file not created yet */
		if (!path[0])
			fprintf(stderr, "emilia: warning: %s (playing without a book)\n", berr);
		if (book_err)
			snprintf(book_err, OPTIONS_ERR, "%s", berr);
	}
	return true;
}

void options_engine_close(ProtoEngine *pe)
{
	if (pe->engine) {
		engine_set_book(pe->engine, NULL, NULL);
		engine_free(pe->engine);
	}
	if (pe->book)
		book_free(pe->book);
	memset(pe, 0, sizeof *pe);
}
