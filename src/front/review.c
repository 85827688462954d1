/*
 * review.c - game review (review.h).
 */
#include <stdlib.h>
#include <string.h>
#include "review.h"
#include "svg.h"
#include "text.h"
#include "util.h"

ReviewClass review_classify(int loss)
{
	return loss >= REVIEW_BLUNDER ? REVIEW_BLUND
	     : loss >= REVIEW_MISTAKE ? REVIEW_MISTK
	     : loss >= REVIEW_INACCURACY ? REVIEW_INACC : REVIEW_BEST;
}

const char *review_class_name(ReviewClass c)
{
	static const char *const names[] = { "best", "inaccuracy", "mistake", "blunder" };
	return names[c];
}

void review_level_name(int level, char *out, size_t len)
{
	if (level == ENGINE_LEVEL_EASY)
		snprintf(out, len, "easy");
	else if (level == ENGINE_LEVEL_NORMAL)
		snprintf(out, len, "normal");
	else if (level == ENGINE_LEVEL_HARD)
		snprintf(out, len, "hard");
	else
		snprintf(out, len, "%d", level);
}

void review_defaults(ReviewSettings *s)
{
	memset(s, 0, sizeof *s);
	s->level = ENGINE_LEVEL_HARD;
	s->exact_from = -1;
	s->threads = 1;
	s->hash_mb = 64;
}

void review_resolve(ReviewSettings *s)
{
	int d, x, r;
	engine_level_plan(s->level, false, &d, &x, &r);
	if (s->depth <= 0)
		s->depth = d;
	if (s->exact_from < 0)
		s->exact_from = s->level == ENGINE_LEVEL_HARD ? 20 : x < 20 ? x : 20;
}

/* The game's position before ply k. */
static void position_at(const Game *full, int k, Game *out)
{
	Game t;
	game_init(&t, full->size, full->variant);
	game_set(&t, full->start, full->start_side);
	for (int i = 0; i < k; i++)
		game_play(&t, full->hist[i].move);
	*out = t;
}

/* What review_run learns of each position: the value and best move of the
 * position before ply k, whether that value is exact, and the value of the
 * move played at ply k. */
typedef struct ReviewValues {
	int val[GAME_MAX_PLY + 1], best[GAME_MAX_PLY + 1];
	bool exact[GAME_MAX_PLY + 1];
	int played[GAME_MAX_PLY];
	bool redo[GAME_MAX_PLY];
} ReviewValues;

/* The progress of review_run's searches. */
typedef struct ReviewProgress {
	ReviewProgressFn fn;
	void *user;
	int done, total;
	double t0;
} ReviewProgress;

static void progress_step(ReviewProgress *pr)
{
	pr->done++;
	if (pr->fn)
		pr->fn(pr->user, pr->done, pr->total, util_now() - pr->t0);
}

/* Searches the position before every move and the final one. */
static void search_positions(Engine *e, const Game *full, const ReviewSettings *set,
                             ReviewValues *rv, ReviewProgress *pr)
{
	const int n = full->nply;
	Game pos;
	position_at(full, 0, &pos);
	for (int k = 0; k <= n; k++) {
		Game t = pos;
		if (k < n)
			game_play(&pos, full->hist[k].move);
		if (k < n && full->hist[k].move == BOARD_PASS)
			continue;
		if (game_is_over(&t)) {
			rv->val[k] = board_final_score(t.board, t.size, t.variant);
			rv->exact[k] = true;
			continue;
		}
		bool passed = game_must_pass(&t);
		if (passed)
			game_play(&t, BOARD_PASS);
		int empties = game_empties(&t);
		EngineLimits lim;
		memset(&lim, 0, sizeof lim);
		lim.time_left = -1;
		lim.depth = empties <= set->exact_from ? 60 : set->depth;
		EngineInfo res = engine_search(e, &t, &lim, NULL, NULL);
		rv->val[k] = passed ? -res.score : res.score;
		rv->best[k] = res.move;
		rv->exact[k] = res.exact && !res.wld;
		progress_step(pr);
	}
	/* passes: the value of the position before a pass is minus the one after */
	for (int k = n - 1; k >= 0; k--)
		if (full->hist[k].move == BOARD_PASS) {
			rv->val[k] = -rv->val[k + 1];
			rv->exact[k] = rv->exact[k + 1];
		}
}

/* A move that is not the engine's best, where the values are not exact:
 * the position after it again at one ply less, so the played move is seen
 * to the same horizon as the best one (a search's score swings with the
 * parity of its depth). */
static void search_played(Engine *e, const Game *full, const ReviewSettings *set,
                          ReviewValues *rv, ReviewProgress *pr)
{
	const int n = full->nply;
	int extra = 0;
	for (int k = 0; k < n; k++) {
		rv->played[k] = -rv->val[k + 1];
		rv->redo[k] = full->hist[k].move != BOARD_PASS && full->hist[k].move != rv->best[k] &&
		              !(rv->exact[k] && rv->exact[k + 1]) && set->depth > 1;
		extra += rv->redo[k];
	}
	pr->total = pr->done + extra;
	Game pos;
	position_at(full, 0, &pos);
	for (int k = 0; k < n; k++) {
		game_play(&pos, full->hist[k].move);
		if (!rv->redo[k] || game_is_over(&pos))
			continue;
		Game t = pos;
		bool passed = game_must_pass(&t);
		if (passed)
			game_play(&t, BOARD_PASS);
		EngineLimits lim;
		memset(&lim, 0, sizeof lim);
		lim.time_left = -1;
		lim.depth = set->depth - 1;
		EngineInfo res = engine_search(e, &t, &lim, NULL, NULL);
		rv->played[k] = passed ? res.score : -res.score;
		progress_step(pr);
	}
}

/* The moves of r (and the players' tallies) from the values. */
static void fill_moves(Review *r, const Game *full, const ReviewValues *rv)
{
	const int n = full->nply;
	int number = 0;
	Game pos;
	position_at(full, 0, &pos);
	for (int k = 0; k < n; k++) {
		const GamePly *h = &full->hist[k];
		if (h->move != BOARD_PASS) {
			ReviewMove *m = &r->moves[r->nmoves++];
			m->number = ++number;
			m->ply = k;
			m->side = h->side;
			m->move = h->move;
			m->best = rv->best[k];
			m->best_score = rv->val[k];
			m->played_score = rv->played[k];
			m->empties = game_empties(&pos);
			m->nmoves = bit_count(game_moves(&pos));
			m->exact = rv->exact[k] && rv->exact[k + 1];
			if (m->move == m->best || m->played_score >= m->best_score) {
				/* the best move, or found as good as it */
				m->loss = 0;
				m->best = m->move;
				m->played_score = m->best_score;
			} else
				m->loss = m->best_score - m->played_score;
			m->cls = review_classify(m->loss);
			if (m->nmoves > 1) {
				ReviewPlayer *p = &r->player[m->side];
				p->moves++;
				p->total_loss += m->loss;
				p->best += m->cls == REVIEW_BEST;
				p->inaccuracies += m->cls == REVIEW_INACC;
				p->mistakes += m->cls == REVIEW_MISTK;
				p->blunders += m->cls == REVIEW_BLUND;
			}
		}
		game_play(&pos, h->move);
	}
	for (int c = 0; c < 2; c++)
		r->player[c].mean_loss = r->player[c].moves ? (double)r->player[c].total_loss / r->player[c].moves : 0;
}

bool review_run(Engine *e, const GameRecord *rec, const ReviewSettings *set, ReviewProgressFn fn,
                void *user, Review *out, char *err, size_t errlen)
{
	const Game *full = &rec->game;
	Review *r = out;
	memset(r, 0, sizeof *r);
	r->rec = *rec;
	r->set = *set;
	review_resolve(&r->set);
	const int n = full->nply;
	int total = 0;
	for (int k = 0; k < n; k++)
		total += full->hist[k].move != BOARD_PASS;
	if (total == 0) {
		snprintf(err, errlen, "the game has no moves to review");
		return false;
	}
	bool over = game_is_over(full);
	if (!over)
		total++; /* the final position is searched too */
	static const int none = -1000;
	ReviewValues rv;
	for (int k = 0; k <= n; k++) {
		rv.val[k] = none;
		rv.best[k] = -1;
		rv.exact[k] = false;
	}
	engine_set_level(e, r->set.depth); /* a numeric level: never a random choice */
	engine_new_game(e);
	ReviewProgress pr = { fn, user, 0, total, util_now() };
	search_positions(e, full, &r->set, &rv, &pr);
	search_played(e, full, &r->set, &rv, &pr);
	fill_moves(r, full, &rv);
	r->finished = over;
	r->final_margin = over ? game_margin(full, SCORING_OFFICIAL) : 0;
	r->seconds = util_now() - pr.t0;
	return true;
}

/* ---- output ---------------------------------------------------------------- */

/* The move played and the best move ("--" when there is none) as text. */
static void move_names(const ReviewMove *m, char mv[8], char bm[8])
{
	text_square(m->move, mv);
	if (m->best >= 0 && m->best < 64)
		text_square(m->best, bm);
	else
		strcpy(bm, "--");
}

static const char *side_name(int c)
{
	return c == BLACK ? "Black" : "White";
}

static void player_label(const Review *r, int c, char *out, size_t len)
{
	const char *name = c == BLACK ? r->rec.black : r->rec.white;
	if (name[0])
		snprintf(out, len, "%s (%s)", side_name(c), name);
	else
		snprintf(out, len, "%s", side_name(c));
}

static void result_text(const Review *r, char *out, size_t len)
{
	if (!r->finished)
		snprintf(out, len, "unfinished");
	else if (r->final_margin > 0)
		snprintf(out, len, "Black wins by %d", r->final_margin);
	else if (r->final_margin < 0)
		snprintf(out, len, "White wins by %d", -r->final_margin);
	else
		snprintf(out, len, "draw");
}

static void settings_text(const Review *r, char *out, size_t len)
{
	char lv[16];
	review_level_name(r->set.level, lv, sizeof lv);
	snprintf(out, len, "level %s: depth %d, exact from %d empties", lv, r->set.depth, r->set.exact_from);
}

void review_write_text(FILE *f, const Review *r)
{
	char b[96], w[96], res[48], st[96];
	player_label(r, BLACK, b, sizeof b);
	player_label(r, WHITE, w, sizeof w);
	result_text(r, res, sizeof res);
	settings_text(r, st, sizeof st);
	fprintf(f, "Review: %s vs %s, %d moves, %s.\n", b, w, r->nmoves, res);
	fprintf(f, "Engine %s; %.1f s. Scores in discs for the player to move; loss = best - played.\n", st,
	        r->seconds);
	fprintf(f, "Classes: best 0, inaccuracy %d-%d, mistake %d-%d, blunder %d+ discs lost.\n\n",
	        REVIEW_INACCURACY, REVIEW_MISTAKE - 1, REVIEW_MISTAKE, REVIEW_BLUNDER - 1, REVIEW_BLUNDER);
	fprintf(f, "  #  player  move  score  best  score  loss  class\n");
	for (int i = 0; i < r->nmoves; i++) {
		const ReviewMove *m = &r->moves[i];
		char mv[8], bm[8];
		text_square(m->move, mv);
		if (m->best >= 0 && m->best < 64)
			text_square(m->best, bm);
		else
			strcpy(bm, "--");
		fprintf(f, "%3d  %-6s  %-4s  %+5d  %-4s  %+5d  %4d  %-10s%s%s\n", m->number, side_name(m->side), mv,
		        m->played_score, bm, m->best_score, m->loss, review_class_name(m->cls), m->exact ? "  exact" : "",
		        m->nmoves == 1 ? "  forced" : "");
	}
	fprintf(f, "\n%-28s moves  best  mean loss  inaccuracies  mistakes  blunders\n", "Summary");
	for (int c = 0; c < 2; c++) {
		const ReviewPlayer *p = &r->player[c];
		char lab[96];
		player_label(r, c, lab, sizeof lab);
		fprintf(f, "%-28.28s %5d %5d %10.2f %13d %9d %9d\n", lab, p->moves, p->best, p->mean_loss, p->inaccuracies,
		        p->mistakes, p->blunders);
	}
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void review_write_json(FILE *f, const Review *r)
{
	char lv[16], t[2 * GAME_MAX_PLY + 1];
	review_level_name(r->set.level, lv, sizeof lv);
	text_transcript(&r->rec.game, t);
	static const char *const formats[] = { "transcript", "ggf", "sgf", "wthor" };
	fprintf(f, "{\"review\":1,\"game\":{\"black\":");
	json_str(f, r->rec.black);
	fprintf(f, ",\"white\":");
	json_str(f, r->rec.white);
	fprintf(f, ",\"format\":\"%s\",\"size\":%d,\"moves\":%d,\"transcript\":\"%s\",\"finished\":%s,",
	        formats[r->rec.format], r->rec.game.size, r->nmoves, t, r->finished ? "true" : "false");
	if (r->finished)
		fprintf(f, "\"black_margin\":%d},", r->final_margin);
	else
		fprintf(f, "\"black_margin\":null},");
	fprintf(f, "\"settings\":{\"level\":\"%s\",\"depth\":%d,\"exact_from\":%d},", lv, r->set.depth,
	        r->set.exact_from);
	fprintf(f, "\"thresholds\":{\"inaccuracy\":%d,\"mistake\":%d,\"blunder\":%d},", REVIEW_INACCURACY,
	        REVIEW_MISTAKE, REVIEW_BLUNDER);
	fprintf(f, "\"moves\":[");
	for (int i = 0; i < r->nmoves; i++) {
		const ReviewMove *m = &r->moves[i];
		char mv[8], bm[8];
		move_names(m, mv, bm);
		fprintf(f, "%s\n{\"n\":%d,\"player\":\"%s\",\"move\":\"%s\",\"best\":\"%s\",\"best_score\":%d,"
		           "\"played_score\":%d,\"loss\":%d,\"class\":\"%s\",\"exact\":%s,\"empties\":%d,"
		           "\"legal_moves\":%d,\"black_score\":%d}",
		        i ? "," : "", m->number, m->side == BLACK ? "black" : "white", mv, bm, m->best_score,
		        m->played_score, m->loss, review_class_name(m->cls), m->exact ? "true" : "false", m->empties,
		        m->nmoves, m->side == BLACK ? m->best_score : -m->best_score);
	}
	fprintf(f, "],\n\"players\":{");
	for (int c = 0; c < 2; c++) {
		const ReviewPlayer *p = &r->player[c];
		fprintf(f, "%s\"%s\":{\"moves\":%d,\"best\":%d,\"total_loss\":%d,\"mean_loss\":%.2f,\"inaccuracies\":%d,"
		           "\"mistakes\":%d,\"blunders\":%d}",
		        c ? "," : "", c == BLACK ? "black" : "white", p->moves, p->best, p->total_loss, p->mean_loss,
		        p->inaccuracies, p->mistakes, p->blunders);
	}
	fprintf(f, "},\"seconds\":%.2f}\n", r->seconds);
}

static void html_text(FILE *f, const char *s)
{
	svg_escape(f, s);
}

void review_write_html(FILE *f, const Review *r, int diagrams)
{
	char b[96], w[96], res[48], st[96];
	player_label(r, BLACK, b, sizeof b);
	player_label(r, WHITE, w, sizeof w);
	result_text(r, res, sizeof res);
	settings_text(r, st, sizeof st);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>Emilia review: ", f);
	html_text(f, b);
	fputs(" vs ", f);
	html_text(f, w);
	fputs("</title>\n<style>\n"
	      "body { font-family: sans-serif; margin: 1.5em; color: #222; background: #fdfcf8; }\n"
	      "table { border-collapse: collapse; margin: 0.5em 0 1.5em 0; }\n"
	      "td, th { padding: 2px 9px; text-align: right; border-bottom: 1px solid #ddd; }\n"
	      "th { background: #eee; }\n"
	      "tr.inaccuracy td { background: #fff8d8; }\n"
	      "tr.mistake td { background: #ffe4c4; }\n"
	      "tr.blunder td { background: #ffc8c8; }\n"
	      ".diagrams { display: flex; flex-wrap: wrap; gap: 1em; }\n"
	      ".moves { columns: 2; }\n"
	      "</style>\n</head>\n<body>\n", f);
	fputs("<h1>", f);
	html_text(f, b);
	fputs(" vs ", f);
	html_text(f, w);
	fputs("</h1>\n<p>", f);
	fprintf(f, "%d moves, %s. Engine %s; reviewed in %.1f s. Scores are in discs for the player to move.</p>\n",
	        r->nmoves, res, st, r->seconds);
	fputs("<h2>Summary</h2>\n<table class=\"summary\">\n<tr><th>player</th><th>moves</th><th>best</th>"
	      "<th>mean loss</th><th>inaccuracies</th><th>mistakes</th><th>blunders</th></tr>\n", f);
	for (int c = 0; c < 2; c++) {
		const ReviewPlayer *p = &r->player[c];
		fputs("<tr><td>", f);
		html_text(f, c == BLACK ? b : w);
		fprintf(f, "</td><td>%d</td><td>%d</td><td>%.2f</td><td>%d</td><td>%d</td><td>%d</td></tr>\n", p->moves,
		        p->best, p->mean_loss, p->inaccuracies, p->mistakes, p->blunders);
	}
	fprintf(f, "</table>\n<p>Classes by discs lost against the best move: best 0, inaccuracy %d-%d, mistake %d-%d, "
	           "blunder %d or more. Moves with a single legal choice are left out of the summary.</p>\n",
	        REVIEW_INACCURACY, REVIEW_MISTAKE - 1, REVIEW_MISTAKE, REVIEW_BLUNDER - 1, REVIEW_BLUNDER);
	/* the score graph: Black's view before each move */
	int scores[GAME_MAX_PLY];
	bool marks[GAME_MAX_PLY];
	for (int i = 0; i < r->nmoves; i++) {
		const ReviewMove *m = &r->moves[i];
		scores[i] = m->side == BLACK ? m->best_score : -m->best_score;
		marks[i] = m->cls >= REVIEW_MISTK;
	}
	fputs("<h2>Score</h2>\n<p>The best play's final disc difference before each move, Black's view; red dots: "
	      "mistakes and blunders.</p>\n", f);
	svg_score_graph(f, scores, r->nmoves, marks, 720, 260);
	/* the biggest mistakes */
	int order[GAME_MAX_PLY], k = 0;
	for (int i = 0; i < r->nmoves; i++)
		if (r->moves[i].loss > 0)
			order[k++] = i;
	for (int i = 1; i < k; i++) /* by loss, then by move number */
		for (int j = i; j > 0 && r->moves[order[j]].loss > r->moves[order[j - 1]].loss; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	if (k > diagrams)
		k = diagrams;
	if (k > 0) {
		fputs("<h2>Biggest mistakes</h2>\n<p>The position before the move: red ring, the move played; green "
		      "ring, the best move; dots, the legal moves.</p>\n<div class=\"diagrams\">\n", f);
		for (int i = 0; i < k; i++) {
			const ReviewMove *m = &r->moves[order[i]];
			Game pos;
			position_at(&r->rec.game, m->ply, &pos);
			SvgBoard o;
			svg_board_defaults(&o);
			o.cell = 36;
			o.bad = m->move;
			o.good = m->best;
			for (int j = m->ply - 1; j >= 0; j--)
				if (r->rec.game.hist[j].move != BOARD_PASS) {
					o.last = r->rec.game.hist[j].move;
					break;
				}
			char cap[96], mv[8], bm[8] = "--";
			text_square(m->move, mv);
			if (m->best >= 0 && m->best < 64)
				text_square(m->best, bm);
			snprintf(cap, sizeof cap, "%d. %s %s (%+d), best %s (%+d): %s", m->number, side_name(m->side), mv,
			         m->played_score, bm, m->best_score, review_class_name(m->cls));
			o.caption = cap;
			fputs("<figure>\n", f);
			svg_board(f, &pos, &o);
			fputs("</figure>\n", f);
		}
		fputs("</div>\n", f);
	}
	fputs("<h2>Moves</h2>\n<table class=\"moves-table\">\n<tr><th>#</th><th>player</th><th>move</th><th>score</th>"
	      "<th>best</th><th>score</th><th>loss</th><th>class</th></tr>\n", f);
	for (int i = 0; i < r->nmoves; i++) {
		const ReviewMove *m = &r->moves[i];
		char mv[8], bm[8];
		move_names(m, mv, bm);
		fprintf(f, "<tr class=\"%s\"><td>%d</td><td>%s</td><td>%s</td><td>%+d</td><td>%s</td><td>%+d</td>"
		           "<td>%d</td><td>%s%s</td></tr>\n",
		        review_class_name(m->cls), m->number, side_name(m->side), mv, m->played_score, bm, m->best_score,
		        m->loss, review_class_name(m->cls), m->exact ? " (exact)" : "");
	}
	fputs("</table>\n<p>Emilia review.</p>\n</body>\n</html>\n", f);
}
