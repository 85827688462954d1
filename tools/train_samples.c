/*
 * train_samples.c - emilia-train's samples: the sets of labelled positions, the
 * games read into them (train.h lists the trainer's files).
 */
#include <stdlib.h>
#include <string.h>
#include "train.h"

_Noreturn void die(const char *msg)
{
	fprintf(stderr, "emilia-train: %s\n", msg);
	exit(1);
}

/* The weights the searches and reports of this run use: those of
 * --search-eval, then of the fit (or --eval-only); NULL: the built-in
 * ones. */
Evaluator *run_weights;

void use_weights(Evaluator *ev)
{
	if (!ev)
		die("out of memory");
	eval_free(run_weights);
	run_weights = ev;
}

const Evaluator *weights_8x8(void)
{
	return run_weights ? run_weights : eval_get(8, VARIANT_NORMAL);
}

void *xcalloc(size_t n, size_t s)
{
	void *p = calloc(n, s);
	if (!p)
		die("out of memory");
	return p;
}

Sample *set_find(Set *s, uint64_t p, uint64_t o)
{
	size_t mask = s->cap - 1, i = mix(p ^ mix(o)) & mask;
	while (s->slot[i].cnt && (s->slot[i].p != p || s->slot[i].o != o))
		i = (i + 1) & mask;
	return &s->slot[i];
}

void set_grow(Set *s)
{
	Set n = { xcalloc(s->cap ? s->cap * 2 : 1 << 16, sizeof(Sample)), s->cap ? s->cap * 2 : 1 << 16, s->n };
	for (size_t i = 0; i < s->cap; i++)
		if (s->slot[i].cnt)
			*set_find(&n, s->slot[i].p, s->slot[i].o) = s->slot[i];
	free(s->slot);
	*s = n;
}

/* Which label wins when a position has several: exact, then search, then
 * game results. */
static int label_rank(int kind)
{
	return kind == LABEL_EXACT ? 2 : kind == LABEL_SEARCH ? 1 : 0;
}

/* Adds a label to b's sample; returns the sample. */
Sample *set_add_kind(Set *s, Board b, int empties, int label, int kind)
{
	if (s->n * 10 >= s->cap * 7)
		set_grow(s);
	Board c = board_canonical(b, NULL);
	Sample *x = set_find(s, c.p, c.o);
	if (!x->cnt) {
		x->p = c.p;
		x->o = c.o;
		x->empties = (uint8_t)empties;
		s->n++;
	}
	if (label_rank(x->exact) > label_rank(kind))
		return x;
	if (label_rank(kind) > label_rank(x->exact)) {
		x->sum = 0;
		x->cnt = 0;
		x->exact = (uint8_t)kind;
	}
	if (x->cnt < 65535) {
		x->sum += label;
		x->cnt++;
	}
	return x;
}

Sample *set_add(Set *s, Board b, int empties, int label, bool exact)
{
	return set_add_kind(s, b, empties, label, exact ? LABEL_EXACT : LABEL_GAME);
}

bool set_has(const Set *s, uint64_t p, uint64_t o)
{
	if (!s->cap)
		return false;
	size_t mask = s->cap - 1, i = mix(p ^ mix(o)) & mask;
	while (s->slot[i].cnt) {
		if (s->slot[i].p == p && s->slot[i].o == o)
			return true;
		i = (i + 1) & mask;
	}
	return false;
}
/* Run fn(arg) on `threads` threads (at most 64, the --threads bound) and
 * wait for all of them. */
void train_run_threads(void *(*fn)(void *), void *arg, int threads)
{
	pthread_t th[64];
	for (int t = 0; t < threads; t++)
		pthread_create(&th[t], NULL, fn, arg);
	for (int t = 0; t < threads; t++)
		pthread_join(th[t], NULL);
}

/* ---- reading games ---------------------------------------------------- */

typedef struct Stats {
	long games, rejected, positions, dropped;
	int kind;                   /* of the game being read: 0 WTHOR, 1 book, 2 logbook */
	double diff[3][61];         /* |exact label - the game's own label|, summed */
	long ndiff[3][61], nsame[3][61];
} Stats;

/* How far the games' own labels are from the exact ones, by source. */
static void report_agreement(const Stats *st)
{
	static const char *name[3] = { "WTHOR (theoretical score, then result)", "Logistello book (result)",
	                               "logbook (result)" };
	static const int lo[4] = { 1, 13, 16, 19 }, hi[4] = { 12, 15, 18, 24 };
	for (int k = 0; k < 3; k++) {
		bool any = false;
		for (int b = 0; b < 4; b++) {
			double d = 0;
			long n = 0, same = 0;
			for (int e = lo[b]; e <= hi[b]; e++) {
				d += st->diff[k][e];
				n += st->ndiff[k][e];
				same += st->nsame[k][e];
			}
			if (!n)
				continue;
			if (!any)
				fprintf(stderr, "game labels against exact labels, %s:\n", name[k]);
			any = true;
			fprintf(stderr, "  %2d-%2d empties: %ld positions, mean difference %.2f discs, %.1f%% equal\n",
			        lo[b], hi[b], n, d / (double)n, 100.0 * (double)same / (double)n);
		}
	}
}

/* The empties from which both players of tools/eval-selfplay.sh (levels 8
 * and 10) solve exactly: level L solves from 2L empties (docs/engine.md). */
#define SELFPLAY_EXACT 16

/* selfplay: one of Emilia's self-play games, whose result is exact from
 * SELFPLAY_EXACT empties on and whose positions are marked for
 * --selfplay-weight. */
static void add_game(const Options *o, const WthorGame *w, const int8_t *lab, const int8_t *slab,
                     bool selfplay, Set *set, Stats *st)
{
	GameReplay r;
	for (replay_start(&r, w); replay_next(&r);) {
		const Game *g = &r.g;
		int e = game_empties(g);
		bool exact = w->has_theory && e == w->theory_depth;
		int black = w->has_theory && (e >= w->theory_depth || o->theory_after) ? w->black_theory
		                                                                      : w->black_final;
		int own = g->side == BLACK ? black : -black;
		Sample *x = NULL;
		if (lab && lab[e] != LABEL_NONE) {
			x = set_add(set, g->board, e, lab[e], true);
			st->diff[st->kind][e] += abs(lab[e] - own);
			st->ndiff[st->kind][e]++;
			st->nsame[st->kind][e] += lab[e] == own;
		} else if (slab && slab[e] != LABEL_NONE) {
			x = set_add_kind(set, g->board, e, slab[e], LABEL_SEARCH);
		} else if (w->has_theory && e < w->theory_depth && e >= o->drop_lo && e <= o->drop_hi) {
			/* --drop-after: a tournament game's position after its
			 * theoretical score's depth without an exact label; its
			 * label would be the players' result */
			st->dropped++;
		} else {
			x = set_add(set, g->board, e, own, exact || (selfplay && e <= SELFPLAY_EXACT));
		}
		if (x && selfplay)
			x->selfplay = 1;
		st->positions++;
	}
	if (r.failed)
		die("internal error: replay of a checked game failed");
	st->games++;
}

static bool keep_game(const Options *o, uint64_t id)
{
	if (o->fraction >= 1.0)
		return true;
	return (double)(mix(id ^ mix(o->seed)) >> 11) / 9007199254740992.0 < o->fraction;
}

typedef struct ReadCtx {
	const Options *o;
	Set *train, *test;
	Stats st;
	uint64_t gid;
	long wthor, book, logbook, selfplay;
} ReadCtx;

static void read_visit(void *user, const GameRef *r, const WthorGame *w)
{
	ReadCtx *c = user;
	const Options *o = c->o;
	bool is_test = r->wthor && r->year >= o->test_lo && r->year <= o->test_hi;
	if (!is_test && !keep_game(o, c->gid++))
		return;
	const unsigned kind = games_source_kind(r);
	c->st.kind = kind == LABEL_SRC_WTHOR ? 0 : kind == LABEL_SRC_BOOK ? 1 : 2;
	if (kind == LABEL_SRC_WTHOR)
		c->wthor++;
	else if (kind == LABEL_SRC_BOOK)
		c->book++;
	else if (kind == LABEL_SRC_LOGBOOK)
		c->logbook++;
	else
		c->selfplay++;
	/* test positions get exact labels only */
	add_game(o, w, labels_find(o->labels, r->source, r->index, false),
	         is_test ? NULL : labels_find(o->labels, r->source, r->index, true),
	         kind == LABEL_SRC_SELFPLAY, is_test ? c->test : c->train, &c->st);
}

void read_all(const Options *o, Set *train, Set *test)
{
	static ReadCtx c;
	memset(&c, 0, sizeof c);
	c.o = o;
	c.train = train;
	c.test = test;
	games_for_each(o->data, (o->no_book ? GAMES_NO_BOOK : 0u) | (o->no_logbook ? GAMES_NO_LOGBOOK : 0u),
	               read_visit, &c);
	fprintf(stderr, "games: %ld WTHOR, %ld Logistello book, %ld logbook, %ld self-play; %ld tournament "
	        "positions without exact labels dropped\n", c.wthor, c.book, c.logbook, c.selfplay, c.st.dropped);
	report_agreement(&c.st);
	Stats st = c.st;
	/* hold-out: no test position (up to symmetry) with fewer than
	 * HOLDOUT_EMPTIES empties is trained on; the first moves of the
	 * opening are common to nearly every game (the start position among
	 * them), their labels are averages over thousands of games, and the
	 * opening phases would be left without them */
	size_t removed = 0;
	for (size_t i = 0; i < train->cap; i++)
		if (train->slot[i].cnt && train->slot[i].empties < HOLDOUT_EMPTIES
		    && set_has(test, train->slot[i].p, train->slot[i].o)) {
			train->slot[i].cnt = 0xFFFF; /* tombstone: kept in the probe chain */
			train->slot[i].exact = LABEL_DROPPED;
			removed++;
		}
	fprintf(stderr, "positions: %ld read, %zu unique training, %zu test, %zu training positions "
	        "dropped as test positions\n", st.positions, train->n - removed, test->n, removed);
}
