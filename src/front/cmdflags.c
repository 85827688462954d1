/*
 * cmdflags.c - table-driven flags of the command-line commands (cmdflags.h).
 */
#include "cmdflags.h"

#include <string.h>

#include "util.h"

int cmdflags_next(const char *cmd, const CmdFlag *t, int n, int argc, char **argv, int *i, long *num,
                  const char **str)
{
	const char *a = argv[*i];
	for (int k = 0; k < n; k++) {
		if (strcmp(a, t[k].name))
			continue;
		if (t[k].kind == CMDFLAG_BOOL)
			return k;
		if (*i + 1 >= argc)
			return CMDFLAG_NONE;
		const char *v = argv[++*i];
		if (t[k].kind == CMDFLAG_STR) {
			*str = v;
			return k;
		}
		if (!util_parse_int(v, t[k].min, t[k].max, num)) {
			fprintf(stderr, "%s: %s must be %ld..%ld%s, not '%s'\n", cmd, t[k].what, t[k].min, t[k].max,
			        t[k].unit ? t[k].unit : "", v);
			return CMDFLAG_ERROR;
		}
		return k;
	}
	return CMDFLAG_NONE;
}

void cmdflags_help(FILE *f, const char *cmd, const char *synopsis, const CmdFlag *t, int n)
{
	fprintf(f, "usage: emilia %s %s\n", cmd, synopsis);
	for (int k = 0; k < n; k++) {
		char left[64];
		snprintf(left, sizeof left, "%s%s%s", t[k].name, t[k].arg ? " " : "", t[k].arg ? t[k].arg : "");
		if (t[k].kind == CMDFLAG_INT)
			fprintf(f, "  %-22s %s (%ld..%ld%s)\n", left, t[k].help, t[k].min, t[k].max, t[k].unit ? t[k].unit : "");
		else
			fprintf(f, "  %-22s %s\n", left, t[k].help);
	}
}

int cmdflags_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}
