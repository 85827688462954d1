#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "book.h"
#include "gtp.h"
#include "harness.h"
#include "nboard.h"
#include "patterns.h"
#include "ugi.h"
#include "weights.h"

#define FUZZ_NODE_CAP 3000
#define FUZZ_MAX_LINES 200

static Options fuzz_options(void)
{
	Options o;
	char err[OPTIONS_ERR];
	options_init(&o);
	options_set(&o, OPT_USEBOOK, "false", err);
	options_set(&o, OPT_HASH, "1", err);
	options_set(&o, OPT_LEVEL, "2", err);
	options_set(&o, OPT_SOLVE_LIMIT, "10", err);
	o.sandbox = true;
	return o;
}

static FILE *sink(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

int fuzz_session(int protocol, const uint8_t *data, size_t size)
{
	static Gtp *gtp;
	static NBoard *nb;
	static Ugi *ugi;
	char err[OPTIONS_ERR];
	Options o = fuzz_options();
	if (protocol == FUZZ_GTP) {
		if (!gtp) {
			gtp = gtp_new(sink(), &o, err);
			gtp_set_node_cap(gtp, FUZZ_NODE_CAP);
		}
		gtp_reset(gtp);
	} else if (protocol == FUZZ_NBOARD) {
		if (!nb) {
			nb = nboard_new(sink(), &o, err);
			nboard_set_node_cap(nb, FUZZ_NODE_CAP);
		}
		nboard_reset(nb);
	} else {
		if (!ugi) {
			ugi = ugi_new(sink(), &o, err);
			ugi_set_node_cap(ugi, FUZZ_NODE_CAP);
		}
		ugi_reset(ugi);
	}
	/* the input as lines; NUL bytes and long lines are kept as they are
	 * so the line cleaning is fuzzed too */
	char *buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	size_t start = 0;
	int lines = 0;
	for (size_t i = 0; i <= size && lines < FUZZ_MAX_LINES; i++) {
		if (i < size && buf[i] != '\n')
			continue;
		buf[i] = 0;
		/* a NUL inside the line ends it for the C string API; the
		 * stream reader drops NULs instead: emulate that */
		size_t k = start;
		for (size_t j = start; j < i; j++)
			if (buf[j])
				buf[k++] = buf[j];
		buf[k] = 0;
		const char *line = buf + start;
		bool go_on;
		if (protocol == FUZZ_GTP)
			go_on = gtp_execute_line(gtp, line);
		else if (protocol == FUZZ_NBOARD)
			go_on = nboard_execute_line(nb, line);
		else
			go_on = ugi_execute_line(ugi, line);
		lines++;
		start = i + 1;
		if (!go_on)
			break;
	}
	if (protocol == FUZZ_NBOARD)
		nboard_wait(nb);
	else if (protocol == FUZZ_UGI)
		ugi_wait(ugi);
	free(buf);
	return 0;
}

/* ---- file contents ------------------------------------------------------------ */

static void fuzz_check_printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c != '\n' && (c < 32 || c > 126)) {
			fprintf(stderr, "fuzz: raw byte 0x%02x in a reply\n", c);
			abort();
		}
	}
}

/* The reply of one GTP command into reply (cap bytes). */
static void fuzz_gtp_reply(Gtp *g, FILE *f, char **out, size_t *outlen, const char *cmd,
                           char *reply, size_t cap)
{
	fflush(f);
	size_t mark = *outlen;
	gtp_execute_line(g, cmd);
	fflush(f);
	snprintf(reply, cap, "%.*s", (int)(*outlen - mark), *out + mark);
}

int fuzz_sgf(const uint8_t *data, size_t size)
{
	static Gtp *g;
	static char *out;
	static size_t outlen;
	static FILE *f;
	char err[OPTIONS_ERR];
	if (!g) {
		Options o = fuzz_options();
		f = open_memstream(&out, &outlen);
		if (!f)
			abort();
		g = gtp_new(f, &o, err);
		if (!g)
			abort();
		gtp_set_node_cap(g, FUZZ_NODE_CAP);
	}
	gtp_reset(g);
	rewind(f); /* keep the stream small */
	if (!size)
		return 0;
	long upto = data[0] % 8;
	char *text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	/* a known position first: a refused file must leave it */
	char before[256], after[256];
	fuzz_gtp_reply(g, f, &out, &outlen, "play b f5", before, sizeof before);
	fuzz_gtp_reply(g, f, &out, &outlen, "emilia-setboard", before, sizeof before);
	char lerr[200];
	if (!gtp_load_sgf(g, text, upto, lerr, sizeof lerr)) {
		fuzz_check_printable(lerr, strlen(lerr));
		fuzz_gtp_reply(g, f, &out, &outlen, "emilia-setboard", after, sizeof after);
		if (strcmp(before, after) != 0) {
			fprintf(stderr, "fuzz: a refused SGF changed the game\n");
			abort();
		}
	}
	static const char *const cmds[] = { "showboard", "emilia-legal", "genmove b", "undo",
	                                     "final_score" };
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
		char reply[4096];
		fuzz_gtp_reply(g, f, &out, &outlen, cmds[i], reply, sizeof reply);
		fuzz_check_printable(reply, strlen(reply));
	}
	free(text);
	return 0;
}

static int cmp_entry_bytes(const void *a, const void *b)
{
	uint64_t pa, oa, pb, ob;
	memcpy(&pa, a, 8);
	memcpy(&oa, (const char *)a + 8, 8);
	memcpy(&pb, b, 8);
	memcpy(&ob, (const char *)b + 8, 8);
	if (pa != pb)
		return pa < pb ? -1 : 1;
	return oa < ob ? -1 : oa > ob ? 1 : 0;
}

static void fuzz_verify_line(void *user, const char *line)
{
	(void)user;
	(void)line;
}

int fuzz_book(const uint8_t *data, size_t size)
{
	char err[BOOK_ERR];
	unsigned char *img = malloc(size + 1);
	if (!img)
		return 0;
	memcpy(img, data, size);
	if (size >= BOOK_HEADER_SIZE && (data[0] & 1)) {
		size_t n = (size - BOOK_HEADER_SIZE) / BOOK_ENTRY_SIZE;
		size = BOOK_HEADER_SIZE + n * BOOK_ENTRY_SIZE;
		memcpy(img, "EMILBOOK", 8);
		qsort(img + BOOK_HEADER_SIZE, n, BOOK_ENTRY_SIZE, cmp_entry_bytes);
		uint64_t v = n;
		memcpy(img + 24, &v, 8);
		v = book_checksum(img + BOOK_HEADER_SIZE, n * BOOK_ENTRY_SIZE);
		memcpy(img + 32, &v, 8);
		v = book_checksum(img, 56);
		memcpy(img + 56, &v, 8);
	}
	Book *b = book_open_memory(img, size, "fuzz.book", err);
	if (b) {
		Game gm;
		game_init(&gm, 8, VARIANT_NORMAL);
		BookMove mv[64];
		for (int ply = 0; ply < 6; ply++) {
			int n = book_list_moves(b, &gm, mv, 64);
			int score;
			book_engine_probe(b, &gm, &score);
			int line[64];
			if (n > 0 && mv[0].move != BOARD_PASS)
				book_line(b, &gm, mv[0].move, line, 64);
			uint64_t moves = game_moves(&gm);
			if (!moves)
				break;
			game_play(&gm, n > 0 && mv[0].move != BOARD_PASS && (moves >> mv[0].move & 1)
			                   ? mv[0].move : __builtin_ctzll(moves));
		}
		for (size_t i = 0; i < book_count(b) && i < 8; i++) {
			BookEntry e;
			if (book_entry(b, i, &e))
				book_lookup(b, (Board){ e.p, e.o }, &e);
		}
		BookStats st;
		book_stats(b, &st);
		book_verify(b, fuzz_verify_line, NULL, 4);
		book_free(b);
	} else {
		fuzz_check_printable(err, strlen(err));
	}
	free(img);
	return 0;
}

int fuzz_weights(const uint8_t *data, size_t size)
{
	static unsigned char *img;
	static int16_t *w;
	size_t len;
	const unsigned char *builtin = weights_builtin(&len);
	if (!img) {
		img = malloc(len);
		w = malloc((size_t)PATTERN_PHASES * PATTERN_WEIGHTS * sizeof *w);
		if (!img || !w)
			abort();
	}
	memcpy(img, builtin, len);
	size_t cut = len;
	for (size_t i = 1; i + 4 <= size; i += 4) {
		size_t off = ((size_t)data[i] | (size_t)data[i + 1] << 8 | (size_t)data[i + 2] << 16) % len;
		img[off] = data[i + 3];
		cut = off;
	}
	if (size && (data[0] & 1))
		memset(img + 32, 0, 8), memcpy(img + 32, &(uint64_t){ weights_checksum(img, len) }, 8);
	if (size && (data[0] & 2))
		len = cut;
	char err[WEIGHTS_ERR];
	if (weights_decode(img, len, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS, w, err)) {
		/* the evaluation's own sum over a few positions */
		uint64_t p = 0x0000000810000000ULL, o = 0x0000001008000000ULL, r = 0x9E3779B97F4A7C15ULL;
		for (int k = 0; k < 16; k++) {
			uint32_t f[PATTERN_FEATURES];
			patterns_features(p, o, f);
			int empties = 64 - __builtin_popcountll(p | o);
			const int16_t *ph = w + (size_t)patterns_phase(empties) * PATTERN_WEIGHTS;
			long s = 0;
			for (int i = 0; i < PATTERN_FEATURES; i++)
				s += ph[f[i]];
			if (s > 64L * 64 * PATTERN_FEATURES * 8)
				abort(); /* cannot happen with accepted weights */
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			uint64_t m = board_moves(p, o);
			if (!m) {
				uint64_t t = p; p = o; o = t;
				continue;
			}
			int sq = __builtin_ctzll(m);
			for (int j = (int)(r % 8); j-- > 0 && (m & (m - 1));)
				m &= m - 1, sq = __builtin_ctzll(m);
			uint64_t fl = board_flips(p, o, sq);
			uint64_t np = o & ~fl, no = p | fl | (1ULL << sq);
			p = np;
			o = no;
		}
	} else {
		fuzz_check_printable(err, strlen(err));
	}
	return 0;
}
