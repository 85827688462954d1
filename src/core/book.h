/*
 * book.h - the opening book: file format, probing, building, learning.
 *
 * The file format is specified in book/FORMAT.md; this comment is the
 * summary the code relies on.
 *
 *  - A book is a set of 8x8 normal-game positions.  Each is stored once, in
 *    its canonical form under the 8 symmetries (board_canonical()), as
 *    (p = discs of the side to move, o = opponent); its moves are stored in
 *    that canonical frame and mapped back to the caller's orientation by the
 *    probe functions.
 *  - Only positions whose side to move has a legal move are stored.  A
 *    position where the side to move must pass is represented by the
 *    position after the pass (same discs, sides swapped); a finished
 *    position is never stored, its value is the exact final score
 *    (board_final_score()).
 *  - Each entry carries the minimax estimate of the position (discs, side to
 *    move's view), proven lower/upper bounds of its true value (exact when
 *    they are equal), the level of the search the estimate came from, the
 *    best move, the best move not in the book (the "leaf") with its score,
 *    bounds and level, and how many games went through it.
 *  - Values relate parent and child as in negamax: a move to a stored child
 *    is worth -child.score (+child.score when the opponent must pass after
 *    the move); a move that ends the game is worth its exact final score; a
 *    position's score is the best of its book moves and its leaf.
 *  - Files are sorted by (p, o) so a book is read into memory in one pass
 *    and searched by bisection without parsing; a checksum covers header
 *    and entries, and every entry is checked on its own when a file is
 *    opened (the rules of book/FORMAT.md, "Opening a book").
 *
 * Thread safety: every function taking a Book may be called from several
 * threads at once; probes share a read lock, changes (learn, add, fix ...)
 * take the write lock.  A saved book replaces the old file by rename; a
 * process that opened the old file holds its own copy in memory, so even a
 * file rewritten in place (cp over it) cannot disturb it.
 */
#ifndef EMILIA_BOOK_H
#define EMILIA_BOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "board.h"
#include "game.h"

#define BOOK_ERR 4400             /* size of the err buffers below (a whole path + why) */
#define BOOK_VERSION 1
#define BOOK_HEADER_SIZE 64
#define BOOK_ENTRY_SIZE 32

/* Special values of the move fields. */
enum {
	BOOK_MOVE_NONE = 65,      /* leaf: every legal move is in the book */
	BOOK_MOVE_UNKNOWN = 255   /* leaf: not searched yet */
};
/* Level of a value that comes from proven results only (game ends, exact
 * solves), not from a heuristic search. */
enum { BOOK_LEVEL_EXACT = 255 };

/* One position, exactly as stored in the file (little-endian). */
typedef struct BookEntry {
	uint64_t p, o;        /* canonical position, p to move */
	uint32_t games;       /* games added through it (saturates) */
	int8_t score;         /* minimax estimate, discs, p's view */
	int8_t lower, upper;  /* proven bounds: lower <= true value <= upper */
	uint8_t level;        /* level of the search the estimate came from */
	uint8_t best;         /* best move (canonical frame) */
	uint8_t leaf;         /* best move not in book, or BOOK_MOVE_* */
	int8_t leaf_score;    /* value of the leaf move (estimate) */
	int8_t leaf_lower, leaf_upper; /* bounds on the best non-book move */
	uint8_t leaf_level;   /* level the leaf was searched at */
	uint8_t flags;        /* reserved, 0 */
	uint8_t reserved;     /* 0 */
} BookEntry;

typedef struct Book Book;

/* ---- opening, saving ----------------------------------------------------- */

/* A new empty book. */
Book *book_new(void);
/* Read a book file into memory (never mapped: the file may be rewritten
 * while the book is in use).  NULL with a message in err naming the file
 * (e.g. "book.bin: truncated: the header says 1000 positions but the file
 * holds 812") when the file is missing, not a regular file (a FIFO or a
 * device is refused without blocking), truncated, corrupt (checksum), of
 * another version, not a book at all, or holds an entry that breaks the
 * rules every entry follows on its own (two discs on a square, a value out
 * of -64..64, bounds out of order, an illegal move, ...: the first checks of
 * book_verify). */
Book *book_open(const char *path, char *err);
/* A book over `len` bytes in memory (not copied; must outlive the Book);
 * checked as book_open checks a file. */
Book *book_open_memory(const void *data, size_t len, const char *name, char *err);
/* The default book embedded in the binary (blobs.c includes
 * book/emilia.book with .incbin at build time), used without a copy. */
Book *book_open_default(char *err);
void book_free(Book *b);

/* Progress of long operations: called about once a second (and at the end)
 * from the calling thread with a short description of the phase. */
typedef void (*BookProgressFn)(void *user, const char *phase, uint64_t done, uint64_t total);

/* Write the book to `path` atomically: a temporary file in the same
 * directory (path.tmp.PID) is written, fsynced and renamed over path, and
 * the directory is fsynced.  On any failure the old file is untouched and
 * err says why.  progress may be NULL. */
bool book_save(Book *b, const char *path, BookProgressFn progress, void *user, char *err);

/* ---- probing (what GTP, NBoard, UGI and the terminal game use) ----------- */

/* Randomness of book_engine_probe(): choose uniformly among the book moves
 * whose value is within `discs` of the best one (0 = always a best move,
 * ties broken by the seeded generator). */
void book_set_randomness(Book *b, int discs, uint64_t seed);

/* EngineBookFn for engine_set_book(e, book_engine_probe, book): the book
 * move for g's position, its value in *score; BOARD_PASS when the side to
 * move must pass and the position after the pass is in the book; -1 when the
 * position is not in the book, the best value is a leaf (search instead),
 * the game is over, or g is not an 8x8 normal game. */
int book_engine_probe(void *book, const Game *g, int *score);

typedef struct BookMove {
	int move;             /* square in the caller's orientation, or BOARD_PASS */
	int score;            /* value of the move, discs, mover's view */
	int lower, upper;     /* proven bounds of that value */
	int level;            /* level of the search behind it (BOOK_LEVEL_EXACT) */
	uint32_t games;       /* games through the resulting position */
	bool leaf;            /* the best move not in the book (searched only) */
} BookMove;

/* The book's moves in g's position, best first, plus the leaf (flagged)
 * when it has been searched; at most max.  Returns the number written; 0
 * when the position is not in the book.  When the side to move must pass
 * the single entry is BOARD_PASS. */
int book_list_moves(Book *b, const Game *g, BookMove *out, int max);

/* The book line that starts with `move` in g's position: the move itself,
 * then the best book move in each following position while it stays in
 * the book (passes included as BOARD_PASS); at most max moves.  Returns the
 * length (0 when move is not legal). */
int book_line(Book *b, const Game *g, int move, int *line, int max);

/* The stored entry of a position (any orientation, p to move); false when
 * absent.  Moves in *e are in the canonical frame: see book_move_from_canonical. */
bool book_lookup(Book *b, Board pos, BookEntry *e);
/* Map a square from the canonical frame of pos back to pos's frame. */
int book_move_from_canonical(Board pos, int sq);

/* ---- changing a book ------------------------------------------------------ */

/* Learn a game (NBoard `learn`, the GTP extension): add every position of
 * g from its start position to its current one (book_add_game) and
 * recompute the values (book_fix).  A finished game's result becomes the
 * exact value of its last move.  Only 8x8 normal games; err otherwise.
 * The caller saves the book (book_save) if it wants the change kept. */
bool book_learn(Book *b, const Game *g, char *err);

/* Add a game's positions (from g's start position, its first max_plies
 * plies, all when max_plies <= 0) without recomputing the values (bulk
 * loading; call book_fix afterwards).  Each position's games count grows
 * by one. */
bool book_add_game(Book *b, const Game *g, int max_plies, char *err);

/* Negamax every stored value again from the children and leaves, deepest
 * positions first.  Leaves whose move is now in the book become unknown
 * (to be searched again).  Returns the number of entries changed. */
size_t book_fix(Book *b, BookProgressFn progress, void *user);

/* Remove positions reached by fewer than min_games games (except root, the
 * position the book is built from, kept if present).  Returns the number
 * removed.  Call book_fix afterwards. */
size_t book_prune(Book *b, uint32_t min_games, Board root);

/* Merge src into dst: positions only in src are copied; for positions in
 * both, games are added and the leaf searched at the higher level wins;
 * then dst is fixed. */
bool book_merge(Book *dst, Book *src, char *err);

/* Search function for leaves and deviations: the value of position pos
 * (side to move = pos.p; it has a legal move) at the given engine level,
 * in *score; *exact when the value is proven.  `thread` is 0..threads-1:
 * calls with different thread numbers run concurrently.  false = failure
 * (aborted). */
typedef bool (*BookSearchFn)(void *ctx, int thread, Board pos, int level, int *score, bool *exact);

typedef struct BookSearchOptions {
	BookSearchFn search;
	void *ctx;
	int threads;          /* >= 1 */
	int level;            /* engine level for leaves, 0..60 */
	BookProgressFn progress;
	void *user;
} BookSearchOptions;

/* Search every unknown leaf (each non-book move's child at opt->level),
 * then fix.  Returns the number of positions searched, -1 on failure. */
long book_search_leaves(Book *b, const BookSearchOptions *opt, char *err);

/* Deviate: starting from root, follow book moves whose value is within
 * `margin` discs of the position's best; wherever the leaf is within
 * margin too (and the position is less than max_ply plies from the root),
 * add the leaf's position to the book and search its leaves.  Repeats
 * until nothing is left to expand or the book holds max_positions.
 * Returns the number of positions added, -1 on failure. */
long book_deviate(Book *b, Board root, int margin, int max_ply, size_t max_positions,
                  const BookSearchOptions *opt, char *err);

/* ---- inspecting ----------------------------------------------------------- */

size_t book_count(Book *b);
/* The i-th entry in file order (sorted) after pending changes are merged;
 * false when i is out of range. */
bool book_entry(Book *b, size_t i, BookEntry *e);
/* Replace the entry of the same position (tests, import); false if absent. */
bool book_replace(Book *b, const BookEntry *e);

typedef struct BookStats {
	size_t positions;
	size_t exact;             /* lower == upper */
	size_t leaves_unknown;
	size_t by_empties[61];
	uint32_t max_games;
	int root_score;           /* value of the start position, if stored */
	bool has_root;
	int root_lower, root_upper;
} BookStats;
void book_stats(Book *b, BookStats *s);

/* Check internal consistency: sorted; each entry on its own as book_open
 * checks it (disjoint discs, canonical, side to move has a move, reserved
 * fields zero, values in -64..64 with ordered bounds, levels 0..60 or
 * exact, every stored move legal); then leaf not in the book and every
 * value equal to what its children and leaf give.  Writes up
 * to `max_report` problems (one line each) through report and returns the
 * number of problems found. */
size_t book_verify(Book *b, void (*report)(void *user, const char *line), void *user,
                   size_t max_report);

/* Text format (book/FORMAT.md): one position per line.  export writes a
 * header comment line then the entries in file order; import reads such a
 * file into a new book (all or nothing, err names the line). */
bool book_export(Book *b, const char *path, char *err);
Book *book_import(const char *path, char *err);

/* The checksum of the format (book/FORMAT.md) over len bytes. */
uint64_t book_checksum(const void *data, size_t len);

/* Apply a symmetry s (as bit_symmetry) to a square, and its inverse. */
int book_sym_square(int sq, int s);
int book_sym_square_inverse(int sq, int s);

#endif
