/*
 * book_text.c - the opening book's inspection and text forms: counts, entries,
 * statistics, verification, and the text export and import (book.c lists the
 * book's files; the text format is in book/FORMAT.md).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "book_int.h"
#include "text.h"
#include "util.h"

/* ---- inspecting ------------------------------------------------------------- */

size_t book_count(Book *b)
{
	pthread_rwlock_rdlock(&b->lock);
	size_t n = b->n + b->nextra;
	pthread_rwlock_unlock(&b->lock);
	return n;
}

bool book_entry(Book *b, size_t i, BookEntry *e)
{
	pthread_rwlock_wrlock(&b->lock);
	bool ok = (b->nextra == 0 || bk_normalise(b)) && i < b->n;
	if (ok)
		*e = b->sorted[i];
	pthread_rwlock_unlock(&b->lock);
	return ok;
}

bool book_replace(Book *b, const BookEntry *e)
{
	pthread_rwlock_wrlock(&b->lock);
	BookEntry *d = bk_find_canonical(b, e->p, e->o);
	bool ok = false;
	if (d && d >= b->sorted && d < b->sorted + b->n && !b->heap) {
		size_t idx = (size_t)(d - b->sorted);
		d = bk_make_writable(b) ? &b->heap[idx] : NULL;
	}
	if (d) {
		*d = *e;
		ok = true;
	}
	pthread_rwlock_unlock(&b->lock);
	return ok;
}

void book_stats(Book *b, BookStats *s)
{
	memset(s, 0, sizeof *s);
	pthread_rwlock_wrlock(&b->lock);
	if (b->nextra)
		bk_normalise(b);
	s->positions = b->n;
	for (size_t i = 0; i < b->n; i++) {
		const BookEntry *e = &b->sorted[i];
		s->exact += e->lower == e->upper;
		s->leaves_unknown += e->leaf == BOOK_MOVE_UNKNOWN;
		s->by_empties[64 - discs((Board){ e->p, e->o })]++;
		if (e->games > s->max_games)
			s->max_games = e->games;
	}
	const BookEntry *r = bk_find(b, board_start(8));
	if (r) {
		s->has_root = true;
		s->root_score = r->score;
		s->root_lower = r->lower;
		s->root_upper = r->upper;
	}
	pthread_rwlock_unlock(&b->lock);
}

static void board_text(Board pos, char *out)
{
	for (int sq = 0; sq < 64; sq++)
		out[sq] = (pos.p >> sq) & 1 ? 'X' : (pos.o >> sq) & 1 ? 'O' : '-';
	out[64] = 0;
}

static void move_text(int m, char *out)
{
	if (m < 64)
		text_square(m, out);
	else if (m == BOOK_MOVE_NONE)
		snprintf(out, 5, "none");
	else
		snprintf(out, 5, "?");
}

size_t book_verify(Book *b, void (*report)(void *user, const char *line), void *user,
                   size_t max_report)
{
	pthread_rwlock_wrlock(&b->lock);
	size_t problems = 0;
	char line[512], bt[65];
#define PROBLEM(...)                                                  \
	do {                                                              \
		if (report && problems < max_report) {                        \
			int len_ = snprintf(line, sizeof line, "%s X: ", bt);      \
			snprintf(line + len_, sizeof line - (size_t)len_, __VA_ARGS__); \
			report(user, line);                                       \
		}                                                             \
		problems++;                                                   \
	} while (0)
	if (!bk_normalise(b)) {
		pthread_rwlock_unlock(&b->lock);
		if (report)
			report(user, "out of memory");
		return 1;
	}
	for (size_t i = 0; i < b->n; i++) {
		const BookEntry *e = &b->sorted[i];
		Board pos = { e->p, e->o };
		board_text(pos, bt);
		if (i && bk_cmp_entry(&b->sorted[i - 1], e) >= 0)
			PROBLEM("not in strictly ascending order");
		char what[150];
		if (!bk_entry_check(e, what, sizeof what)) {
			PROBLEM("%s", what); /* the rules every reader applies on open */
			continue;
		}
		if (e->leaf < 64) {
			MoveValue v;
			bk_move_value(b, pos, e->leaf, &v);
			if (v.in_book)
				PROBLEM("leaf move is in the book");
		}
		BookEntry r = bk_recompute(b, e);
		if (!bk_entry_values_equal(&r, e)) {
			char m1[8], m2[8], l1[8], l2[8];
			move_text(e->best, m1);
			move_text(r.best, m2);
			move_text(e->leaf, l1);
			move_text(r.leaf, l2);
			PROBLEM("inconsistent with its children: stored score %d [%d, %d] level %d best %s "
			        "leaf %s, children and leaf give %d [%d, %d] level %d best %s leaf %s",
			        e->score, e->lower, e->upper, e->level, m1, l1, r.score, r.lower, r.upper,
			        r.level, m2, l2);
		}
	}
#undef PROBLEM
	pthread_rwlock_unlock(&b->lock);
	return problems;
}
/* ---- text format ----------------------------------------------------------------- */

static void level_text(int level, char *out)
{
	if (level == BOOK_LEVEL_EXACT)
		snprintf(out, 8, "exact");
	else
		snprintf(out, 8, "%d", level);
}

bool book_export(Book *b, const char *path, char *err)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		bk_set_err(err, path, strerror(errno));
		return false;
	}
	pthread_rwlock_wrlock(&b->lock);
	bool ok = bk_normalise(b);
	fprintf(f, "# emilia-book text 1: board(X to move) X score lower upper level best leaf "
	           "leaf_score leaf_lower leaf_upper leaf_level games\n");
	for (size_t i = 0; ok && i < b->n; i++) {
		const BookEntry *e = &b->sorted[i];
		char bt[65], best[8], leaf[8], lv[8], llv[8];
		board_text((Board){ e->p, e->o }, bt);
		move_text(e->best, best);
		move_text(e->leaf, leaf);
		level_text(e->level, lv);
		level_text(e->leaf_level, llv);
		fprintf(f, "%s X %d %d %d %s %s %s %d %d %d %s %u\n", bt, e->score, e->lower, e->upper, lv,
		        best, leaf, e->leaf_score, e->leaf_lower, e->leaf_upper, llv, (unsigned)e->games);
	}
	pthread_rwlock_unlock(&b->lock);
	if (ferror(f))
		ok = false;
	if (fclose(f) != 0)
		ok = false;
	if (!ok)
		bk_set_err(err, path, "write error");
	return ok;
}

static bool parse_score(const char *s, int *v)
{
	long x;
	if (!util_parse_int(s, -64, 64, &x))
		return false;
	*v = (int)x;
	return true;
}

static bool parse_level(const char *s, int *v)
{
	long x;
	if (!strcmp(s, "exact")) {
		*v = BOOK_LEVEL_EXACT;
		return true;
	}
	if (!util_parse_int(s, 0, 60, &x))
		return false;
	*v = (int)x;
	return true;
}

static bool parse_move_field(const char *s, int *v)
{
	if (!strcmp(s, "?")) {
		*v = BOOK_MOVE_UNKNOWN;
		return true;
	}
	if (!strcmp(s, "none")) {
		*v = BOOK_MOVE_NONE;
		return true;
	}
	int sq = text_parse_square(s, 8);
	if (sq < 0)
		return false;
	*v = sq;
	return true;
}

/* The board fields: 64 squares X/O/- (x, o, . too) and the side to move,
 * which must be X. */
static bool import_board(const char *squares, const char *side, long lineno, Board *pos, char *what,
                         size_t n)
{
	if (strlen(squares) != 64 || strcmp(side, "X") != 0) {
		snprintf(what, n, "line %ld: the board must be 64 squares X/O/- then X", lineno);
		return false;
	}
	for (int sq = 0; sq < 64; sq++) {
		char ch = squares[sq];
		if (ch == 'X' || ch == 'x')
			pos->p |= bit_of(sq);
		else if (ch == 'O' || ch == 'o')
			pos->o |= bit_of(sq);
		else if (ch != '-' && ch != '.') {
			snprintf(what, n, "line %ld: bad square character '%c'", lineno, ch);
			return false;
		}
	}
	return true;
}

/* One entry line s (not blank, not a comment) into b; false with what
 * set when it is refused. */
static bool import_line(Book *b, char *s, long lineno, char *what, size_t n)
{
	char *tok[16];
	int nt = 0;
	for (char *t = strtok(s, " \t"); t && nt < 16; t = strtok(NULL, " \t"))
		tok[nt++] = t;
	if (nt != 13) {
		snprintf(what, n, "line %ld: %d fields, expected 13", lineno, nt);
		return false;
	}
	Board pos = { 0, 0 };
	if (!import_board(tok[0], tok[1], lineno, &pos, what, n))
		return false;
	int score, lower, upper, level, best, leaf, ls, ll, lu, llev;
	long games;
	if (!parse_score(tok[2], &score) || !parse_score(tok[3], &lower) ||
	    !parse_score(tok[4], &upper) || !parse_level(tok[5], &level) ||
	    !parse_move_field(tok[6], &best) || !parse_move_field(tok[7], &leaf) ||
	    !parse_score(tok[8], &ls) || !parse_score(tok[9], &ll) || !parse_score(tok[10], &lu) ||
	    !parse_level(tok[11], &llev) || !util_parse_int(tok[12], 0, UINT32_MAX, &games)) {
		snprintf(what, n, "line %ld: a field is out of range or malformed", lineno);
		return false;
	}
	uint64_t moves = board_moves(pos.p, pos.o);
	if (!moves || (best < 64 && !(moves & bit_of(best))) || (leaf < 64 && !(moves & bit_of(leaf))) ||
	    best == BOOK_MOVE_NONE) {
		snprintf(what, n, "line %ld: %s", lineno,
		         !moves ? "the side to move has no legal move" : "a move is not legal");
		return false;
	}
	int sym;
	Board c = board_canonical(pos, &sym);
	bool created;
	BookEntry *e = bk_insert_canonical(b, c, &created);
	if (!e || !created) {
		snprintf(what, n, "line %ld: %s", lineno,
		         e ? "position listed twice (up to symmetry)" : "out of memory");
		return false;
	}
	e->score = (int8_t)score;
	e->lower = (int8_t)lower;
	e->upper = (int8_t)upper;
	e->level = (uint8_t)level;
	e->best = (uint8_t)bk_move_to_canonical(best, sym);
	e->leaf = (uint8_t)bk_move_to_canonical(leaf, sym);
	e->leaf_score = (int8_t)ls;
	e->leaf_lower = (int8_t)ll;
	e->leaf_upper = (int8_t)lu;
	e->leaf_level = (uint8_t)llev;
	e->games = (uint32_t)games;
	char problem[150];
	if (!bk_entry_check(e, problem, sizeof problem)) {
		/* what a reader would refuse is never written */
		snprintf(what, n, "line %ld: %s", lineno, problem);
		return false;
	}
	return true;
}

Book *book_import(const char *path, char *err)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		bk_set_err(err, path, strerror(errno));
		return NULL;
	}
	Book *b = bk_alloc(path);
	if (!b) {
		fclose(f);
		bk_set_err(err, path, "out of memory");
		return NULL;
	}
	char buf[1024];
	long lineno = 0;
	char what[200];
	bool ok = true;
	while (ok && fgets(buf, sizeof buf, f)) {
		lineno++;
		size_t len = strlen(buf);
		if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
			snprintf(what, sizeof what, "line %ld: too long", lineno);
			ok = false;
			break;
		}
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = 0;
		char *s = buf;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			continue;
		ok = import_line(b, s, lineno, what, sizeof what);
	}
	if (ok && ferror(f)) {
		snprintf(what, sizeof what, "read error");
		ok = false;
	}
	fclose(f);
	if (ok && !bk_normalise(b)) {
		snprintf(what, sizeof what, "out of memory");
		ok = false;
	}
	if (!ok) {
		bk_set_err(err, path, what);
		book_free(b);
		return NULL;
	}
	return b;
}
