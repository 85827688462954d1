/*
 * labels.h - the training archives game by game, and exact labels stored
 * as references into them.
 *
 * Games.  A data directory holds wthor/WTH_YYYY.wtb (tournament games),
 * Logistello_book_1999.wtb and logbook.gam.gz.  games_for_each() visits
 * every readable game in a fixed order (WTHOR years ascending, the book,
 * Logistello's self-play games, then Emilia's own self-play games of
 * games_set_selfplay) and names each by its source ("WTH_1990", "book",
 * "logbook", "sp-000") and its index in that source (the record number, or the line
 * number from 0), so that a label can point at a game without storing
 * the board.
 *
 * Sampled positions.  The position of a game at e empties is the one
 * before the move played with e empties on the board (after any forced
 * pass), seen from the side to move: a game has at most one per e.
 *
 * Label files.  labels_make() labels the sampled positions with LO..HI
 * empties of every game and writes them in chunks of LABELS_CHUNK games,
 * one gzip file per chunk:
 *     DIR/<source>.<first game>.e<LO>-<HI>.<method>.lab.gz
 * holding the text line
 *     emilia-labels 1 <source> <first> <count> <LO> <HI> <stride> <method>\n
 * then count * (HI - LO + 1) bytes, game after game, empties from HI
 * down to LO: the label (final disc difference for the side to move)
 * plus 64 (0..128), or 255 where the game has no such position or was
 * skipped (with --label-stride K only every K-th game is labelled).
 * The method is "exact" (the solver's score) or "dD-XXXXXXXX" for
 * backward induction: the value of a depth-D search (iterative deepening
 * from 1, a fresh table for every position, no ProbCut; exact where D
 * reaches the end) with the weight file whose checksum starts with
 * XXXXXXXX (weights_checksum, hexadecimal).  A chunk is
 * written to a temporary name and renamed when complete, and chunks that
 * exist are skipped, so a run can stop at any time (--time-limit stops
 * after the chunk in progress) and a later run resumes.  Neither kind of
 * label depends on the thread count: the files are the same on every run.
 */
#ifndef EMILIA_TOOLS_LABELS_H
#define EMILIA_TOOLS_LABELS_H

#include <stdbool.h>
#include <stdint.h>
#include "endgame.h"
#include "game.h"
#include "search.h"
#include "tt.h"
#include "wthor.h"

#define LABELS_CHUNK 2000
#define LABEL_NONE (-128)

enum {
	GAMES_NO_BOOK = 1,     /* skip Logistello_book_1999.wtb */
	GAMES_NO_LOGBOOK = 2,  /* skip logbook.gam.gz */
	GAMES_NO_SELFPLAY = 4  /* skip the self-play games (games_set_selfplay) */
};

typedef struct GameRef {
	const char *source;    /* "WTH_1990", "book", "logbook", "sp-000" */
	uint32_t index;        /* in the source, from 0 */
	bool wthor;            /* a tournament game (WTHOR theoretical score valid) */
	int year;              /* WTHOR year, 0 otherwise */
} GameRef;

typedef void (*GameFn)(void *user, const GameRef *ref, const WthorGame *g);

/* Visit every game of `dir` (see above); unreadable files and malformed
 * records are reported on stderr and skipped.  Returns the number of
 * games visited. */
long games_for_each(const char *dir, unsigned flags, GameFn fn, void *user);
/* Self-play games (tools/eval-selfplay.sh): games_for_each then also
 * visits DIR/sp-000.gam.gz .. sp-999.gam.gz (logbook format), after the
 * data directory's games, each file a source named "sp-KKK".  NULL (the
 * default): none.  The string must outlive the visits. */
void games_set_selfplay(const char *dir);

/* A game's sampled positions in order (see above):
 *     GameReplay r;
 *     for (replay_start(&r, w); replay_next(&r);)
 *         ... r.g, the position before move r.n of w ...
 * replay_next() plays that move before it steps on; it is false at the
 * end, and also where the move is illegal (then with r.failed, which
 * cannot happen for a game the readers checked). */
typedef struct GameReplay {
	Game g;
	const WthorGame *w;
	int n;
	bool failed;
} GameReplay;

void replay_start(GameReplay *r, const WthorGame *w);
bool replay_next(GameReplay *r);

typedef struct Labels Labels;

/* Read every *.lab.gz file of `dir`; NULL and a message on stderr when a
 * file is broken, two files disagree, files of two different search
 * methods are present, or `dir` cannot be read.  An empty directory
 * gives an empty set. */
Labels *labels_load(const char *dir);
/* The exact (search = false) or search labels of a game, indexed by
 * empties (0..60), LABEL_NONE where there is none; NULL when the game has
 * none at all. */
const int8_t *labels_find(const Labels *l, const char *source, uint32_t index, bool search);
long labels_count(const Labels *l, bool search);
/* The search method of the search labels ("" when there are none). */
const char *labels_search_method(const Labels *l);
void labels_free(Labels *l);

enum { LABEL_SRC_WTHOR = 1, LABEL_SRC_BOOK = 2, LABEL_SRC_LOGBOOK = 4, LABEL_SRC_SELFPLAY = 8 };
/* The kind of a game's source: one LABEL_SRC_* bit. */
unsigned games_source_kind(const GameRef *r);

typedef struct LabelJob {
	const char *data;      /* the archives */
	const char *out;       /* directory of the label files */
	int lo, hi;            /* empties */
	int stride;            /* label every stride-th game (1 = all) */
	int year_lo, year_hi;  /* WTHOR years to label; 0-0 = every source */
	int except_lo, except_hi; /* WTHOR years not to label; 0-0 = none */
	unsigned sources;      /* LABEL_SRC_* bits; 0 = all */
	int threads;
	double time_limit;     /* seconds; 0 = none */
	int depth;             /* 0: exact labels; else the search depth */
	const char *eval;      /* weights of the search (NULL: the built-in ones) */
	/* When set, a chunk's positions are valued by this function instead
	 * of the job's threads (emilia-mpi hands them to its workers): out[i]
	 * = label_value(b[i], depth), in any order of work.  false = failure:
	 * labels_make stops with an error and writes nothing for the chunk. */
	bool (*value_batch)(void *user, const Board *b, size_t n, int8_t *out);
	void *user;
} LabelJob;

/* One command-line option of a label job (--label-empties LO-HI,
 * --label-years Y1-Y2, --label-except Y1-Y2, --label-sources LIST,
 * --label-stride K, --label-depth D, --label-eval FILE) with its value:
 * 1 when it was one and is set, -1 when its value is bad, 0 when `name`
 * is not one of them. */
int labels_job_option(LabelJob *j, const char *name, const char *value);

/* Write the missing chunks of a job (see above); 0 on success. */
int labels_make(const LabelJob *job);

/* The backward-induction search (method dD-XXXXXXXX above), one per
 * thread: iterative deepening 1..depth, its 4 MiB table cleared before
 * every position, no ProbCut, the searcher's weights.  The value
 * depends on the position, the depth and the weights only.  emilia-train's
 * --search-mid labels use it too. */
typedef struct LabelSearcher {
	EndgameTables *eg;  /* the exact labels' solver tables */
	TT tt;
	SearchShared sh;
	SearchThread *t;
	int size;           /* the game: 8 and the normal variant but for */
	Variant variant;    /* label_searcher_init_game() */
} LabelSearcher;

/* ev: the weights to search with (NULL: the built-in ones), which must
 * outlive the searcher; false when out of memory. */
bool label_searcher_init(LabelSearcher *s, const Evaluator *ev);
/* The same for another game: board size 8 or 6, either variant. */
bool label_searcher_init_game(LabelSearcher *s, const Evaluator *ev, int size, Variant v);
/* The label of one position: exact (depth 0: the solver, 1 thread, a 16
 * MiB table) or the search value of label_searcher_value (s is then an
 * initialised searcher). */
int label_value(LabelSearcher *s, Board b, int depth);
int label_searcher_value(LabelSearcher *s, Board b, int depth);
void label_searcher_free(LabelSearcher *s);

#endif
