/*
 * book.c - the opening book (see book.h and book/FORMAT.md).
 *
 * In memory a book is two sets of entries:
 *  - `sorted`: entries in file order (ascending (p, o)), searched by
 *    bisection.  It points into the file's image read into memory at open
 *    (`image`, owned), into the embedded default book (not owned), or into
 *    `heap` once the book is changed.  The user's file is never mapped: a
 *    file rewritten in place while the engine runs cannot fault it.
 *  - `extra`: entries added since the last merge, unsorted, indexed by an
 *    open-addressing hash table; merged into `sorted` (normalise()) before
 *    anything that walks the entries in order and before saving.
 * A position is in at most one of the two.  Every public function takes the
 * read lock (probes) or the write lock (anything that changes the sets or
 * merges them); the static helpers assume the caller holds it.
 */
#include "book.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "text.h"
#include "util.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the book file is little-endian and is mapped as is: port book.c first"
#endif

_Static_assert(sizeof(BookEntry) == BOOK_ENTRY_SIZE, "BookEntry must be 32 bytes");
_Static_assert(offsetof(BookEntry, games) == 16 && offsetof(BookEntry, score) == 20 &&
               offsetof(BookEntry, level) == 23 && offsetof(BookEntry, best) == 24 &&
               offsetof(BookEntry, leaf_level) == 29 && offsetof(BookEntry, reserved) == 31,
               "BookEntry layout must match book/FORMAT.md");

static const char book_magic[8] = { 'E', 'M', 'I', 'L', 'B', 'O', 'O', 'K' };

struct Book {
	pthread_rwlock_t lock;
	pthread_mutex_t rng_lock;
	char *name;               /* file name, for messages (owned) */
	const BookEntry *sorted;  /* n entries, ascending (p, o) */
	size_t n;
	BookEntry *heap;          /* owned storage of sorted when writable */
	void *image;              /* the file read by book_open (owned), or NULL */
	BookEntry *extra;         /* pending additions */
	size_t nextra, extra_cap;
	uint32_t *hash;           /* index + 1 into extra, 0 = free */
	size_t hash_cap;          /* power of two, >= 2 * extra_cap, or 0 */
	int randomness;
	uint64_t rng;
};

/* ---- small helpers ---------------------------------------------------- */

/* "NAME: WHAT" into err (BOOK_ERR bytes); the name is kept whole up to
 * PATH_MAX. */
static void set_err(char *err, const char *name, const char *what)
{
	if (err)
		snprintf(err, BOOK_ERR, "%.4096s: %.250s", name, what);
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7FB5D329728EA185ULL;
	x ^= x >> 27;
	x *= 0x81DADEF4BC2DD44DULL;
	x ^= x >> 33;
	return x;
}

/* Checksum of the format: four interleaved multiply-xorshift lanes over
 * little-endian 64-bit words, the tail bytes and the length mixed in at the
 * end.  Not cryptographic; it catches truncation, bit rot and stray
 * writes. */
uint64_t book_checksum(const void *data, size_t len)
{
	const unsigned char *s = data;
	uint64_t v[4] = { 0x243F6A8885A308D3ULL, 0x13198A2E03707344ULL,
	                  0xA4093822299F31D0ULL, 0x082EFA98EC4E6C89ULL };
	size_t i = 0;
	for (; i + 32 <= len; i += 32) {
		for (int k = 0; k < 4; k++) {
			uint64_t w;
			memcpy(&w, s + i + 8 * k, 8);
			v[k] = (v[k] ^ w) * 0x9E3779B97F4A7C15ULL;
			v[k] ^= v[k] >> 29;
		}
	}
	uint64_t h = (uint64_t)len;
	for (int k = 0; k < 4; k++)
		h = mix64(h ^ v[k]);
	for (; i < len; i++)
		h = mix64(h ^ ((uint64_t)s[i] << 8) ^ i);
	return h;
}

static int cmp_pos(uint64_t p1, uint64_t o1, uint64_t p2, uint64_t o2)
{
	if (p1 != p2)
		return p1 < p2 ? -1 : 1;
	if (o1 != o2)
		return o1 < o2 ? -1 : 1;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const BookEntry *x = a, *y = b;
	return cmp_pos(x->p, x->o, y->p, y->o);
}

int book_sym_square(int sq, int s)
{
	return bit_first(bit_symmetry(bit_of(sq), s));
}

int book_sym_square_inverse(int sq, int s)
{
	/* transpose first, then mirrors: the inverse undoes the mirrors, then
	 * transposes; a mirror done before a transpose is the other mirror
	 * done after it. */
	int inv = (s & 4) ? (4 | ((s & 1) << 1) | ((s >> 1) & 1)) : s;
	return book_sym_square(sq, inv);
}

static int move_to_canonical(int sq, int s)
{
	return sq < 64 ? book_sym_square(sq, s) : sq;
}

static int move_from_canonical(int sq, int s)
{
	return sq < 64 ? book_sym_square_inverse(sq, s) : sq;
}

int book_move_from_canonical(Board pos, int sq)
{
	int s;
	board_canonical(pos, &s);
	return move_from_canonical(sq, s);
}

static int discs(Board b)
{
	return bit_count(b.p | b.o);
}

static void entry_init(BookEntry *e, Board c)
{
	memset(e, 0, sizeof *e);
	e->p = c.p;
	e->o = c.o;
	e->lower = -64;
	e->upper = 64;
	e->best = BOOK_MOVE_UNKNOWN;
	e->leaf = BOOK_MOVE_UNKNOWN;
	e->leaf_lower = -64;
	e->leaf_upper = 64;
}

/* ---- the two entry sets ----------------------------------------------- */

static size_t hash_slot(const Book *b, uint64_t p, uint64_t o)
{
	return (size_t)mix64(p ^ mix64(o)) & (b->hash_cap - 1);
}

static BookEntry *find_canonical(const Book *b, uint64_t p, uint64_t o)
{
	size_t lo = 0, hi = b->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_pos(b->sorted[mid].p, b->sorted[mid].o, p, o);
		if (c == 0)
			return (BookEntry *)&b->sorted[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (b->nextra) {
		for (size_t i = hash_slot(b, p, o);; i = (i + 1) & (b->hash_cap - 1)) {
			uint32_t k = b->hash[i];
			if (!k)
				break;
			BookEntry *e = &b->extra[k - 1];
			if (e->p == p && e->o == o)
				return e;
		}
	}
	return NULL;
}

/* The stored entry of any position (p to move), or NULL. */
static BookEntry *find(const Book *b, Board pos)
{
	Board c = board_canonical(pos, NULL);
	return find_canonical(b, c.p, c.o);
}

static void drop_storage(Book *b)
{
	free(b->image);
	b->image = NULL;
	free(b->heap);
	b->heap = NULL;
	b->sorted = NULL;
	b->n = 0;
}

/* Make `sorted` heap-owned so entries can change in place. */
static bool make_writable(Book *b)
{
	if (b->heap)
		return true;
	if (!b->n) {
		drop_storage(b); /* an empty read-only book: nothing to copy */
		return true;
	}
	BookEntry *h = malloc(b->n * sizeof *h);
	if (!h)
		return false;
	memcpy(h, b->sorted, b->n * sizeof *h);
	size_t n = b->n;
	drop_storage(b);
	b->heap = h;
	b->sorted = h;
	b->n = n;
	return true;
}

static bool hash_rebuild(Book *b, size_t cap)
{
	uint32_t *h = calloc(cap, sizeof *h);
	if (!h)
		return false;
	free(b->hash);
	b->hash = h;
	b->hash_cap = cap;
	for (size_t j = 0; j < b->nextra; j++) {
		size_t i = hash_slot(b, b->extra[j].p, b->extra[j].o);
		while (b->hash[i])
			i = (i + 1) & (cap - 1);
		b->hash[i] = (uint32_t)(j + 1);
	}
	return true;
}

/* Merge the pending entries into the sorted array. */
static bool normalise(Book *b)
{
	if (!b->nextra)
		return make_writable(b);
	qsort(b->extra, b->nextra, sizeof *b->extra, cmp_entry);
	BookEntry *m = malloc((b->n + b->nextra) * sizeof *m);
	if (!m)
		return false;
	size_t i = 0, j = 0, k = 0;
	while (i < b->n || j < b->nextra) {
		if (j == b->nextra || (i < b->n && cmp_entry(&b->sorted[i], &b->extra[j]) < 0))
			m[k++] = b->sorted[i++];
		else
			m[k++] = b->extra[j++];
	}
	drop_storage(b);
	b->heap = m;
	b->sorted = m;
	b->n = k;
	b->nextra = 0;
	memset(b->hash, 0, b->hash_cap * sizeof *b->hash);
	return true;
}

/* The entry of canonical position c, created (with unknown values) when
 * absent.  NULL when out of memory.  The pointer is valid until the next
 * insertion or normalise(). */
static BookEntry *insert_canonical(Book *b, Board c, bool *created)
{
	if (created)
		*created = false;
	BookEntry *e = find_canonical(b, c.p, c.o);
	if (e) {
		if (e >= b->sorted && e < b->sorted + b->n && !b->heap) {
			size_t idx = (size_t)(e - b->sorted);
			if (!make_writable(b))
				return NULL;
			e = &b->heap[idx];
		}
		return e;
	}
	if (b->nextra + 1 >= UINT32_MAX)
		return NULL;
	if (b->nextra == b->extra_cap) {
		size_t cap = b->extra_cap ? 2 * b->extra_cap : 1024;
		BookEntry *x = realloc(b->extra, cap * sizeof *x);
		if (!x)
			return NULL;
		b->extra = x;
		b->extra_cap = cap;
	}
	if (b->hash_cap < 2 * b->extra_cap && !hash_rebuild(b, 4 * b->extra_cap))
		return NULL;
	e = &b->extra[b->nextra++];
	entry_init(e, c);
	size_t i = hash_slot(b, c.p, c.o);
	while (b->hash[i])
		i = (i + 1) & (b->hash_cap - 1);
	b->hash[i] = (uint32_t)b->nextra;
	if (created)
		*created = true;
	return e;
}

/* ---- values of moves ---------------------------------------------------- */

/* What a move is worth according to the book. */
typedef struct MoveValue {
	bool in_book;    /* child stored, or the move ends the game */
	bool has_est;    /* an estimate exists (child's best is known) */
	int score, lower, upper, level;
	uint32_t games;
} MoveValue;

/* The node a move leads to: the child itself (sign -1), the child after a
 * forced pass (sign +1), or nothing when the game is over (sign 0, *final =
 * exact value for the mover). */
static int move_child(Board pos, int sq, Board *node, int *final)
{
	Board c = board_apply(pos, sq, board_flips(pos.p, pos.o, sq));
	if (board_moves(c.p, c.o)) {
		*node = c;
		return -1;
	}
	Board q = board_pass(c);
	if (board_moves(q.p, q.o)) {
		*node = q;
		return 1;
	}
	*final = -board_final_score(c, 8, VARIANT_NORMAL);
	return 0;
}

static void move_value(const Book *b, Board pos, int sq, MoveValue *v)
{
	Board node;
	int fin = 0;
	int sign = move_child(pos, sq, &node, &fin);
	memset(v, 0, sizeof *v);
	if (sign == 0) {
		v->in_book = v->has_est = true;
		v->score = v->lower = v->upper = fin;
		v->level = BOOK_LEVEL_EXACT;
		return;
	}
	const BookEntry *e = find(b, node);
	if (!e)
		return;
	v->in_book = true;
	v->has_est = e->best != BOOK_MOVE_UNKNOWN;
	v->games = e->games;
	v->level = e->level;
	if (sign > 0) {
		v->score = e->score;
		v->lower = e->lower;
		v->upper = e->upper;
	} else {
		v->score = -e->score;
		v->lower = -e->upper;
		v->upper = -e->lower;
	}
}

/* The values an entry must hold given its children and its leaf (what fix
 * writes and verify checks).  Leaf fields are reset to unknown when the
 * leaf move is now in the book; the leaf becomes BOOK_MOVE_NONE when every
 * move is in the book. */
static BookEntry recompute(const Book *b, const BookEntry *e)
{
	BookEntry r = *e;
	Board pos = { e->p, e->o };
	uint64_t moves = board_moves(pos.p, pos.o);
	bool has_est = false;
	int best = BOOK_MOVE_UNKNOWN, score = 0, level = 0;
	int lower = -64, upper = -64;
	uint64_t outside = 0;
	for (uint64_t m = moves; m; m = bit_pop(m)) {
		int sq = bit_first(m);
		MoveValue v;
		move_value(b, pos, sq, &v);
		if (!v.in_book) {
			outside |= bit_of(sq);
			continue;
		}
		if (v.lower > lower)
			lower = v.lower;
		if (v.upper > upper)
			upper = v.upper;
		if (v.has_est && (!has_est || v.score > score)) {
			has_est = true;
			score = v.score;
			best = sq;
			level = v.level;
		}
	}
	if (!outside) {
		r.leaf = BOOK_MOVE_NONE;
		r.leaf_score = 0;
		r.leaf_lower = -64;
		r.leaf_upper = 64;
		r.leaf_level = 0;
	} else {
		bool leaf_ok = r.leaf < 64 && (outside & bit_of(r.leaf));
		if (!leaf_ok) {
			r.leaf = BOOK_MOVE_UNKNOWN;
			r.leaf_score = 0;
			r.leaf_lower = -64;
			r.leaf_upper = 64;
			r.leaf_level = 0;
		}
		if (r.leaf_lower > lower)
			lower = r.leaf_lower;
		if (r.leaf_upper > upper)
			upper = r.leaf_upper;
		if (leaf_ok && (!has_est || r.leaf_score > score)) {
			has_est = true;
			score = r.leaf_score;
			best = r.leaf;
			level = r.leaf_level;
		}
	}
	if (!has_est) {
		score = 0;
		level = 0;
	} else {
		if (score < lower)
			score = lower;
		if (score > upper)
			score = upper;
	}
	if (has_est && lower == upper)
		level = BOOK_LEVEL_EXACT;
	r.score = (int8_t)score;
	r.lower = (int8_t)lower;
	r.upper = (int8_t)upper;
	r.level = (uint8_t)level;
	r.best = (uint8_t)best;
	return r;
}

static bool entry_values_equal(const BookEntry *a, const BookEntry *b)
{
	return a->score == b->score && a->lower == b->lower && a->upper == b->upper &&
	       a->level == b->level && a->best == b->best && a->leaf == b->leaf &&
	       a->leaf_score == b->leaf_score && a->leaf_lower == b->leaf_lower &&
	       a->leaf_upper == b->leaf_upper && a->leaf_level == b->leaf_level;
}

/* ---- creating, opening, freeing ---------------------------------------- */

static Book *book_alloc(const char *name)
{
	Book *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->name = strdup(name ? name : "book");
	if (!b->name) {
		free(b);
		return NULL;
	}
	pthread_rwlock_init(&b->lock, NULL);
	pthread_mutex_init(&b->rng_lock, NULL);
	b->rng = 0x853C49E6748FEA9BULL;
	return b;
}

Book *book_new(void)
{
	return book_alloc("book");
}

void book_free(Book *b)
{
	if (!b)
		return;
	drop_storage(b);
	free(b->extra);
	free(b->hash);
	pthread_rwlock_destroy(&b->lock);
	pthread_mutex_destroy(&b->rng_lock);
	free(b->name);
	free(b);
}

static uint32_t rd32(const unsigned char *s)
{
	uint32_t v;
	memcpy(&v, s, 4);
	return v;
}

static uint64_t rd64(const unsigned char *s)
{
	uint64_t v;
	memcpy(&v, s, 8);
	return v;
}

/* board_canonical(b) == b, at half its cost: o's images are needed only
 * where an image of p ties. */
static bool is_canonical(Board b)
{
	for (int s = 1; s < 8; s++) {
		uint64_t p = bit_symmetry(b.p, s);
		if (p < b.p || (p == b.p && bit_symmetry(b.o, s) < b.o))
			return false;
	}
	return true;
}

static bool level_ok(int level)
{
	return level <= 60 || level == BOOK_LEVEL_EXACT;
}

/* The rules one entry must follow on its own, without the rest of the book
 * (book/FORMAT.md): what every reader checks when it opens a file and the
 * first thing book_verify checks.  false with the first problem in `what`
 * (len bytes). */
static bool entry_check(const BookEntry *e, char *what, size_t len)
{
	Board pos = { e->p, e->o };
	if (pos.p & pos.o) {
		snprintf(what, len, "a square holds two discs");
		return false;
	}
	if (!is_canonical(pos)) {
		snprintf(what, len, "not in canonical orientation");
		return false;
	}
	const int n = discs(pos);
	if (n < 4) {
		/* discs are never taken off: every game position has at least
		 * the four of the start */
		snprintf(what, len, "%d discs on the board (a game position has at least 4)", n);
		return false;
	}
	uint64_t moves = board_moves(pos.p, pos.o);
	if (!moves) {
		/* also bounds the disc count: at most 63 discs */
		snprintf(what, len, "the side to move has no legal move (passes and ends are never stored)");
		return false;
	}
	if (e->flags || e->reserved) {
		snprintf(what, len, "reserved fields are not zero");
		return false;
	}
	if (e->lower < -64 || e->upper > 64 || e->lower > e->upper) {
		snprintf(what, len, "bounds [%d, %d] out of order or range", e->lower, e->upper);
		return false;
	}
	if (e->score < -64 || e->score > 64) {
		snprintf(what, len, "score %d out of range -64..64", e->score);
		return false;
	}
	if (!level_ok(e->level) || !level_ok(e->leaf_level)) {
		snprintf(what, len, "level %d or leaf level %d is neither 0..60 nor exact", e->level,
		         e->leaf_level);
		return false;
	}
	if (e->best != BOOK_MOVE_UNKNOWN) {
		if (e->best >= 64 || !(moves & bit_of(e->best))) {
			snprintf(what, len, "best move %d is not legal", e->best);
			return false;
		}
		if (e->score < e->lower || e->score > e->upper) {
			snprintf(what, len, "score %d outside its bounds [%d, %d]", e->score, e->lower, e->upper);
			return false;
		}
	}
	if (e->leaf < 64) {
		if (!(moves & bit_of(e->leaf))) {
			snprintf(what, len, "leaf move %d is not legal", e->leaf);
			return false;
		}
	} else if (e->leaf != BOOK_MOVE_NONE && e->leaf != BOOK_MOVE_UNKNOWN) {
		snprintf(what, len, "leaf move %d is not a move", e->leaf);
		return false;
	}
	if (e->leaf_lower < -64 || e->leaf_upper > 64 || e->leaf_score < e->leaf_lower ||
	    e->leaf_score > e->leaf_upper) {
		snprintf(what, len, "leaf score %d outside its bounds [%d, %d]", e->leaf_score,
		         e->leaf_lower, e->leaf_upper);
		return false;
	}
	return true;
}

/* Check the header of a file of file_len bytes, whose first
 * min(file_len, 64) bytes are at h; the number of entries in *count. */
static bool check_header(const unsigned char *h, uint64_t file_len, const char *name,
                         uint64_t *count, char *err)
{
	char what[200];
	if (file_len < 8 || memcmp(h, book_magic, 8) != 0) {
		set_err(err, name, file_len < 8 ? "not an Emilia book (file too short)"
		                                : "not an Emilia book (it does not start with EMILBOOK)");
		return false;
	}
	if (file_len < BOOK_HEADER_SIZE) {
		snprintf(what, sizeof what, "truncated: %llu bytes, shorter than the %d-byte header",
		         (unsigned long long)file_len, BOOK_HEADER_SIZE);
		set_err(err, name, what);
		return false;
	}
	uint32_t version = rd32(h + 8);
	if (version != BOOK_VERSION) {
		snprintf(what, sizeof what, "format version %u, this program reads version %d",
		         (unsigned)version, BOOK_VERSION);
		set_err(err, name, what);
		return false;
	}
	if (rd32(h + 12) != BOOK_HEADER_SIZE || rd32(h + 16) != BOOK_ENTRY_SIZE ||
	    rd32(h + 20) != 0 || rd64(h + 40) != 0 || rd64(h + 48) != 0) {
		set_err(err, name, "corrupt header (unexpected sizes or reserved fields)");
		return false;
	}
	if (book_checksum(h, 56) != rd64(h + 56)) {
		set_err(err, name, "corrupt header (header checksum mismatch)");
		return false;
	}
	uint64_t n = rd64(h + 24);
	uint64_t avail = (file_len - BOOK_HEADER_SIZE) / BOOK_ENTRY_SIZE;
	if (n > avail || (file_len - BOOK_HEADER_SIZE) % BOOK_ENTRY_SIZE) {
		if (n > avail) {
			snprintf(what, sizeof what,
			         "truncated: the header says %llu positions but the file holds %llu",
			         (unsigned long long)n, (unsigned long long)avail);
		} else {
			snprintf(what, sizeof what, "corrupt: %llu stray bytes after the last position",
			         (unsigned long long)((file_len - BOOK_HEADER_SIZE) % BOOK_ENTRY_SIZE));
		}
		set_err(err, name, what);
		return false;
	}
	if (n < avail) {
		snprintf(what, sizeof what, "corrupt: the header says %llu positions but the file holds %llu",
		         (unsigned long long)n, (unsigned long long)avail);
		set_err(err, name, what);
		return false;
	}
	*count = n;
	return true;
}

/* Check the n entries after a valid header h: checksum, order, and every
 * entry on its own (entry_check). */
static bool check_entries(const unsigned char *h, const BookEntry *e, uint64_t n, const char *name,
                          char *err)
{
	if (book_checksum(e, n * BOOK_ENTRY_SIZE) != rd64(h + 32)) {
		set_err(err, name, "corrupt: checksum of the positions does not match");
		return false;
	}
	char what[250], problem[150];
	for (uint64_t i = 0; i < n; i++) {
		if (i && cmp_entry(&e[i - 1], &e[i]) >= 0) {
			set_err(err, name, "corrupt: positions are not in strictly ascending order");
			return false;
		}
		if (!entry_check(&e[i], problem, sizeof problem)) {
			snprintf(what, sizeof what, "corrupt: position %llu of %llu: %s",
			         (unsigned long long)i + 1, (unsigned long long)n, problem);
			set_err(err, name, what);
			return false;
		}
	}
	return true;
}

/* Check a whole file image; on success the entries start at data + 64. */
static bool check_image(const unsigned char *data, size_t len, const char *name, size_t *count,
                        char *err)
{
	uint64_t n;
	if (!check_header(data, len, name, &n, err) ||
	    !check_entries(data, (const BookEntry *)(const void *)(data + BOOK_HEADER_SIZE), n, name,
	                   err))
		return false;
	*count = (size_t)n;
	return true;
}

Book *book_open_memory(const void *data, size_t len, const char *name, char *err)
{
	size_t n;
	if (!data || !check_image(data, len, name ? name : "book", &n, err))
		return NULL;
	Book *b = book_alloc(name);
	if (!b) {
		set_err(err, name ? name : "book", "out of memory");
		return NULL;
	}
	const unsigned char *s = data;
	if (((uintptr_t)(s + BOOK_HEADER_SIZE) & 7) == 0) {
		b->sorted = (const BookEntry *)(const void *)(s + BOOK_HEADER_SIZE);
	} else if (n) {
		b->heap = malloc(n * sizeof *b->heap);
		if (!b->heap) {
			book_free(b);
			set_err(err, name ? name : "book", "out of memory");
			return NULL;
		}
		memcpy(b->heap, s + BOOK_HEADER_SIZE, n * sizeof *b->heap);
		b->sorted = b->heap;
	}
	b->n = n;
	return b;
}

/* read() until len bytes or the end of the file; the count read, or -1. */
static ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	while (got < len) {
		ssize_t r = read(fd, (char *)buf + got, len - got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* The file is read into memory, never mapped: another process may truncate
 * or rewrite it in place at any time (a mapped file would then fault on the
 * next probe).  util_open_regular keeps a FIFO from blocking the open;
 * anything but a regular file is refused.  The header is read and checked first, so a
 * large file that is not a book costs 64 bytes of reading. */
Book *book_open(const char *path, char *err)
{
	struct stat st;
	int fd = util_open_regular(path, &st);
	if (fd < 0) {
		set_err(err, path, fd == UTIL_NOT_REGULAR ? "not a regular file" : strerror(errno));
		return NULL;
	}
	if (st.st_size <= 0) {
		close(fd);
		set_err(err, path, "not an Emilia book (empty file)");
		return NULL;
	}
	uint64_t file_len = (uint64_t)st.st_size;
	unsigned char h[BOOK_HEADER_SIZE];
	size_t want = file_len < BOOK_HEADER_SIZE ? (size_t)file_len : BOOK_HEADER_SIZE;
	ssize_t got = read_full(fd, h, want);
	if (got < 0) {
		set_err(err, path, strerror(errno));
		close(fd);
		return NULL;
	}
	if ((size_t)got < want)
		file_len = (uint64_t)got; /* cut while we read it */
	uint64_t n;
	if (!check_header(h, file_len, path, &n, err)) {
		close(fd);
		return NULL;
	}
	if (n > (SIZE_MAX - BOOK_HEADER_SIZE) / BOOK_ENTRY_SIZE - 1) {
		set_err(err, path, "out of memory");
		close(fd);
		return NULL;
	}
	/* one spare byte shows whether the file grew since fstat */
	size_t body = (size_t)n * BOOK_ENTRY_SIZE;
	unsigned char *image = malloc(BOOK_HEADER_SIZE + body + 1);
	if (!image) {
		set_err(err, path, "out of memory");
		close(fd);
		return NULL;
	}
	memcpy(image, h, BOOK_HEADER_SIZE);
	got = read_full(fd, image + BOOK_HEADER_SIZE, body + 1);
	int read_errno = errno;
	close(fd);
	if (got < 0 || (size_t)got != body) {
		char what[200];
		if (got < 0)
			snprintf(what, sizeof what, "%s", strerror(read_errno));
		else if ((size_t)got < body)
			snprintf(what, sizeof what,
			         "truncated: the header says %llu positions but the file holds %llu",
			         (unsigned long long)n, (unsigned long long)((size_t)got / BOOK_ENTRY_SIZE));
		else
			snprintf(what, sizeof what, "corrupt: the file grew while it was read");
		set_err(err, path, what);
		free(image);
		return NULL;
	}
	Book *b = book_open_memory(image, BOOK_HEADER_SIZE + body, path, err);
	if (!b) {
		free(image);
		return NULL;
	}
	if (b->heap)
		free(image); /* entries were copied (cannot happen: malloc aligns to 16) */
	else
		b->image = image;
	return b;
}

/* ---- saving --------------------------------------------------------------- */

static void header_bytes(const Book *b, unsigned char h[BOOK_HEADER_SIZE])
{
	memset(h, 0, BOOK_HEADER_SIZE);
	memcpy(h, book_magic, 8);
	uint32_t v32 = BOOK_VERSION;
	memcpy(h + 8, &v32, 4);
	v32 = BOOK_HEADER_SIZE;
	memcpy(h + 12, &v32, 4);
	v32 = BOOK_ENTRY_SIZE;
	memcpy(h + 16, &v32, 4);
	uint64_t v64 = b->n;
	memcpy(h + 24, &v64, 8);
	v64 = book_checksum(b->sorted, b->n * sizeof *b->sorted);
	memcpy(h + 32, &v64, 8);
	v64 = book_checksum(h, 56);
	memcpy(h + 56, &v64, 8);
}

static bool write_all(int fd, const void *data, size_t len)
{
	const char *s = data;
	while (len) {
		ssize_t w = write(fd, s, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		s += w;
		len -= (size_t)w;
	}
	return true;
}

bool book_save(Book *b, const char *path, BookProgressFn progress, void *user, char *err)
{
	pthread_rwlock_wrlock(&b->lock);
	bool ok = false;
	char tmp[PATH_MAX];
	int fd = -1;
	if (!normalise(b)) {
		set_err(err, path, "out of memory");
		goto done;
	}
	if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
		set_err(err, path, "path too long");
		goto done;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		set_err(err, tmp, strerror(errno));
		goto done;
	}
	unsigned char h[BOOK_HEADER_SIZE];
	header_bytes(b, h);
	if (!write_all(fd, h, sizeof h))
		goto io_error;
	const size_t chunk = 1 << 15; /* entries per write */
	for (size_t i = 0; i < b->n; i += chunk) {
		size_t k = b->n - i < chunk ? b->n - i : chunk;
		if (!write_all(fd, b->sorted + i, k * sizeof *b->sorted))
			goto io_error;
		if (progress)
			progress(user, "save", i + k, b->n); /* once per 1 MiB chunk */
	}
	if (fsync(fd) != 0)
		goto io_error;
	if (close(fd) != 0) {
		fd = -1;
		goto io_error;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto io_error;
	{
		/* make the rename itself durable */
		char dir[PATH_MAX];
		snprintf(dir, sizeof dir, "%s", path);
		char *slash = strrchr(dir, '/');
		if (slash == dir)
			slash[1] = 0;
		else if (slash)
			*slash = 0;
		else
			snprintf(dir, sizeof dir, ".");
		int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
	}
	ok = true;
	goto done;
io_error:
	set_err(err, tmp, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
done:
	pthread_rwlock_unlock(&b->lock);
	return ok;
}

/* ---- probing ---------------------------------------------------------------- */

void book_set_randomness(Book *b, int discs_margin, uint64_t seed)
{
	pthread_mutex_lock(&b->rng_lock);
	b->randomness = discs_margin < 0 ? 0 : discs_margin;
	b->rng = mix64(seed ^ 0x6A09E667F3BCC909ULL) | 1;
	pthread_mutex_unlock(&b->rng_lock);
}

static uint64_t next_random(Book *b, int *randomness)
{
	pthread_mutex_lock(&b->rng_lock);
	b->rng ^= b->rng >> 12;
	b->rng ^= b->rng << 25;
	b->rng ^= b->rng >> 27;
	uint64_t r = b->rng * 2685821657736338717ULL;
	*randomness = b->randomness;
	pthread_mutex_unlock(&b->rng_lock);
	return r;
}

static bool game_ok(const Game *g)
{
	return g && g->size == 8 && g->variant == VARIANT_NORMAL;
}

int book_engine_probe(void *ctx, const Game *g, int *score)
{
	Book *b = ctx;
	if (!b || !game_ok(g))
		return -1;
	Board pos = g->board;
	bool pass = false;
	if (!board_moves(pos.p, pos.o)) {
		pos = board_pass(pos);
		if (!board_moves(pos.p, pos.o))
			return -1;
		pass = true;
	}
	int randomness;
	uint64_t r = next_random(b, &randomness);
	pthread_rwlock_rdlock(&b->lock);
	int result = -1;
	const BookEntry *e = find(b, pos);
	/* An entry is trusted only when its non-book moves were searched
	 * (leaf known or none left) and it has an estimate. */
	if (!e || e->best == BOOK_MOVE_UNKNOWN || e->leaf == BOOK_MOVE_UNKNOWN)
		goto done;
	if (pass) {
		*score = -e->score;
		result = BOARD_PASS;
		goto done;
	}
	int cand[64], cscore[64], nc = 0;
	for (uint64_t m = board_moves(pos.p, pos.o); m; m = bit_pop(m)) {
		int sq = bit_first(m);
		MoveValue v;
		move_value(b, pos, sq, &v);
		if (v.in_book && v.has_est && v.score >= e->score - randomness) {
			cand[nc] = sq;
			cscore[nc++] = v.score;
		}
	}
	if (nc) {
		int k = (int)(r % (uint64_t)nc);
		result = cand[k];
		*score = cscore[k];
	}
done:
	pthread_rwlock_unlock(&b->lock);
	return result;
}

static int cmp_bookmove(const void *a, const void *b)
{
	const BookMove *x = a, *y = b;
	if (x->score != y->score)
		return y->score - x->score;
	if (x->leaf != y->leaf)
		return x->leaf ? 1 : -1;
	return x->move - y->move;
}

int book_list_moves(Book *b, const Game *g, BookMove *out, int max)
{
	if (!game_ok(g) || max <= 0)
		return 0;
	Board pos = g->board;
	pthread_rwlock_rdlock(&b->lock);
	int n = 0;
	if (!board_moves(pos.p, pos.o)) {
		Board q = board_pass(pos);
		const BookEntry *e = board_moves(q.p, q.o) ? find(b, q) : NULL;
		if (e && e->best != BOOK_MOVE_UNKNOWN) {
			out[0] = (BookMove){ BOARD_PASS, -e->score, -e->upper, -e->lower, e->level, e->games,
			                     false };
			n = 1;
		}
		pthread_rwlock_unlock(&b->lock);
		return n;
	}
	const BookEntry *e = find(b, pos);
	if (!e) {
		pthread_rwlock_unlock(&b->lock);
		return 0;
	}
	/* Every move first, then the best `max`: taking the first `max` in
	 * square order and sorting those would drop better moves. */
	BookMove all[65];
	for (uint64_t m = board_moves(pos.p, pos.o); m; m = bit_pop(m)) {
		int sq = bit_first(m);
		MoveValue v;
		move_value(b, pos, sq, &v);
		if (v.in_book && v.has_est)
			all[n++] = (BookMove){ sq, v.score, v.lower, v.upper, v.level, v.games, false };
	}
	if (e->leaf < 64) {
		all[n++] = (BookMove){ book_move_from_canonical(pos, e->leaf), e->leaf_score, e->leaf_lower,
		                       e->leaf_upper, e->leaf_level, 0, true };
	}
	pthread_rwlock_unlock(&b->lock);
	qsort(all, (size_t)n, sizeof *all, cmp_bookmove);
	if (n > max)
		n = max;
	memcpy(out, all, (size_t)n * sizeof *out);
	return n;
}

int book_line(Book *b, const Game *g, int move, int *line, int max)
{
	if (!game_ok(g) || max <= 0)
		return 0;
	Board pos = g->board;
	uint64_t moves = board_moves(pos.p, pos.o);
	if (move == BOARD_PASS ? moves != 0 || !board_moves(pos.o, pos.p)
	                       : move < 0 || move >= 64 || !(moves & bit_of(move)))
		return 0;
	pthread_rwlock_rdlock(&b->lock);
	int n = 0;
	for (;;) {
		line[n++] = move;
		if (move == BOARD_PASS)
			pos = board_pass(pos);
		else
			pos = board_apply(pos, move, board_flips(pos.p, pos.o, move));
		if (n >= max)
			break;
		if (!board_moves(pos.p, pos.o)) {
			Board q = board_pass(pos);
			if (!board_moves(q.p, q.o) || !find(b, q))
				break;
			move = BOARD_PASS;
			continue;
		}
		const BookEntry *e = find(b, pos);
		if (!e || e->best >= 64)
			break;
		int sq = book_move_from_canonical(pos, e->best);
		MoveValue v;
		move_value(b, pos, sq, &v);
		if (!v.in_book)
			break;       /* the best move is the leaf: the line leaves the book */
		move = sq;
	}
	pthread_rwlock_unlock(&b->lock);
	return n;
}

bool book_lookup(Book *b, Board pos, BookEntry *out)
{
	pthread_rwlock_rdlock(&b->lock);
	const BookEntry *e = find(b, pos);
	if (e)
		*out = *e;
	pthread_rwlock_unlock(&b->lock);
	return e != NULL;
}

/* ---- changing ------------------------------------------------------------ */

static bool add_game_locked(Book *b, const Game *g, int max_plies, char *err)
{
	if (!game_ok(g)) {
		set_err(err, b->name, "only 8x8 normal games can go into the book");
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
		BookEntry *e = insert_canonical(b, board_canonical(pos, NULL), NULL);
		if (!e) {
			set_err(err, b->name, "out of memory");
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
	if (!normalise(b))
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
		BookEntry r = recompute(b, e);
		if (!entry_values_equal(&r, e)) {
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
	if (normalise(b)) {
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
	bool ok = normalise(src);
	for (size_t i = 0; ok && i < src->n; i++) {
		const BookEntry *s = &src->sorted[i];
		bool created;
		BookEntry *d = insert_canonical(dst, (Board){ s->p, s->o }, &created);
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
		set_err(err, dst->name, "out of memory while merging");
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
		int sign = move_child(j->pos, sq, &node, &fin);
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
		set_err(err, b->name, "the search level must be 0..60");
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
		set_err(err, b->name, "out of memory");
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
			move_value(b, pos, bit_first(m), &v);
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
		set_err(err, b->name, "a search failed (aborted)");
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
	long r = normalise(b) ? search_leaves_locked(b, opt, err) : -1;
	if (r < 0 && err && !err[0])
		set_err(err, b->name, "out of memory");
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
		set_err(err, b->name, "the root position is finished");
		return -1;
	}
	if (max_ply <= 0)
		max_ply = 60;
	pthread_rwlock_wrlock(&b->lock);
	long added = 0;
	const int root_discs = discs(root);
	if (!insert_canonical(b, board_canonical(root, NULL), NULL) || !normalise(b))
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
			const BookEntry *e = find(b, pos);
			if (!e || e->best == BOOK_MOVE_UNKNOWN)
				continue;
			for (uint64_t m = board_moves(pos.p, pos.o); m; m = bit_pop(m)) {
				int sq = bit_first(m);
				Board node;
				int fin;
				int sign = move_child(pos, sq, &node, &fin);
				if (sign == 0)
					continue;
				int d = discs(node) - root_discs;
				bool is_leaf = sq == e->leaf;
				MoveValue v;
				move_value(b, pos, sq, &v);
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
			if (!insert_canonical(b, cand[i], NULL)) {
				free(cand);
				goto oom;
			}
		}
		free(cand);
		added += (long)cn;
		if (!normalise(b))
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
	set_err(err, b->name, "out of memory");
fail:
	pthread_rwlock_unlock(&b->lock);
	return -1;
}

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
	bool ok = (b->nextra == 0 || normalise(b)) && i < b->n;
	if (ok)
		*e = b->sorted[i];
	pthread_rwlock_unlock(&b->lock);
	return ok;
}

bool book_replace(Book *b, const BookEntry *e)
{
	pthread_rwlock_wrlock(&b->lock);
	BookEntry *d = find_canonical(b, e->p, e->o);
	bool ok = false;
	if (d && d >= b->sorted && d < b->sorted + b->n && !b->heap) {
		size_t idx = (size_t)(d - b->sorted);
		d = make_writable(b) ? &b->heap[idx] : NULL;
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
		normalise(b);
	s->positions = b->n;
	for (size_t i = 0; i < b->n; i++) {
		const BookEntry *e = &b->sorted[i];
		s->exact += e->lower == e->upper;
		s->leaves_unknown += e->leaf == BOOK_MOVE_UNKNOWN;
		s->by_empties[64 - discs((Board){ e->p, e->o })]++;
		if (e->games > s->max_games)
			s->max_games = e->games;
	}
	const BookEntry *r = find(b, board_start(8));
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
	if (!normalise(b)) {
		pthread_rwlock_unlock(&b->lock);
		if (report)
			report(user, "out of memory");
		return 1;
	}
	for (size_t i = 0; i < b->n; i++) {
		const BookEntry *e = &b->sorted[i];
		Board pos = { e->p, e->o };
		board_text(pos, bt);
		if (i && cmp_entry(&b->sorted[i - 1], e) >= 0)
			PROBLEM("not in strictly ascending order");
		char what[150];
		if (!entry_check(e, what, sizeof what)) {
			PROBLEM("%s", what); /* the rules every reader applies on open */
			continue;
		}
		if (e->leaf < 64) {
			MoveValue v;
			move_value(b, pos, e->leaf, &v);
			if (v.in_book)
				PROBLEM("leaf move is in the book");
		}
		BookEntry r = recompute(b, e);
		if (!entry_values_equal(&r, e)) {
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
		set_err(err, path, strerror(errno));
		return false;
	}
	pthread_rwlock_wrlock(&b->lock);
	bool ok = normalise(b);
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
		set_err(err, path, "write error");
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

Book *book_import(const char *path, char *err)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		set_err(err, path, strerror(errno));
		return NULL;
	}
	Book *b = book_alloc(path);
	if (!b) {
		fclose(f);
		set_err(err, path, "out of memory");
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
		char *tok[16];
		int nt = 0;
		for (char *t = strtok(s, " \t"); t && nt < 16; t = strtok(NULL, " \t"))
			tok[nt++] = t;
		if (nt != 13) {
			snprintf(what, sizeof what, "line %ld: %d fields, expected 13", lineno, nt);
			ok = false;
			break;
		}
		Board pos = { 0, 0 };
		if (strlen(tok[0]) != 64 || strcmp(tok[1], "X") != 0) {
			snprintf(what, sizeof what, "line %ld: the board must be 64 squares X/O/- then X", lineno);
			ok = false;
			break;
		}
		for (int sq = 0; sq < 64 && ok; sq++) {
			char ch = tok[0][sq];
			if (ch == 'X' || ch == 'x')
				pos.p |= bit_of(sq);
			else if (ch == 'O' || ch == 'o')
				pos.o |= bit_of(sq);
			else if (ch != '-' && ch != '.') {
				snprintf(what, sizeof what, "line %ld: bad square character '%c'", lineno, ch);
				ok = false;
			}
		}
		if (!ok)
			break;
		int score, lower, upper, level, best, leaf, ls, ll, lu, llev;
		long games;
		if (!parse_score(tok[2], &score) || !parse_score(tok[3], &lower) ||
		    !parse_score(tok[4], &upper) || !parse_level(tok[5], &level) ||
		    !parse_move_field(tok[6], &best) || !parse_move_field(tok[7], &leaf) ||
		    !parse_score(tok[8], &ls) || !parse_score(tok[9], &ll) || !parse_score(tok[10], &lu) ||
		    !parse_level(tok[11], &llev) || !util_parse_int(tok[12], 0, UINT32_MAX, &games)) {
			snprintf(what, sizeof what, "line %ld: a field is out of range or malformed", lineno);
			ok = false;
			break;
		}
		uint64_t moves = board_moves(pos.p, pos.o);
		if (!moves || (best < 64 && !(moves & bit_of(best))) || (leaf < 64 && !(moves & bit_of(leaf))) ||
		    best == BOOK_MOVE_NONE) {
			snprintf(what, sizeof what, "line %ld: %s", lineno,
			         !moves ? "the side to move has no legal move" : "a move is not legal");
			ok = false;
			break;
		}
		int sym;
		Board c = board_canonical(pos, &sym);
		bool created;
		BookEntry *e = insert_canonical(b, c, &created);
		if (!e || !created) {
			snprintf(what, sizeof what, "line %ld: %s", lineno,
			         e ? "position listed twice (up to symmetry)" : "out of memory");
			ok = false;
			break;
		}
		e->score = (int8_t)score;
		e->lower = (int8_t)lower;
		e->upper = (int8_t)upper;
		e->level = (uint8_t)level;
		e->best = (uint8_t)move_to_canonical(best, sym);
		e->leaf = (uint8_t)move_to_canonical(leaf, sym);
		e->leaf_score = (int8_t)ls;
		e->leaf_lower = (int8_t)ll;
		e->leaf_upper = (int8_t)lu;
		e->leaf_level = (uint8_t)llev;
		e->games = (uint32_t)games;
		char problem[150];
		if (!entry_check(e, problem, sizeof problem)) {
			/* what a reader would refuse is never written */
			snprintf(what, sizeof what, "line %ld: %s", lineno, problem);
			ok = false;
			break;
		}
	}
	if (ok && ferror(f)) {
		snprintf(what, sizeof what, "read error");
		ok = false;
	}
	fclose(f);
	if (ok && !normalise(b)) {
		snprintf(what, sizeof what, "out of memory");
		ok = false;
	}
	if (!ok) {
		set_err(err, path, what);
		book_free(b);
		return NULL;
	}
	return b;
}
