/*
 * test_review.c - game review (review.h), game records (gamefile.h), board
 * pictures (svg.h), the progress estimate (progress.h) and the `review` and
 * `show` commands.  The fixture tests/data/review-game.ggf is a real game
 * (WTHOR 2005, Cairns - Duffy, 60 moves with three passes); its losses
 * from 16 empties are checked against exact solves of every move here.
 */
#include <stdlib.h>
#include <string.h>
#include "endgame.h"
#include "gamefile.h"
#include "progress.h"
#include "review.h"
#include "svg.h"
#include "testutil.h"
#include "text.h"
#include "textcheck.h"

static const char *game_transcript =
	"f5f6e6f4e3d3f3c5c4b4c3e7b3e2g4g5f2d2e1c2b6d6c6b5d1c1h6c7a4a3a6g3a5f1a2h3h4g6h2b2h7g2h5g7e8d7a1f7b1"
	"a7g1h1a8h8g8f8d8b7b8c8";

static void load_fixture(GameRecord *r)
{
	char err[GAMEFILE_ERR];
	ck_assert_msg(gamefile_load(test_data("review-game.ggf"), 8, VARIANT_NORMAL, r, err), "%s", err);
}

/* ---- game records ---------------------------------------------------------- */

START_TEST(records_agree)
{
	GameRecord ggf, tr;
	load_fixture(&ggf);
	char err[GAMEFILE_ERR];
	ck_assert_int_eq(ggf.format, GAMEFILE_GGF);
	ck_assert_str_eq(ggf.black, "Cairns Phil");
	ck_assert_str_eq(ggf.white, "Duffy Norm");
	ck_assert_int_eq(ggf.game.nply, 63); /* 60 moves, 3 passes */
	ck_assert(game_is_over(&ggf.game));
	ck_assert_int_eq(game_margin(&ggf.game, SCORING_OFFICIAL), 42);
	ck_assert_msg(gamefile_parse(game_transcript, 8, VARIANT_NORMAL, &tr, err), "%s", err);
	ck_assert_int_eq(tr.format, GAMEFILE_TRANSCRIPT);
	assert_same_game(&ggf.game, &tr.game);
	/* written as GGF and read back: the same game and names */
	char path[256];
	snprintf(path, sizeof path, "%s", test_tmp_path("g.ggf"));
	ck_assert_msg(gamefile_save(path, &ggf, err), "%s", err);
	GameRecord back;
	ck_assert_msg(gamefile_load(path, 8, VARIANT_NORMAL, &back, err), "%s", err);
	assert_same_game(&ggf.game, &back.game);
	ck_assert_str_eq(back.black, "Cairns Phil");
	/* as a transcript */
	snprintf(path, sizeof path, "%s", test_tmp_path("g.txt"));
	ck_assert_msg(gamefile_save(path, &ggf, err), "%s", err);
	ck_assert_msg(gamefile_load(path, 8, VARIANT_NORMAL, &back, err), "%s", err);
	assert_same_game(&ggf.game, &back.game);
	/* SGF (the GTP loadsgf fixture) */
	ck_assert_msg(gamefile_load(test_data("proto/game.sgf"), 8, VARIANT_NORMAL, &back, err), "%s", err);
	ck_assert_int_eq(back.format, GAMEFILE_SGF);
	ck_assert_int_gt(back.game.nply, 0);
}
END_TEST

START_TEST(records_bad_input)
{
	GameRecord r;
	memset(&r, 0x5a, sizeof r);
	GameRecord keep = r;
	char err[GAMEFILE_ERR];
	static const char *const bad[] = {
		"", "   \n# only a comment\n", "f5d6z9", "f5f5", "(;GM[Othello]BO[8 xx];)", "(;GM[Chess]BO[8 *];)",
		"(;GM[Othello]PB[a]BO[8 ---------------------------O*------*O--------------------------- *]B[A1];)",
		"(;FF[4]GM[2]SZ[8];B[zz])", "(;GM[Othello]BO[8 ---------------------------O*------*O---------",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		ck_assert_msg(!gamefile_parse(bad[i], 8, VARIANT_NORMAL, &r, err), "accepted '%s'", bad[i]);
		ck_assert_msg(err[0], "no reason for '%s'", bad[i]);
		ck_assert(!memcmp(&r, &keep, sizeof r));
	}
	/* a huge line, a directory, a missing file, a bad WTHOR game number */
	char *huge = malloc(100001);
	memset(huge, 'f', 100000);
	huge[100000] = 0;
	ck_assert(!gamefile_parse(huge, 8, VARIANT_NORMAL, &r, err));
	free(huge);
	ck_assert(!gamefile_load("/", 8, VARIANT_NORMAL, &r, err));
	ck_assert(!gamefile_load(test_tmp_path("none"), 8, VARIANT_NORMAL, &r, err));
	ck_assert(!gamefile_load_wthor(test_data("wthor-small.wtb"), 99, &r, err));
	ck_assert_msg(strstr(err, "no game 99") != NULL, "%s", err);
	ck_assert(!gamefile_load_wthor(test_data("wthor-small.wtb"), 5, &r, err));
	ck_assert(!memcmp(&r, &keep, sizeof r));
	ck_assert(gamefile_load_wthor(test_data("wthor-small.wtb"), 1, &r, err));
	ck_assert_int_eq(r.format, GAMEFILE_WTHOR);
	ck_assert_int_ge(r.game.nply, 60);
}
END_TEST

/* ---- the review ------------------------------------------------------------ */

/* Exact value of the move `mv` in g's position, mover's view. */
static int exact_move_value(const Game *g, int mv)
{
	Game t = *g;
	ck_assert_int_eq(game_play(&t, mv), GAME_OK);
	if (game_is_over(&t))
		return -board_final_score(t.board, 8, VARIANT_NORMAL);
	EndgameOptions opt = endgame_default_options();
	opt.hash_mb = 16;
	EndgameResult r = endgame_solve(t.board, &opt);
	return -r.score;
}

START_TEST(review_losses_exact)
{
	GameRecord rec;
	load_fixture(&rec);
	Engine *e = engine_new();
	engine_set_threads(e, 1);
	engine_set_hash_mb(e, 16);
	ReviewSettings set;
	review_defaults(&set);
	set.level = 2;
	set.exact_from = 16;
	Review *rv = malloc(sizeof *rv);
	char err[160];
	ck_assert(review_run(e, &rec, &set, NULL, NULL, rv, err, sizeof err));
	ck_assert_int_eq(rv->nmoves, 60);
	ck_assert_int_eq(rv->set.depth, 2);
	ck_assert(rv->finished);
	ck_assert_int_eq(rv->final_margin, 42);
	int checked = 0, total[2] = { 0, 0 }, count[2][4] = { { 0 } }, moves[2] = { 0, 0 };
	for (int i = 0; i < rv->nmoves; i++) {
		const ReviewMove *m = &rv->moves[i];
		ck_assert_int_eq(m->number, i + 1);
		ck_assert_int_ge(m->loss, 0);
		ck_assert_int_eq(m->cls, review_classify(m->loss));
		ck_assert_int_eq(m->loss, m->best_score - m->played_score);
		if (m->nmoves > 1) {
			total[m->side] += m->loss;
			count[m->side][m->cls]++;
			moves[m->side]++;
		}
		if (m->empties > 16)
			continue;
		/* every legal move solved exactly, independently of the review */
		Game pos;
		game_init(&pos, 8, VARIANT_NORMAL);
		for (int k = 0; k < m->ply; k++)
			game_play(&pos, rec.game.hist[k].move);
		int best = -100, played = 0;
		for (uint64_t l = game_moves(&pos); l; l = bit_pop(l)) {
			int v = exact_move_value(&pos, bit_first(l));
			if (v > best)
				best = v;
			if (bit_first(l) == m->move)
				played = v;
		}
		ck_assert_msg(m->exact, "move %d not exact", m->number);
		ck_assert_int_eq(m->best_score, best);
		ck_assert_int_eq(m->played_score, played);
		ck_assert_int_eq(m->loss, best - played);
		ck_assert_int_eq(exact_move_value(&pos, m->best), best);
		checked++;
	}
	ck_assert_int_eq(checked, 16); /* moves 45..60 */
	/* what the exact solves say of this game's end */
	ck_assert_int_eq(rv->moves[51].move, text_parse_square("h1", 8));
	ck_assert_int_eq(rv->moves[51].loss, 4);
	ck_assert_int_eq(rv->moves[51].cls, REVIEW_MISTK);
	ck_assert_int_eq(rv->moves[55].loss, 2);
	ck_assert_int_eq(rv->moves[57].loss, 2);
	ck_assert_int_eq(rv->moves[59].best_score, 42);
	for (int c = 0; c < 2; c++) {
		const ReviewPlayer *p = &rv->player[c];
		ck_assert_int_eq(p->moves, moves[c]);
		ck_assert_int_eq(p->total_loss, total[c]);
		ck_assert_int_eq(p->best, count[c][REVIEW_BEST]);
		ck_assert_int_eq(p->inaccuracies, count[c][REVIEW_INACC]);
		ck_assert_int_eq(p->mistakes, count[c][REVIEW_MISTK]);
		ck_assert_int_eq(p->blunders, count[c][REVIEW_BLUND]);
		ck_assert(p->mean_loss * p->moves > p->total_loss - 0.01 && p->mean_loss * p->moves < p->total_loss + 0.01);
	}
	/* the same review again: the same values (one thread) */
	Review *again = malloc(sizeof *again);
	ck_assert(review_run(e, &rec, &set, NULL, NULL, again, err, sizeof err));
	for (int i = 0; i < rv->nmoves; i++) {
		ck_assert_int_eq(again->moves[i].loss, rv->moves[i].loss);
		ck_assert_int_eq(again->moves[i].best, rv->moves[i].best);
	}
	free(again);
	free(rv);
	engine_free(e);
}
END_TEST

START_TEST(review_classes)
{
	ck_assert_int_eq(review_classify(0), REVIEW_BEST);
	ck_assert_int_eq(review_classify(1), REVIEW_INACC);
	ck_assert_int_eq(review_classify(3), REVIEW_INACC);
	ck_assert_int_eq(review_classify(4), REVIEW_MISTK);
	ck_assert_int_eq(review_classify(9), REVIEW_MISTK);
	ck_assert_int_eq(review_classify(10), REVIEW_BLUND);
	ck_assert_int_eq(review_classify(64), REVIEW_BLUND);
}
END_TEST

/* The JSON document of `emilia review --json`: every field, its type and
 * its agreement with the others. */
START_TEST(review_json_schema)
{
	char cmd[1024];
	const char *html = test_tmp_path("r.html");
	snprintf(cmd, sizeof cmd, "review %s --level 1 --exact-from 12 --json --quiet --html %s 2>/dev/null",
	         test_data("review-game.ggf"), html);
	int st;
	char *out = test_run_emilia(cmd, &st);
	ck_assert_int_eq(st, 0);
	char err[160];
	Json *j = json_parse(out, err);
	ck_assert_msg(j != NULL, "not JSON: %s", err);
	ck_assert_int_eq(j->type, JSON_OBJECT);
	ck_assert_int_eq(json_get(j, "review")->num, 1);
	const Json *g = json_get(j, "game");
	ck_assert_str_eq(json_get(g, "black")->str, "Cairns Phil");
	ck_assert_str_eq(json_get(g, "white")->str, "Duffy Norm");
	ck_assert_str_eq(json_get(g, "format")->str, "ggf");
	ck_assert_int_eq(json_get(g, "size")->num, 8);
	ck_assert_int_eq(json_get(g, "moves")->num, 60);
	ck_assert_str_eq(json_get(g, "transcript")->str, game_transcript);
	ck_assert(json_get(g, "finished")->type == JSON_BOOL && json_get(g, "finished")->b);
	ck_assert_int_eq(json_get(g, "black_margin")->num, 42);
	const Json *s = json_get(j, "settings");
	ck_assert_str_eq(json_get(s, "level")->str, "1");
	ck_assert_int_eq(json_get(s, "depth")->num, 1);
	ck_assert_int_eq(json_get(s, "exact_from")->num, 12);
	const Json *t = json_get(j, "thresholds");
	ck_assert_int_eq(json_get(t, "inaccuracy")->num, REVIEW_INACCURACY);
	ck_assert_int_eq(json_get(t, "mistake")->num, REVIEW_MISTAKE);
	ck_assert_int_eq(json_get(t, "blunder")->num, REVIEW_BLUNDER);
	ck_assert_int_eq(json_get(j, "seconds")->type, JSON_NUMBER);
	const Json *mv = json_get(j, "moves");
	ck_assert_int_eq(mv->type, JSON_ARRAY);
	ck_assert_int_eq(mv->n, 60);
	int sum[2] = { 0, 0 }, n[2] = { 0, 0 }, cls[2][4] = { { 0 } }, with_loss = 0;
	static const char *const keys[] = { "n", "player", "move", "best", "best_score", "played_score", "loss", "class",
		                            "exact", "empties", "legal_moves", "black_score" };
	for (int i = 0; i < mv->n; i++) {
		const Json *m = &mv->items[i];
		ck_assert_int_eq(m->type, JSON_OBJECT);
		ck_assert_int_eq(m->n, 12);
		for (int k = 0; k < 12; k++)
			ck_assert_msg(json_get(m, keys[k]) != NULL, "move %d has no %s", i + 1, keys[k]);
		ck_assert_int_eq(json_get(m, "n")->num, i + 1);
		char sq[8];
		text_square(text_parse_square(json_get(m, "move")->str, 8), sq);
		ck_assert_str_eq(sq, json_get(m, "move")->str);
		ck_assert_int_eq(strncmp(json_get(m, "move")->str, game_transcript + 2 * i, 2), 0);
		ck_assert_int_ge(text_parse_square(json_get(m, "best")->str, 8), 0);
		int loss = (int)json_get(m, "loss")->num;
		ck_assert_int_eq(loss, (int)json_get(m, "best_score")->num - (int)json_get(m, "played_score")->num);
		ck_assert_int_ge(loss, 0);
		ck_assert_str_eq(json_get(m, "class")->str, review_class_name(review_classify(loss)));
		ck_assert_int_eq(json_get(m, "exact")->type, JSON_BOOL);
		ck_assert_int_eq(json_get(m, "exact")->b, json_get(m, "empties")->num <= 12);
		ck_assert_int_eq(json_get(m, "empties")->num, 60 - i);
		int side = !strcmp(json_get(m, "player")->str, "black") ? BLACK : WHITE;
		ck_assert(side == BLACK || !strcmp(json_get(m, "player")->str, "white"));
		ck_assert_int_eq(json_get(m, "black_score")->num,
		                 side == BLACK ? json_get(m, "best_score")->num : -json_get(m, "best_score")->num);
		with_loss += loss > 0;
		if (json_get(m, "legal_moves")->num > 1) {
			sum[side] += loss;
			n[side]++;
			cls[side][review_classify(loss)]++;
		}
	}
	/* the last move's value: the final result, exactly */
	ck_assert_int_eq(json_get(&mv->items[59], "black_score")->num, 42);
	const Json *pl = json_get(j, "players");
	for (int c = 0; c < 2; c++) {
		const Json *p = json_get(pl, c == BLACK ? "black" : "white");
		ck_assert_msg(p != NULL, "no player %d", c);
		ck_assert_int_eq(json_get(p, "moves")->num, n[c]);
		ck_assert_int_eq(json_get(p, "total_loss")->num, sum[c]);
		ck_assert_int_eq(json_get(p, "best")->num, cls[c][0]);
		ck_assert_int_eq(json_get(p, "inaccuracies")->num, cls[c][1]);
		ck_assert_int_eq(json_get(p, "mistakes")->num, cls[c][2]);
		ck_assert_int_eq(json_get(p, "blunders")->num, cls[c][3]);
		double mean = n[c] ? (double)sum[c] / n[c] : 0;
		ck_assert(json_get(p, "mean_loss")->num > mean - 0.006 && json_get(p, "mean_loss")->num < mean + 0.006);
	}
	json_free(j);
	free(j);
	free(out);
	ck_assert_int_gt(with_loss, 4);
}
END_TEST

typedef struct TagCount {
	int svg, figure, polyline, tr, discs, legal, last, best, played, texts, mistakes;
} TagCount;

static const char *attr(int na, char **names, char **values, const char *name)
{
	for (int i = 0; i < na; i++)
		if (!strcmp(names[i], name))
			return values[i];
	return NULL;
}

static void count_tag(void *user, const char *name, int na, char **names, char **values)
{
	TagCount *c = user;
	const char *cls = attr(na, names, values, "class");
	c->svg += !strcmp(name, "svg");
	c->figure += !strcmp(name, "figure");
	c->polyline += !strcmp(name, "polyline");
	c->tr += !strcmp(name, "tr");
	c->texts += !strcmp(name, "text");
	if (cls && !strcmp(name, "circle")) {
		c->discs += !strncmp(cls, "disc ", 5);
		c->legal += !strcmp(cls, "legal");
		c->last += !strcmp(cls, "last");
		c->best += !strcmp(cls, "best");
		c->played += !strcmp(cls, "played");
		c->mistakes += !strcmp(cls, "mistake");
	}
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	char *buf = malloc(1 << 20);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* The HTML report parses as XML; its SVG pictures are what the review
 * says: the graph, one diagram per mistake shown, the table rows. */
START_TEST(review_html_wellformed)
{
	char cmd[1024];
	const char *html = test_tmp_path("r.html");
	snprintf(cmd, sizeof cmd, "review %s --level 1 --exact-from 12 --json --quiet --html %s --diagrams 3",
	         test_data("review-game.ggf"), html);
	int st;
	char *out = test_run_emilia(cmd, &st);
	ck_assert_int_eq(st, 0);
	char err[160];
	Json *j = json_parse(out, err);
	ck_assert_msg(j != NULL, "%s", err);
	const Json *mv = json_get(j, "moves");
	int mistakes = 0, lossy = 0;
	for (int i = 0; i < mv->n; i++) {
		lossy += json_get(&mv->items[i], "loss")->num > 0;
		mistakes += json_get(&mv->items[i], "loss")->num >= REVIEW_MISTAKE;
	}
	json_free(j);
	free(j);
	free(out);
	char *doc = read_all(html);
	ck_assert(!strncmp(doc, "<!DOCTYPE html>", 15));
	TagCount c;
	memset(&c, 0, sizeof c);
	ck_assert_msg(xml_check(doc, count_tag, &c, err), "HTML not well-formed: %s", err);
	int diagrams = lossy < 3 ? lossy : 3;
	ck_assert_int_eq(c.svg, 1 + diagrams);
	ck_assert_int_eq(c.figure, diagrams);
	ck_assert_int_eq(c.polyline, 1);
	ck_assert_int_eq(c.mistakes, mistakes);
	ck_assert_int_eq(c.tr, 3 + 61);
	ck_assert_int_eq(c.played, diagrams);
	ck_assert_int_eq(c.best, diagrams);
	ck_assert_int_eq(c.last, diagrams);
	ck_assert(strstr(doc, "Cairns Phil") != NULL);
	free(doc);
}
END_TEST

typedef struct SquareList {
	uint64_t discs, legal;
	int last_texts;
} SquareList;

static void squares(void *user, const char *name, int na, char **names, char **values)
{
	SquareList *s = user;
	const char *cls = attr(na, names, values, "class"), *sq = attr(na, names, values, "data-square");
	if (!cls || !sq)
		return;
	int k = text_parse_square(sq, 8);
	ck_assert_int_ge(k, 0);
	if (!strncmp(cls, "disc ", 5))
		s->discs |= bit_of(k);
	else if (!strcmp(cls, "legal"))
		s->legal |= bit_of(k);
}

/* `emilia show`: the diagram holds exactly the position's discs and legal
 * moves; bad positions are refused without writing anything. */
START_TEST(show_svg)
{
	const char *svg = test_tmp_path("b.svg");
	char cmd[512];
	snprintf(cmd, sizeof cmd, "show f5d6c3d3c4 --svg %s --numbers", svg);
	int st;
	char *out = test_run_emilia(cmd, &st);
	ck_assert_int_eq(st, 0);
	free(out);
	char *doc = read_all(svg);
	SquareList s = { 0, 0, 0 };
	char err[160];
	ck_assert_msg(xml_check(doc, squares, &s, err), "SVG not well-formed: %s", err);
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	ck_assert(text_apply_transcript(&g, "f5d6c3d3c4", err));
	ck_assert_uint_eq(s.discs, g.board.p | g.board.o);
	ck_assert_uint_eq(s.legal, game_moves(&g));
	/* move numbers 1..5 on the discs, the last in red */
	for (int i = 1; i <= 5; i++) {
		char want[64];
		snprintf(want, sizeof want, ">%d</text>", i);
		ck_assert_msg(strstr(doc, want) != NULL, "no move number %d", i);
	}
	ck_assert(strstr(doc, "fill=\"#e33\">5</text>") != NULL);
	free(doc);
	/* an OBF position, no legal dots, no numbers: a last-move mark only with moves */
	snprintf(cmd, sizeof cmd,
	         "show '--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXXOXXXXXX--XOXOXX-XXXOOO--OOOOO-- X' --no-legal --svg %s", svg);
	out = test_run_emilia(cmd, &st);
	ck_assert_int_eq(st, 0);
	free(out);
	doc = read_all(svg);
	s.discs = s.legal = 0;
	ck_assert_msg(xml_check(doc, squares, &s, err), "%s", err);
	ck_assert_int_eq(bit_count(s.discs), 50);
	ck_assert_uint_eq(s.legal, 0);
	ck_assert(strstr(doc, "class=\"last\"") == NULL);
	free(doc);
	/* refused */
	const char *none = test_tmp_path("none.svg");
	snprintf(cmd, sizeof cmd, "show f5f5 --svg %s", none);
	out = test_run_emilia(cmd, &st);
	ck_assert_int_eq(st, 1);
	ck_assert_msg(strstr(out, "not a file, an OBF position or a transcript") != NULL, "%s", out);
	free(out);
	FILE *f = fopen(none, "r");
	ck_assert(f == NULL);
	out = test_run_emilia("show f5 --png x.png", &st);
	ck_assert_int_eq(st, 2);
	free(out);
}
END_TEST

START_TEST(review_cli_errors)
{
	int st;
	char *out = test_run_emilia("review", &st);
	ck_assert_int_eq(st, 2);
	free(out);
	out = test_run_emilia("review f5f5", &st);
	ck_assert_int_eq(st, 1);
	ck_assert_msg(strstr(out, "illegal move f5 at move 2") != NULL, "%s", out);
	free(out);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "review --wthor %s --game 5", test_data("wthor-small.wtb"));
	out = test_run_emilia(cmd, &st);
	ck_assert_int_eq(st, 1);
	ck_assert_msg(strstr(out, "game 5") != NULL, "%s", out);
	free(out);
	out = test_run_emilia("review f5 --exact-from 99", &st);
	ck_assert_int_eq(st, 2);
	free(out);
	out = test_run_emilia("review ''", &st);
	ck_assert_int_eq(st, 1);
	free(out);
	/* a WTHOR game in text: one line per move and the summary */
	snprintf(cmd, sizeof cmd, "review --wthor %s --game 1 --level 1 --exact-from 8 2>/dev/null", test_data("wthor-small.wtb"));
	out = test_run_emilia(cmd, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(out, "Review: Black vs White, 60 moves, Black wins by 16.") != NULL, "%s", out);
	ck_assert(strstr(out, "\n 60  ") != NULL);
	ck_assert(strstr(out, "\nSummary ") != NULL);
	free(out);
}
END_TEST

/* ---- the progress estimate -------------------------------------------------- */

/* A simulated solve: 10 root moves, the first one (full window) slow, the
 * third one slower still (a null-window search that fails high and is
 * searched again), reported once a second, after a quick pre-search pass
 * over all the moves.  What is shown never grows, and it is 'finishing'
 * (0) only near the end, although the raw estimate alone grows. */
START_TEST(eta_monotone_simulated_solve)
{
	const int moves = 10;
	double cost[10] = { 12, 3, 25, 2, 2, 3, 2, 2, 1, 1 };
	double pre = 4; /* the pre-search pass, 0.4 s a move */
	double total = pre;
	for (int i = 0; i < moves; i++)
		total += cost[i];
	ProgressEta eta;
	progress_eta_init(&eta);
	double last = -1, prev_raw = -1;
	bool raw_grew = false;
	int reports = 0;
	for (double t = 1; t < total; t += 1) {
		int idx;
		if (t < pre)
			idx = (int)(t / 0.4);
		else {
			double acc = pre;
			idx = 0;
			while (idx < moves - 1 && acc + cost[idx] <= t)
				acc += cost[idx++];
		}
		double raw = progress_solve_raw(t, idx, moves);
		ck_assert(raw >= 0);
		if (prev_raw >= 0 && raw > prev_raw + 1e-9)
			raw_grew = true;
		prev_raw = raw;
		double shown = progress_eta_update(&eta, t, raw);
		ck_assert_msg(shown >= 0, "no estimate at %.0f s", t);
		if (last >= 0)
			ck_assert_msg(shown <= last + 1e-9, "estimate grew at %.0f s: %.1f after %.1f", t, shown, last);
		last = shown;
		reports++;
	}
	ck_assert(raw_grew);
	ck_assert_int_eq(reports, (int)total - 1);
	/* work of even pieces: the estimate is the raw one and exact */
	progress_eta_init(&eta);
	ck_assert(progress_eta_update(&eta, 1, -1) < 0);
	for (int i = 1; i <= 9; i++) {
		double shown = progress_eta_update(&eta, i, 10.0 - i);
		ck_assert(shown > 10.0 - i - 1e-9 && shown < 10.0 - i + 1e-9);
	}
	/* the bar */
	char bar[200];
	progress_bar(bar, sizeof bar, 15, 60, "positions", 75, 200, 20);
	ck_assert_str_eq(bar, "[#####---------------]  15/60 positions  1:15  ~3:20 left");
	progress_bar(bar, sizeof bar, 60, 60, "positions", 3, 0, 4);
	ck_assert_str_eq(bar, "[####]  60/60 positions  3 s  finishing");
}
END_TEST

static Suite *review_suite(void)
{
	Suite *s = suite_create("review");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 300);
	tcase_add_checked_fixture(tc, test_tmpdir_setup, test_tmpdir_teardown);
	tcase_add_test(tc, records_agree);
	tcase_add_test(tc, records_bad_input);
	tcase_add_test(tc, review_classes);
	tcase_add_test(tc, review_losses_exact);
	tcase_add_test(tc, review_json_schema);
	tcase_add_test(tc, review_html_wellformed);
	tcase_add_test(tc, show_svg);
	tcase_add_test(tc, review_cli_errors);
	tcase_add_test(tc, eta_monotone_simulated_solve);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(review_suite)
