/*
 * book_build.c - building the opening book: games added and learnt, fixing,
 * pruning and merging, the searched leaves and the deviations (book.c lists
 * the book's files).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "book_int.h"
#include "util.h"

/* ---- changing ------------------------------------------------------------ */

static bool add_game_locked(Book *b, const Game *g, int max_plies, char *err)
{
	if (!bk_game_ok(g)) {
		bk_set_err(err, b->name, "only 8x8 normal games can go into the book");
		return false;
	}
	int plies = g->nply;
	if (max_plies > 0 && max_plies < plies)
		plies = max_plies;
	for (int i = 0; i <= plies; i++) {
		Board pos;
		if (i < g->nply)
			pos = g->hist[i].board;
		else if (i == g->nply && (max_plies <= 0 || i < max_plies))
			pos = g->board;
		else
			break;
		if (!board_moves(pos.p, pos.o))
			continue; /* a pass (stored as the position after it) or the end */
		BookEntry *e = bk_insert_canonical(b, board_canonical(pos, NULL), NULL);
		if (!e) {
			bk_set_err(err, b->name, "out of memory");
			return false;
		}
		if (e->games != UINT32_MAX)
			e->games++;
	}
	return true;
}

bool book_add_game(Book *b, const Game *g, int max_plies, char *err)
{
	pthread_rwlock_wrlock(&b->lock);
	bool ok = add_game_locked(b, g, max_plies, err);
	pthread_rwlock_unlock(&b->lock);
	return ok;
}

static uint32_t tick_due(double *last)
{
	double t = util_now();
	if (t - *last < 1.0)
		return 0;
	*last = t;
	return 1;
}

static size_t fix_locked(Book *b, BookProgressFn progress, void *user)
{
	if (!bk_normalise(b))
		return 0;
	/* children have one disc more than their parent: process by disc count,
	 * most discs first; positions with equal counts are independent. */
	size_t count[66] = { 0 }, start[66];
	for (size_t i = 0; i < b->n; i++)
		count[discs((Board){ b->sorted[i].p, b->sorted[i].o })]++;
	size_t *order = malloc((b->n ? b->n : 1) * sizeof *order);
	if (!order)
		return 0;
	start[65] = 0;
	for (int d = 64; d >= 0; d--)
		start[d] = start[d + 1] + count[d + 1];
	for (size_t i = 0; i < b->n; i++)
		order[start[discs((Board){ b->sorted[i].p, b->sorted[i].o })]++] = i;
	size_t changed = 0;
	double last = util_now();
	for (size_t k = 0; k < b->n; k++) {
		BookEntry *e = &b->heap[order[k]];
		BookEntry r = bk_recompute(b, e);
		if (!bk_entry_values_equal(&r, e)) {
			*e = r;
			changed++;
		}
		if (progress && tick_due(&last))
			progress(user, "fix", k + 1, b->n);
	}
	free(order);
	if (progress)
		progress(user, "fix", b->n, b->n);
	return changed;
}

size_t book_fix(Book *b, BookProgressFn progress, void *user)
{
	pthread_rwlock_wrlock(&b->lock);
	size_t c = fix_locked(b, progress, user);
	pthread_rwlock_unlock(&b->lock);
	return c;
}

bool book_learn(Book *b, const Game *g, char *err)
{
	pthread_rwlock_wrlock(&b->lock);
	bool ok = add_game_locked(b, g, 0, err);
	if (ok)
		fix_locked(b, NULL, NULL);
	pthread_rwlock_unlock(&b->lock);
	return ok;
}

size_t book_prune(Book *b, uint32_t min_games, Board root)
{
	pthread_rwlock_wrlock(&b->lock);
	size_t removed = 0;
	if (bk_normalise(b)) {
		Board rc = board_canonical(root, NULL);
		size_t k = 0;
		for (size_t i = 0; i < b->n; i++) {
			const BookEntry *e = &b->heap[i];
			if (e->games >= min_games || (e->p == rc.p && e->o == rc.o))
				b->heap[k++] = *e;
		}
		removed = b->n - k;
		b->n = k;
	}
	pthread_rwlock_unlock(&b->lock);
	return removed;
}

bool book_merge(Book *dst, Book *src, char *err)
{
	if (dst == src)
		return true;
	/* lock in address order so two opposite merges cannot deadlock */
	Book *first = dst < src ? dst : src, *second = dst < src ? src : dst;
	pthread_rwlock_wrlock(&first->lock);
	pthread_rwlock_wrlock(&second->lock);
	bool ok = bk_normalise(src);
	for (size_t i = 0; ok && i < src->n; i++) {
		const BookEntry *s = &src->sorted[i];
		bool created;
		BookEntry *d = bk_insert_canonical(dst, (Board){ s->p, s->o }, &created);
		if (!d) {
			ok = false;
			break;
		}
		if (created) {
			*d = *s;
			continue;
		}
		uint64_t games = (uint64_t)d->games + s->games;
		d->games = games > UINT32_MAX ? UINT32_MAX : (uint32_t)games;
		bool src_leaf = s->leaf != BOOK_MOVE_UNKNOWN;
		if (src_leaf && (d->leaf == BOOK_MOVE_UNKNOWN || s->leaf_level > d->leaf_level)) {
			d->leaf = s->leaf;
			d->leaf_score = s->leaf_score;
			d->leaf_lower = s->leaf_lower;
			d->leaf_upper = s->leaf_upper;
			d->leaf_level = s->leaf_level;
		}
	}
	if (ok)
		fix_locked(dst, NULL, NULL);
	else
		bk_set_err(err, dst->name, "out of memory while merging");
	pthread_rwlock_unlock(&second->lock);
	pthread_rwlock_unlock(&first->lock);
	return ok;
}
/* ---- searching leaves --------------------------------------------------------- */

typedef struct LeafJob {
	Board pos;             /* canonical position */
	uint64_t outside;      /* its non-book moves */
	int leaf, score, lower, upper;
	bool failed;
} LeafJob;

typedef struct LeafWork {
	const Book *book;
	const BookSearchOptions *opt;
	LeafJob *jobs;
	size_t njobs;
	atomic_size_t next, done;
	atomic_bool failed;
	pthread_mutex_t mutex;   /* with `finished`: wakes the waiting caller */
	pthread_cond_t finished;
	int running;             /* worker threads still running (under mutex) */
} LeafWork;

typedef struct LeafThread {
	LeafWork *w;
	int index;
} LeafThread;

static void leaf_job_run(LeafWork *w, int thread, LeafJob *j)
{
	const BookSearchOptions *opt = w->opt;
	int best = -1, best_score = -65, lower = -64;
	bool all_exact = true;
	for (uint64_t m = j->outside; m; m = bit_pop(m)) {
		int sq = bit_first(m);
		Board node;
		int fin = 0, v;
		bool exact;
		int sign = bk_move_child(j->pos, sq, &node, &fin);
		if (sign == 0) {
			v = fin;
			exact = true;
		} else {
			int s = 0;
			exact = false;
			if (!opt->search(opt->ctx, thread, node, opt->level, &s, &exact)) {
				j->failed = true;
				return;
			}
			if (s < -64)
				s = -64;
			if (s > 64)
				s = 64;
			v = sign * s;
		}
		if (v > best_score) {
			best_score = v;
			best = sq;
		}
		if (exact) {
			if (v > lower)
				lower = v;
		} else {
			all_exact = false;
		}
	}
	j->leaf = best;
	j->score = best_score;
	j->lower = all_exact ? best_score : lower;
	j->upper = all_exact ? best_score : 64;
	if (j->score < j->lower)
		j->score = j->lower;
}

static void *leaf_thread(void *arg)
{
	LeafThread *t = arg;
	LeafWork *w = t->w;
	for (;;) {
		if (atomic_load(&w->failed))
			break;
		size_t i = atomic_fetch_add(&w->next, 1);
		if (i >= w->njobs)
			break;
		leaf_job_run(w, t->index, &w->jobs[i]);
		if (w->jobs[i].failed)
			atomic_store(&w->failed, true);
		atomic_fetch_add(&w->done, 1);
	}
	pthread_mutex_lock(&w->mutex);
	if (--w->running == 0)
		pthread_cond_broadcast(&w->finished);
	pthread_mutex_unlock(&w->mutex);
	return NULL;
}

/* Search all unknown leaves; caller holds the write lock. */
static long search_leaves_locked(Book *b, const BookSearchOptions *opt, char *err)
{
	if (opt->level < 0 || opt->level > 60) {
		/* stored levels are 0..60 (or exact): a reader refuses others */
		bk_set_err(err, b->name, "the search level must be 0..60");
		return -1;
	}
	fix_locked(b, NULL, NULL); /* marks stale leaves unknown */
	size_t nj = 0;
	for (size_t i = 0; i < b->n; i++)
		nj += b->sorted[i].leaf == BOOK_MOVE_UNKNOWN;
	if (!nj)
		return 0;
	LeafJob *jobs = calloc(nj, sizeof *jobs);
	size_t *where = malloc(nj * sizeof *where);
	if (!jobs || !where) {
		free(jobs);
		free(where);
		bk_set_err(err, b->name, "out of memory");
		return -1;
	}
	size_t k = 0;
	for (size_t i = 0; i < b->n; i++) {
		const BookEntry *e = &b->sorted[i];
		if (e->leaf != BOOK_MOVE_UNKNOWN)
			continue;
		Board pos = { e->p, e->o };
		uint64_t outside = 0;
		for (uint64_t m = board_moves(pos.p, pos.o); m; m = bit_pop(m)) {
			MoveValue v;
			bk_move_value(b, pos, bit_first(m), &v);
			if (!v.in_book)
				outside |= m & (0 - m);
		}
		jobs[k].pos = pos;
		jobs[k].outside = outside;
		where[k++] = i;
	}
	LeafWork w = { .book = b, .opt = opt, .jobs = jobs, .njobs = nj };
	atomic_init(&w.next, 0);
	atomic_init(&w.done, 0);
	atomic_init(&w.failed, false);
	pthread_mutex_init(&w.mutex, NULL);
	pthread_cond_init(&w.finished, NULL);
	int nt = opt->threads < 1 ? 1 : opt->threads > 256 ? 256 : opt->threads;
	pthread_t tid[256];
	LeafThread targ[256];
	int started = 0;
	w.running = nt;
	for (int t = 0; t < nt; t++) {
		targ[t] = (LeafThread){ &w, t };
		if (pthread_create(&tid[t], NULL, leaf_thread, &targ[t]) == 0) {
			started++;
		} else {
			pthread_mutex_lock(&w.mutex);
			w.running -= nt - t; /* the threads that will not run */
			pthread_mutex_unlock(&w.mutex);
			break;
		}
	}
	if (!started) {
		w.running = 1;
		leaf_thread(&targ[0]);
	}
	/* wait for the workers, reporting progress about once a second */
	pthread_mutex_lock(&w.mutex);
	while (w.running > 0) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		pthread_cond_timedwait(&w.finished, &w.mutex, &ts);
		if (w.running > 0 && opt->progress)
			opt->progress(opt->user, "leaves", atomic_load(&w.done), nj);
	}
	pthread_mutex_unlock(&w.mutex);
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&w.mutex);
	pthread_cond_destroy(&w.finished);
	long result = (long)nj;
	if (atomic_load(&w.failed)) {
		bk_set_err(err, b->name, "a search failed (aborted)");
		result = -1;
	} else {
		for (size_t i = 0; i < nj; i++) {
			BookEntry *e = &b->heap[where[i]];
			const LeafJob *j = &jobs[i];
			if (!j->outside)
				continue;
			e->leaf = (uint8_t)j->leaf;
			e->leaf_score = (int8_t)j->score;
			e->leaf_lower = (int8_t)j->lower;
			e->leaf_upper = (int8_t)j->upper;
			e->leaf_level = (uint8_t)(j->lower == j->upper ? BOOK_LEVEL_EXACT : opt->level);
		}
		fix_locked(b, NULL, NULL);
	}
	free(jobs);
	free(where);
	return result;
}

long book_search_leaves(Book *b, const BookSearchOptions *opt, char *err)
{
	pthread_rwlock_wrlock(&b->lock);
	long r = bk_normalise(b) ? search_leaves_locked(b, opt, err) : -1;
	if (r < 0 && err && !err[0])
		bk_set_err(err, b->name, "out of memory");
	pthread_rwlock_unlock(&b->lock);
	return r;
}
/* A set of canonical boards (deviate's visited set and candidate list). */
typedef struct BoardSet {
	Board *keys;
	size_t cap, n;
} BoardSet;

static bool boardset_add(BoardSet *s, Board c)
{
	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 4096;
		Board *k = calloc(cap, sizeof *k);
		if (!k)
			return false;
		for (size_t i = 0; i < s->cap; i++) {
			if (!(s->keys[i].p | s->keys[i].o))
				continue;
			size_t j = (size_t)mix64(s->keys[i].p ^ mix64(s->keys[i].o)) & (cap - 1);
			while (k[j].p | k[j].o)
				j = (j + 1) & (cap - 1);
			k[j] = s->keys[i];
		}
		free(s->keys);
		s->keys = k;
		s->cap = cap;
	}
	size_t j = (size_t)mix64(c.p ^ mix64(c.o)) & (s->cap - 1);
	while (s->keys[j].p | s->keys[j].o) {
		if (s->keys[j].p == c.p && s->keys[j].o == c.o)
			return false;
		j = (j + 1) & (s->cap - 1);
	}
	s->keys[j] = c;
	s->n++;
	return true;
}

long book_deviate(Book *b, Board root, int margin, int max_ply, size_t max_positions,
                  const BookSearchOptions *opt, char *err)
{
	if (!board_moves(root.p, root.o))
		root = board_pass(root);
	if (!board_moves(root.p, root.o)) {
		bk_set_err(err, b->name, "the root position is finished");
		return -1;
	}
	if (max_ply <= 0)
		max_ply = 60;
	pthread_rwlock_wrlock(&b->lock);
	long added = 0;
	const int root_discs = discs(root);
	if (!bk_insert_canonical(b, board_canonical(root, NULL), NULL) || !bk_normalise(b))
		goto oom;
	if (search_leaves_locked(b, opt, err) < 0)
		goto fail;
	for (int round = 1;; round++) {
		if (max_positions && b->n >= max_positions)
			break;
		/* walk the tree from the root along moves within the margin */
		BoardSet seen = { 0 };
		Board *queue = NULL, *cand = NULL;
		size_t qn = 0, qcap = 0, cn = 0, ccap = 0;
		bool mem = true;
		Board rc = board_canonical(root, NULL);
		boardset_add(&seen, rc);
		queue = malloc(sizeof *queue * (qcap = 1024));
		if (!queue)
			mem = false;
		else
			queue[qn++] = rc;
		for (size_t qi = 0; mem && qi < qn; qi++) {
			Board pos = queue[qi];
			const BookEntry *e = bk_find(b, pos);
			if (!e || e->best == BOOK_MOVE_UNKNOWN)
				continue;
			for (uint64_t m = board_moves(pos.p, pos.o); m; m = bit_pop(m)) {
				int sq = bit_first(m);
				Board node;
				int fin;
				int sign = bk_move_child(pos, sq, &node, &fin);
				if (sign == 0)
					continue;
				int d = discs(node) - root_discs;
				bool is_leaf = sq == e->leaf;
				MoveValue v;
				bk_move_value(b, pos, sq, &v);
				int value = is_leaf ? e->leaf_score : v.score;
				if (!(is_leaf || (v.in_book && v.has_est)) || value < e->score - margin)
					continue;
				if (d > max_ply)
					continue;
				Board c = board_canonical(node, NULL);
				if (!boardset_add(&seen, c))
					continue;
				if (is_leaf) {
					if (cn == ccap) {
						Board *x = realloc(cand, sizeof *x * (ccap = ccap ? 2 * ccap : 1024));
						if (!x) {
							mem = false;
							break;
						}
						cand = x;
					}
					cand[cn++] = c;
				} else {
					if (qn == qcap) {
						Board *x = realloc(queue, sizeof *x * (qcap *= 2));
						if (!x) {
							mem = false;
							break;
						}
						queue = x;
					}
					queue[qn++] = c;
				}
			}
		}
		free(seen.keys);
		free(queue);
		if (!mem) {
			free(cand);
			goto oom;
		}
		if (!cn) {
			free(cand);
			break;
		}
		if (max_positions && b->n + cn > max_positions)
			cn = max_positions - b->n;
		for (size_t i = 0; i < cn; i++) {
			if (!bk_insert_canonical(b, cand[i], NULL)) {
				free(cand);
				goto oom;
			}
		}
		free(cand);
		added += (long)cn;
		if (!bk_normalise(b))
			goto oom;
		if (opt->progress) /* book size against its cap */
			opt->progress(opt->user, "deviate: positions in the book", (uint64_t)b->n,
			              max_positions ? (uint64_t)max_positions : 0);
		if (search_leaves_locked(b, opt, err) < 0)
			goto fail;
		(void)round;
	}
	pthread_rwlock_unlock(&b->lock);
	return added;
oom:
	bk_set_err(err, b->name, "out of memory");
fail:
	pthread_rwlock_unlock(&b->lock);
	return -1;
}
