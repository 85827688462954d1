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
 *    open-addressing hash table; merged into `sorted` (bk_normalise()) before
 *    anything that walks the entries in order and before saving.
 * A position is in at most one of the two.  Every public function takes the
 * read lock (probes) or the write lock (anything that changes the sets or
 * merges them); the bk_* helpers and the static ones assume the caller
 * holds it.
 *
 * The book is four files: book.c (this one: storage, opening, saving),
 * book_probe.c (the values of moves, probing), book_build.c (adding games,
 * learning, merging, the searched leaves and deviations) and book_text.c
 * (inspection, verification, the text import and export); book_int.h holds
 * what they share.
 */
#include "book_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
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

/* ---- small helpers ---------------------------------------------------- */

/* "NAME: WHAT" into err (BOOK_ERR bytes); the name is kept whole up to
 * PATH_MAX. */
void bk_set_err(char *err, const char *name, const char *what)
{
	if (err)
		snprintf(err, BOOK_ERR, "%.4096s: %.250s", name, what);
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

int bk_cmp_entry(const void *a, const void *b)
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

int bk_move_to_canonical(int sq, int s)
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

BookEntry *bk_find_canonical(const Book *b, uint64_t p, uint64_t o)
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
BookEntry *bk_find(const Book *b, Board pos)
{
	Board c = board_canonical(pos, NULL);
	return bk_find_canonical(b, c.p, c.o);
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
bool bk_make_writable(Book *b)
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
bool bk_normalise(Book *b)
{
	if (!b->nextra)
		return bk_make_writable(b);
	qsort(b->extra, b->nextra, sizeof *b->extra, bk_cmp_entry);
	BookEntry *m = malloc((b->n + b->nextra) * sizeof *m);
	if (!m)
		return false;
	size_t i = 0, j = 0, k = 0;
	while (i < b->n || j < b->nextra) {
		if (j == b->nextra || (i < b->n && bk_cmp_entry(&b->sorted[i], &b->extra[j]) < 0))
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
 * insertion or bk_normalise(). */
BookEntry *bk_insert_canonical(Book *b, Board c, bool *created)
{
	if (created)
		*created = false;
	BookEntry *e = bk_find_canonical(b, c.p, c.o);
	if (e) {
		if (e >= b->sorted && e < b->sorted + b->n && !b->heap) {
			size_t idx = (size_t)(e - b->sorted);
			if (!bk_make_writable(b))
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
/* ---- creating, opening, freeing ---------------------------------------- */

Book *bk_alloc(const char *name)
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
	return bk_alloc("book");
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
bool bk_entry_check(const BookEntry *e, char *what, size_t len)
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
		bk_set_err(err, name, file_len < 8 ? "not an Emilia book (file too short)"
		                                : "not an Emilia book (it does not start with EMILBOOK)");
		return false;
	}
	if (file_len < BOOK_HEADER_SIZE) {
		snprintf(what, sizeof what, "truncated: %llu bytes, shorter than the %d-byte header",
		         (unsigned long long)file_len, BOOK_HEADER_SIZE);
		bk_set_err(err, name, what);
		return false;
	}
	uint32_t version = rd32(h + 8);
	if (version != BOOK_VERSION) {
		snprintf(what, sizeof what, "format version %u, this program reads version %d",
		         (unsigned)version, BOOK_VERSION);
		bk_set_err(err, name, what);
		return false;
	}
	if (rd32(h + 12) != BOOK_HEADER_SIZE || rd32(h + 16) != BOOK_ENTRY_SIZE ||
	    rd32(h + 20) != 0 || rd64(h + 40) != 0 || rd64(h + 48) != 0) {
		bk_set_err(err, name, "corrupt header (unexpected sizes or reserved fields)");
		return false;
	}
	if (book_checksum(h, 56) != rd64(h + 56)) {
		bk_set_err(err, name, "corrupt header (header checksum mismatch)");
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
		bk_set_err(err, name, what);
		return false;
	}
	if (n < avail) {
		snprintf(what, sizeof what, "corrupt: the header says %llu positions but the file holds %llu",
		         (unsigned long long)n, (unsigned long long)avail);
		bk_set_err(err, name, what);
		return false;
	}
	*count = n;
	return true;
}

/* Check the n entries after a valid header h: checksum, order, and every
 * entry on its own (bk_entry_check). */
static bool check_entries(const unsigned char *h, const BookEntry *e, uint64_t n, const char *name,
                          char *err)
{
	if (book_checksum(e, n * BOOK_ENTRY_SIZE) != rd64(h + 32)) {
		bk_set_err(err, name, "corrupt: checksum of the positions does not match");
		return false;
	}
	char what[250], problem[150];
	for (uint64_t i = 0; i < n; i++) {
		if (i && bk_cmp_entry(&e[i - 1], &e[i]) >= 0) {
			bk_set_err(err, name, "corrupt: positions are not in strictly ascending order");
			return false;
		}
		if (!bk_entry_check(&e[i], problem, sizeof problem)) {
			snprintf(what, sizeof what, "corrupt: position %llu of %llu: %s",
			         (unsigned long long)i + 1, (unsigned long long)n, problem);
			bk_set_err(err, name, what);
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
	Book *b = bk_alloc(name);
	if (!b) {
		bk_set_err(err, name ? name : "book", "out of memory");
		return NULL;
	}
	const unsigned char *s = data;
	if (((uintptr_t)(s + BOOK_HEADER_SIZE) & 7) == 0) {
		b->sorted = (const BookEntry *)(const void *)(s + BOOK_HEADER_SIZE);
	} else if (n) {
		b->heap = malloc(n * sizeof *b->heap);
		if (!b->heap) {
			book_free(b);
			bk_set_err(err, name ? name : "book", "out of memory");
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
		bk_set_err(err, path, fd == UTIL_NOT_REGULAR ? "not a regular file" : strerror(errno));
		return NULL;
	}
	if (st.st_size <= 0) {
		close(fd);
		bk_set_err(err, path, "not an Emilia book (empty file)");
		return NULL;
	}
	uint64_t file_len = (uint64_t)st.st_size;
	unsigned char h[BOOK_HEADER_SIZE];
	size_t want = file_len < BOOK_HEADER_SIZE ? (size_t)file_len : BOOK_HEADER_SIZE;
	ssize_t got = read_full(fd, h, want);
	if (got < 0) {
		bk_set_err(err, path, strerror(errno));
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
		bk_set_err(err, path, "out of memory");
		close(fd);
		return NULL;
	}
	/* one spare byte shows whether the file grew since fstat */
	size_t body = (size_t)n * BOOK_ENTRY_SIZE;
	unsigned char *image = malloc(BOOK_HEADER_SIZE + body + 1);
	if (!image) {
		bk_set_err(err, path, "out of memory");
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
		bk_set_err(err, path, what);
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
	if (!bk_normalise(b)) {
		bk_set_err(err, path, "out of memory");
		goto done;
	}
	if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
		bk_set_err(err, path, "path too long");
		goto done;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		bk_set_err(err, tmp, strerror(errno));
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
	bk_set_err(err, tmp, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
done:
	pthread_rwlock_unlock(&b->lock);
	return ok;
}
