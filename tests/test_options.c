/*
 * The ranges of the options (options.c's table, from the core's bounds.h):
 * for every option with a range, the range the table holds is the one
 * accepted (its ends are, one past them is not, and the refusal names the
 * range), the one documented (--help-options, the README's and
 * docs/protocols.md's option tables, the man page) and the one used (the
 * engine runs as many threads as asked for, up to the most, 100 of them
 * for `--threads 100`; the public API accepts the same ranges).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bounds.h"
#include "emilia.h"
#include "engine.h"
#include "options.h"
#include "testutil.h"

/* The range of option d as "MIN..MAX". */
static void range_text(const OptionDef *d, char *out, size_t len)
{
	snprintf(out, len, "%ld..%ld", d->min, d->max);
}

/* The threads of this process (/proc/self/task). */
static int process_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	ck_assert_ptr_nonnull(d);
	int n = 0;
	for (struct dirent *x; (x = readdir(d)) != NULL;)
		n += x->d_name[0] != '.';
	closedir(d);
	return n;
}

static bool has_range(const OptionDef *d)
{
	return d->type == OPTION_INT || d->type == OPTION_LEVEL;
}

/* A file of the repository (the tests run with EMILIA_TESTDATA = tests/data). */
static char *repo_file(const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/../../%s", test_data(""), name);
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	char *buf = malloc(1 << 20);
	ck_assert_ptr_nonnull(buf);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* The first "A..B" in s (backquotes dropped: `0`..`60`) into out; false
 * when there is none before the end of the line. */
static bool first_range(const char *s, char *out, size_t len)
{
	char line[1024];
	size_t k = 0;
	for (; *s && *s != '\n' && k + 1 < sizeof line; s++)
		if (*s != '`')
			line[k++] = *s;
	line[k] = 0;
	for (char *p = line; *p; p++) {
		long a, b;
		int used = 0;
		if ((p == line || !(p[-1] >= '0' && p[-1] <= '9')) && sscanf(p, "%ld..%ld%n", &a, &b, &used) == 2) {
			snprintf(out, len, "%ld..%ld", a, b);
			return true;
		}
	}
	return false;
}

START_TEST(accepted_range_is_the_table_range)
{
	for (int id = 0; id < OPT_COUNT; id++) {
		const OptionDef *d = options_def((OptionId)id);
		if (!has_range(d))
			continue;
		Options o;
		options_init(&o);
		char v[32], err[OPTIONS_ERR], range[64];
		range_text(d, range, sizeof range);
		snprintf(v, sizeof v, "%ld", d->min);
		ck_assert_msg(options_set(&o, (OptionId)id, v, err), "%s %s: %s", d->name, v, err);
		snprintf(v, sizeof v, "%ld", d->max);
		ck_assert_msg(options_set(&o, (OptionId)id, v, err), "%s %s: %s", d->name, v, err);
		ck_assert_int_eq(d->type == OPTION_LEVEL ? options_level(&o) : options_int(&o, (OptionId)id), d->max);
		const long out[2] = { d->min - 1, d->max + 1 };
		for (int k = 0; k < 2; k++) {
			snprintf(v, sizeof v, "%ld", out[k]);
			ck_assert_msg(!options_set(&o, (OptionId)id, v, err), "%s %s accepted", d->name, v);
			ck_assert_msg(strstr(err, range), "%s %s: '%s' does not name %s", d->name, v, err, range);
		}
	}
}
END_TEST

START_TEST(documented_range_is_the_table_range)
{
	/* --help-options */
	int st;
	char *help = test_run_emilia("--help-options", &st);
	ck_assert_int_eq(st, 0);
	char *readme = repo_file("README.md"), *protocols = repo_file("docs/protocols.md");
	char *man = repo_file("man/emilia.6");
	int in_readme = 0;
	for (int id = 0; id < OPT_COUNT; id++) {
		const OptionDef *d = options_def((OptionId)id);
		if (!has_range(d))
			continue;
		char range[64], got[64], key[96];
		range_text(d, range, sizeof range);
		snprintf(key, sizeof key, "  --%s ", d->name);
		const char *h = strstr(help, key);
		ck_assert_msg(h, "--help-options has no line for --%s", d->name);
		ck_assert_msg(first_range(h, got, sizeof got) && !strcmp(got, range), "--help-options: --%s %s, not %s",
		              d->name, got, range);
		/* a range in the help text is the same */
		if (first_range(d->help, got, sizeof got))
			ck_assert_msg(!strcmp(got, range), "help of --%s says %s, not %s", d->name, got, range);
		/* the README's option table: "| `--NAME` | RANGE ..." */
		snprintf(key, sizeof key, "| `--%s` |", d->name);
		const char *r = strstr(readme, key);
		if (r && first_range(r + strlen(key), got, sizeof got)) {
			ck_assert_msg(!strcmp(got, range), "README: --%s %s, not %s", d->name, got, range);
			in_readme++;
		}
		/* the man page: the paragraph after ".B(I) \-\-NAME" */
		snprintf(key, sizeof key, "\\-\\-%s", d->name);
		for (const char *m = strstr(man, key); m; m = strstr(m + 1, key)) {
			if (m[strlen(key)] != ' ' && m[strlen(key)] != '\n')
				continue;
			const char *end = strstr(m, "\n.TP");
			for (const char *l = m; l && (!end || l < end); l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
				if (first_range(l, got, sizeof got)) {
					ck_assert_msg(!strcmp(got, range), "man/emilia.6: --%s %s, not %s", d->name, got, range);
					break;
				}
			break;
		}
	}
	ck_assert_int_ge(in_readme, 3);
	/* docs/protocols.md: threads and hash in one row */
	char both[160];
	char tr[64], hr[64];
	range_text(options_def(OPT_THREADS), tr, sizeof tr);
	range_text(options_def(OPT_HASH), hr, sizeof hr);
	snprintf(both, sizeof both, "| %s, %s |", tr, hr);
	ck_assert_msg(strstr(protocols, both), "docs/protocols.md has no row '%s'", both);
	free(help);
	free(readme);
	free(protocols);
	free(man);
}
END_TEST

START_TEST(used_range_is_the_table_range)
{
	/* the engine runs the most threads the option takes, and the table's
	 * ends are the core's bounds */
	const OptionDef *t = options_def(OPT_THREADS), *h = options_def(OPT_HASH), *l = options_def(OPT_LEVEL);
	ck_assert_int_eq(t->min, BOUNDS_THREADS_MIN);
	ck_assert_int_eq(t->max, BOUNDS_THREADS_MAX);
	ck_assert_int_eq(h->min, BOUNDS_HASH_MB_MIN);
	ck_assert_int_eq(h->max, BOUNDS_HASH_MB_MAX);
	ck_assert_int_eq(l->max, BOUNDS_LEVEL_MAX);
	Options o;
	options_init(&o);
	char v[32], err[OPTIONS_ERR];
	snprintf(v, sizeof v, "%ld", t->max);
	ck_assert(options_set(&o, OPT_THREADS, v, err));
	ck_assert(options_set(&o, OPT_HASH, "1", err));
	ck_assert(options_set(&o, OPT_USEBOOK, "false", err));
	ProtoEngine pe;
	ck_assert_msg(options_engine_open(&pe, &o, err, NULL), "%s", err);
	ck_assert_int_eq(engine_threads(pe.engine), t->max);
	ck_assert_int_eq(engine_hash_mb(pe.engine), 1);
	options_engine_close(&pe);
	/* and `--threads 100` gives 100 threads: after a search the engine
	 * keeps its 99 helpers, threads of this process */
	const int before = process_threads();
	Engine *e100 = engine_new();
	ck_assert_ptr_nonnull(e100);
	engine_set_threads(e100, 100);
	ck_assert_int_eq(engine_threads(e100), 100);
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	EngineLimits lim = test_depth_limits(6);
	EngineInfo r = engine_search(e100, &g, &lim, NULL, NULL);
	ck_assert(game_moves(&g) & bit_of(r.move));
	ck_assert_int_ge(process_threads() - before, 99);
	engine_free(e100);
	/* the board sizes of the option are the games' */
	const OptionDef *s = options_def(OPT_SIZE);
	int n = 0;
	for (int k = 0; s->choices[k]; k++, n++)
		ck_assert(bounds_game_size(atol(s->choices[k])));
	ck_assert_int_eq(n, 2);
	/* the public API: the same ranges, refused one past them with the range named */
	emilia_options eo;
	emilia_options_init(&eo);
	eo.threads = (int)t->max;
	eo.hash_mb = 1;
	eo.use_book = 0;
	emilia_engine *e = NULL;
	char aerr[256], range[64];
	ck_assert_int_eq(emilia_create(&eo, &e, aerr, sizeof aerr), EMILIA_OK);
	ck_assert_int_eq(emilia_set_threads(e, (int)t->min), EMILIA_OK);
	ck_assert_int_eq(emilia_set_threads(e, (int)t->max), EMILIA_OK);
	range_text(t, range, sizeof range);
	ck_assert_int_eq(emilia_set_threads(e, (int)t->max + 1), EMILIA_ERR_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(emilia_last_error(e), range));
	ck_assert_int_eq(emilia_set_threads(e, (int)t->min - 1), EMILIA_ERR_ARGUMENT);
	range_text(h, range, sizeof range);
	ck_assert_int_eq(emilia_set_hash(e, (int)h->max + 1), EMILIA_ERR_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(emilia_last_error(e), range));
	ck_assert_int_eq(emilia_set_hash(e, (int)h->min - 1), EMILIA_ERR_ARGUMENT);
	ck_assert_int_eq(emilia_set_level(e, (int)l->max), EMILIA_OK);
	ck_assert_int_eq(emilia_set_level(e, (int)l->max + 1), EMILIA_ERR_ARGUMENT);
	emilia_destroy(e);
	eo.board_size = 4;
	ck_assert_int_eq(emilia_create(&eo, &e, aerr, sizeof aerr), EMILIA_ERR_ARGUMENT);
}
END_TEST

/* `--threads 100` is refused with the real maximum, on the command line
 * and by GTP's option command, and the commands take the same range. */
START_TEST(threads_above_the_maximum_are_refused)
{
	char args[128], want[128];
	const long max = options_def(OPT_THREADS)->max;
	int st;
	snprintf(args, sizeof args, "--threads %ld --gtp < /dev/null", max + 1);
	char *out = test_run_emilia(args, &st);
	snprintf(want, sizeof want, "emilia: threads must be an integer in 1..%ld\n", max);
	ck_assert_int_eq(st, 2);
	ck_assert_str_eq(out, want);
	free(out);
	snprintf(args, sizeof args, "--threads 1 --hash 16 --no-book --gtp <<'EOF'\nemilia-threads %ld\nquit\nEOF",
	         max + 1);
	out = test_run_emilia(args, &st);
	ck_assert_int_eq(st, 0);
	snprintf(want, sizeof want, "? threads must be an integer in 1..%ld\n\n=\n\n", max);
	ck_assert_str_eq(out, want);
	free(out);
	static const char *const cmds[] = { "solve", "bench" };
	for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++) {
		snprintf(args, sizeof args, "%s --threads %ld", cmds[k], max + 1);
		out = test_run_emilia(args, &st);
		snprintf(want, sizeof want, "%s: threads must be 1..%ld, not '%ld'\n", cmds[k], max, max + 1);
		ck_assert_int_eq(st, 2);
		ck_assert_str_eq(out, want);
		free(out);
	}
}
END_TEST

static Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("ranges");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, accepted_range_is_the_table_range);
	tcase_add_test(tc, documented_range_is_the_table_range);
	tcase_add_test(tc, used_range_is_the_table_range);
	tcase_add_test(tc, threads_above_the_maximum_are_refused);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(options_suite)
