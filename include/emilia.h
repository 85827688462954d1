/*
 * emilia.h - the public C API of Emilia, a Reversi/Othello engine
 * (libemilia, MIT license).  docs/api.md has a tutorial and the Python
 * binding; this header is the reference.
 *
 *     #include <emilia.h>
 *     cc prog.c $(pkg-config --cflags --libs emilia)
 *
 * Conventions
 *  - An engine is an opaque handle (emilia_engine) that owns a search
 *    engine, its tables, its options and one game (a position with its
 *    history).  Create it with emilia_create(), free it with
 *    emilia_destroy().
 *  - Squares are numbers 0..63, row * 8 + column: a1 = 0 (top left),
 *    h1 = 7, a8 = 56, h8 = 63; on the 6x6 board a1..f6 use the same
 *    numbers.  EMILIA_PASS (64) is a pass; EMILIA_NO_MOVE (65) means the
 *    game is over.  Black moves first.
 *  - Scores are in discs from the side to move's view (the final disc
 *    difference expected under best play; empty squares go to the winner
 *    in exact scores), from -64 to 64.
 *  - Functions that can fail return an emilia_status; EMILIA_OK is 0.
 *    emilia_strerror() names a status, emilia_last_error() gives the
 *    engine's message for its last failure ("illegal move d3 at move 12").
 *    A function that fails leaves the engine's game unchanged.
 *  - Structures the caller fills (emilia_options, emilia_limits) start
 *    with struct_size and are set up by their _init() function, so that
 *    later versions can add fields without breaking programs built
 *    against this one.
 *
 * Thread safety
 *  - Functions on one handle must not run concurrently, with one
 *    exception: emilia_stop() may be called from any thread at any time
 *    while another thread searches on the handle.
 *  - Different handles may be used from different threads at once.  Each
 *    engine owns everything it searches with (its weights, its tables,
 *    its threads): engines of one process do not see each other, and
 *    give the results separate processes would.
 *  - emilia_version(), emilia_kernel(), emilia_strerror(),
 *    emilia_options_init(), emilia_limits_init(), emilia_parse_move() and
 *    emilia_move_name() are pure and may be called from any thread.
 *  - Nothing in the library prints; callbacks run on the thread that
 *    called the searching function.
 */
#ifndef EMILIA_PUBLIC_H
#define EMILIA_PUBLIC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define EMILIA_API __attribute__((visibility("default")))
#else
#define EMILIA_API
#endif

/* ---- version ------------------------------------------------------------- */

#define EMILIA_VERSION_MAJOR 0
#define EMILIA_VERSION_MINOR 1
#define EMILIA_VERSION_PATCH 0
#define EMILIA_VERSION_STRING "0.1.0"
/* One number for comparisons: 0.1.0 is 100. */
#define EMILIA_VERSION_NUMBER (EMILIA_VERSION_MAJOR * 10000 + EMILIA_VERSION_MINOR * 100 + EMILIA_VERSION_PATCH)

/* The library's version, "0.1.0" (may differ from the header's when the
 * shared library was upgraded). */
EMILIA_API const char *emilia_version(void);

/* The CPU kernel the library runs: "avx2" or "portable".  The library of
 * the default build holds both and chooses when it is loaded: AVX2 when
 * the CPU has AVX2 and BMI2, unless the environment variable
 * EMILIA_KERNEL=portable asks for the portable one (the results are the
 * same, the speed is not).  A library built with ARCH=portable or
 * ARCH=avx2 has one kernel. */
EMILIA_API const char *emilia_kernel(void);

/* ---- constants ----------------------------------------------------------- */

enum {
	EMILIA_BLACK = 0,
	EMILIA_WHITE = 1,
	EMILIA_PASS = 64,
	EMILIA_NO_MOVE = 65,
	EMILIA_MAX_MOVES = 64,  /* room for the legal moves of any position */
	EMILIA_MAX_PV = 64
};

/* Levels: 0..60 (search depth; exact solving from about twice as many
 * empties, as in Edax) or one of these. */
enum {
	EMILIA_LEVEL_EASY = -1,
	EMILIA_LEVEL_NORMAL = -2,
	EMILIA_LEVEL_HARD = -3
};

typedef enum emilia_status {
	EMILIA_OK = 0,
	EMILIA_ERR_NULL,       /* a NULL handle or a required pointer is NULL */
	EMILIA_ERR_ARGUMENT,   /* an argument out of range */
	EMILIA_ERR_PARSE,      /* a malformed transcript, OBF line or move */
	EMILIA_ERR_ILLEGAL,    /* a move that is not legal in the position */
	EMILIA_ERR_GAME_OVER,  /* the game is over: no move to play or search */
	EMILIA_ERR_NO_UNDO,    /* nothing to take back */
	EMILIA_ERR_FILE,       /* a weights or book file cannot be loaded */
	EMILIA_ERR_MEMORY,     /* out of memory (hash tables, the engine) */
	EMILIA_ERR_STOPPED,    /* emilia_stop() or a limit ended a solve before its result */
	EMILIA_ERR_BUFFER      /* the caller's buffer is too small */
} emilia_status;

/* A short English description of a status ("illegal move"); never NULL
 * ("unknown status" for a value not in the enum). */
EMILIA_API const char *emilia_strerror(emilia_status status);

/* ---- creating an engine ---------------------------------------------------- */

typedef struct emilia_engine emilia_engine;

typedef struct emilia_options {
	size_t struct_size;       /* sizeof(emilia_options), set by emilia_options_init() */
	int threads;              /* threads, 1..256 (default 1) */
	int hash_mb;              /* MiB for the transposition table, 1..65536 (default 64) */
	int level;                /* 0..60 or EMILIA_LEVEL_* (default EMILIA_LEVEL_HARD) */
	int board_size;           /* 8 (default) or 6 */
	int anti;                 /* nonzero: Anti Reversi, fewer discs wins (default 0) */
	uint64_t seed;            /* randomness of Easy, Normal and the book (default 0) */
	const char *weights_file; /* evaluation weights of the 8x8 normal game (emilia-train's
	                           * format), for this engine only; NULL: the built-in ones */
	const char *book_file;    /* opening book (book/FORMAT.md); NULL: the built-in one */
	int use_book;             /* 0: play without a book (default 1); 8x8 normal games only */
} emilia_options;

/* Fill o with the defaults above. */
EMILIA_API void emilia_options_init(emilia_options *o);

/* Create an engine (o NULL: the defaults) at the standard start position.
 * On success *out is the handle; on failure *out is NULL, the status says
 * why and err (when not NULL, errlen bytes) holds a message naming the
 * file and the reason ("book: my.book: not a book file"). */
EMILIA_API emilia_status emilia_create(const emilia_options *o, emilia_engine **out, char *err, size_t errlen);

/* Stop any search on e, free it and everything it holds; NULL is ignored. */
EMILIA_API void emilia_destroy(emilia_engine *e);

/* The message of e's last failure ("" when the last call succeeded; a
 * fixed text for NULL).  Valid until the next call on e. */
EMILIA_API const char *emilia_last_error(const emilia_engine *e);

/* Options after creation; each takes effect at the next search.  Out of
 * range values give EMILIA_ERR_ARGUMENT and change nothing.
 * emilia_set_hash() may give EMILIA_ERR_MEMORY (the engine keeps a
 * smaller table; emilia_last_error() says which). */
EMILIA_API emilia_status emilia_set_level(emilia_engine *e, int level);
EMILIA_API emilia_status emilia_set_threads(emilia_engine *e, int threads);
EMILIA_API emilia_status emilia_set_hash(emilia_engine *e, int mb);

/* ---- the position ------------------------------------------------------------ */

/* The start position of the engine's board size and variant; the hash
 * tables are cleared. */
EMILIA_API emilia_status emilia_new_game(emilia_engine *e);

/* The game a transcript leads to from the start: "f5d6c3d3c4" (any case,
 * spaces allowed, passes implied or written "pass"/"PA"/"--").  All or
 * nothing: on EMILIA_ERR_PARSE or EMILIA_ERR_ILLEGAL the game is unchanged
 * and emilia_last_error() says where ("illegal move d3 at move 12"). */
EMILIA_API emilia_status emilia_set_transcript(emilia_engine *e, const char *moves);

/* A position as an OBF line: the squares a1, b1, ... h8 (X black, O white,
 * - empty), a space and the side to move (X or O); anything after a ';'
 * is ignored.  The history starts here (nothing to undo). */
EMILIA_API emilia_status emilia_set_obf(emilia_engine *e, const char *obf);

/* The current position as an OBF line (NUL-terminated; 68 bytes are
 * enough for 8x8). */
EMILIA_API emilia_status emilia_get_obf(emilia_engine *e, char *buf, size_t len);

/* The moves played since the start position, lower case, passes left out
 * ("f5d6c3"); 2 * 128 + 1 bytes are always enough. */
EMILIA_API emilia_status emilia_get_transcript(emilia_engine *e, char *buf, size_t len);

/* EMILIA_BLACK or EMILIA_WHITE; -1 for NULL. */
EMILIA_API int emilia_side_to_move(const emilia_engine *e);

/* 1 when neither side can move, 0 when the game goes on; -1 for NULL. */
EMILIA_API int emilia_is_game_over(const emilia_engine *e);

/* The discs of each colour on the board. */
EMILIA_API emilia_status emilia_discs(const emilia_engine *e, int *black, int *white);

/* The legal moves of the side to move in square order, into moves
 * (EMILIA_MAX_MOVES entries), their number in *count.  A side that must
 * pass has the one move EMILIA_PASS; a finished game has none (count 0). */
EMILIA_API emilia_status emilia_legal_moves(emilia_engine *e, int *moves, int *count);

/* Play a square or EMILIA_PASS for the side to move.  EMILIA_ERR_ILLEGAL
 * (a pass while a move exists is illegal too) or EMILIA_ERR_GAME_OVER
 * leave the game unchanged. */
EMILIA_API emilia_status emilia_play(emilia_engine *e, int move);
/* The same with a move in text ("f5", "F5", "pass"). */
EMILIA_API emilia_status emilia_play_text(emilia_engine *e, const char *move);
/* Take back one ply (a move or a pass); EMILIA_ERR_NO_UNDO at the start. */
EMILIA_API emilia_status emilia_undo(emilia_engine *e);

/* A square's name, lower case ("f5", "pass", "none" for EMILIA_NO_MOVE)
 * into out (5 bytes); EMILIA_ERR_ARGUMENT for other numbers. */
EMILIA_API emilia_status emilia_move_name(int move, char out[5]);
/* A square ("f5", any case) or a pass ("pass", "PA", "--") on the 8x8
 * board: the square number or EMILIA_PASS; -1 when it is neither. */
EMILIA_API int emilia_parse_move(const char *s);

/* ---- searching ------------------------------------------------------------------ */

typedef struct emilia_limits {
	size_t struct_size;   /* sizeof(emilia_limits), set by emilia_limits_init() */
	int depth;            /* plies (0: the level's depth) */
	double move_time;     /* seconds for this move, all used (0: none) */
	uint64_t nodes;       /* stop after about this many nodes (0: none; midgame only) */
	double time_left;     /* the side to move's clock in seconds; < 0: no clock (default -1) */
	double increment;     /* seconds added to that clock after each move */
	int moves_to_go;      /* moves to make in time_left (0: the rest of the game) */
	int multipv;          /* 0 or 1: the best move; N: the N best moves (analysis) */
	int infinite;         /* nonzero: search until emilia_stop() */
} emilia_limits;

/* Fill l with no limits: the level decides (time_left -1). */
EMILIA_API void emilia_limits_init(emilia_limits *l);

typedef struct emilia_info {
	int move;             /* the best move (a square, EMILIA_PASS or EMILIA_NO_MOVE) */
	int score;            /* discs, side to move's view */
	int depth;            /* completed depth in plies */
	int selectivity;      /* percent confidence of the pruning (100: none) */
	int exact;            /* 1: score proven by solving to the end */
	int wld;              /* 1: only the sign is proven (win/loss/draw solve) */
	int book;             /* 1: from the opening book */
	int multipv_index;    /* the line's rank in multi-PV analysis, 1 = best */
	int pvlen;            /* moves in pv */
	int pv[EMILIA_MAX_PV];/* principal variation, pv[0] = move */
	uint64_t nodes;       /* nodes searched so far */
	double seconds;       /* time since the search began */
} emilia_info;

/* Called after each completed iteration (once for each line in multi-PV
 * analysis) on the searching thread.  It may call emilia_stop(). */
typedef void (*emilia_info_fn)(const emilia_info *info, void *user);

/* Search the current position (lim NULL: the level decides).  Blocks
 * until the search ends (limits, clock, level, emilia_stop()) and fills
 * *result (may be NULL) with the move to play: always a legal move, or
 * EMILIA_PASS when the side must pass.  The game is not changed: play the
 * move with emilia_play().  EMILIA_ERR_GAME_OVER when the game is over. */
EMILIA_API emilia_status emilia_search(emilia_engine *e, const emilia_limits *lim, emilia_info_fn fn, void *user,
                                       emilia_info *result);

/* Multi-PV analysis: the `lines` best moves with their scores and
 * principal variations, best first, from the deepest completed iteration,
 * into out[0..*count) (count <= lines and the number of legal moves).
 * The book is not used.  lim's multipv is ignored; fn as emilia_search(). */
EMILIA_API emilia_status emilia_analyze(emilia_engine *e, const emilia_limits *lim, int lines, emilia_info_fn fn,
                                        void *user, emilia_info *out, int *count);

/* Stop the search, analysis or solve running on e and wait until that
 * call has returned (a few milliseconds).  May be called from any thread;
 * from the info callback it only asks for the stop (the call returns
 * after the callback).  When nothing runs it does nothing: it does not
 * cancel a later search.  emilia_perft() cannot be stopped. */
EMILIA_API void emilia_stop(emilia_engine *e);

/* Solve the position to the end of the game with all the engine's
 * threads: the exact score and a best move (wld nonzero: win, draw or
 * loss only, score 1, 0 or -1, faster).  lim (may be NULL) bounds the
 * time with move_time or time_left; EMILIA_ERR_STOPPED when the time ran
 * out or emilia_stop() came first.  A side that must pass gets
 * EMILIA_PASS with its exact score; at the end of the game: the final
 * score with move EMILIA_NO_MOVE.  Solving is practical
 * up to about 30 empties (seconds to minutes on a few cores). */
EMILIA_API emilia_status emilia_solve(emilia_engine *e, int wld, const emilia_limits *lim, emilia_info *result);

/* The static evaluation of the position (no search), in discs for the
 * side to move; at the end of the game the final score. */
EMILIA_API emilia_status emilia_evaluate(emilia_engine *e, int *score);

/* Count the leaves of the game tree `depth` plies (0..60) below the
 * position with the engine's threads; a forced pass counts as a ply and a
 * finished game before the depth as one leaf (perft 8 from the 8x8 start:
 * 390216). */
EMILIA_API emilia_status emilia_perft(emilia_engine *e, int depth, uint64_t *count);

#ifdef __cplusplus
}
#endif

#endif
