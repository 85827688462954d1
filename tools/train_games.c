/*
 * train_games.c - emilia-train's other games: the evaluations of 8x8 Anti, 6x6
 * and 6x6 Anti from generated games (--game-train; train.h lists the
 * trainer's files).
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "patterns.h"
#include "util.h"
#include "weights.h"
#include "train.h"

/* ---- the other games: 8x8 Anti, 6x6, 6x6 Anti ------------------------------
 *
 * The same pipeline as the 8x8 evaluation's on generated games: there
 * are no archives of these games.  --game-train G --games N plays N games
 * (a few random moves, then a shallow search with the hand-tuned
 * evaluation and one random move in eight), keeps every position once
 * under the 8 symmetries (6x6 boards centred on the 8x8 patterns), holds
 * out every eighth game, solves the positions with at most --game-exact
 * empties and labels the later phases by backward induction: the phases
 * are fitted from the end, and a position of phase k is labelled by a
 * search of depth PATTERN_PHASE_WIDTH whose leaves lie in phase k - 1,
 * already fitted.  Deterministic for a seed, whatever the thread count. */

typedef struct GamePos {
	uint64_t p, o;   /* canonical, centred: (p, o) << shift, least of the 8 symmetries */
	int8_t empties, label;
	uint8_t kind;    /* 0: no label yet, LABEL_EXACT, LABEL_SEARCH */
	uint8_t test;
} GamePos;

typedef struct GameJob {
	int size, shift;
	Variant v;
	uint64_t seed;
	int ngames, depth;
	Board **pos;     /* per game: its positions (side to move has a move) */
	int *npos;
	atomic_int next;
	/* labelling */
	GamePos **todo;
	size_t ntodo;
	atomic_size_t next_todo;
	const Evaluator *ev;
} GameJob;

static void *game_play_worker(void *arg)
{
	GameJob *j = arg;
	const uint64_t geo = board_geometry(j->size);
	LabelSearcher se;
	if (!label_searcher_init_game(&se, eval_hand(j->size, j->v), j->size, j->v))
		die("out of memory");
	for (;;) {
		int g = atomic_fetch_add(&j->next, 1);
		if (g >= j->ngames)
			break;
		uint64_t rng = mix(j->seed * 0x9E3779B97F4A7C15ULL + (uint64_t)g + 1);
		int nrandom = 2 + (int)((rng = mix(rng)) % 9), ply = 0, n = 0;
		Board *out = xcalloc(64, sizeof *out);
		Board b = board_start(j->size);
		for (;;) {
			uint64_t m = board_moves(b.p, b.o) & geo;
			if (!m) {
				if (!(board_moves(b.o, b.p) & geo))
					break;
				b = board_pass(b);
				continue;
			}
			out[n++] = b;
			int nm = bit_count(m), pick = (int)((rng = mix(rng)) % (uint64_t)nm);
			if (ply >= nrandom && (rng = mix(rng)) % 8 != 0) {
				/* the best move by a depth-(depth) search, ties to the
				 * first from a random starting point */
				int best = -SEARCH_INF, first = pick;
				for (int k = 0; k < nm; k++) {
					uint64_t mm = m;
					for (int s = (first + k) % nm; s > 0; s--)
						mm = bit_pop(mm);
					int sq = bit_first(mm);
					Board c = board_apply(b, sq, board_flips(b.p, b.o, sq));
					int val = -label_searcher_value(&se, c, j->depth);
					if (val > best) {
						best = val;
						pick = (first + k) % nm;
					}
				}
			}
			for (; pick > 0; pick--)
				m = bit_pop(m);
			int sq = bit_first(m);
			b = board_apply(b, sq, board_flips(b.p, b.o, sq));
			ply++;
		}
		j->pos[g] = out;
		j->npos[g] = n;
	}
	label_searcher_free(&se);
	return NULL;
}

static void *game_label_worker(void *arg)
{
	GameJob *j = arg;
	LabelSearcher se;
	if (!label_searcher_init_game(&se, j->ev, j->size, j->v))
		die("out of memory");
	for (;;) {
		size_t i = atomic_fetch_add(&j->next_todo, 1);
		if (i >= j->ntodo)
			break;
		GamePos *x = j->todo[i];
		Board b = { x->p >> j->shift, x->o >> j->shift };
		x->label = (int8_t)label_value(&se, b, x->kind == LABEL_EXACT ? 0 : j->depth);
	}
	label_searcher_free(&se);
	return NULL;
}

static void game_label(GameJob *j, GamePos **todo, size_t n, int depth, const Evaluator *ev, int threads)
{
	j->todo = todo;
	j->ntodo = n;
	j->next_todo = 0;
	j->depth = depth;
	j->ev = ev;
	train_run_threads(game_label_worker, j, threads);
}

static int game_cmp(const void *a, const void *b)
{
	const GamePos *x = a, *y = b;
	return x->p != y->p ? (x->p < y->p ? -1 : 1) : x->o != y->o ? (x->o < y->o ? -1 : 1) : 0;
}

/* The board and rules of `game` (anti, 6x6 or 6x6-anti) into j; false when
 * it names none. */
static bool game_kind(const char *game, GameJob *j)
{
	if (!strcmp(game, "anti")) {
		j->size = 8;
		j->v = VARIANT_ANTI;
	} else if (!strcmp(game, "6x6") || !strcmp(game, "6x6-anti")) {
		j->size = 6;
		j->v = strcmp(game, "6x6") ? VARIANT_ANTI : VARIANT_NORMAL;
		j->shift = 9;
	} else {
		return false;
	}
	return true;
}

/* Plays j's games and returns their positions, centred and canonical, each
 * once (in *count), in a fixed shuffled order; every 8th game is held out. */
static GamePos *game_positions(const Options *o, GameJob *j, const char *game, size_t *count)
{
	const int cells = j->size * j->size, ngames = j->ngames;
	double t0 = util_now();
	train_run_threads(game_play_worker, j, o->threads);
	size_t total = 0;
	for (int g = 0; g < ngames; g++)
		total += (size_t)j->npos[g];
	GamePos *all = xcalloc(total + 1, sizeof *all);
	size_t n = 0;
	for (int g = 0; g < ngames; g++)
		for (int k = 0; k < j->npos[g]; k++) {
			const Board b = j->pos[g][k];
			const Board c = board_canonical((Board){ b.p << j->shift, b.o << j->shift }, NULL);
			GamePos *x = &all[n++];
			x->p = c.p;
			x->o = c.o;
			x->empties = (int8_t)(cells - bit_count(b.p | b.o));
			x->test = g % 8 == 7;
		}
	/* once each: a board held out only when every game that reaches it is */
	qsort(all, n, sizeof *all, game_cmp);
	size_t u = 0;
	for (size_t i = 0; i < n;) {
		size_t k = i;
		uint8_t test = 1;
		while (k < n && all[k].p == all[i].p && all[k].o == all[i].o)
			test &= all[k++].test;
		all[u] = all[i];
		all[u++].test = test;
		i = k;
	}
	n = u;
	size_t ntest = 0;
	for (size_t i = 0; i < n; i++)
		ntest += all[i].test;
	fprintf(stderr, "%s: %d games, %zu positions (%zu unique, %zu in the held-out games) in %.0f s\n", game,
	        ngames, total, n, ntest, util_now() - t0);
	/* a fixed shuffled order: the first max_search of a phase are searched */
	for (size_t i = n; i > 1; i--) {
		size_t k = (size_t)(mix(o->seed + i) % i);
		GamePos t = all[i - 1];
		all[i - 1] = all[k];
		all[k] = t;
	}
	*count = n;
	return all;
}

/* Fits the phases from the end into w, each labelled by searches into the
 * phases before it (at most max_search positions of a phase, an eighth of
 * that held out); todo has room for every position. */
static void game_fit(const Options *o, GameJob *j, GamePos *all, size_t n, GamePos **todo, int16_t *w,
                     long max_search)
{
	const int cells = j->size * j->size;
	Fit f;
	fit_init(&f, o);
	for (int ph = 0; ph < PATTERN_PHASES && patterns_phase_lo(ph) <= cells - 4; ph++) {
		const int lo = patterns_phase_lo(ph), hi = patterns_phase_hi(ph);
		Evaluator *ev = eval_new_game(w, j->size, j->v);
		if (!ev)
			die("out of memory");
		long searched[2] = { 0, 0 };
		size_t nt = 0;
		for (size_t i = 0; i < n; i++) {
			GamePos *x = &all[i];
			if (x->empties < lo || x->empties > hi || x->kind)
				continue;
			if (searched[x->test] >= (x->test ? max_search / 8 : max_search))
				continue;
			searched[x->test]++;
			x->kind = LABEL_SEARCH;
			todo[nt++] = x;
		}
		double t0 = util_now();
		game_label(j, todo, nt, PATTERN_PHASE_WIDTH, ev, o->threads);
		eval_free(ev);
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			m += all[i].kind && !all[i].test && all[i].empties >= lo && all[i].empties <= hi;
		f.n = m;
		f.feat = xcalloc(m * PATTERN_FEATURES + 1, sizeof *f.feat);
		f.label = xcalloc(m + 1, sizeof *f.label);
		f.sw = xcalloc(m + 1, sizeof *f.sw);
		m = 0;
		for (size_t i = 0; i < n; i++) {
			const GamePos *x = &all[i];
			if (!x->kind || x->test || x->empties < lo || x->empties > hi)
				continue;
			features(x->p, x->o, f.feat + m * PATTERN_FEATURES);
			f.label[m] = x->label;
			f.sw[m++] = 1.0f;
		}
		fprintf(stderr, "phase %d (%d-%d empties): %zu positions, %zu searched in %.0f s\n", ph, lo, hi, m, nt,
		        util_now() - t0);
		fit_phase(o, &f, ph, NULL);
		fit_store(&f, w + (size_t)ph * PATTERN_WEIGHTS);
	}
	fit_free(&f);
}

/* --game-dump: one line per labelled position: the board as the labels saw
 * it (p to move, hex), empties, label, e(xact) or s(earch), t(est) or -; in
 * the fixed shuffled order. */
static void game_dump(const char *path, const GamePos *all, size_t n, int shift)
{
	FILE *d = fopen(path, "w");
	if (!d)
		die("cannot write the --game-dump file");
	for (size_t i = 0; i < n; i++)
		if (all[i].kind)
			fprintf(d, "%016llx %016llx %d %d %c %c\n", (unsigned long long)(all[i].p >> shift),
			        (unsigned long long)(all[i].o >> shift), all[i].empties, all[i].label,
			        all[i].kind == LABEL_EXACT ? 'e' : 's', all[i].test ? 't' : '-');
	if (fclose(d))
		die("cannot write the --game-dump file");
}

/* The report: the held-out error by empties of the weights w and of the
 * hand-tuned evaluation, on stdout and in --report. */
static void game_report(const Options *o, const GameJob *j, const GamePos *all, size_t n, const int16_t *w,
                        const char *game, int exact_max)
{
	const int cells = j->size * j->size;
	Evaluator *ev = eval_new_game(w, j->size, j->v);
	if (!ev)
		die("out of memory");
	const Evaluator *hand = eval_hand(j->size, j->v);
	double err[65][2] = { { 0 } }, herr[65][2] = { { 0 } };
	long cnt[65][2] = { { 0 } };
	for (size_t i = 0; i < n; i++) {
		const GamePos *x = &all[i];
		if (!x->test || !x->kind)
			continue;
		int k = x->kind == LABEL_EXACT ? 0 : 1;
		uint64_t p = x->p >> j->shift, q = x->o >> j->shift;
		err[x->empties][k] += fabs((double)eval_score(ev, p, q) - x->label);
		herr[x->empties][k] += fabs((double)eval_score(hand, p, q) - x->label);
		cnt[x->empties][k]++;
	}
	FILE *rep = o->report ? fopen(o->report, "w") : NULL;
	say(rep, "emilia-train --game-train %s: %d games (seed %llu), exact labels up to %d empties, "
	    "backward induction (depth %d) above; every 8th game held out\n", game, j->ngames,
	    (unsigned long long)o->seed, exact_max, PATTERN_PHASE_WIDTH);
	say(rep, "held-out positions: mean absolute error of the static evaluation (discs)\n");
	say(rep, "  empties  label   positions  trained  hand-tuned\n");
	for (int e = 1; e <= cells - 4; e++)
		for (int kk = 0; kk < 2; kk++)
			if (cnt[e][kk])
				say(rep, "  %7d  %-6s %9ld  %7.2f  %10.2f\n", e, kk ? "search" : "exact", cnt[e][kk],
				    err[e][kk] / cnt[e][kk], herr[e][kk] / cnt[e][kk]);
	if (rep)
		fclose(rep);
	eval_free(ev);
}

int game_train(const Options *o, const char *game, int ngames, int exact_max, long max_search,
               const char *out)
{
	GameJob j;
	memset(&j, 0, sizeof j);
	if (!game_kind(game, &j)) {
		fprintf(stderr, "emilia-train: --game-train takes anti, 6x6 or 6x6-anti\n");
		return 2;
	}
	j.seed = o->seed;
	j.ngames = ngames;
	j.depth = 2;
	j.pos = xcalloc((size_t)ngames, sizeof *j.pos);
	j.npos = xcalloc((size_t)ngames, sizeof *j.npos);
	size_t n;
	GamePos *all = game_positions(o, &j, game, &n);
	/* exact labels */
	GamePos **todo = xcalloc(n + 1, sizeof *todo);
	size_t nt = 0;
	for (size_t i = 0; i < n; i++)
		if (all[i].empties <= exact_max) {
			all[i].kind = LABEL_EXACT;
			todo[nt++] = &all[i];
		}
	double t0 = util_now();
	game_label(&j, todo, nt, 0, NULL, o->threads);
	fprintf(stderr, "solved %zu positions with at most %d empties in %.0f s\n", nt, exact_max, util_now() - t0);
	int16_t *w = xcalloc((size_t)PATTERN_PHASES * PATTERN_WEIGHTS, sizeof *w);
	game_fit(o, &j, all, n, todo, w, max_search);
	if (o->game_dump)
		game_dump(o->game_dump, all, n, j.shift);
	game_report(o, &j, all, n, w, game, exact_max);
	size_t len;
	char msg[WEIGHTS_ERR];
	unsigned char *img = weights_encode(w, eval_set_id(j.size, j.v), PATTERN_PHASES, PATTERN_WEIGHTS, &len);
	if (!img || !weights_write_file(out, img, len, msg))
		die(img ? msg : "out of memory");
	fprintf(stderr, "wrote %s\n", out);
	free(img);
	free(w);
	free(todo);
	free(all);
	for (int g = 0; g < ngames; g++)
		free(j.pos[g]);
	free(j.pos);
	free(j.npos);
	return 0;
}
