/*
 * emilia-match - engine-vs-engine matches between GTP Othello engines:
 * openings, clocks, forfeits, Elo with a 95 % interval, pentanomial pair
 * counts and an SPRT that stops the match when it decides.
 *
 * Design: the schedule is a list of games (pairing, pair, colour); pair k
 * of every pairing plays opening k twice with colours swapped.  Worker
 * threads (--concurrency) take the next game, each with its own engine
 * processes (match.h), and report results under one mutex, which keeps the
 * tallies, writes the GGF line and prints progress.  A raised stop flag
 * (SPRT decision, SIGINT/SIGTERM) aborts games in flight: aborted games are
 * not results and are not written.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "elo.h"
#include "match.h"
#include "text.h"
#include "util.h"
#include "version.h"

#define MAX_ENGINES 16

typedef struct Options {
	MatchEngineSpec engines[MAX_ENGINES];
	int nengines;
	const char *openings;
	bool random_order;
	long games;                 /* per pairing, even */
	MatchGameConfig cfg;
	long concurrency;
	bool sprt_on;
	EloSprt sprt;
	bool sprt_trinomial;
	const char *out;
	const char *logpath;
	uint64_t seed;
	bool seed_given;
	bool round_robin;
	bool reuse;
	bool quiet;
	Variant variant;            /* --variant: the rules the games are played and scored by */
} Options;

typedef struct Pairing {
	int a, b;                   /* engine indices; results from a's view */
	int wins, draws, losses;
	long margin_sum;            /* a's disc margin over games ended on the board */
	int margin_games;
	int penta[5];               /* pairs by a's points x2 */
	int *pair_points;           /* per pair: a's points x2 so far */
	unsigned char *pair_games;  /* per pair: games finished */
	int black_wins, white_wins, board_draws;
} Pairing;

typedef struct Job {
	int pairing, pair, swap;    /* swap: b plays Black */
} Job;

typedef struct Match {
	Options *o;
	char **openings;            /* transcripts */
	long nopenings;
	long *order;                /* opening of pair k: openings[order[k % nopenings]] */
	Pairing *pairings;
	int npairings;
	Job *jobs;
	long njobs;
	long next_job;              /* under mu */
	long done_games;
	long forfeits[MAX_ENGINES][MATCH_END_ABORTED + 1];
	double think_sum[MAX_ENGINES], think_max[MAX_ENGINES];
	long think_moves[MAX_ENGINES];
	pthread_mutex_t mu;
	FILE *out;
	MatchLog log;
	atomic_int stop;
	EloSprtVerdict verdict;
	double llr;
	bool tty;
} Match;

static atomic_int *signal_stop;
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
	if (signal_stop)
		atomic_store(signal_stop, 1);
}

static void usage(FILE *f)
{
	fprintf(f,
	"usage: emilia-match --engine name=NAME cmd=\"COMMAND\" [init=\"GTP;GTP\"] --engine ... [options]\n"
	"  --engine name=N cmd=C  a GTP engine run by /bin/sh -c C (repeat; at least two);\n"
	"                         init= GTP commands sent after start, ';'-separated;\n"
	"                         tc=S|M+I|none its own clock (none: no time commands, only --timeout)\n"
	"  --openings FILE        transcripts, one per line (f5d6c3...); default: the start position\n"
	"  --order random|sequential   random sample (seeded, default) or the file's order\n"
	"  --games N              games per pairing, even: N/2 openings, each played twice, colours swapped (default 2)\n"
	"  --tc S | --tc M+I      S seconds per move, or M minutes per game plus I seconds per move (default 5);\n"
	"                         --tc none: no clocks, only the --timeout hang limit\n"
	"  --grace S              seconds tolerated beyond a clock before a time loss (default 0.1)\n"
	"  --concurrency N        games played at once (default 1)\n"
	"  --sprt elo0=A elo1=B alpha=X beta=Y [model=pentanomial|trinomial]\n"
	"                         stop when the SPRT decides (two engines only; not before 20 pairs)\n"
	"  --out FILE             append every game as a GGF line\n"
	"  --seed N               seed of the opening sample (default: from the clock, printed)\n"
	"  --gauntlet             first engine against each of the others (default)\n"
	"  --round-robin          every engine against every other\n"
	"  --reuse                keep engine processes between games (clear_board); default: fresh per game\n"
	"  --scoring official|plain   disc margins with empties to the winner (default) or as they stand\n"
	"  --variant normal|anti  the rules (default normal); the engines must be started with the same\n"
	"  --timeout S            limit for commands other than genmove, for start-up, and for genmove\n"
	"                         without a clock (default 10)\n"
	"  --log FILE             write all GTP traffic and the engines' stderr to FILE\n"
	"  --quiet                no progress line\n");
}

static bool parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* --sprt words: elo0=A elo1=B alpha=X beta=Y [model=...]. */
static int parse_sprt(int n, char **w, Options *o, char *err)
{
	EloSprt t = { NAN, NAN, NAN, NAN };
	int used = 0;
	for (; used < n && strchr(w[used], '=') && strncmp(w[used], "--", 2); used++) {
		const char *v = strchr(w[used], '=') + 1;
		size_t k = (size_t)(v - 1 - w[used]);
		double *dst = NULL;
		if (k == 4 && !strncmp(w[used], "elo0", 4))
			dst = &t.elo0;
		else if (k == 4 && !strncmp(w[used], "elo1", 4))
			dst = &t.elo1;
		else if (k == 5 && !strncmp(w[used], "alpha", 5))
			dst = &t.alpha;
		else if (k == 4 && !strncmp(w[used], "beta", 4))
			dst = &t.beta;
		else if (k == 5 && !strncmp(w[used], "model", 5)) {
			if (!strcmp(v, "pentanomial"))
				o->sprt_trinomial = false;
			else if (!strcmp(v, "trinomial"))
				o->sprt_trinomial = true;
			else {
				snprintf(err, 200, "--sprt model must be pentanomial or trinomial, not '%.40s'", v);
				return 0;
			}
			continue;
		} else {
			snprintf(err, 200, "unknown --sprt key in '%.60s' (elo0, elo1, alpha, beta, model)", w[used]);
			return 0;
		}
		if (!parse_double(v, -2000, 2000, dst)) {
			snprintf(err, 200, "bad number in '%.60s'", w[used]);
			return 0;
		}
	}
	if (isnan(t.elo0) || isnan(t.elo1) || isnan(t.alpha) || isnan(t.beta)) {
		snprintf(err, 200, "--sprt needs elo0=A elo1=B alpha=X beta=Y");
		return 0;
	}
	if (!elo_sprt_valid(&t, err))
		return 0;
	o->sprt = t;
	o->sprt_on = true;
	return used;
}

/* --engine WORDS: one more engine; returns the words used, 0 on an error
 * (reported). */
static int parse_engine(int n, char **w, Options *o)
{
	char err[MATCH_ERR];
	if (o->nengines == MAX_ENGINES) {
		fprintf(stderr, "emilia-match: at most %d engines\n", MAX_ENGINES);
		return 0;
	}
	MatchEngineSpec *s = &o->engines[o->nengines];
	int used = match_parse_engine_words(n, w, s, err);
	if (!used) {
		fprintf(stderr, "emilia-match: %s\n", err);
		return 0;
	}
	for (int k = 0; k < o->nengines; k++)
		if (!strcmp(o->engines[k].name, s->name)) {
			fprintf(stderr, "emilia-match: two engines named '%s'\n", s->name);
			return 0;
		}
	o->nengines++;
	return used;
}

/* The options without a value: --help, the switches and the word lists
 * (--engine, --sprt).  Returns the words used after a (0 for a switch), -1
 * when a is none of them, -2 on an error (reported). */
static int parse_flag(const char *a, int n, char **w, Options *o)
{
	if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
		usage(stdout);
		exit(0);
	} else if (!strcmp(a, "--engine")) {
		int used = parse_engine(n, w, o);
		return used ? used : -2;
	} else if (!strcmp(a, "--sprt")) {
		char err[MATCH_ERR];
		int used = parse_sprt(n, w, o, err);
		if (!used) {
			fprintf(stderr, "emilia-match: %s\n", err);
			return -2;
		}
		return used;
	} else if (!strcmp(a, "--gauntlet")) {
		o->round_robin = false;
	} else if (!strcmp(a, "--round-robin")) {
		o->round_robin = true;
	} else if (!strcmp(a, "--reuse")) {
		o->reuse = true;
	} else if (!strcmp(a, "--quiet")) {
		o->quiet = true;
	} else {
		return -1;
	}
	return 0;
}

/* --seed V: a non-negative decimal integer. */
static bool parse_seed(const char *v, Options *o)
{
	char *end;
	errno = 0;
	unsigned long long s = strtoull(v, &end, 10);
	if (errno || end == v || *end || v[0] == '-') {
		fprintf(stderr, "emilia-match: --seed takes a non-negative integer, not '%s'\n", v);
		return false;
	}
	o->seed = s;
	o->seed_given = true;
	return true;
}

/* --variant, --order and --scoring: one of two words. */
static bool parse_choice(const char *a, const char *v, Options *o)
{
	if (!strcmp(a, "--variant")) {
		if (strcmp(v, "normal") && strcmp(v, "anti")) {
			fprintf(stderr, "emilia-match: --variant normal|anti, not '%s'\n", v);
			return false;
		}
		o->variant = strcmp(v, "anti") ? VARIANT_NORMAL : VARIANT_ANTI;
	} else if (!strcmp(a, "--order")) {
		if (strcmp(v, "random") && strcmp(v, "sequential")) {
			fprintf(stderr, "emilia-match: --order random|sequential, not '%s'\n", v);
			return false;
		}
		o->random_order = !strcmp(v, "random");
	} else {
		if (!strcmp(v, "official"))
			o->cfg.scoring = SCORING_OFFICIAL;
		else if (!strcmp(v, "plain"))
			o->cfg.scoring = SCORING_PLAIN;
		else {
			fprintf(stderr, "emilia-match: --scoring official|plain, not '%s'\n", v);
			return false;
		}
	}
	return true;
}

/* The options with a value v; false on an error (reported). */
static bool parse_value(const char *a, const char *v, Options *o)
{
	long n;
	if (!strcmp(a, "--openings")) {
		o->openings = v;
	} else if (!strcmp(a, "--variant") || !strcmp(a, "--order") || !strcmp(a, "--scoring")) {
		return parse_choice(a, v, o);
	} else if (!strcmp(a, "--games")) {
		if (!util_parse_int(v, 2, 100000000, &n) || n % 2) {
			fprintf(stderr, "emilia-match: --games takes an even number >= 2, not '%s'\n", v);
			return false;
		}
		o->games = n;
	} else if (!strcmp(a, "--tc")) {
		if (!match_parse_tc(v, &o->cfg.tc)) {
			fprintf(stderr, "emilia-match: --tc takes S (seconds per move, > 0) or M+I "
			                "(minutes per game + seconds of increment), not '%s'\n", v);
			return false;
		}
	} else if (!strcmp(a, "--grace")) {
		if (!parse_double(v, 0, 3600, &o->cfg.grace)) {
			fprintf(stderr, "emilia-match: --grace takes seconds >= 0, not '%s'\n", v);
			return false;
		}
	} else if (!strcmp(a, "--timeout")) {
		if (!parse_double(v, 0.01, 3600, &o->cfg.command_timeout)) {
			fprintf(stderr, "emilia-match: --timeout takes seconds > 0, not '%s'\n", v);
			return false;
		}
	} else if (!strcmp(a, "--concurrency")) {
		if (!util_parse_int(v, 1, 256, &n)) {
			fprintf(stderr, "emilia-match: --concurrency takes 1..256, not '%s'\n", v);
			return false;
		}
		o->concurrency = n;
	} else if (!strcmp(a, "--out")) {
		o->out = v;
	} else if (!strcmp(a, "--log")) {
		o->logpath = v;
	} else if (!strcmp(a, "--seed")) {
		return parse_seed(v, o);
	} else {
		fprintf(stderr, "emilia-match: unknown option '%s' (see --help)\n", a);
		return false;
	}
	return true;
}

static bool parse_args(int argc, char **argv, Options *o)
{
	memset(o, 0, sizeof *o);
	o->games = 2;
	o->concurrency = 1;
	o->random_order = true;
	o->cfg.tc.move_time = 5;
	o->cfg.grace = 0.1;
	o->cfg.command_timeout = 10;
	o->cfg.scoring = SCORING_OFFICIAL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		int used = parse_flag(a, argc - i - 1, argv + i + 1, o);
		if (used == -2)
			return false;
		if (used >= 0) {
			i += used;
			continue;
		}
		if (!v) {
			fprintf(stderr, "emilia-match: %s needs a value (or is unknown; see --help)\n", a);
			return false;
		}
		i++;
		if (!parse_value(a, v, o))
			return false;
	}
	if (o->nengines < 2) {
		fprintf(stderr, "emilia-match: give at least two engines (--engine name=NAME cmd=\"COMMAND\")\n");
		return false;
	}
	if (o->sprt_on && o->nengines != 2) {
		fprintf(stderr, "emilia-match: --sprt needs exactly two engines\n");
		return false;
	}
	return true;
}

/* Openings: one transcript a line; '#' comments and blank lines skipped.
 * Every line is checked with the rules module now, so that a broken file
 * fails before any game. */
static bool load_openings(Match *m, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "emilia-match: cannot open openings '%s': %s\n", path, strerror(errno));
		return false;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long lineno = 0, n = 0, capn = 0;
	bool ok = true;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
			line[--len] = '\0';
		char *s = line + strspn(line, " \t");
		if (!*s || *s == '#')
			continue;
		char err[TEXT_ERR];
		Game g;
		game_init(&g, 8, m->o->variant);
		if (len > 400 || memchr(line, '\0', (size_t)len) || !text_apply_transcript(&g, s, err)) {
			fprintf(stderr, "emilia-match: %s:%ld: %s\n", path, lineno,
			        len > 400 ? "line too long for an opening" :
			        memchr(line, '\0', (size_t)len) ? "binary data" : err);
			ok = false;
			break;
		}
		if (game_is_over(&g)) {
			fprintf(stderr, "emilia-match: %s:%ld: the opening ends the game\n", path, lineno);
			ok = false;
			break;
		}
		if (n == capn) {
			capn = capn ? 2 * capn : 1024;
			m->openings = realloc(m->openings, (size_t)capn * sizeof *m->openings);
		}
		m->openings[n++] = strdup(s);
	}
	free(line);
	fclose(f);
	m->nopenings = n;
	if (ok && n == 0) {
		fprintf(stderr, "emilia-match: no openings in '%s'\n", path);
		ok = false;
	}
	return ok;
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static void format_elo(double e, char *out, size_t n)
{
	if (isinf(e))
		snprintf(out, n, "%sinf", e > 0 ? "+" : "-");
	else
		snprintf(out, n, "%+.1f", fabs(e) < 0.05 ? 0.0 : e);
}

/* Progress line after a game (under mu). */
static void progress(Match *m, const Pairing *p)
{
	if (m->o->quiet)
		return;
	EloEstimate e;
	elo_trinomial(p->wins, p->draws, p->losses, &e);
	char el[32], lo[32], hi[32], sprt[64] = "";
	format_elo(e.elo, el, sizeof el);
	format_elo(e.lo, lo, sizeof lo);
	format_elo(e.hi, hi, sizeof hi);
	if (m->o->sprt_on) {
		double a, b;
		elo_sprt_bounds(&m->o->sprt, &a, &b);
		snprintf(sprt, sizeof sprt, "  LLR %.2f [%.2f, %.2f]", m->llr, a, b);
	}
	fprintf(stderr, "%s[%ld/%ld] %s vs %s  +%d =%d -%d  %.1f%%  Elo %s [%s, %s]%s%s",
	        m->tty ? "\r" : "", m->done_games, m->njobs, m->o->engines[p->a].name,
	        m->o->engines[p->b].name, p->wins, p->draws, p->losses, 100 * e.score, el, lo, hi, sprt,
	        m->tty ? "\033[K" : "\n");
	fflush(stderr);
}

static void utc_date(char *out, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, n, "%Y.%m.%d_%H:%M:%S.UTC", &tm);
}

/* Account one finished game (under mu); game_no is its place in the
 * schedule (as in the log), not the order of completion. */
static void record(Match *m, long game_no, const Job *j, const MatchGameResult *r)
{
	Options *o = m->o;
	Pairing *p = &m->pairings[j->pairing];
	int eb = j->swap ? p->b : p->a, ew = j->swap ? p->a : p->b;
	/* a's colour and points (x2) */
	int acol = j->swap ? WHITE : BLACK;
	int pts = r->winner < 0 ? 1 : r->winner == acol ? 2 : 0;
	m->done_games++;
	if (pts == 2)
		p->wins++;
	else if (pts == 1)
		p->draws++;
	else
		p->losses++;
	if (r->winner == BLACK)
		p->black_wins++;
	else if (r->winner == WHITE)
		p->white_wins++;
	else
		p->board_draws++;
	if (r->end == MATCH_END_BOARD) {
		p->margin_sum += acol == BLACK ? r->margin : -r->margin;
		p->margin_games++;
	} else if (r->end != MATCH_END_RESIGN) {
		m->forfeits[r->loser == BLACK ? eb : ew][r->end]++;
	}
	for (int i = r->opening_plies; i < r->game.nply; i++) {
		const GamePly *h = &r->game.hist[i];
		int e = h->side == BLACK ? eb : ew;
		if (h->move == BOARD_PASS)
			continue;
		m->think_sum[e] += r->ply_secs[i];
		m->think_moves[e]++;
		if (r->ply_secs[i] > m->think_max[e])
			m->think_max[e] = r->ply_secs[i];
	}
	p->pair_points[j->pair] += pts;
	if (++p->pair_games[j->pair] == 2)
		p->penta[p->pair_points[j->pair]]++;
	if (m->out) {
		char date[48], line[8192];
		utc_date(date, sizeof date);
		match_ggf(r, o->engines[eb].name, o->engines[ew].name, date, line, sizeof line);
		fprintf(m->out, "%s\n", line);
		fflush(m->out);
	}
	if (r->reason[0] && r->end != MATCH_END_RESIGN) {
		fprintf(stderr, "%sgame %ld: %s forfeits: %s\n", m->tty ? "\r\033[K" : "", game_no,
		        o->engines[r->loser == BLACK ? eb : ew].name, r->reason);
	}
	if (o->sprt_on && m->verdict == ELO_SPRT_CONTINUE) {
		bool pair_done = p->pair_games[j->pair] == 2;
		if (o->sprt_trinomial)
			m->llr = elo_sprt_llr_trinomial(&o->sprt, p->wins, p->draws, p->losses);
		else if (pair_done)
			m->llr = elo_sprt_llr_pentanomial(&o->sprt, p->penta);
		int samples = o->sprt_trinomial ? p->wins + p->draws + p->losses : 0;
		if (!o->sprt_trinomial)
			for (int k = 0; k < 5; k++)
				samples += p->penta[k];
		m->verdict = elo_sprt_verdict(&o->sprt, m->llr, samples);
		if (m->verdict != ELO_SPRT_CONTINUE)
			atomic_store(&m->stop, 1);
	}
	progress(m, p);
}

typedef struct Worker {
	Match *m;
	MatchEngine eng[MAX_ENGINES];
	pthread_t th;
} Worker;

static void *worker_main(void *arg)
{
	Worker *w = arg;
	Match *m = w->m;
	Options *o = m->o;
	MatchGameResult *r = malloc(sizeof *r);
	for (int i = 0; i < o->nengines; i++)
		match_engine_init(&w->eng[i], &o->engines[i], &m->log, &m->stop);
	for (;;) {
		pthread_mutex_lock(&m->mu);
		long k = atomic_load(&m->stop) ? m->njobs : m->next_job++;
		pthread_mutex_unlock(&m->mu);
		if (k >= m->njobs)
			break;
		const Job *j = &m->jobs[k];
		const Pairing *p = &m->pairings[j->pairing];
		MatchEngine *b = &w->eng[j->swap ? p->b : p->a], *wh = &w->eng[j->swap ? p->a : p->b];
		b->tag = wh->tag = (int)k + 1;
		Game opening;
		game_init(&opening, 8, o->variant);
		if (m->nopenings) {
			char err[TEXT_ERR];
			text_apply_transcript(&opening, m->openings[m->order[j->pair % m->nopenings]], err);
		}
		bool played = match_play_game(b, wh, &opening, &o->cfg, r);
		if (!o->reuse) {
			match_engine_stop(b, 1.0);
			match_engine_stop(wh, 1.0);
		}
		if (!played)
			break;
		pthread_mutex_lock(&m->mu);
		record(m, k + 1, j, r);
		pthread_mutex_unlock(&m->mu);
	}
	for (int i = 0; i < o->nengines; i++)
		match_engine_stop(&w->eng[i], 1.0);
	free(r);
	return NULL;
}

static void report_pairing(const Match *m, const Pairing *p)
{
	const Options *o = m->o;
	const char *a = o->engines[p->a].name, *b = o->engines[p->b].name;
	int games = p->wins + p->draws + p->losses;
	int pairs = 0;
	for (int k = 0; k < 5; k++)
		pairs += p->penta[k];
	printf("%s vs %s: %d games, +%d =%d -%d (%s's wins, draws, losses)\n", a, b, games, p->wins,
	       p->draws, p->losses, a);
	EloEstimate t, q;
	char el[32], lo[32], hi[32];
	if (elo_trinomial(p->wins, p->draws, p->losses, &t)) {
		printf("  score %.2f%% for %s", 100 * t.score, a);
		if (p->margin_games)
			printf(", mean disc difference %+.2f over %d games ended on the board (%s scoring)",
			       (double)p->margin_sum / p->margin_games, p->margin_games,
			       o->cfg.scoring == SCORING_OFFICIAL ? "official" : "plain");
		printf("\n");
		printf("  results by colour: Black won %d, White won %d, draws %d\n", p->black_wins,
		       p->white_wins, p->board_draws);
		format_elo(t.elo, el, sizeof el);
		format_elo(t.lo, lo, sizeof lo);
		format_elo(t.hi, hi, sizeof hi);
		printf("  Elo %s, 95%% interval [%s, %s] (trinomial, %d games)\n", el, lo, hi, games);
	}
	if (elo_pentanomial(p->penta, &q)) {
		format_elo(q.elo, el, sizeof el);
		format_elo(q.lo, lo, sizeof lo);
		format_elo(q.hi, hi, sizeof hi);
		printf("  Elo %s, 95%% interval [%s, %s] (pentanomial, %d pairs)\n", el, lo, hi, pairs);
	}
	printf("  pentanomial (pairs where %s scored 0, 1/2, 1, 3/2, 2): %d %d %d %d %d\n", a,
	       p->penta[0], p->penta[1], p->penta[2], p->penta[3], p->penta[4]);
}

/* The opening order: the file's, or shuffled with the seed. */
static void order_openings(Match *m)
{
	const Options *o = m->o;
	long nord = m->nopenings ? m->nopenings : 1;
	m->order = malloc((size_t)nord * sizeof *m->order);
	for (long i = 0; i < nord; i++)
		m->order[i] = i;
	if (o->random_order && m->nopenings > 1) {
		uint64_t s = o->seed;
		for (long i = nord - 1; i > 0; i--) {
			long k = (long)(splitmix(&s) % (uint64_t)(i + 1));
			long t = m->order[i];
			m->order[i] = m->order[k];
			m->order[k] = t;
		}
	}
}

/* Pairings and the schedule: pair-major so every pairing progresses. */
static void schedule(Match *m)
{
	const Options *o = m->o;
	long npairs = o->games / 2;
	int npairings = o->round_robin ? o->nengines * (o->nengines - 1) / 2 : o->nengines - 1;
	m->pairings = calloc((size_t)npairings, sizeof *m->pairings);
	for (int a = 0, k = 0; a < o->nengines; a++)
		for (int b = a + 1; b < o->nengines; b++)
			if (o->round_robin || a == 0) {
				m->pairings[k].a = a;
				m->pairings[k].b = b;
				m->pairings[k].pair_points = calloc((size_t)npairs, sizeof(int));
				m->pairings[k].pair_games = calloc((size_t)npairs, 1);
				k++;
			}
	m->npairings = npairings;
	m->njobs = npairs * npairings * 2;
	m->jobs = malloc((size_t)m->njobs * sizeof *m->jobs);
	for (long k = 0, n = 0; k < npairs; k++)
		for (int p = 0; p < npairings; p++)
			for (int s = 0; s < 2; s++)
				m->jobs[n++] = (Job){ p, (int)k, s };
}

/* --out and --log; false on an error (reported). */
static bool open_outputs(Match *m)
{
	const Options *o = m->o;
	if (o->out && !(m->out = fopen(o->out, "a"))) {
		fprintf(stderr, "emilia-match: cannot write '%s': %s\n", o->out, strerror(errno));
		return false;
	}
	if (o->logpath && !(m->log.f = fopen(o->logpath, "ae"))) {
		fprintf(stderr, "emilia-match: cannot write '%s': %s\n", o->logpath, strerror(errno));
		return false;
	}
	return true;
}

/* The line that says what is played. */
static void print_header(const Match *m)
{
	const Options *o = m->o;
	char tcs[64];
	if (o->cfg.tc.none)
		snprintf(tcs, sizeof tcs, "no clock (hang limit %g s)", o->cfg.command_timeout);
	else if (o->cfg.tc.move_time > 0)
		snprintf(tcs, sizeof tcs, "%g s per move", o->cfg.tc.move_time);
	else
		snprintf(tcs, sizeof tcs, "%g min + %g s per game", o->cfg.tc.clock / 60, o->cfg.tc.increment);
	printf("emilia-match: %d engines, %s, %ld games per pairing, %s (grace %g s), openings %s",
	       o->nengines, o->round_robin ? "round robin" : "gauntlet", o->games, tcs, o->cfg.grace,
	       o->openings ? o->openings : "(start position)");
	if (o->openings)
		printf(" (%ld, %s, seed %llu)", m->nopenings, o->random_order ? "random" : "in order",
		       (unsigned long long)o->seed);
	printf(", concurrency %ld, %s processes\n", o->concurrency, o->reuse ? "reused" : "fresh");
	for (int e = 0; e < o->nengines; e++)
		if (o->engines[e].has_tc)
			printf("  %s has its own clock: tc=%s\n", o->engines[e].name,
			       o->engines[e].tc.none ? "none (hang limit --timeout)" : "set");
	fflush(stdout);
}

/* SIGINT and SIGTERM raise the stop flag. */
static void catch_signals(Match *m)
{
	signal_stop = &m->stop;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Plays the schedule on --concurrency threads; returns the workers (to
 * free) once all have ended. */
static Worker *play(Match *m)
{
	long nw = m->o->concurrency < m->njobs ? m->o->concurrency : m->njobs;
	Worker *w = calloc((size_t)nw, sizeof *w);
	for (long i = 0; i < nw; i++) {
		w[i].m = m;
		if (pthread_create(&w[i].th, NULL, worker_main, &w[i])) {
			fprintf(stderr, "emilia-match: cannot start a thread\n");
			atomic_store(&m->stop, 1);
			nw = i;
			break;
		}
	}
	for (long i = 0; i < nw; i++)
		pthread_join(w[i].th, NULL);
	if (m->tty)
		fprintf(stderr, "\n");
	return w;
}

/* Points per engine over all its games (win 1, draw 1/2). */
static void report_standings(const Match *m)
{
	const Options *o = m->o;
	printf("standings (points / games):");
	for (int e = 0; e < o->nengines; e++) {
		double pts = 0;
		int games = 0;
		for (int p = 0; p < m->npairings; p++) {
			const Pairing *q = &m->pairings[p];
			int n = q->wins + q->draws + q->losses;
			if (q->a == e) {
				pts += q->wins + 0.5 * q->draws;
				games += n;
			} else if (q->b == e) {
				pts += q->losses + 0.5 * q->draws;
				games += n;
			}
		}
		printf(" %s %g/%d", o->engines[e].name, pts, games);
	}
	printf("\n");
}

/* Time per move and forfeits per engine. */
static void report_engines(const Match *m)
{
	const Options *o = m->o;
	printf("time per move:");
	for (int e = 0; e < o->nengines; e++)
		if (m->think_moves[e])
			printf(" %s mean %.3f s, max %.3f s (%ld moves)%s", o->engines[e].name,
			       m->think_sum[e] / (double)m->think_moves[e], m->think_max[e], m->think_moves[e],
			       e + 1 < o->nengines ? ";" : "");
	printf("\n");
	bool any = false;
	for (int e = 0; e < o->nengines; e++) {
		long total = 0;
		for (int k = 0; k <= MATCH_END_ABORTED; k++)
			total += m->forfeits[e][k];
		if (!total)
			continue;
		if (!any)
			printf("forfeits:");
		any = true;
		printf(" %s %ld (", o->engines[e].name, total);
		bool first = true;
		for (int k = MATCH_END_TIME; k < MATCH_END_ABORTED; k++)
			if (m->forfeits[e][k]) {
				printf("%s%s %ld", first ? "" : ", ", match_end_name((MatchEnd)k), m->forfeits[e][k]);
				first = false;
			}
		printf(")");
	}
	printf(any ? "\n" : "forfeits: none\n");
}

/* The summary after the games. */
static void report(Match *m)
{
	const Options *o = m->o;
	printf("\n");
	for (int p = 0; p < m->npairings; p++)
		report_pairing(m, &m->pairings[p]);
	if (m->npairings > 1)
		report_standings(m);
	report_engines(m);
	if (o->sprt_on) {
		double a, b;
		elo_sprt_bounds(&o->sprt, &a, &b);
		printf("SPRT elo0=%g elo1=%g alpha=%g beta=%g (%s, normal approximation of the GSPRT): "
		       "LLR %.3f, bounds [%.3f, %.3f]: %s\n",
		       o->sprt.elo0, o->sprt.elo1, o->sprt.alpha, o->sprt.beta,
		       o->sprt_trinomial ? "trinomial" : "pentanomial", m->llr, a, b,
		       m->verdict == ELO_SPRT_H1 ? "H1 accepted (elo >= elo1)" :
		       m->verdict == ELO_SPRT_H0 ? "H0 accepted (elo <= elo0)" : "no decision");
	}
	if (atomic_load(&m->stop) && m->verdict == ELO_SPRT_CONTINUE)
		printf("stopped after %ld of %ld games\n", m->done_games, m->njobs);
}

static void match_close(Match *m)
{
	if (m->out)
		fclose(m->out);
	if (m->log.f)
		fclose(m->log.f);
	for (long i = 0; i < m->nopenings; i++)
		free(m->openings[i]);
	free(m->openings);
	free(m->order);
	for (int p = 0; p < m->npairings; p++) {
		free(m->pairings[p].pair_points);
		free(m->pairings[p].pair_games);
	}
	free(m->pairings);
	free(m->jobs);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--version"))
		return version_print("emilia-match");
	static Options o;
	static Match m;
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!parse_args(argc, argv, &o))
		return 2;
	match_ignore_sigpipe();
	m.o = &o;
	pthread_mutex_init(&m.mu, NULL);
	pthread_mutex_init(&m.log.mu, NULL);
	atomic_init(&m.stop, 0);
	if (o.openings && !load_openings(&m, o.openings))
		return 2;
	if (!o.seed_given)
		o.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	order_openings(&m);
	schedule(&m);
	if (!open_outputs(&m))
		return 2;
	m.tty = isatty(2) && !o.quiet;
	print_header(&m);
	catch_signals(&m);
	Worker *w = play(&m);
	report(&m);
	match_close(&m);
	free(w);
	return interrupted ? 130 : 0;
}
