/* test_eval.c - pattern evaluation, weight files, game archive readers,
 * `emilia eval`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bit.h"
#include "endgame.h"
#include "eval.h"
#include "game.h"
#include "patterns.h"
#include "search.h"
#include "testutil.h"
#include "tt.h"
#include "weights.h"
#include "wthor.h"

#define NW ((size_t)PATTERN_PHASES * PATTERN_WEIGHTS)

/* A position reached by random legal moves from the start. */
static Board random_position(uint64_t *rng, int plies)
{
	Board b = board_start(8);
	for (int i = 0; i < plies; i++) {
		uint64_t m = board_moves(b.p, b.o);
		if (!m) {
			if (!board_moves(b.o, b.p))
				break;
			b = board_pass(b);
			continue;
		}
		int n = bit_count(m), k = (int)(test_rand(rng) % (uint64_t)n);
		while (k--)
			m = bit_pop(m);
		int sq = bit_first(m);
		b = board_apply(b, sq, board_flips(b.p, b.o, sq));
	}
	return b;
}

/* Whether a weights file loads (the evaluator made is freed at once). */
static bool loads(const char *path, char *err)
{
	Evaluator *e = eval_load(path, err);
	bool ok = e != NULL;
	eval_free(e);
	return ok;
}

START_TEST(test_feature_set_shape)
{
	int inst_per_pattern[PATTERN_COUNT] = { 0 };
	for (int i = 0; i < PATTERN_INSTANCES; i++)
		inst_per_pattern[patterns_instance_pattern(i)]++;
	/* edge, 3x3, 2x5, rows 2-4, diagonals 8..4; triangle, edge block,
	 * diagonal band, row 2 with the corners */
	const int want[PATTERN_COUNT] = { 4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4, 4, 4, 4, 4 };
	uint32_t total = 0;
	for (int p = 0; p < PATTERN_COUNT; p++) {
		ck_assert_int_eq(inst_per_pattern[p], want[p]);
		uint32_t s = 1;
		for (int k = 0; k < patterns_squares(p); k++)
			s *= 3;
		ck_assert_uint_eq(patterns_size(p), s);
		ck_assert_uint_eq(patterns_offset(p), total);
		total += s;
	}
	ck_assert_uint_eq(total, PATTERN_MOB_OFFSET);
	/* version 2's patterns are the first ones, their instances first */
	uint32_t v2 = 0;
	for (int p = 0; p < PATTERN_V2_COUNT; p++)
		v2 += patterns_size(p);
	ck_assert_uint_eq(v2, PATTERN_V2_MOB_OFFSET);
	for (int i = 0; i < PATTERN_INSTANCES; i++)
		ck_assert_int_eq(patterns_instance_pattern(i) < PATTERN_V2_COUNT, i < 46);
	ck_assert_uint_ne(patterns_v2_set_id(), patterns_set_id());
	/* the a1-h8 diagonal read backwards is the same configuration */
	uint32_t idx = 1 + 2 * 3; /* a1 own, b2 opponent */
	uint32_t rev = 1 * 2187 + 2 * 729; /* h8 own, g7 opponent */
	ck_assert_uint_eq(patterns_canonical(6, idx), patterns_canonical(6, rev));
	ck_assert_uint_eq(patterns_canonical(6, idx), idx);
	/* 2x5 corner blocks have no self-symmetry */
	ck_assert_uint_eq(patterns_canonical(2, 12345), 12345);
}
END_TEST

/* Both kernels (the AVX2 build has the bit-extract one too) give the
 * square-by-square reference's indices. */
START_TEST(test_features_match_reference)
{
	const int saved = patterns_kernel();
	const int kernel = _i;
	if (!patterns_set_kernel(kernel)) {
		ck_assert(!EMILIA_HAVE_AVX2 && kernel == PATTERNS_KERNEL_PEXT);
		return;
	}
	uint64_t rng = 0x1234567;
	/* random weights for patterns_score, the fused sum of the evaluation */
	static int16_t w[PATTERN_WEIGHTS];
	for (int j = 0; j < PATTERN_WEIGHTS; j++)
		w[j] = (int16_t)(test_rand(&rng) % 2001) - 1000;
	for (int i = 0; i < 50000; i++) {
		Board b;
		if (i & 1) {
			b = random_position(&rng, (int)(test_rand(&rng) % 61));
		} else {
			uint64_t occ = test_rand(&rng) & test_rand(&rng) ? test_rand(&rng) : ~0ULL;
			uint64_t p = test_rand(&rng) & occ;
			b.p = p;
			b.o = occ & ~p;
		}
		uint32_t f[PATTERN_FEATURES], r[PATTERN_FEATURES];
		patterns_features(b.p, b.o, f);
		patterns_features_ref(b.p, b.o, r);
		int sum = 0;
		for (int k = 0; k < PATTERN_FEATURES; k++) {
			ck_assert_uint_eq(f[k], r[k]);
			sum += w[r[k]];
		}
		ck_assert_int_eq(patterns_score(b.p, b.o, w), sum);
	}
	/* one hand-checked index: the start position's row 4 (d4 White, e4 Black)
	 * with Black to move: d4 = digit 3 opponent, e4 = digit 4 own */
	Board s = board_start(8);
	uint32_t f[PATTERN_FEATURES];
	patterns_features(s.p, s.o, f);
	bool found = false;
	for (int i = 0; i < PATTERN_INSTANCES; i++)
		if (patterns_instance_pattern(i) == 5 && patterns_instance_square(i, 0) == 24 &&
		    patterns_instance_square(i, 7) == 31)
			found = f[i] - patterns_offset(5) == 2 * 27 + 1 * 81;
	ck_assert(found);
	patterns_set_kernel(saved);
}
END_TEST

/* The state's view 0 must be the from-scratch indices (offsets removed)
 * of (p, o), and view 1 those of (o, p). */
static void assert_state_is(const PatternState *s, uint64_t p, uint64_t o)
{
	uint32_t r[PATTERN_FEATURES], q[PATTERN_FEATURES];
	patterns_features_ref(p, o, r);
	patterns_features_ref(o, p, q);
	for (int i = 0; i < PATTERN_INSTANCES; i++) {
		const uint32_t off = patterns_offset(patterns_instance_pattern(i));
		ck_assert_uint_eq(s->idx[0][i], r[i] - off);
		ck_assert_uint_eq(s->idx[1][i], q[i] - off);
	}
}

/* Incremental indices along random game paths, with passes, undo and
 * whole games, equal the square-by-square reference at every step, and
 * the incremental scores equal eval_score, for both kernels (which
 * compute the state's start) and the 8x8 and 6x6 evaluators. */
START_TEST(test_incremental_state)
{
	const int saved = patterns_kernel();
	const int kernel = _i;
	if (!patterns_set_kernel(kernel)) {
		ck_assert(!EMILIA_HAVE_AVX2 && kernel == PATTERNS_KERNEL_PEXT);
		return;
	}
	uint64_t rng = 0xABCDEF12u + (uint64_t)kernel;
	static int16_t w[PATTERN_WEIGHTS];
	for (int j = 0; j < PATTERN_WEIGHTS; j++)
		w[j] = (int16_t)(test_rand(&rng) % 2001) - 1000;
	const Evaluator *ev8 = eval_get(8, VARIANT_NORMAL), *ev6 = eval_get(6, VARIANT_NORMAL);
	int passes = 0, undos = 0, steps = 0;
	for (int game = 0; game < 3000; game++) {
		const int size = game % 4 == 3 ? 6 : 8;
		const Evaluator *ev = size == 8 ? ev8 : ev6;
		const uint64_t geo = board_geometry(size);
		Board b = board_start(size);
		/* the state of the evaluator's own board and the raw 8x8 one */
		EvalState es;
		PatternState ps, back;
		eval_state_init(ev, b.p, b.o, &es);
		patterns_state_init(&ps, b.p, b.o);
		for (int ply = 0; ply < 80; ply++) {
			const uint64_t m = board_moves(b.p, b.o) & geo;
			if (!m) {
				if (!(board_moves(b.o, b.p) & geo))
					break;
				b = board_pass(b);
				patterns_state_pass(&ps, &ps);
				eval_state_pass(ev, &es, &es);
				passes++;
			} else {
				int k = (int)(test_rand(&rng) % (uint64_t)bit_count(m));
				uint64_t mm = m;
				while (k--)
					mm = bit_pop(mm);
				const int sq = bit_first(mm);
				const uint64_t flips = board_flips(b.p, b.o, sq);
				const Board c = board_apply(b, sq, flips);
				/* the child's score without its state */
				ck_assert_int_eq(eval_score_play(ev, &es, sq, flips, c.p, c.o), eval_score(ev, c.p, c.o));
				if (size == 8)
					ck_assert_int_eq(patterns_score_play(&ps, sq, flips, c.p, c.o, w),
					                 patterns_score(c.p, c.o, w));
				patterns_state_play(&ps, sq, flips, &back);
				/* undo: back to the parent exactly, then forward again */
				if (test_rand(&rng) % 4 == 0) {
					PatternState undone;
					patterns_state_undo(&back, sq, flips, &undone);
					ck_assert(memcmp(&undone, &ps, sizeof ps) == 0);
					patterns_state_undo(&back, sq, flips, &back);
					ck_assert(memcmp(&back, &ps, sizeof ps) == 0);
					patterns_state_play(&back, sq, flips, &back);
					undos++;
				}
				ps = back;
				eval_state_play(ev, &es, sq, flips, &es);
				b = c;
			}
			steps++;
			assert_state_is(&ps, b.p, b.o);
			if (size == 8)
				ck_assert_int_eq(patterns_score_state(&ps, b.p, b.o, w), patterns_score(b.p, b.o, w));
			ck_assert_int_eq(eval_score_state(ev, b.p, b.o, &es), eval_score(ev, b.p, b.o));
		}
	}
	ck_assert_int_gt(passes, 100);
	ck_assert_int_gt(undos, 10000);
	ck_assert_int_gt(steps, 150000);
	patterns_set_kernel(saved);
}
END_TEST

START_TEST(test_symmetry_invariance)
{
	ck_assert_ptr_null(eval_builtin_error());
	const Evaluator *e = eval_get(8, VARIANT_NORMAL);
	const Evaluator *anti = eval_get(8, VARIANT_ANTI);
	uint64_t rng = 99;
	int nonzero = 0;
	for (int i = 0; i < 20000; i++) {
		Board b = random_position(&rng, 1 + (int)(test_rand(&rng) % 59));
		int v = eval_score_fine(e, b.p, b.o), va = eval_score_fine(anti, b.p, b.o);
		nonzero += v != 0;
		for (int s = 1; s < 8; s++) {
			uint64_t p = bit_symmetry(b.p, s), o = bit_symmetry(b.o, s);
			ck_assert_int_eq(eval_score_fine(e, p, o), v);
			ck_assert_int_eq(eval_score_fine(anti, p, o), va);
		}
		ck_assert_int_eq(eval_score(e, b.p, b.o), (v >= 0 ? v + 32 : v - 32) / 64);
	}
	ck_assert_int_gt(nonzero, 19000);
}
END_TEST

START_TEST(test_trained_weights_sensible)
{
	/* the trained evaluation prefers owning a corner, and the side with
	 * nearly all the discs late in the game is far ahead */
	const Evaluator *e = eval_get(8, VARIANT_NORMAL);
	uint64_t rng = 5;
	int better = 0, total = 0;
	for (int i = 0; i < 2000; i++) {
		Board b = random_position(&rng, 20 + (int)(test_rand(&rng) % 20));
		if ((b.p | b.o) & bit_of(0))
			continue;
		Board own = { b.p | bit_of(0), b.o }, opp = { b.p, b.o | bit_of(0) };
		better += eval_score_fine(e, own.p, own.o) > eval_score_fine(e, opp.p, opp.o);
		total++;
	}
	/* random boards, many of them unreachable: a trained evaluation prefers
	 * the corner on well over 80 % of them */
	ck_assert_int_gt(better * 100, total * 80);
	ck_assert_int_gt(eval_score(e, ~0ULL << 8 & ~bit_of(63), bit_of(63)), 16);
	/* a finished board scores exactly */
	ck_assert_int_eq(eval_score(e, 0xFFFFFFFFULL, ~0xFFFFFFFFULL), 0);
	ck_assert_int_eq(eval_score(e, ~0ULL >> 24, ~(~0ULL >> 24)), 16);
}
END_TEST

static const char *tmp_path(const char *name)
{
	static char buf[256];
	snprintf(buf, sizeof buf, "/tmp/emilia-test-eval-%d-%s", (int)getpid(), name);
	return buf;
}

static void write_bytes(const char *path, const unsigned char *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
}

START_TEST(test_weight_file_round_trip)
{
	int16_t *w = malloc(NW * sizeof *w), *back = malloc(NW * sizeof *back);
	uint64_t rng = 7;
	for (size_t i = 0; i < NW; i++)
		w[i] = (int16_t)(test_rand(&rng) % 2001) - 1000;
	size_t len;
	unsigned char *img = weights_encode(w, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS, &len);
	ck_assert_uint_eq(len, WEIGHTS_HEADER + 2 * NW);
	ck_assert_int_eq(memcmp(img, "EMILIAEV", 8), 0);
	char err[WEIGHTS_ERR];
	ck_assert(weights_decode(img, len, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS, back, err));
	ck_assert_int_eq(memcmp(w, back, NW * sizeof *w), 0);
	/* through a file and the evaluator: the score is the sum of the weights */
	const char *path = tmp_path("rt.bin");
	ck_assert(weights_write_file(path, img, len, err));
	Evaluator *e = eval_load(path, err);
	ck_assert_msg(e != NULL, "%s", err);
	/* the engine's built-in evaluation is not affected */
	const Evaluator *builtin = eval_get(8, VARIANT_NORMAL);
	Board start = board_start(8);
	ck_assert_int_ne(eval_score_fine(e, start.p ^ bit_of(19), start.o),
	                 eval_score_fine(builtin, start.p ^ bit_of(19), start.o));
	for (int i = 0; i < 1000; i++) {
		Board b = random_position(&rng, 1 + (int)(test_rand(&rng) % 59));
		uint32_t f[PATTERN_FEATURES];
		patterns_features(b.p, b.o, f);
		int ph = patterns_phase(64 - bit_count(b.p | b.o)), s = 0;
		for (int k = 0; k < PATTERN_FEATURES; k++)
			s += w[(size_t)ph * PATTERN_WEIGHTS + f[k]];
		s = s > 4096 ? 4096 : s < -4096 ? -4096 : s;
		ck_assert_int_eq(eval_score_fine(e, b.p, b.o), s);
	}
	remove(path);
	eval_free(e);
	free(img);
	free(w);
	free(back);
}
END_TEST

static void fix_weights_checksum(unsigned char *img, size_t len)
{
	uint64_t h = weights_checksum(img, len);
	for (int k = 0; k < 8; k++)
		img[32 + k] = (unsigned char)(h >> (8 * k));
}

START_TEST(test_weight_file_rejection)
{
	size_t len;
	const unsigned char *builtin = weights_builtin(&len);
	ck_assert_uint_eq(len, WEIGHTS_HEADER + 2 * NW);
	unsigned char *img = malloc(len);
	const Evaluator *e = eval_get(8, VARIANT_NORMAL);
	Board pos = board_start(8);
	const int before = eval_score_fine(e, pos.p ^ bit_of(19), pos.o);
	char err[WEIGHTS_ERR];
	const char *path = tmp_path("bad.bin");
	/* each case: the byte changed (or bytes cut off the end), whether the
	 * checksum is then recomputed (a consistent file of another kind), and
	 * the word the message must contain */
	struct {
		size_t off;
		size_t cut;
		bool fix_sum;
		const char *what;
	} cases[] = {
		{ 0, 0, false, "magic" },
		{ 8, 0, true, "version" },
		{ WEIGHTS_HEADER + 1000, 0, false, "checksum" },   /* a weight */
		{ 33, 0, false, "checksum" },                       /* the stored sum */
		{ 28, 0, false, "checksum" },                       /* a reserved header byte */
		{ 0, 100, false, "truncated" },
		{ 0, len - 40, false, "truncated" },
		{ 12, 0, true, "feature set" },
		{ 24, 0, true, "scale" },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		memcpy(img, builtin, len);
		size_t n = len - cases[c].cut;
		if (!cases[c].cut)
			img[cases[c].off] ^= 0x01;
		if (cases[c].fix_sum) {
			uint64_t h = weights_checksum(img, n);
			for (int k = 0; k < 8; k++)
				img[32 + k] = (unsigned char)(h >> (8 * k));
		}
		write_bytes(path, img, n);
		ck_assert(!loads(path, err));
		ck_assert_msg(strstr(err, cases[c].what), "case %zu: '%s' lacks '%s'", c, err, cases[c].what);
		ck_assert_int_eq(eval_score_fine(e, pos.p ^ bit_of(19), pos.o), before);
	}
	/* a file of the previous format version (mobility the only global
	 * feature) is refused as an older Emilia's */
	memcpy(img, builtin, len);
	img[8] = 1;
	img[9] = img[10] = img[11] = 0;
	fix_weights_checksum(img, len);
	write_bytes(path, img, len);
	ck_assert(!loads(path, err));
	ck_assert_msg(strstr(err, "version 1 is from an older Emilia"), "%s", err);
	ck_assert_int_eq(eval_score_fine(e, pos.p ^ bit_of(19), pos.o), before);
	/* version 2 (11 patterns): refused, pointing to the converter */
	memcpy(img, builtin, len);
	img[8] = 2;
	img[9] = img[10] = img[11] = 0;
	fix_weights_checksum(img, len);
	write_bytes(path, img, len);
	ck_assert(!loads(path, err));
	ck_assert_msg(strstr(err, "version 2 is from an older Emilia") && strstr(err, "--widen"), "%s", err);
	ck_assert_int_eq(eval_score_fine(e, pos.p ^ bit_of(19), pos.o), before);
	ck_assert(!loads("/nonexistent/emilia.bin", err));
	ck_assert(strstr(err, "/nonexistent/emilia.bin"));
	write_bytes(path, (const unsigned char *)"", 0);
	ck_assert(!loads(path, err));
	ck_assert(strstr(err, "magic"));
	/* the untouched image loads */
	write_bytes(path, builtin, len);
	ck_assert_msg(loads(path, err), "%s", err);
	ck_assert_int_eq(eval_score_fine(e, pos.p ^ bit_of(19), pos.o), before);
	remove(path);
	free(img);
}
END_TEST

static void put_weight(unsigned char *img, size_t i, int v)
{
	img[WEIGHTS_HEADER + 2 * i] = (unsigned char)((unsigned)v & 0xFF);
	img[WEIGHTS_HEADER + 2 * i + 1] = (unsigned char)(((unsigned)v >> 8) & 0xFF);
}

/* Weights beyond 64 discs (WEIGHTS_MAX), which the trainer never writes:
 * a crafted file with a valid checksum is refused with the weight named,
 * and the evaluation is left as it was; the limit itself loads;
 * weights_encode clamps, so no file it writes is refused. */
START_TEST(test_weight_range)
{
	ck_assert_int_eq(WEIGHTS_MAX, 4096);
	size_t len;
	const unsigned char *builtin = weights_builtin(&len);
	unsigned char *img = malloc(len);
	const char *path = tmp_path("range.bin");
	char err[WEIGHTS_ERR], want[512];
	const Evaluator *e = eval_get(8, VARIANT_NORMAL);
	Board pos = board_start(8);
	const int before = eval_score_fine(e, pos.p ^ bit_of(19), pos.o);
	static const struct {
		int v;
		size_t index;
		bool ok;
	} cases[] = {
		{ 32767, 1000, false },
		{ -32767, 5, false },
		{ -32768, NW - 1, false },
		{ 4097, PATTERN_WEIGHTS + 7, false },
		{ -4097, 3 * PATTERN_WEIGHTS, false },
		{ 4096, 1000, true },
		{ -4096, 3, true },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		memcpy(img, builtin, len);
		put_weight(img, cases[c].index, cases[c].v);
		fix_weights_checksum(img, len);
		write_bytes(path, img, len);
		if (cases[c].ok) {
			ck_assert_msg(loads(path, err), "case %zu: %s", c, err);
			continue;
		}
		ck_assert_msg(!loads(path, err), "case %zu accepted", c);
		snprintf(want, sizeof want, "%s: weight %d out of range -4096..4096 (phase %zu, index %zu)",
		         path, cases[c].v, cases[c].index / PATTERN_WEIGHTS, cases[c].index % PATTERN_WEIGHTS);
		ck_assert_str_eq(err, want);
		ck_assert_int_eq(eval_score_fine(e, pos.p ^ bit_of(19), pos.o), before);
	}
	/* every weight at +-32767 */
	memcpy(img, builtin, len);
	for (size_t i = 0; i < NW; i++)
		put_weight(img, i, i & 1 ? -32767 : 32767);
	fix_weights_checksum(img, len);
	write_bytes(path, img, len);
	ck_assert(!loads(path, err));
	snprintf(want, sizeof want, "%s: weight 32767 out of range -4096..4096 (phase 0, index 0)", path);
	ck_assert_str_eq(err, want);
	/* encoding clamps */
	int16_t *w = calloc(NW, sizeof *w), *back = malloc(NW * sizeof *back);
	w[0] = 32767;
	w[1] = -32768;
	w[2] = 4096;
	w[3] = -4097;
	size_t elen;
	unsigned char *enc = weights_encode(w, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS, &elen);
	ck_assert_msg(weights_decode(enc, elen, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS, back,
	                             err), "%s", err);
	ck_assert_int_eq(back[0], 4096);
	ck_assert_int_eq(back[1], -4096);
	ck_assert_int_eq(back[2], 4096);
	ck_assert_int_eq(back[3], -4096);
	free(enc);
	free(w);
	free(back);
	remove(path);
	free(img);
}
END_TEST

/* A FIFO given as a weight file is refused at once (an open() that waited
 * for a writer would hang here until the alarm). */
START_TEST(test_weight_file_fifo)
{
	const char *fifo = tmp_path("fifo.bin");
	char err[WEIGHTS_ERR], want[512];
	unlink(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	alarm(20);
	ck_assert(!loads(fifo, err));
	alarm(0);
	snprintf(want, sizeof want, "%s: not a regular file", fifo);
	ck_assert_str_eq(err, want);
	size_t len;
	ck_assert_ptr_null(weights_read_file(fifo, 1 << 20, &len, err));
	ck_assert_str_eq(err, want);
	unlink(fifo);
	ck_assert(!loads("/tmp", err));
	ck_assert_str_eq(err, "/tmp: not a regular file");
}
END_TEST

static unsigned char *slurp(const char *path, size_t *len)
{
	char err[WEIGHTS_ERR];
	unsigned char *b = weights_read_file(path, 1 << 20, len, err);
	ck_assert_msg(b != NULL, "%s", err);
	return b;
}

START_TEST(test_wthor_reader)
{
	size_t len;
	unsigned char *buf = slurp(test_data("wthor-small.wtb"), &len);
	WthorHeader h;
	char err[WTHOR_ERR];
	ck_assert(wthor_header(buf, len, &h, err));
	ck_assert_str_eq(err, "");
	ck_assert_uint_eq(h.ngames, 6);
	ck_assert_uint_eq(h.nrecords, 6);
	ck_assert_int_eq(h.year, 2017);
	ck_assert_int_eq(h.depth, 24);
	/* the first three records are real 2017 games */
	const int final[3] = { 16, -40, 48 }, theory[3] = { 4, -24, 2 };
	/* move bytes 56 = f5 (square 37), 64 = d6 (43), 66 = f6 (45) */
	const int second[3] = { 43, 45, 43 };
	for (uint32_t i = 0; i < 3; i++) {
		WthorGame g;
		ck_assert_msg(wthor_record(buf, &h, i, &g, err), "%s", err);
		ck_assert_int_eq(g.nmoves, 60);
		ck_assert(g.finished);
		ck_assert_int_eq(g.black_final, final[i]);
		ck_assert(g.has_theory);
		ck_assert_int_eq(g.theory_depth, 24);
		ck_assert_int_eq(g.black_theory, theory[i]);
		ck_assert_int_eq(g.moves[0], 37);
		ck_assert_int_eq(g.moves[1], second[i]);
	}
	WthorGame g;
	ck_assert(!wthor_record(buf, &h, 3, &g, err));
	ck_assert_msg(strstr(err, "illegal move"), "%s", err);
	ck_assert(!wthor_record(buf, &h, 4, &g, err));
	ck_assert_msg(strstr(err, "invalid move byte 99"), "%s", err);
	ck_assert(!wthor_record(buf, &h, 5, &g, err));
	ck_assert_msg(strstr(err, "out of range"), "%s", err);
	free(buf);

	buf = slurp(test_data("wthor-truncated.wtb"), &len);
	ck_assert(wthor_header(buf, len, &h, err));
	ck_assert_msg(strstr(err, "announces 3 games"), "%s", err);
	ck_assert_uint_eq(h.nrecords, 2);
	ck_assert(wthor_record(buf, &h, 1, &g, err));
	ck_assert_int_eq(g.black_final, -40);
	ck_assert(!wthor_header(buf, 10, &h, err));
	ck_assert(strstr(err, "too short"));
	buf[12] = 6;
	ck_assert(!wthor_header(buf, len, &h, err));
	ck_assert(strstr(err, "board size 6"));
	free(buf);
}
END_TEST

START_TEST(test_logbook_reader)
{
	FILE *f = fopen(test_data("logbook-small.gam"), "r");
	ck_assert_ptr_nonnull(f);
	char line[1024];
	const char *want_err[9] = { NULL, NULL, NULL, "marked for White but Black is to move",
	                            "does not match the final board", "does not reach its end",
	                            "expected ':'", "invalid move", NULL };
	const int want_final[9] = { -4, 0, 2, 0, 0, 0, 0, 0, 2 };
	int n = 0;
	while (fgets(line, sizeof line, f)) {
		ck_assert_int_lt(n, 9);
		WthorGame g;
		char err[WTHOR_ERR];
		bool ok = wthor_logbook_line(line, &g, err);
		if (want_err[n]) {
			ck_assert_msg(!ok, "line %d accepted", n + 1);
			ck_assert_msg(strstr(err, want_err[n]), "line %d: '%s'", n + 1, err);
		} else {
			ck_assert_msg(ok, "line %d: %s", n + 1, err);
			ck_assert_int_eq(g.nmoves, 60);
			ck_assert_int_eq(g.black_final, want_final[n]);
			ck_assert(!g.has_theory);
			ck_assert_int_eq(g.moves[0], 19); /* d3 */
			ck_assert_int_eq(g.moves[1], 18); /* c3 */
		}
		n++;
	}
	fclose(f);
	ck_assert_int_eq(n, 9);
}
END_TEST

/* Run the emilia binary; returns its stdout (static buffer) and exit code. */
static const char *run_cli(const char *args, int *status)
{
	static char out[65536];
	const char *bin = getenv("EMILIA_BIN");
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s %s 2>/dev/null", bin ? bin : "./emilia", args);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	size_t n = fread(out, 1, sizeof out - 1, p);
	out[n] = 0;
	int st = pclose(p);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return out;
}

START_TEST(test_eval_cli)
{
	const char *path = tmp_path("pos.obf");
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	/* FFO #1 and #2 (exact best scores +18, +10), one without scores */
	fprintf(f, "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;\n"
	           "%% a comment\n\n"
	           "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0;\n"
	           "---------------------------OX------XO--------------------------- X\n");
	fclose(f);
	char args[512];
	snprintf(args, sizeof args, "eval %s --json", path);
	int st;
	const char *out = run_cli(args, &st);
	ck_assert_int_eq(st, 0);
	int ev[3], ex[2], er[2], nl = 0;
	const char *s = out;
	for (int i = 0; i < 2; i++) {
		int n;
		char board[80];
		ck_assert_int_eq(sscanf(s, "{\"n\":%d,\"board\":\"%66[^\"]\",\"eval\":%d,\"expected\":%d,\"error\":%d}",
		                        &n, board, &ev[i], &ex[i], &er[i]), 5);
		ck_assert_int_eq(n, i + 1);
		ck_assert_int_eq(er[i], ev[i] - ex[i]);
		s = strchr(s, '\n') + 1;
		nl++;
	}
	ck_assert_int_eq(ex[0], 18);
	ck_assert_int_eq(ex[1], 10);
	ck_assert_int_eq(sscanf(s, "{\"n\":3,\"board\":\"%*66[^\"]\",\"eval\":%d,\"expected\":null,\"error\":null}", &ev[2]), 1);
	/* the start position is about even (true value 0) */
	ck_assert_int_le(abs(ev[2]), 4);
	s = strchr(s, '\n') + 1;
	double mae;
	ck_assert_int_eq(sscanf(s, "{\"totals\":{\"positions\":3,\"scored\":2,\"mae\":%lf", &mae), 1);
	ck_assert(mae > (abs(er[0]) + abs(er[1])) / 2.0 - 0.001 && mae < (abs(er[0]) + abs(er[1])) / 2.0 + 0.001);
	(void)nl;
	/* depth 2 search: the text form, exact at the end of these endgames */
	snprintf(args, sizeof args, "eval %s --depth 2", path);
	out = run_cli(args, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(out, "positions 3, with expected scores 2, mean absolute error"));
	/* a malformed line is reported, the rest still evaluated, exit status 1 */
	f = fopen(path, "a");
	fprintf(f, "XXO this is not a board\n");
	fclose(f);
	snprintf(args, sizeof args, "eval %s", path);
	out = run_cli(args, &st);
	ck_assert_int_eq(st, 1);
	ck_assert_ptr_nonnull(strstr(out, "positions 3, with expected scores 2"));
	/* missing file, bad weights */
	out = run_cli("eval /nonexistent.obf", &st);
	ck_assert_int_eq(st, 1);
	snprintf(args, sizeof args, "eval %s --eval /nonexistent.bin", path);
	out = run_cli(args, &st);
	ck_assert_int_eq(st, 1);
	ck_assert_str_eq(out, "");
	remove(path);
}
END_TEST

/* ---- emilia-train: engine labels (--solve-mid, --search-mid) and caches */

static int run_train(const char *args, char *out, size_t outlen)
{
	const char *dir = getenv("EMILIA_TOOLS");
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "'%s/emilia-train' %s 2>&1", dir ? dir : ".", args);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	size_t n = fread(out, 1, outlen - 1, p);
	out[n] = 0;
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* emilia-train --widen: a version 2 file (11 patterns) of random weights,
 * for the 8x8 and the 6x6 game, becomes a version 3 file that evaluates
 * every position as the version 2 layout says (new patterns zero); a
 * version 3 file and garbage are refused. */
START_TEST(test_widen_v2)
{
	const size_t n2 = (size_t)PATTERN_PHASES * PATTERN_V2_WEIGHTS;
	int16_t *w2 = malloc(n2 * sizeof *w2);
	ck_assert_ptr_nonnull(w2);
	uint64_t rng = 0x5EED;
	for (size_t i = 0; i < n2; i++)
		w2[i] = (int16_t)((int)(test_rand(&rng) % 201) - 100);
	for (int game = 0; game < 2; game++) {
		const int size = game ? 6 : 8;
		const uint32_t id2 = eval_set_id(size, VARIANT_NORMAL) ^ patterns_set_id() ^ patterns_v2_set_id();
		size_t len;
		unsigned char *img = weights_encode(w2, id2, PATTERN_PHASES, PATTERN_V2_WEIGHTS, &len);
		ck_assert_ptr_nonnull(img);
		img[8] = 2;
		fix_weights_checksum(img, len);
		char in[256], out[256], again[256];
		snprintf(in, sizeof in, "%s", tmp_path("v2.bin"));
		snprintf(out, sizeof out, "%s", tmp_path("v3.bin"));
		snprintf(again, sizeof again, "%s", tmp_path("again.bin"));
		write_bytes(in, img, len);
		free(img);
		char err[WEIGHTS_ERR], args[1024], msg[4096];
		ck_assert(!loads(in, err));
		snprintf(args, sizeof args, "--widen '%s' '%s'", in, out);
		ck_assert_msg(run_train(args, msg, sizeof msg) == 0, "%s", msg);
		Evaluator *e = eval_load(out, err);
		ck_assert_msg(e != NULL, "%s", err);
		ck_assert_int_eq(eval_size(e), size);
		const int shift = size == 6 ? 9 : 0;
		for (int k = 0; k < 2000; k++) {
			Board b = random_position(&rng, 4 + (int)(test_rand(&rng) % 50));
			if (size == 6) {
				/* a random 6x6 game instead */
				b = board_start(6);
				for (int ply = (int)(test_rand(&rng) % 30); ply > 0; ply--) {
					uint64_t m = board_moves(b.p, b.o) & board_geometry(6);
					if (!m)
						break;
					int j = (int)(test_rand(&rng) % (uint64_t)bit_count(m));
					while (j--)
						m = bit_pop(m);
					b = board_apply(b, bit_first(m), board_flips(b.p, b.o, bit_first(m)));
				}
			}
			const int empties = size * size - bit_count(b.p | b.o);
			if (!empties)
				continue;
			uint32_t f[PATTERN_FEATURES];
			patterns_features_ref(b.p << shift, b.o << shift, f);
			const int16_t *w = w2 + (size_t)patterns_phase(empties) * PATTERN_V2_WEIGHTS;
			int s = 0;
			for (int i = 0; i < 46; i++)
				s += w[f[i]];
			for (int g = 0; g < PATTERN_GLOBALS; g++)
				s += w[f[PATTERN_INSTANCES + g] - PATTERN_MOB_OFFSET + PATTERN_V2_MOB_OFFSET];
			s = s > 64 * EVAL_FINE ? 64 * EVAL_FINE : s < -64 * EVAL_FINE ? -64 * EVAL_FINE : s;
			ck_assert_int_eq(eval_score_fine(e, b.p, b.o), s);
		}
		eval_free(e);
		remove(in);
		/* the result is version 3: widening it again is refused */
		snprintf(args, sizeof args, "--widen '%s' '%s'", out, again);
		ck_assert_int_ne(run_train(args, msg, sizeof msg), 0);
		ck_assert_msg(strstr(msg, "version"), "%s", msg);
		remove(out);
	}
	char junk[256], args[1024], msg[4096];
	snprintf(junk, sizeof junk, "%s", tmp_path("junk.bin"));
	write_bytes(junk, (const unsigned char *)"junk", 4);
	snprintf(args, sizeof args, "--widen '%s' '%s.out'", junk, junk);
	ck_assert_int_ne(run_train(args, msg, sizeof msg), 0);
	ck_assert_msg(strstr(msg, "magic"), "%s", msg);
	remove(junk);
	free(w2);
}
END_TEST

static unsigned char *slurp_path(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	static unsigned char buf[1 << 16];
	*len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	unsigned char *c = malloc(*len + 1);
	ck_assert_ptr_nonnull(c);
	memcpy(c, buf, *len);
	return c;
}

static uint64_t le64(const unsigned char *b)
{
	uint64_t x = 0;
	for (int k = 7; k >= 0; k--)
		x = x << 8 | b[k];
	return x;
}

/* A data directory (mkdtemp of the template in dir) for emilia-train
 * holding wthor/WTH_2017.wtb = tests/data/wthor-small.wtb; returns that
 * file's bytes. */
static unsigned char *train_data_dir(char *dir, size_t *len)
{
	char path[256];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/wthor", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	unsigned char *wtb = slurp_path(test_data("wthor-small.wtb"), len);
	snprintf(path, sizeof path, "%s/wthor/WTH_2017.wtb", dir);
	test_write_file(path, wtb, *len);
	return wtb;
}

/* The trainer's search label: iterative deepening 1..depth, a fresh
 * 4 MiB table, no ProbCut, the built-in weights. */
static int search_label_game(Board b, int depth, int size, Variant v, const Evaluator *ev)
{
	TT tt;
	ck_assert(tt_init(&tt, 4));
	SearchShared sh;
	SearchThread *t = calloc(1, sizeof *t);
	ck_assert_ptr_nonnull(t);
	search_shared_init(&sh, &tt, size, v);
	if (ev)
		sh.ev = ev;
	sh.threads = t;
	sh.nthreads = 1;
	search_thread_init(t, &sh, 0);
	t->sel = SEARCH_SEL_NONE;
	int val = 0;
	for (int d = 1; d <= depth; d++)
		val = search_value(t, b, d, -SEARCH_INF, SEARCH_INF);
	free(t);
	tt_free(&tt);
	return val;
}

static int search_label(Board b, int depth)
{
	return search_label_game(b, depth, 8, VARIANT_NORMAL, NULL);
}

/* A solve cache of n records of 17 bytes (board, score), each a position
 * with lo..hi empties and the solver's exact score. */
static void check_solve_cache(const char *path, int n, int lo, int hi)
{
	size_t len;
	unsigned char *c = slurp_path(path, &len);
	ck_assert_uint_eq(len, (size_t)n * 17);
	EndgameOptions eo = endgame_default_options();
	for (int i = 0; i < n; i++) {
		Board b = { le64(c + 17 * i), le64(c + 17 * i + 8) };
		int e = 64 - bit_count(b.p | b.o);
		ck_assert_int_ge(e, lo);
		ck_assert_int_le(e, hi);
		ck_assert_int_eq((int8_t)c[17 * i + 16], endgame_solve(b, &eo).score);
	}
	free(c);
}

START_TEST(test_train_engine_labels)
{
	char dir[64] = "/tmp/emilia-test-train.XXXXXX", path[256], args[1600], out[16384];
	size_t len;
	free(train_data_dir(dir, &len));
	/* every game is a training game (no test years), 4 exact solves at
	 * 11-13 empties and 5 depth-2 search labels at 14-20 empties */
	snprintf(args, sizeof args,
	         "--data %s --out %s/w.bin --test 1900-1900 --phases 2-2 --epochs 3 --threads 2 "
	         "--no-book --no-logbook --solve-mid 11-13 --max-solve-mid 4 --cache %s/l.cache "
	         "--search-mid 14-20 --search-depth 2 --max-search 5 --search-cache %s/s.cache "
	         "--game-dump %s/d.txt",
	         dir, dir, dir, dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	ck_assert_ptr_nonnull(strstr(out, "exact labels, 11-13 empties: 0 from the cache, solving 4 positions"));
	/* the dump: every labelled training position; the 4 exact ones are
	 * the solver's scores, the 5 search ones the depth-2 search's, the
	 * others carry WTHOR's theoretical score (at 24 empties) or their
	 * game's result */
	snprintf(path, sizeof path, "%s/d.txt", dir);
	FILE *df = fopen(path, "r");
	ck_assert_ptr_nonnull(df);
	char line[256];
	int nd = 0, ne = 0, ns = 0;
	EndgameOptions deo = endgame_default_options();
	while (fgets(line, sizeof line, df)) {
		unsigned long long dp, dq;
		int de, dcnt, dsp;
		double dl;
		char kind, set;
		ck_assert_int_eq(sscanf(line, "%llx %llx %d %lf %c %c %d %d", &dp, &dq, &de, &dl, &kind, &set, &dcnt,
		                        &dsp), 8);
		Board b = { dp, dq };
		ck_assert_int_eq(de, 64 - bit_count(b.p | b.o));
		ck_assert_int_eq(set, '-');
		ck_assert_int_ge(dcnt, 1);
		if (kind == 'e' && de != 24) {   /* (at 24: WTHOR's theoretical score) */
			ck_assert(de >= 11 && de <= 13);
			ck_assert_int_eq((int)dl, endgame_solve(b, &deo).score);
			ne++;
		} else if (kind == 's') {
			ck_assert(de >= 14 && de <= 20);
			ck_assert_int_eq((int)dl, search_label(b, 2));
			ns++;
		} else
			ck_assert(kind == 'g' || (kind == 'e' && de == 24));
		nd++;
	}
	fclose(df);
	ck_assert_int_eq(ne, 4);
	ck_assert_int_eq(ns, 5);
	ck_assert_int_gt(nd, 100);
	ck_assert_ptr_nonnull(strstr(out, "search labels (depth 2), 14-20 empties: 0 from the cache "
	                                  "(0 records), searching 5 positions"));
	/* the solve cache: 4 records of 17 bytes, each the solver's exact score */
	snprintf(path, sizeof path, "%s/l.cache", dir);
	check_solve_cache(path, 4, 11, 13);
	/* the search cache: 5 records of 22 bytes: the depth-2 search score
	 * (iterative deepening from 1, fresh table, no ProbCut), the depth and
	 * the checksum of the built-in weights */
	snprintf(path, sizeof path, "%s/s.cache", dir);
	unsigned char *c = slurp_path(path, &len);
	ck_assert_uint_eq(len, 5 * 22);
	size_t wlen;
	const unsigned char *wimg = weights_builtin(&wlen);
	uint32_t tag = (uint32_t)weights_checksum(wimg, wlen);
	for (int i = 0; i < 5; i++) {
		const unsigned char *r = c + 22 * i;
		Board b = { le64(r), le64(r + 8) };
		int e = 64 - bit_count(b.p | b.o);
		ck_assert_int_ge(e, 14);
		ck_assert_int_le(e, 20);
		ck_assert_uint_eq(r[17], 2);
		ck_assert_uint_eq((uint32_t)r[18] | (uint32_t)r[19] << 8 | (uint32_t)r[20] << 16
		                  | (uint32_t)r[21] << 24, tag);
		ck_assert_int_eq((int8_t)r[16], search_label(b, 2));
	}
	free(c);
	snprintf(path, sizeof path, "%s/w.bin", dir);
	unsigned char *w1 = slurp_path(path, &len);
	/* a rerun takes every label from the caches, adds nothing to them and
	 * writes the same weights */
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	ck_assert_ptr_nonnull(strstr(out, "exact labels, 11-13 empties: 4 from the cache, solving 0 positions"));
	ck_assert_ptr_nonnull(strstr(out, "14-20 empties: 5 from the cache (5 records), searching 0 positions"));
	size_t len2;
	unsigned char *w2 = slurp_path(path, &len2);
	ck_assert_uint_eq(len, len2);
	ck_assert_int_eq(memcmp(w1, w2, len), 0);
	free(w1);
	free(w2);
	snprintf(path, sizeof path, "%s/l.cache", dir);
	free(slurp_path(path, &len));
	ck_assert_uint_eq(len, 4 * 17);
	snprintf(path, sizeof path, "%s/s.cache", dir);
	free(slurp_path(path, &len));
	ck_assert_uint_eq(len, 5 * 22);
	/* --expand-exact: 3 children of training positions at 11-13 empties,
	 * labelled by the solver (the cache's only records) */
	snprintf(args, sizeof args,
	         "--data %s --out %s/w3.bin --test 1900-1900 --phases 2-2 --epochs 3 --threads 2 "
	         "--no-book --no-logbook --expand 11-13 --max-expand 3 --expand-exact --cache %s/x.cache",
	         dir, dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	ck_assert_ptr_nonnull(strstr(out, "new positions with 11-13 empties, 3 used"));
	ck_assert_ptr_nonnull(strstr(out, "exact labels, 11-13 empties: 0 from the cache, solving 3 positions"));
	snprintf(path, sizeof path, "%s/x.cache", dir);
	check_solve_cache(path, 3, 11, 13);
	/* --phase-overlap 3: phase 11-15 is fitted on the positions with 8-18
	 * empties */
	snprintf(args, sizeof args,
	         "--data %s --out %s/w4.bin --test 1900-1900 --phases 2-2 --epochs 3 --threads 2 "
	         "--no-book --no-logbook --phase-overlap 3 --min-positions 0",
	         dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "phase 2 (11-15 empties): ") && strstr(out, " positions with 8-18 empties"), "%s",
	              out);
	snprintf(args, sizeof args, "--data %s --phase-overlap 31", dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 2);
	/* bad ranges are refused */
	snprintf(args, sizeof args, "--data %s --solve-mid 13-11", dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 2);
	snprintf(args, sizeof args, "--data %s --expand 0-5", dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 2);
	snprintf(args, sizeof args, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(args), 0);
}
END_TEST

/* ---- emilia-train --make-labels: exact label files ---------------------- */

/* The sampled position of a game at e empties (tools/labels.h): before the
 * move played with e empties, after a forced pass. */
static bool game_position_at(const WthorGame *w, int e, Board *out)
{
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	for (int n = 0; n < w->nmoves; n++) {
		if (game_must_pass(&g))
			game_play(&g, BOARD_PASS);
		if (game_empties(&g) == e) {
			*out = g.board;
			return true;
		}
		ck_assert_int_eq(game_play(&g, w->moves[n]), GAME_OK);
	}
	return false;
}

/* gunzip a label file into memory (through gzip(1)). */
static unsigned char *gunzip_file(const char *path, size_t *len)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "gzip -dc '%s' > '%s.plain'", path, path);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s.plain", path);
	unsigned char *b = slurp_path(cmd, len);
	remove(cmd);
	return b;
}

/* Check a label file: the header, then per game and per empties hi..lo
 * the solver's score (depth 0) or the depth-D search label, plus 64; 255
 * for games that were not read. */
static void check_label_file(const char *path, const char *head, WthorGame *games,
                             const bool *valid, int ngames, int lo, int hi, int depth)
{
	size_t len;
	unsigned char *b = gunzip_file(path, &len);
	size_t hl = strlen(head), width = (size_t)(hi - lo + 1);
	ck_assert_uint_eq(len, hl + (size_t)ngames * width);
	ck_assert_int_eq(memcmp(b, head, hl), 0);
	EndgameOptions eo = endgame_default_options();
	for (int g = 0; g < ngames; g++)
		for (int e = hi; e >= lo; e--) {
			int got = b[hl + (size_t)g * width + (size_t)(hi - e)];
			Board pos;
			if (!valid[g]) {
				ck_assert_int_eq(got, 255);
				continue;
			}
			ck_assert(game_position_at(&games[g], e, &pos));
			ck_assert_int_eq(64 - bit_count(pos.p | pos.o), e);
			int want = depth ? search_label(pos, depth) : endgame_solve(pos, &eo).score;
			ck_assert_msg(got == want + 64, "game %d, %d empties: %d, want %d", g, e, got - 64, want);
		}
	free(b);
}

START_TEST(test_train_label_files)
{
	char dir[64] = "/tmp/emilia-test-labels.XXXXXX", path[256], args[1600], out[16384];
	size_t len;
	unsigned char *wtb = train_data_dir(dir, &len);
	/* the archive's games: records 0-2 are valid, 3-5 are rejected */
	WthorHeader h;
	char err[WTHOR_ERR];
	ck_assert(wthor_header(wtb, len, &h, err));
	WthorGame wg[6], lg[9];
	bool wvalid[6], lvalid[9];
	for (uint32_t i = 0; i < 6; i++)
		wvalid[i] = wthor_record(wtb, &h, i, &wg[i], err);
	free(wtb);
	/* logbook.gam.gz may be stored uncompressed (zlib reads both): lines
	 * 1, 2, 3 and 9 are valid */
	unsigned char *gam = slurp_path(test_data("logbook-small.gam"), &len);
	snprintf(path, sizeof path, "%s/logbook.gam.gz", dir);
	test_write_file(path, gam, len);
	char *line = (char *)gam;
	for (int i = 0; i < 9; i++) {
		char *nl = strchr(line, '\n');
		ck_assert_ptr_nonnull(nl);
		*nl = 0;
		lvalid[i] = wthor_logbook_line(line, &lg[i], err);
		line = nl + 1;
	}
	free(gam);
	ck_assert(wvalid[0] && wvalid[2] && !wvalid[3] && !wvalid[5]);
	ck_assert(lvalid[0] && lvalid[2] && !lvalid[3] && lvalid[8]);

	snprintf(args, sizeof args, "--data %s --make-labels %s/lab --label-empties 10-13 --threads 2",
	         dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "labels: 2 chunks written (28 positions"), "%s", out);
	char wpath[256], lpath[256];
	snprintf(wpath, sizeof wpath, "%s/lab/WTH_2017.0.e10-13.exact.lab.gz", dir);
	snprintf(lpath, sizeof lpath, "%s/lab/logbook.0.e10-13.exact.lab.gz", dir);
	check_label_file(wpath, "emilia-labels 1 WTH_2017 0 3 10 13 1 exact\n", wg, wvalid, 3, 10, 13, 0);
	check_label_file(lpath, "emilia-labels 1 logbook 0 9 10 13 1 exact\n", lg, lvalid, 9, 10, 13, 0);
	size_t l1;
	unsigned char *first = gunzip_file(lpath, &l1);

	/* resumable: existing chunks are kept, a missing one is made again,
	 * byte for byte */
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "labels: 0 chunks written (0 positions, 0 s solving), 2 already there"),
	              "%s", out);
	ck_assert_int_eq(remove(lpath), 0);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "labels: 1 chunks written (16 positions"), "%s", out);
	size_t l2;
	unsigned char *again = gunzip_file(lpath, &l2);
	ck_assert_uint_eq(l1, l2);
	ck_assert_int_eq(memcmp(first, again, l1), 0);
	free(first);
	free(again);
	/* Emilia's self-play games (--selfplay DIR, files sp-KKK.gam.gz in the
	 * logbook format): a source of their own, "sp-003", labelled alone
	 * with --label-sources selfplay, and counted apart by the trainer */
	snprintf(path, sizeof path, "%s/sp", dir);
	ck_assert_int_eq(mkdir(path, 0777), 0);
	gam = slurp_path(test_data("logbook-small.gam"), &len);
	snprintf(path, sizeof path, "%s/sp/sp-003.gam.gz", dir);
	test_write_file(path, gam, len);
	free(gam);
	snprintf(args, sizeof args, "--data %s --selfplay %s/sp --make-labels %s/labsp --label-empties 10-13 "
	         "--label-sources selfplay --threads 2", dir, dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "labels: 1 chunks written (16 positions"), "%s", out);
	snprintf(path, sizeof path, "%s/labsp/sp-003.0.e10-13.exact.lab.gz", dir);
	check_label_file(path, "emilia-labels 1 sp-003 0 9 10 13 1 exact\n", lg, lvalid, 9, 10, 13, 0);
	int nlog = 0;
	for (int i = 0; i < 9; i++)
		nlog += lvalid[i];
	char want[128];
	snprintf(args, sizeof args, "--data %s --selfplay %s/sp --out %s/w.bin --test 1900-1900 --phases 2-2 "
	         "--epochs 2 --threads 2 --no-book --labels %s/labsp", dir, dir, dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	snprintf(want, sizeof want, "games: 3 WTHOR, 0 Logistello book, %d logbook, %d self-play;", nlog, nlog);
	ck_assert_msg(strstr(out, want), "%s", out);
	ck_assert_msg(strstr(out, "labels: 16 exact labels and 0 search labels"), "%s", out);

	/* tools/ggf-to-logbook.py, which makes those files from emilia-match's
	 * GGF games: three games (each line read back by the logbook reader)
	 * and a fourth with an illegal move, reported and skipped */
	if (system("python3 -c '' 2>/dev/null") == 0) {
		const char *td = getenv("EMILIA_TESTDATA");
		snprintf(args, sizeof args, "python3 '%s/../../tools/ggf-to-logbook.py' '%s' 2>'%s/conv.err'",
		         td ? td : "tests/data", test_data("selfplay-games.ggf"), dir);
		FILE *p = popen(args, "r");
		ck_assert_ptr_nonnull(p);
		size_t n = fread(out, 1, sizeof out - 1, p);
		out[n] = 0;
		ck_assert_int_eq(pclose(p), 0);
		snprintf(path, sizeof path, "%s/conv.err", dir);
		unsigned char *msg = slurp_path(path, &len);
		msg[len] = 0;
		ck_assert_msg(strstr((char *)msg, "selfplay-games.ggf:4: illegal move B[A1] (skipped)\n"), "%s", msg);
		free(msg);
		unsigned char *expect = slurp_path(test_data("selfplay-games.gam"), &len);
		char *text = out;
		ck_assert_uint_eq(strlen(text), len);
		ck_assert_int_eq(memcmp(text, expect, len), 0);
		free(expect);
		int games = 0;
		for (char *l = text; *l; games++) {
			char *nl = strchr(l, '\n');
			ck_assert_ptr_nonnull(nl);
			*nl = 0;
			WthorGame g;
			ck_assert_msg(wthor_logbook_line(l, &g, err), "%s: %s", l, err);
			ck_assert_int_eq(g.nmoves, (int)(strchr(l, ':') - l) / 3);
			l = nl + 1;
		}
		ck_assert_int_eq(games, 3);
	}

	/* every second game only */
	snprintf(args, sizeof args, "--data %s --make-labels %s/lab2 --label-empties 10-13 "
	         "--label-stride 2 --threads 1", dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "labels: 2 chunks written (20 positions"), "%s", out);

	/* backward induction: depth-3 search labels at 14-16 empties with the
	 * built-in weights, named by the weights' checksum */
	snprintf(args, sizeof args, "--data %s --make-labels %s/lab --label-empties 14-16 --label-depth 3 "
	         "--label-sources wthor --threads 2", dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "labels: 1 chunks written (9 positions"), "%s", out);
	size_t wlen;
	const unsigned char *wimg = weights_builtin(&wlen);
	char method[32], head[128];
	snprintf(method, sizeof method, "d3-%08x", (unsigned)(weights_checksum(wimg, wlen) >> 32));
	snprintf(path, sizeof path, "%s/lab/WTH_2017.0.e14-16.%s.lab.gz", dir, method);
	snprintf(head, sizeof head, "emilia-labels 1 WTH_2017 0 3 14 16 1 %s\n", method);
	check_label_file(path, head, wg, wvalid, 3, 14, 16, 3);

	/* the trainer uses both kinds */
	snprintf(args, sizeof args, "--data %s --out %s/w.bin --test 1900-1900 --phases 2-2 --epochs 2 "
	         "--threads 2 --no-book --labels %s/lab", dir, dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	snprintf(head, sizeof head, "labels: 28 exact labels and 9 search labels (%s) from", method);
	ck_assert_msg(strstr(out, head), "%s", out);
	/* search labels of two different searches in one directory */
	snprintf(args, sizeof args, "--data %s --make-labels %s/lab --label-empties 17-17 --label-depth 2 "
	         "--label-sources wthor --threads 1", dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	snprintf(args, sizeof args, "--data %s --out %s/w.bin --labels %s/lab", dir, dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 1);
	ck_assert_msg(strstr(out, "one search per directory"), "%s", out);

	/* broken label files are refused with the reason */
#define LIT(s) s, sizeof(s) - 1
	const struct {
		const char *content;
		size_t len;
		const char *why;
	} bad[] = {
		{ LIT("emilia-labels 2 WTH_2017 0 1 10 10 1 exact\n@"), "version 2, this build reads version 1" },
		{ LIT("emilia-labels 1 WTH_2017 0 1 10 10 1 depth6\n@"), "labels of kind 'depth6', this build reads" },
		{ LIT("emilia-labels 1 WTH_2017 0 2 10 10 1 exact\n@"), "wrong length" },
		{ LIT("emilia-labels 1 WTH_2017 0 1 10 10 1 exact\n\310"), "out of range" },
		{ LIT("emilia-labels 1 WTH_2017 0 1 10 10 1 exact\n@@"), "wrong length" },
		{ LIT("emilia-labels 1 WTH_2017 0 1 12 10 1 exact\n@"), "bad header" },
		{ LIT("GIF89a"), "not a label file" },
		{ LIT("emilia-labels 1 WTH_2017 0 1 10 10 1 exact\n\001"), "contradicts another file" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(path, sizeof path, "%s/bad", dir);
		snprintf(args, sizeof args, "rm -rf '%s' && mkdir '%s'", path, path);
		ck_assert_int_eq(system(args), 0);
		snprintf(path, sizeof path, "%s/bad/WTH_2017.0.e10-10.exact.lab.gz", dir);
		test_write_file(path, bad[i].content, bad[i].len);
		if (strstr(bad[i].why, "contradicts")) {
			/* the same game and empties twice with different scores */
			snprintf(path, sizeof path, "%s/bad/WTH_2017.0.e10-11.exact.lab.gz", dir);
			test_write_file(path, LIT("emilia-labels 1 WTH_2017 0 1 10 11 1 exact\n\377\002"));
		}
		snprintf(args, sizeof args, "--data %s --out %s/bad.bin --test 1900-1900 --labels %s/bad", dir, dir,
		         dir);
		ck_assert_int_eq(run_train(args, out, sizeof out), 1);
		ck_assert_msg(strstr(out, bad[i].why), "case %zu: %s", i, out);
	}
#undef LIT
	snprintf(args, sizeof args, "--data %s --out %s/none.bin --labels %s/none", dir, dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 1);
	ck_assert_msg(strstr(out, "cannot read"), "%s", out);
	snprintf(args, sizeof args, "--data %s --make-labels %s/lab --label-empties 13-10", dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 2);
	snprintf(args, sizeof args, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(args), 0);
}
END_TEST


/* The labelled positions of an --game-dump file. */
typedef struct DumpPos {
	Board b;
	int empties, label;
	char kind, test;
} DumpPos;

static DumpPos *read_dump(const char *path, int *n)
{
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	int cap = 1024;
	DumpPos *d = malloc((size_t)cap * sizeof *d);
	ck_assert_ptr_nonnull(d);
	unsigned long long p, o;
	DumpPos x;
	*n = 0;
	while (fscanf(f, "%llx %llx %d %d %c %c", &p, &o, &x.empties, &x.label, &x.kind, &x.test) == 6) {
		x.b = (Board){ p, o };
		if (*n == cap) {
			cap *= 2;
			d = realloc(d, (size_t)cap * sizeof *d);
			ck_assert_ptr_nonnull(d);
		}
		d[(*n)++] = x;
	}
	fclose(f);
	return d;
}

/* --game-train: exact labels are the solver's of the game, search labels
 * the depth-PATTERN_PHASE_WIDTH search's with the weights of the phases
 * already fitted (the later ones zero), the result does not depend on the
 * thread count, and the file loads as that game's evaluator. */
START_TEST(test_game_train_labels)
{
	char dir[64] = "/tmp/emilia-test-game.XXXXXX", path[256], args[1024], out[16384], err[WEIGHTS_ERR];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(args, sizeof args,
	         "--game-train anti --games 24 --game-exact 10 --game-max-search 40 --epochs 3 --threads 2 "
	         "--out %s/w.bin --game-dump %s/d.txt --report %s/r.txt", dir, dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	snprintf(path, sizeof path, "%s/w.bin", dir);
	Evaluator *ev = eval_load(path, err);
	ck_assert_msg(ev != NULL, "%s", err);
	ck_assert_int_eq(eval_size(ev), 8);
	ck_assert_int_eq(eval_variant(ev), VARIANT_ANTI);
	eval_free(ev);
	size_t len;
	unsigned char *img = weights_read_file(path, 64u << 20, &len, err);
	ck_assert_ptr_nonnull(img);
	const size_t nw = (size_t)PATTERN_PHASES * PATTERN_WEIGHTS;
	int16_t *w = malloc(nw * sizeof *w), *part = malloc(nw * sizeof *part);
	ck_assert_ptr_nonnull(w);
	ck_assert_ptr_nonnull(part);
	ck_assert(weights_decode(img, len, eval_set_id(8, VARIANT_ANTI), PATTERN_PHASES, PATTERN_WEIGHTS, w, err));
	/* not an 8x8 normal weight file */
	ck_assert(!weights_decode(img, len, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS, part, err));
	snprintf(path, sizeof path, "%s/d.txt", dir);
	int n, nexact = 0, nsearch = 0;
	DumpPos *d = read_dump(path, &n);
	EndgameOptions eo = endgame_default_options();
	eo.variant = VARIANT_ANTI;
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(d[i].empties, 64 - bit_count(d[i].b.p | d[i].b.o));
		if (d[i].kind == 'e') {
			ck_assert_int_le(d[i].empties, 10);
			if (nexact++ < 150)
				ck_assert_int_eq(d[i].label, endgame_solve(d[i].b, &eo).score);
		} else {
			ck_assert_int_eq(d[i].kind, 's');
			ck_assert_int_gt(d[i].empties, 10);
			if (nsearch++ < 20) {
				int ph = patterns_phase(d[i].empties);
				memcpy(part, w, nw * sizeof *w);
				memset(part + (size_t)ph * PATTERN_WEIGHTS, 0,
				       (size_t)(PATTERN_PHASES - ph) * PATTERN_WEIGHTS * sizeof *part);
				Evaluator *pe = eval_new_game(part, 8, VARIANT_ANTI);
				ck_assert_ptr_nonnull(pe);
				ck_assert_int_eq(d[i].label,
				                 search_label_game(d[i].b, PATTERN_PHASE_WIDTH, 8, VARIANT_ANTI, pe));
				eval_free(pe);
			}
		}
	}
	ck_assert_int_gt(nexact, 100);
	ck_assert_int_gt(nsearch, 100);
	free(d);
	/* one thread: the same weights */
	snprintf(args, sizeof args,
	         "--game-train anti --games 24 --game-exact 10 --game-max-search 40 --epochs 3 --threads 1 "
	         "--out %s/w1.bin", dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	snprintf(path, sizeof path, "%s/w1.bin", dir);
	size_t len1;
	unsigned char *img1 = weights_read_file(path, 64u << 20, &len1, err);
	ck_assert_ptr_nonnull(img1);
	ck_assert_uint_eq(len, len1);
	ck_assert_int_eq(memcmp(img, img1, len), 0);
	free(img);
	free(img1);
	free(w);
	free(part);
	/* 6x6: the 6x6 solver's scores, boards in the a1-f6 corner */
	snprintf(args, sizeof args,
	         "--game-train 6x6 --games 16 --game-exact 14 --game-max-search 10 --epochs 2 --threads 2 "
	         "--out %s/w6.bin --game-dump %s/d6.txt", dir, dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 0);
	snprintf(path, sizeof path, "%s/d6.txt", dir);
	d = read_dump(path, &n);
	eo = endgame_default_options();
	eo.size = 6;
	nexact = 0;
	for (int i = 0; i < n; i++) {
		ck_assert_uint_eq((d[i].b.p | d[i].b.o) & ~board_geometry(6), 0);
		ck_assert_int_eq(d[i].empties, 36 - bit_count(d[i].b.p | d[i].b.o));
		if (d[i].kind == 'e' && nexact++ < 100)
			ck_assert_int_eq(d[i].label, endgame_solve(d[i].b, &eo).score);
	}
	ck_assert_int_gt(nexact, 50);
	free(d);
	snprintf(path, sizeof path, "%s/w6.bin", dir);
	ev = eval_load(path, err);
	ck_assert_msg(ev != NULL, "%s", err);
	ck_assert_int_eq(eval_size(ev), 6);
	ck_assert_int_eq(eval_variant(ev), VARIANT_NORMAL);
	eval_free(ev);
	/* an unknown game is refused */
	snprintf(args, sizeof args, "--game-train 7x7 --out %s/x.bin", dir);
	ck_assert_int_eq(run_train(args, out, sizeof out), 2);
	ck_assert_ptr_nonnull(strstr(out, "--game-train takes anti, 6x6 or 6x6-anti"));
	snprintf(args, sizeof args, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(args), 0);
}
END_TEST

/* The built-in evaluations of 8x8 Anti, 6x6 and 6x6 Anti are the trained
 * pattern weights, and on exactly solved positions of games they never saw
 * (tests/data/game-*.txt, --game-dump of another seed) they are closer to
 * the exact score than the hand-tuned evaluations they replaced. */
START_TEST(test_game_evaluators)
{
	static const struct {
		const char *file;
		int size;
		Variant v;
	} g[3] = { { "game-anti.txt", 8, VARIANT_ANTI },
	           { "game-6x6.txt", 6, VARIANT_NORMAL },
	           { "game-6x6-anti.txt", 6, VARIANT_ANTI } };
	for (int k = 0; k < 3; k++) {
		const Evaluator *ev = eval_get(g[k].size, g[k].v), *hand = eval_hand(g[k].size, g[k].v);
		ck_assert_ptr_ne(ev, hand);
		ck_assert_int_eq(eval_size(ev), g[k].size);
		ck_assert_int_eq(eval_variant(ev), g[k].v);
		int n;
		DumpPos *d = read_dump(test_data(g[k].file), &n);
		ck_assert_int_ge(n, 200);
		double e_ev = 0, e_hand = 0;
		for (int i = 0; i < n; i++) {
			ck_assert_int_eq(d[i].kind, 'e');
			e_ev += abs(eval_score(ev, d[i].b.p, d[i].b.o) - d[i].label);
			e_hand += abs(eval_score(hand, d[i].b.p, d[i].b.o) - d[i].label);
		}
		ck_assert_msg(e_ev < e_hand, "%s: trained %.2f, hand-tuned %.2f", g[k].file, e_ev / n, e_hand / n);
		free(d);
	}
	/* 4x4 keeps its hand-tuned evaluation */
	ck_assert_ptr_eq(eval_get(4, VARIANT_NORMAL), eval_hand(4, VARIANT_NORMAL));
}
END_TEST

static Suite *eval_suite(void)
{
	Suite *s = suite_create("eval");
	TCase *t = tcase_create("eval");
	tcase_add_test(t, test_feature_set_shape);
	tcase_add_loop_test(t, test_features_match_reference, PATTERNS_KERNEL_MULTIPLY, PATTERNS_KERNEL_PEXT + 1);
	tcase_add_loop_test(t, test_incremental_state, PATTERNS_KERNEL_MULTIPLY, PATTERNS_KERNEL_PEXT + 1);
	tcase_add_test(t, test_symmetry_invariance);
	tcase_add_test(t, test_trained_weights_sensible);
	tcase_add_test(t, test_weight_file_round_trip);
	tcase_add_test(t, test_weight_file_rejection);
	tcase_add_test(t, test_widen_v2);
	tcase_add_test(t, test_weight_range);
	tcase_add_test(t, test_weight_file_fifo);
	tcase_add_test(t, test_wthor_reader);
	tcase_add_test(t, test_logbook_reader);
	tcase_add_test(t, test_game_evaluators);
	/* one thread: ThreadSanitizer has nothing to check here and runs it
	 * slower than everything else together (`make tsan` leaves it out) */
	tcase_set_tags(t, "single-threaded");
	suite_add_tcase(s, t);
	TCase *cli = tcase_create("eval_cli");
	tcase_add_test(cli, test_eval_cli);
	suite_add_tcase(s, cli);
	/* the trainer, run as a program: one case of its threads (labelling
	 * and fitting with --threads 2), then the label files and the other
	 * games' training, tagged "slow": ThreadSanitizer runs them some
	 * twenty times slower, and `make tsan` leaves them out (their
	 * threads are those of the first case) */
	TCase *tr = tcase_create("train");
	tcase_add_test(tr, test_train_engine_labels);
	suite_add_tcase(s, tr);
	TCase *slow = tcase_create("train_more");
	tcase_set_tags(slow, "slow");
	tcase_add_test(slow, test_train_label_files);
	tcase_add_test(slow, test_game_train_labels);
	suite_add_tcase(s, slow);
	return s;
}

TEST_MAIN(eval_suite)
