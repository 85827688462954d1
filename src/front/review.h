/*
 * review.h - game review: for every move of a game, the engine's best
 * move and the discs the move played lost against it, each move
 * classified, and a summary per player; as text, JSON or a self-contained
 * HTML report with SVG pictures.
 *
 * How: every position of the game is searched once.  Its value v (discs,
 * mover's view, empties to the winner) is the best move's value; the
 * played move's value is the next position's value seen from the mover
 * (the final score when the game ends).  loss = best - played, 0 when the
 * played move is the engine's best move, never below 0.  Positions with
 * at most `exact_from` empties are solved exactly, so their losses are
 * exact; before that the positions are searched at the level's midgame
 * depth D, and the position after a move that is not the engine's best is
 * searched again at depth D - 1, so both moves are seen to the same
 * horizon (with one thread the review is the same every time).
 *
 * Classes (loss in discs, REVIEW_* thresholds): best 0, inaccuracy 1-3,
 * mistake 4-9, blunder 10 or more.
 */
#ifndef EMILIA_REVIEW_H
#define EMILIA_REVIEW_H

#include <stdbool.h>
#include <stdio.h>
#include "engine.h"
#include "gamefile.h"

enum { REVIEW_INACCURACY = 1, REVIEW_MISTAKE = 4, REVIEW_BLUNDER = 10 };
typedef enum { REVIEW_BEST = 0, REVIEW_INACC, REVIEW_MISTK, REVIEW_BLUND } ReviewClass;

typedef struct ReviewSettings {
	int level;          /* engine level (engine.h), ENGINE_LEVEL_HARD by default */
	int depth;          /* midgame depth used (from the level when 0) */
	int exact_from;     /* solve exactly at or below this many empties (-1: from the level) */
	int threads;
	int hash_mb;
} ReviewSettings;

typedef struct ReviewMove {
	int number;         /* 1-based, passes not counted */
	int ply;            /* index in the game's history */
	int side;           /* BLACK or WHITE */
	int move;           /* square played */
	int best;           /* the engine's best move */
	int best_score;     /* value of the best move, mover's view */
	int played_score;   /* value of the move played, mover's view */
	int loss;           /* >= 0 */
	int empties;        /* before the move */
	int nmoves;         /* legal moves there */
	bool exact;         /* both values proven by the solver */
	ReviewClass cls;
} ReviewMove;

typedef struct ReviewPlayer {
	int moves;
	int best;
	int inaccuracies, mistakes, blunders;
	int total_loss;
	double mean_loss;
} ReviewPlayer;

typedef struct Review {
	GameRecord rec;
	ReviewSettings set;
	int nmoves;
	ReviewMove moves[GAME_MAX_PLY];
	ReviewPlayer player[2];
	bool finished;      /* the game reaches its end */
	int final_margin;   /* Black's margin (official scoring) when finished */
	double seconds;
} Review;

/* Called after each position: done of total, elapsed seconds. */
typedef void (*ReviewProgressFn)(void *user, int done, int total, double elapsed);

ReviewClass review_classify(int loss);
const char *review_class_name(ReviewClass c);

/* The defaults (Hard: depth from the level, exact from 20 empties). */
void review_defaults(ReviewSettings *s);
/* Resolve depth and exact_from from the level where they are unset. */
void review_resolve(ReviewSettings *s);

/* Review a game with an engine made by the caller (its threads, hash and
 * tables are used; its level is changed).  false when the game has no
 * move to review (err says so). */
bool review_run(Engine *e, const GameRecord *rec, const ReviewSettings *set, ReviewProgressFn fn,
                void *user, Review *out, char *err, size_t errlen);

void review_write_text(FILE *f, const Review *r);
void review_write_json(FILE *f, const Review *r);
/* A self-contained HTML page: summary, SVG score graph, SVG diagrams of
 * the `diagrams` biggest mistakes, the table of moves. */
void review_write_html(FILE *f, const Review *r, int diagrams);

/* The level as a word ("hard", "12"). */
void review_level_name(int level, char *out, size_t len);

#endif
