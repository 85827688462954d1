/*
 * labels.c - the training archives game by game, and exact label files
 * (labels.h).
 */
#include "labels.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>
#include "endgame.h"
#include "eval.h"
#include "game.h"
#include "util.h"
#include "weights.h"

#define LABEL_FILE_MAGIC "emilia-labels"
#define LABEL_FILE_VERSION 1
#define LABEL_SKIP 255

/* ---- the archives ------------------------------------------------------- */

static long visit_wtb(const char *path, const char *source, bool wthor, GameFn fn, void *user)
{
	char err[WEIGHTS_ERR];
	size_t len;
	unsigned char *buf = weights_read_file(path, 64u << 20, &len, err);
	if (!buf) {
		fprintf(stderr, "%s (skipped)\n", err);
		return 0;
	}
	WthorHeader h;
	if (!wthor_header(buf, len, &h, err)) {
		fprintf(stderr, "%s: %s (skipped)\n", path, err);
		free(buf);
		return 0;
	}
	if (err[0])
		fprintf(stderr, "%s: %s\n", path, err);
	long n = 0;
	for (uint32_t i = 0; i < h.nrecords; i++) {
		WthorGame w;
		if (!wthor_record(buf, &h, i, &w, err)) {
			fprintf(stderr, "%s: %s (skipped)\n", path, err);
			continue;
		}
		if (!wthor)
			w.has_theory = false;
		GameRef r = { source, i, wthor, wthor ? h.year : 0 };
		fn(user, &r, &w);
		n++;
	}
	free(buf);
	return n;
}

static long visit_logbook(const char *path, const char *source, GameFn fn, void *user)
{
	gzFile f = gzopen(path, "rb");
	if (!f) {
		fprintf(stderr, "%s: cannot open (skipped)\n", path);
		return 0;
	}
	char line[1024];
	long n = 0;
	uint32_t ln = 0;
	while (gzgets(f, line, sizeof line)) {
		uint32_t index = ln++;
		size_t l = strlen(line);
		if (l == sizeof line - 1 && line[l - 1] != '\n') {
			fprintf(stderr, "%s:%u: line too long (skipped)\n", path, index + 1);
			int c;
			while ((c = gzgetc(f)) >= 0 && c != '\n')
				;
			continue;
		}
		WthorGame w;
		char err[WTHOR_ERR];
		if (!wthor_logbook_line(line, &w, err)) {
			fprintf(stderr, "%s:%u: %s (skipped)\n", path, index + 1, err);
			continue;
		}
		GameRef r = { source, index, false, 0 };
		fn(user, &r, &w);
		n++;
	}
	gzclose(f);
	return n;
}

static const char *selfplay_dir;

void games_set_selfplay(const char *dir)
{
	selfplay_dir = dir;
}

long games_for_each(const char *dir, unsigned flags, GameFn fn, void *user)
{
	char path[4096], source[32];
	long n = 0;
	int years = 0;
	for (int y = 1970; y < 2100; y++) {
		snprintf(path, sizeof path, "%s/wthor/WTH_%d.wtb", dir, y);
		struct stat st;
		if (stat(path, &st) != 0)
			continue;
		snprintf(source, sizeof source, "WTH_%d", y);
		n += visit_wtb(path, source, true, fn, user);
		years++;
	}
	if (!years)
		fprintf(stderr, "no %s/wthor/WTH_*.wtb files\n", dir);
	if (!(flags & GAMES_NO_BOOK)) {
		snprintf(path, sizeof path, "%s/Logistello_book_1999.wtb", dir);
		n += visit_wtb(path, "book", false, fn, user);
	}
	if (!(flags & GAMES_NO_LOGBOOK)) {
		snprintf(path, sizeof path, "%s/logbook.gam.gz", dir);
		n += visit_logbook(path, "logbook", fn, user);
	}
	if (selfplay_dir && !(flags & GAMES_NO_SELFPLAY)) {
		for (int k = 0; k < 1000; k++) {
			struct stat st;
			snprintf(path, sizeof path, "%s/sp-%03d.gam.gz", selfplay_dir, k);
			if (stat(path, &st) != 0)
				continue;
			snprintf(source, sizeof source, "sp-%03d", k);
			n += visit_logbook(path, source, fn, user);
		}
	}
	return n;
}

void replay_start(GameReplay *r, const WthorGame *w)
{
	game_init(&r->g, 8, VARIANT_NORMAL);
	r->w = w;
	r->n = -1;
	r->failed = false;
}

bool replay_next(GameReplay *r)
{
	if (r->n >= 0 && game_play(&r->g, r->w->moves[r->n]) != GAME_OK) {
		r->failed = true;
		return false;
	}
	if (++r->n >= r->w->nmoves)
		return false;
	if (game_must_pass(&r->g))
		game_play(&r->g, BOARD_PASS);
	return true;
}

/* The sampled positions of a game (labels.h), by empties; false where
 * there is none.  (The readers replayed the game: it cannot fail.) */
static void game_positions(const WthorGame *w, Board pos[61], bool has[61])
{
	memset(has, 0, 61 * sizeof *has);
	GameReplay r;
	for (replay_start(&r, w); replay_next(&r);) {
		int e = game_empties(&r.g);
		pos[e] = r.g.board;
		has[e] = true;
	}
}

static int solve_exact(EndgameTables *tables, Board b, int size, Variant v)
{
	EndgameOptions eo = endgame_default_options();
	eo.size = size;
	eo.variant = v;
	eo.threads = 1;
	eo.hash_mb = 16;
	eo.tables = tables;
	return endgame_solve(b, &eo).score;
}

/* ---- writing label files ------------------------------------------------ */

typedef struct Task {
	Board b;
	uint32_t slot;   /* byte offset in the chunk */
} Task;

typedef struct Chunk {
	const LabelJob *job;
	char method[32];         /* "exact" or "dD-XXXXXXXX" */
	char source[32];
	uint32_t first, count;   /* count = last index seen + 1 - first */
	WthorGame *games;        /* LABELS_CHUNK, valid where present[] */
	bool *present;
	Task *tasks;
	size_t ntasks;
	_Atomic size_t next;
	const Evaluator *ev;     /* the search's weights (NULL: built in) */
	uint8_t *bytes;
	double t0, spent;
	long written, skipped, positions;
	bool stopped, failed;
} Chunk;

bool label_searcher_init(LabelSearcher *s, const Evaluator *ev)
{
	return label_searcher_init_game(s, ev, 8, VARIANT_NORMAL);
}

bool label_searcher_init_game(LabelSearcher *s, const Evaluator *ev, int size, Variant v)
{
	s->size = size;
	s->variant = v;
	if (!tt_init(&s->tt, 4))
		return false;
	s->t = calloc(1, sizeof *s->t);
	s->eg = endgame_tables_new();
	if (!s->t || !s->eg) {
		free(s->t);
		endgame_tables_free(s->eg);
		tt_free(&s->tt);
		return false;
	}
	search_shared_init(&s->sh, &s->tt, size, v);
	if (ev)
		s->sh.ev = ev;
	s->sh.threads = s->t;
	s->sh.nthreads = 1;
	search_thread_init(s->t, &s->sh, 0);
	s->t->sel = SEARCH_SEL_NONE;
	return true;
}

int label_searcher_value(LabelSearcher *s, Board b, int depth)
{
	tt_clear(&s->tt);
	int v = 0;
	for (int d = 1; d <= depth; d++)
		v = search_value(s->t, b, d, -SEARCH_INF, SEARCH_INF);
	return v;
}

void label_searcher_free(LabelSearcher *s)
{
	endgame_tables_free(s->eg);
	free(s->t);
	tt_free(&s->tt);
}

int label_value(LabelSearcher *s, Board b, int depth)
{
	return depth ? label_searcher_value(s, b, depth) : solve_exact(s->eg, b, s->size, s->variant);
}

static void *label_worker(void *arg)
{
	Chunk *c = arg;
	const int depth = c->job->depth;
	LabelSearcher se;
	if (!label_searcher_init(&se, c->ev)) {
		fprintf(stderr, "labels: out of memory\n");
		exit(1);
	}
	for (;;) {
		size_t i = atomic_fetch_add(&c->next, 1);
		if (i >= c->ntasks)
			break;
		c->bytes[c->tasks[i].slot] = (uint8_t)(label_value(&se, c->tasks[i].b, depth) + 64);
	}
	label_searcher_free(&se);
	return NULL;
}

static void chunk_path(const Chunk *c, char *path, size_t size, bool tmp)
{
	snprintf(path, size, "%s/%s.%u.e%d-%d.%s.lab.gz%s", c->job->out, c->source, c->first, c->job->lo,
	         c->job->hi, c->method, tmp ? ".tmp" : "");
}

/* Solve and write the chunk gathered so far (unless its file exists). */
static void chunk_flush(Chunk *c)
{
	if (!c->count)
		return;
	const LabelJob *j = c->job;
	const int width = j->hi - j->lo + 1;
	char path[4096], tmp[4096];
	chunk_path(c, path, sizeof path, false);
	chunk_path(c, tmp, sizeof tmp, true);
	struct stat st;
	if (stat(path, &st) == 0 || c->stopped) {
		c->skipped++;
		goto done;
	}
	if (j->time_limit > 0 && util_now() - c->t0 > j->time_limit) {
		fprintf(stderr, "labels: time limit reached; the next run goes on from %s\n", path);
		c->stopped = true;
		goto done;
	}
	double t1 = util_now();
	c->bytes = malloc((size_t)c->count * (size_t)width);
	c->tasks = malloc((size_t)c->count * (size_t)width * sizeof *c->tasks);
	if (!c->bytes || !c->tasks) {
		fprintf(stderr, "labels: out of memory\n");
		exit(1);
	}
	memset(c->bytes, LABEL_SKIP, (size_t)c->count * (size_t)width);
	c->ntasks = 0;
	for (uint32_t g = 0; g < c->count; g++) {
		if (!c->present[g] || (c->first + g) % (uint32_t)j->stride)
			continue;
		Board pos[61];
		bool has[61];
		game_positions(&c->games[g], pos, has);
		for (int e = j->lo; e <= j->hi; e++)
			if (has[e])
				c->tasks[c->ntasks++] = (Task){ pos[e], g * (uint32_t)width + (uint32_t)(j->hi - e) };
	}
	int nt = j->threads < 1 ? 1 : j->threads > 64 ? 64 : j->threads;
	if (j->value_batch) {
		Board *b = malloc((c->ntasks + 1) * sizeof *b);
		int8_t *v = malloc(c->ntasks + 1);
		bool ok = b && v;
		for (size_t i = 0; ok && i < c->ntasks; i++)
			b[i] = c->tasks[i].b;
		ok = ok && j->value_batch(j->user, b, c->ntasks, v);
		for (size_t i = 0; ok && i < c->ntasks; i++)
			c->bytes[c->tasks[i].slot] = (uint8_t)(v[i] + 64);
		free(b);
		free(v);
		if (!ok) {
			fprintf(stderr, "labels: %s: the positions could not be labelled; stopping\n", path);
			free(c->bytes);
			free(c->tasks);
			c->bytes = NULL;
			c->tasks = NULL;
			c->stopped = c->failed = true;
			goto done;
		}
	} else {
		atomic_store(&c->next, 0);
		pthread_t th[64];
		for (int t = 0; t < nt; t++)
			pthread_create(&th[t], NULL, label_worker, c);
		for (int t = 0; t < nt; t++)
			pthread_join(th[t], NULL);
	}
	gzFile f = gzopen(tmp, "wb9");
	if (!f) {
		fprintf(stderr, "labels: cannot write %s: %s\n", tmp, strerror(errno));
		exit(1);
	}
	char head[160];
	int hl = snprintf(head, sizeof head, "%s %d %s %u %u %d %d %d %s\n", LABEL_FILE_MAGIC,
	                  LABEL_FILE_VERSION, c->source, c->first, c->count, j->lo, j->hi, j->stride,
	                  c->method);
	size_t nb = (size_t)c->count * (size_t)width;
	if (gzwrite(f, head, (unsigned)hl) != hl || gzwrite(f, c->bytes, (unsigned)nb) != (int)nb
	    || gzclose(f) != Z_OK || rename(tmp, path) != 0) {
		fprintf(stderr, "labels: cannot write %s\n", path);
		remove(tmp);
		exit(1);
	}
	double dt = util_now() - t1;
	c->spent += dt;
	c->written++;
	c->positions += (long)c->ntasks;
	fprintf(stderr, "labels: %s: %zu positions in %.1f s (%.2f ms each)\n", path, c->ntasks, dt,
	        c->ntasks ? 1000.0 * dt * nt / (double)c->ntasks : 0.0);
	free(c->bytes);
	free(c->tasks);
	c->bytes = NULL;
	c->tasks = NULL;
done:
	memset(c->present, 0, LABELS_CHUNK * sizeof *c->present);
	c->count = 0;
}

unsigned games_source_kind(const GameRef *r)
{
	return r->wthor ? LABEL_SRC_WTHOR : !strcmp(r->source, "book") ? LABEL_SRC_BOOK
	       : !strcmp(r->source, "logbook") ? LABEL_SRC_LOGBOOK : LABEL_SRC_SELFPLAY;
}

static void label_visit(void *user, const GameRef *r, const WthorGame *w)
{
	Chunk *c = user;
	const LabelJob *j = c->job;
	if (j->sources && !(j->sources & games_source_kind(r)))
		return;
	if (j->year_lo && (!r->wthor || r->year < j->year_lo || r->year > j->year_hi))
		return;
	if (j->except_lo && r->wthor && r->year >= j->except_lo && r->year <= j->except_hi)
		return;
	uint32_t first = r->index / LABELS_CHUNK * LABELS_CHUNK;
	if (c->count && (strcmp(c->source, r->source) || first != c->first))
		chunk_flush(c);
	if (!c->count) {
		snprintf(c->source, sizeof c->source, "%s", r->source);
		c->first = first;
	}
	c->games[r->index - first] = *w;
	c->present[r->index - first] = true;
	c->count = r->index - first + 1;
}

static bool year_range(const char *v, int *lo, int *hi)
{
	return sscanf(v, "%d-%d", lo, hi) == 2 && *lo >= 1 && *lo <= *hi;
}

int labels_job_option(LabelJob *j, const char *name, const char *v)
{
	long l;
	if (!strcmp(name, "--label-empties"))
		return sscanf(v, "%d-%d", &j->lo, &j->hi) == 2 && j->lo >= 1 && j->hi <= 30 && j->lo <= j->hi ? 1 : -1;
	if (!strcmp(name, "--label-years"))
		return year_range(v, &j->year_lo, &j->year_hi) ? 1 : -1;
	if (!strcmp(name, "--label-except"))
		return year_range(v, &j->except_lo, &j->except_hi) ? 1 : -1;
	if (!strcmp(name, "--label-stride"))
		return util_parse_int(v, 1, 1000000, &l) ? (j->stride = (int)l, 1) : -1;
	if (!strcmp(name, "--label-depth"))
		return util_parse_int(v, 1, 30, &l) ? (j->depth = (int)l, 1) : -1;
	if (!strcmp(name, "--label-eval"))
		return (j->eval = v), 1;
	if (strcmp(name, "--label-sources"))
		return 0;
	char buf[64];
	snprintf(buf, sizeof buf, "%s", v);
	j->sources = 0;
	char *save = NULL;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "wthor"))
			j->sources |= LABEL_SRC_WTHOR;
		else if (!strcmp(t, "book"))
			j->sources |= LABEL_SRC_BOOK;
		else if (!strcmp(t, "logbook"))
			j->sources |= LABEL_SRC_LOGBOOK;
		else if (!strcmp(t, "selfplay"))
			j->sources |= LABEL_SRC_SELFPLAY;
		else
			return -1;
	}
	return 1;
}

int labels_make(const LabelJob *job)
{
	if (mkdir(job->out, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "labels: cannot create %s: %s\n", job->out, strerror(errno));
		return 1;
	}
	Chunk c;
	memset(&c, 0, sizeof c);
	c.job = job;
	c.games = malloc(LABELS_CHUNK * sizeof *c.games);
	c.present = calloc(LABELS_CHUNK, sizeof *c.present);
	if (!c.games || !c.present) {
		fprintf(stderr, "labels: out of memory\n");
		return 1;
	}
	snprintf(c.method, sizeof c.method, "exact");
	if (job->depth) {
		/* the search's weights: a file, or the built-in ones */
		char err[WEIGHTS_ERR];
		size_t len;
		unsigned char *img = NULL;
		const unsigned char *w;
		if (job->eval) {
			Evaluator *ev = NULL;
			if (!(img = weights_read_file(job->eval, 64u << 20, &len, err)) || !(ev = eval_load(job->eval, err))) {
				fprintf(stderr, "labels: %s\n", err);
				free(img);
				return 1;
			}
			c.ev = ev;
			w = img;
		} else {
			w = weights_builtin(&len);
		}
		snprintf(c.method, sizeof c.method, "d%d-%08x", job->depth,
		         (unsigned)(weights_checksum(w, len) >> 32));
		free(img);
	}
	c.t0 = util_now();
	games_for_each(job->data,
	               (job->sources && !(job->sources & LABEL_SRC_BOOK) ? GAMES_NO_BOOK : 0u)
	               | (job->sources && !(job->sources & LABEL_SRC_LOGBOOK) ? GAMES_NO_LOGBOOK : 0u)
	               | (job->sources && !(job->sources & LABEL_SRC_SELFPLAY) ? GAMES_NO_SELFPLAY : 0u),
	               label_visit, &c);
	chunk_flush(&c);
	fprintf(stderr, "labels: %ld chunks written (%ld positions, %.0f s solving), %ld already there%s\n",
	        c.written, c.positions, c.spent, c.skipped, c.stopped ? "; stopped by the time limit" : "");
	free(c.games);
	free(c.present);
	eval_free((Evaluator *)c.ev);
	return c.failed ? 1 : 0;
}

/* ---- reading label files ------------------------------------------------ */

typedef struct LabelSource {
	char name[32];
	uint32_t n;        /* games with room */
	int8_t *lab;       /* n * 61, LABEL_NONE where unknown */
} LabelSource;

/* One kind of labels: [0] exact, [1] search. */
typedef struct LabelKind {
	LabelSource *src;
	int nsrc;
	long count;
} LabelKind;

struct Labels {
	LabelKind kind[2];
	char method[64];     /* of the search labels */
};

static LabelSource *labels_source(LabelKind *l, const char *name, uint32_t need)
{
	LabelSource *s = NULL;
	for (int i = 0; i < l->nsrc; i++)
		if (!strcmp(l->src[i].name, name))
			s = &l->src[i];
	if (!s) {
		LabelSource *ns = realloc(l->src, (size_t)(l->nsrc + 1) * sizeof *ns);
		if (!ns)
			return NULL;
		l->src = ns;
		s = &l->src[l->nsrc++];
		memset(s, 0, sizeof *s);
		snprintf(s->name, sizeof s->name, "%s", name);
	}
	if (need > s->n) {
		uint32_t n = need < 2 * s->n ? 2 * s->n : need;
		int8_t *nl = realloc(s->lab, (size_t)n * 61);
		if (!nl)
			return NULL;
		memset(nl + (size_t)s->n * 61, LABEL_NONE, (size_t)(n - s->n) * 61);
		s->lab = nl;
		s->n = n;
	}
	return s;
}

/* Read one label file into l; false and a message when it is broken. */
static bool labels_read_file(Labels *l, const char *path)
{
	gzFile f = gzopen(path, "rb");
	if (!f) {
		fprintf(stderr, "labels: cannot open %s\n", path);
		return false;
	}
	char head[160], magic[32], source[32], method[64];
	int version, lo, hi, stride;
	unsigned first, count;
	bool ok = false;
	uint8_t *bytes = NULL;
	if (!gzgets(f, head, sizeof head)
	    || sscanf(head, "%31s %d %31s %u %u %d %d %d %63s", magic, &version, source, &first, &count,
	              &lo, &hi, &stride, method) != 9
	    || strcmp(magic, LABEL_FILE_MAGIC)) {
		fprintf(stderr, "labels: %s: not a label file\n", path);
		goto out;
	}
	if (version != LABEL_FILE_VERSION) {
		fprintf(stderr, "labels: %s: version %d, this build reads version %d\n", path, version,
		        LABEL_FILE_VERSION);
		goto out;
	}
	int depth;
	unsigned sum;
	char tail;
	const bool search = strcmp(method, "exact") != 0;
	if (search && (sscanf(method, "d%d-%8x%c", &depth, &sum, &tail) != 2 || depth < 1 || depth > 60)) {
		fprintf(stderr, "labels: %s: labels of kind '%s', this build reads 'exact' and 'dD-XXXXXXXX'\n",
		        path, method);
		goto out;
	}
	if (search && l->method[0] && strcmp(l->method, method)) {
		fprintf(stderr, "labels: %s: search labels %s besides %s (one search per directory)\n", path,
		        method, l->method);
		goto out;
	}
	if (lo < 0 || hi > 60 || lo > hi || count == 0 || count > 1000000 || first > 100000000
	    || stride < 1) {
		fprintf(stderr, "labels: %s: bad header\n", path);
		goto out;
	}
	const size_t width = (size_t)(hi - lo + 1), nb = (size_t)count * width;
	bytes = malloc(nb + 1);
	if (!bytes || gzread(f, bytes, (unsigned)(nb + 1)) != (int)nb) {
		fprintf(stderr, "labels: %s: %s\n", path, bytes ? "wrong length" : "out of memory");
		goto out;
	}
	LabelKind *k = &l->kind[search];
	if (search)
		snprintf(l->method, sizeof l->method, "%s", method);
	LabelSource *s = labels_source(k, source, first + count);
	if (!s) {
		fprintf(stderr, "labels: out of memory\n");
		goto out;
	}
	for (size_t i = 0; i < nb; i++) {
		if (bytes[i] == LABEL_SKIP)
			continue;
		if (bytes[i] > 128) {
			fprintf(stderr, "labels: %s: byte %zu out of range\n", path, i);
			goto out;
		}
		int8_t *slot = &s->lab[(size_t)(first + i / width) * 61 + (size_t)hi - i % width];
		int v = bytes[i] - 64;
		if (*slot != LABEL_NONE && *slot != v) {
			fprintf(stderr, "labels: %s: contradicts another file\n", path);
			goto out;
		}
		if (*slot == LABEL_NONE)
			k->count++;
		*slot = (int8_t)v;
	}
	ok = true;
out:
	free(bytes);
	gzclose(f);
	return ok;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

Labels *labels_load(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "labels: cannot read %s: %s\n", dir, strerror(errno));
		return NULL;
	}
	Labels *l = calloc(1, sizeof *l);
	char **names = NULL;
	size_t nn = 0;
	struct dirent *de;
	while (l && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len < 7 || strcmp(de->d_name + len - 7, ".lab.gz"))
			continue;
		char **nv = realloc(names, (nn + 1) * sizeof *names);
		if (!nv || !(nv[nn] = strdup(de->d_name))) {
			free(nv);
			names = NULL;
			break;
		}
		names = nv;
		nn++;
	}
	closedir(d);
	if (!l || (nn && !names)) {
		fprintf(stderr, "labels: out of memory\n");
		labels_free(l);
		return NULL;
	}
	qsort(names, nn, sizeof *names, cmp_name);
	bool ok = true;
	for (size_t i = 0; i < nn; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (ok && !labels_read_file(l, path))
			ok = false;
		free(names[i]);
	}
	free(names);
	if (!ok) {
		labels_free(l);
		return NULL;
	}
	return l;
}

const int8_t *labels_find(const Labels *l, const char *source, uint32_t index, bool search)
{
	if (!l)
		return NULL;
	const LabelKind *k = &l->kind[search];
	for (int i = 0; i < k->nsrc; i++)
		if (!strcmp(k->src[i].name, source))
			return index < k->src[i].n ? &k->src[i].lab[(size_t)index * 61] : NULL;
	return NULL;
}

long labels_count(const Labels *l, bool search)
{
	return l ? l->kind[search].count : 0;
}

const char *labels_search_method(const Labels *l)
{
	return l ? l->method : "";
}

void labels_free(Labels *l)
{
	if (!l)
		return;
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < l->kind[k].nsrc; i++)
			free(l->kind[k].src[i].lab);
		free(l->kind[k].src);
	}
	free(l);
}
