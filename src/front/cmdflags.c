/*
 * cmdflags.c - table-driven flags of the command-line commands (cmdflags.h).
 */
#include "cmdflags.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "util.h"

/* The K-th word a value of flag F may be (CMDFLAG_CHOICE, or an option of
 * choices), copied to buf; NULL after the last. */
static const char *choice_word(const CmdFlag *f, int k, char *buf, size_t size)
{
	if (f->kind == CMDFLAG_OPTION) {
		const char *const *c = options_def((OptionId)f->option)->choices;
		for (int j = 0; c[j]; j++)
			if (j == k)
				return c[j];
		return NULL;
	}
	const char *s = f->arg;
	for (int j = 0; j < k; j++) {
		s = strchr(s, '|');
		if (!s)
			return NULL;
		s++;
	}
	size_t len = strcspn(s, "|");
	if (len >= size)
		len = size - 1;
	memcpy(buf, s, len);
	buf[len] = 0;
	return buf;
}

/* The index of V among the flag's words, or -1 (then "<what> must be a, b
 * or c, not 'V'" on stderr). */
static int choice_index(const char *cmd, const CmdFlag *f, const char *what, const char *v)
{
	char buf[64];
	const char *w;
	int k;
	for (k = 0; (w = choice_word(f, k, buf, sizeof buf)); k++)
		if (!strcmp(w, v))
			return k;
	fprintf(stderr, "%s: %s must be ", cmd, what);
	for (int j = 0; (w = choice_word(f, j, buf, sizeof buf)); j++)
		fprintf(stderr, "%s%s", j == 0 ? "" : j == k - 1 ? " or " : ", ", w);
	fprintf(stderr, ", not '%s'\n", v);
	return -1;
}

static bool parse_real(const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double x = *s ? strtod(s, &end) : NAN;
	if (!*s || errno || *end || !(x >= lo && x <= hi))
		return false;
	*out = x;
	return true;
}

/* Checks the value S of flag F (not a CMDFLAG_BOOL) into *v; false after
 * the message on stderr. */
static bool check_value(const char *cmd, const CmdFlag *f, const char *s, CmdFlagValue *v)
{
	const char *what = f->what ? f->what : f->name + 2, *unit = f->unit ? f->unit : "";
	long lo = f->min, hi = f->max;
	v->str = s;
	if (f->kind == CMDFLAG_OPTION) {
		const OptionDef *d = options_def((OptionId)f->option);
		if (d->type == OPTION_CHOICE)
			return (v->num = choice_index(cmd, f, what, s)) >= 0;
		if (d->type != OPTION_INT)
			return true; /* the command passes it to options_set() */
		lo = d->min;
		hi = d->max;
	}
	switch (f->kind) {
	case CMDFLAG_CHOICE:
		return (v->num = choice_index(cmd, f, what, s)) >= 0;
	case CMDFLAG_REAL:
		if (parse_real(s, (double)lo, (double)hi, &v->real))
			return true;
		break;
	case CMDFLAG_INT:
	case CMDFLAG_OPTION:
		if (util_parse_int(s, lo, hi, &v->num))
			return true;
		break;
	default:
		return true;
	}
	fprintf(stderr, "%s: %s must be %ld..%ld%s, not '%s'\n", cmd, what, lo, hi, unit, s);
	return false;
}

int cmdflags_next(const char *cmd, const CmdFlag *t, int n, int argc, char **argv, int *i, CmdFlagValue *v)
{
	const char *a = argv[*i];
	for (int k = 0; k < n; k++) {
		if (strcmp(a, t[k].name))
			continue;
		if (t[k].kind == CMDFLAG_BOOL)
			return k;
		if (*i + 1 >= argc)
			return CMDFLAG_NONE;
		return check_value(cmd, &t[k], argv[++*i], v) ? k : CMDFLAG_ERROR;
	}
	return CMDFLAG_NONE;
}

/* The value's name in the help ("N", "8|6") and the range shown after the
 * help line ("" or " (1..256 MB)"). */
static void help_value(const CmdFlag *f, char *arg, size_t asize, char *range, size_t rsize)
{
	const char *unit = f->unit ? f->unit : "";
	snprintf(arg, asize, "%s", f->arg ? f->arg : "");
	range[0] = 0;
	if (f->kind == CMDFLAG_INT || f->kind == CMDFLAG_REAL)
		snprintf(range, rsize, " (%ld..%ld%s)", f->min, f->max, unit);
	if (f->kind != CMDFLAG_OPTION)
		return;
	const OptionDef *d = options_def((OptionId)f->option);
	if (d->type == OPTION_INT) {
		snprintf(range, rsize, " (%ld..%ld%s)", d->min, d->max, unit);
	} else if (d->type == OPTION_CHOICE) {
		size_t len = 0;
		arg[0] = 0;
		for (int k = 0; d->choices[k] && len < asize; k++)
			len += (size_t)snprintf(arg + len, asize - len, "%s%s", k ? "|" : "", d->choices[k]);
	}
}

void cmdflags_help(FILE *f, const char *cmd, const char *synopsis, const CmdFlag *t, int n)
{
	fprintf(f, "usage: emilia %s %s\n", cmd, synopsis);
	for (int k = 0; k < n; k++) {
		char arg[48], range[64], left[80];
		help_value(&t[k], arg, sizeof arg, range, sizeof range);
		snprintf(left, sizeof left, "%s%s%s", t[k].name, arg[0] ? " " : "", arg);
		const char *help = t[k].help;
		if (!help && t[k].kind == CMDFLAG_OPTION)
			help = options_def((OptionId)t[k].option)->help;
		fprintf(f, "  %-22s %s%s\n", left, help ? help : "", range);
	}
}

int cmdflags_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}
