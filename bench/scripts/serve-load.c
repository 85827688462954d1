/* serve-load: the load client of `emilia-serve` (docs/serve.md, bench/scripts/serve-load.sh).
 *
 *   cc -O2 -Wall -Wextra -o build/serve-load bench/scripts/serve-load.c \
 *       $(pkg-config --cflags --libs libwebsockets)
 *   build/serve-load [--host 127.0.0.1] --port N [--tables 500] [--rate 10] [--seconds 20]
 *                    [--seed S] [--trace TABLE]
 *
 * Each table is two WebSocket connections to ws://HOST:PORT/ws in this one process: A opens a
 * private reversi table as black ({"t":"open",...}), B joins it with the code of A's `seated`.
 * Then the side to move, as its own connection last saw the table (`to_move`, `legal`, `ply`),
 * sends a random legal move with the table's `ply`, at most RATE moves a second per table.
 * When `legal` is empty the server plays the forced pass itself (`last.by` "auto"); the
 * client sends "pass" only if that has not come within 1 s.  When a game ends (`result` not null), both send `leave`, A
 * opens a new table and B joins it, so every table stays busy.  Tables start staggered over
 * the first second; moves stop after SECONDS, and the moves still unanswered get a grace of
 * 2 s.
 *
 * Checks, per move sent (the move's record lives in its table, indexed by ply):
 *  - acked: the mover's connection receives a `state` (or `seated`) whose `moves` hold that
 *    move at that ply; the latency is from the lws_write() of the move to that frame (the
 *    frame normally has ply + 1 and `last.move` the move; one whose ply is further on because
 *    the server played a forced pass after it in the same change counts as "coalesced");
 *  - the other player's connection must see it too (lost to the opponent otherwise; its
 *    latency is reported as "opponent latency");
 *  - duplicated: on one connection, a table whose ply goes backwards, whose `moves` do not
 *    extend the moves seen before, or a repeated ply (ply > 0) with nothing else changed
 *    (last move, side to move, seats, result, undo offer): docs/serve.md says a move arrives
 *    in `state` only once;
 *  - every `error` frame is counted (by its `error` member), and so are connection errors
 *    and connections closed before the end.
 * Exit status: 0 when all of lost, duplicated, errors, connection failures are zero; 1
 * otherwise; 2 on bad usage or when no connection could be made at all (no server).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <libwebsockets.h>

#define MAXPLY 128   /* a game has at most 60 moves and a few passes */
#define QLEN 8       /* frames queued per connection */
#define MSGMAX 256
#define PASS_SQ 64
#define GRACE_US 2000000
#define PASS_WAIT_US 1000000

/* ---------------------------------------------------------------- time, random */
static int64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
	uint64_t x = rng_state;
	x ^= x << 13; x ^= x >> 7; x ^= x << 17;
	return rng_state = x;
}

/* ---------------------------------------------------------------- a tiny JSON reader
 * Enough for the server's frames: find a member of an object, read strings, integers,
 * arrays of strings.  p points at a value; every function tolerates malformed input by
 * returning NULL. */
static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *skip_string(const char *p)
{
	if (*p != '"')
		return NULL;
	for (p++; *p; p++) {
		if (*p == '\\') {
			if (!*++p)
				return NULL;
		} else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

static const char *skip_value(const char *p)
{
	p = ws(p);
	if (*p == '"')
		return skip_string(p);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';
		p = ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				p = skip_string(ws(p));
				if (!p)
					return NULL;
				p = ws(p);
				if (*p++ != ':')
					return NULL;
			}
			p = skip_value(p);
			if (!p)
				return NULL;
			p = ws(p);
			if (*p == ',') {
				p++;
				continue;
			}
			if (*p == close)
				return p + 1;
			return NULL;
		}
	}
	if (*p == '-' || (*p >= '0' && *p <= '9') || *p == 't' || *p == 'f' || *p == 'n') {
		while (*p && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n')
			p++;
		return p;
	}
	return NULL;
}

/* the value of member KEY of the object at p, or NULL */
static const char *jget(const char *p, const char *key)
{
	if (!p)
		return NULL;
	p = ws(p);
	if (*p != '{')
		return NULL;
	size_t kl = strlen(key);
	p = ws(p + 1);
	if (*p == '}')
		return NULL;
	for (;;) {
		const char *k = ws(p);
		const char *e = skip_string(k);
		if (!e)
			return NULL;
		p = ws(e);
		if (*p++ != ':')
			return NULL;
		p = ws(p);
		if ((size_t)(e - k - 2) == kl && !memcmp(k + 1, key, kl))
			return p;
		p = skip_value(p);
		if (!p)
			return NULL;
		p = ws(p);
		if (*p != ',')
			return NULL;
		p++;
	}
}

/* copies the string at p (no escapes expected) into out; 0 when not a string */
static int jstr(const char *p, char *out, size_t n)
{
	if (!p || *p != '"') {
		if (n)
			out[0] = 0;
		return 0;
	}
	const char *e = skip_string(p);
	if (!e)
		return 0;
	size_t l = (size_t)(e - p - 2);
	if (l >= n)
		l = n - 1;
	memcpy(out, p + 1, l);
	out[l] = 0;
	return 1;
}

static int jint(const char *p, long *v)
{
	if (!p || !(*p == '-' || (*p >= '0' && *p <= '9')))
		return 0;
	*v = strtol(p, NULL, 10);
	return 1;
}

static int jnull(const char *p)
{
	return !p || !strncmp(p, "null", 4);
}

/* a square "d3" -> 0..63, "pass" -> 64, else -1 */
static int sq_of(const char *s, size_t l)
{
	if (l == 4 && !memcmp(s, "pass", 4))
		return PASS_SQ;
	if (l == 2 && s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8')
		return (s[0] - 'a') + 8 * (s[1] - '1');
	return -1;
}

static void sq_name(int sq, char *out)
{
	if (sq == PASS_SQ)
		strcpy(out, "pass");
	else {
		out[0] = (char)('a' + sq % 8);
		out[1] = (char)('1' + sq / 8);
		out[2] = 0;
	}
}

/* the array of square strings at p into out[]; the count, or -1 */
static int jsquares(const char *p, unsigned char *out, int max)
{
	if (!p || *p != '[')
		return -1;
	int n = 0;
	p = ws(p + 1);
	if (*p == ']')
		return 0;
	for (;;) {
		const char *e = skip_string(p);
		if (!e)
			return -1;
		int sq = sq_of(p + 1, (size_t)(e - p - 2));
		if (sq < 0 || n >= max)
			return -1;
		out[n++] = (unsigned char)sq;
		p = ws(e);
		if (*p == ']')
			return n;
		if (*p != ',')
			return -1;
		p = ws(p + 1);
	}
}

/* ---------------------------------------------------------------- state */
struct table;

struct conn {
	struct lws *wsi;
	struct table *tb;
	int role;                 /* 0: A (opens, black), 1: B (joins, white) */
	int color;                /* 0 black, 1 white, -1 unknown */
	int up;                   /* established */
	int gen;                  /* the game (of its table) this connection is in; -1 none */
	int in_game;              /* seated at that game and not left */
	char code[16];
	/* the latest view of the table */
	int ply;                  /* -1: nothing seen */
	unsigned char seen[MAXPLY];
	int to_move;              /* 0 black, 1 white, 2 none */
	int over;
	unsigned char legal[64];
	int nlegal;
	char sig[160];            /* what changes without a move (see dup check) */
	int move_sched;           /* a move timer is pending */
	int sent_ply;             /* the ply it last sent a move for, in game gen; -1 */
	lws_sorted_usec_list_t sul;
	/* receive buffer */
	char *rx;
	size_t rxlen, rxcap;
	/* send queue */
	struct {
		char text[MSGMAX];
		int len;
		int move_ply;     /* >= 0: a move for that ply (its record gets the send time) */
		int gen;
	} q[QLEN];
	int qh, qn;
};

struct mvrec {
	int64_t t_sent;          /* 0: not sent */
	unsigned char sq, mover; /* mover: 0 black, 1 white */
	unsigned char acked, opp_seen;
};

struct table {
	int idx;
	struct conn c[2];
	int gen;                 /* the current game number (0, 1, ...) */
	int started;             /* B seated at game gen: moves may flow */
	char code[16];            /* code of game gen, "" while A waits for `seated` */
	int left[2];             /* game number each connection has left (or -1) */
	struct mvrec rec[2][MAXPLY];  /* by game parity */
	int64_t next_due;
	lws_sorted_usec_list_t sul_start;
};

static struct {
	const char *host;
	int port, ntables, seconds;
	double rate;
	unsigned long seed;
	int trace;
	struct lws_context *ctx;
	struct table *tables;
	int64_t t0, t_stop, t_end;
	int stopping, finished;
	int64_t interval_us;
	/* counters */
	long sent, acked, lost, opp_lost, dup, coalesced, mismatch, errors, conn_err,
		closed_early, established, attempted, games_done, games_open, stale, skipped,
		repeats, passes, pending_ack, pending_opp, bad_frames;
	long err_by[16];
	char first_conn_err[160];
	char first_error[300];
	double *lat, *olat;
	size_t nlat, caplat, nolat, capolat;
	long acked_at_2s;
	int64_t t_2s;
	lws_sorted_usec_list_t sul_stop, sul_end, sul_2s;
} G;

static const char *const ERR_NAMES[] = {"bad", "size", "rate", "unknown", "no-table", "full",
	"token", "turn", "ply", "illegal", "over", "undo", "limit", NULL};

static void push_lat(double **a, size_t *n, size_t *cap, double v)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 65536;
		*a = realloc(*a, *cap * sizeof **a);
		if (!*a) {
			fprintf(stderr, "serve-load: out of memory\n");
			exit(2);
		}
	}
	(*a)[(*n)++] = v;
}

static void trace(const struct conn *c, const char *dir, const char *fmt, ...)
{
	if (G.trace < 0 || c->tb->idx != G.trace)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "[%8.3f] table %d %c %s ", (now_us() - G.t0) / 1e6, c->tb->idx,
		c->role ? 'B' : 'A', dir);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* ---------------------------------------------------------------- sending */
static void enqueue(struct conn *c, int move_ply, const char *fmt, ...)
{
	if (c->qn == QLEN) {
		fprintf(stderr, "serve-load: send queue full (table %d)\n", c->tb->idx);
		G.errors++;
		return;
	}
	int i = (c->qh + c->qn) % QLEN;
	va_list ap;
	va_start(ap, fmt);
	c->q[i].len = vsnprintf(c->q[i].text, MSGMAX, fmt, ap);
	va_end(ap);
	c->q[i].move_ply = move_ply;
	c->q[i].gen = c->tb->gen;
	c->qn++;
	if (c->wsi && c->up)
		lws_callback_on_writable(c->wsi);
}

static int write_one(struct conn *c)
{
	static unsigned char buf[LWS_PRE + MSGMAX];
	if (!c->qn)
		return 0;
	int i = c->qh;
	memcpy(buf + LWS_PRE, c->q[i].text, (size_t)c->q[i].len);
	int64_t t = now_us();
	int w = lws_write(c->wsi, buf + LWS_PRE, (size_t)c->q[i].len, LWS_WRITE_TEXT);
	if (w < c->q[i].len)
		return -1;
	trace(c, ">", "%.*s", c->q[i].len, c->q[i].text);
	if (c->q[i].move_ply >= 0) {
		struct mvrec *r = &c->tb->rec[c->q[i].gen & 1][c->q[i].move_ply];
		r->t_sent = t;
		G.sent++;
		G.pending_ack++;
		G.pending_opp++;
	}
	c->qh = (c->qh + 1) % QLEN;
	c->qn--;
	if (c->qn)
		lws_callback_on_writable(c->wsi);
	return 0;
}

/* ---------------------------------------------------------------- game flow */
static void finalize_game(struct table *tb, int gen)
{
	struct mvrec *rec = tb->rec[gen & 1];
	for (int k = 0; k < MAXPLY; k++) {
		if (rec[k].t_sent) {
			if (!rec[k].acked) {
				G.lost++;
				G.pending_ack--;
			}
			if (!rec[k].opp_seen) {
				G.opp_lost++;
				G.pending_opp--;
			}
		}
	}
	memset(rec, 0, sizeof tb->rec[0]);
}

static void move_cb(lws_sorted_usec_list_t *sul);

static void consider(struct conn *c)
{
	struct table *tb = c->tb;
	if (G.stopping || !tb->started || !c->in_game || c->gen != tb->gen || c->over ||
	    c->to_move != c->color || c->ply < 0 || c->sent_ply == c->ply || c->move_sched)
		return;
	if (c->ply >= MAXPLY - 1)
		return;
	int64_t t = now_us();
	int64_t due = tb->next_due > t ? tb->next_due : t;
	/* no legal move: the server plays the forced pass itself (by "auto"), so a "pass" of
	   ours would race with it (error "turn" or "ply"); send one only if it has not come
	   within PASS_WAIT_US */
	if (!c->nlegal && due < t + PASS_WAIT_US)
		due = t + PASS_WAIT_US;
	c->move_sched = 1;
	if (due - t > 500)
		lws_sul_schedule(G.ctx, 0, &c->sul, move_cb, due - t);
	else
		move_cb(&c->sul);
}

static void move_cb(lws_sorted_usec_list_t *sul)
{
	struct conn *c = lws_container_of(sul, struct conn, sul);
	struct table *tb = c->tb;
	c->move_sched = 0;
	if (G.stopping || !tb->started || !c->in_game || c->gen != tb->gen || c->over ||
	    c->to_move != c->color || c->sent_ply == c->ply)
		return;
	int sq = c->nlegal ? c->legal[rng() % (uint64_t)c->nlegal] : PASS_SQ;
	char name[8];
	sq_name(sq, name);
	if (!c->nlegal)
		G.passes++;
	struct mvrec *r = &tb->rec[tb->gen & 1][c->ply];
	r->sq = (unsigned char)sq;
	r->mover = (unsigned char)c->color;
	r->acked = r->opp_seen = 0;
	c->sent_ply = c->ply;
	int64_t t = now_us();
	tb->next_due += G.interval_us;
	if (tb->next_due < t)
		tb->next_due = t;
	enqueue(c, c->ply, "{\"t\":\"move\",\"move\":\"%s\",\"ply\":%d}", name, c->ply);
}

static void open_table(struct table *tb)
{
	struct conn *a = &tb->c[0];
	tb->code[0] = 0;
	tb->started = 0;
	enqueue(a, -1, "{\"t\":\"open\",\"game\":\"reversi\",\"seconds\":60,\"public\":false,"
		"\"color\":\"black\"}");
}

static void maybe_join(struct table *tb)
{
	struct conn *b = &tb->c[1];
	if (G.stopping || !tb->code[0] || b->in_game || b->gen == tb->gen || !b->up)
		return;
	if (tb->gen > 0 && tb->left[1] < tb->gen - 1)
		return;  /* B still in the previous game */
	b->gen = tb->gen;  /* joining */
	enqueue(b, -1, "{\"t\":\"join\",\"code\":\"%s\"}", tb->code);
}

static void leave_game(struct conn *c)
{
	struct table *tb = c->tb;
	if (!c->in_game)
		return;
	c->in_game = 0;
	lws_sul_cancel(&c->sul);
	c->move_sched = 0;
	enqueue(c, -1, "{\"t\":\"leave\"}");
	tb->left[c->role] = c->gen;
	if (tb->left[0] >= c->gen && tb->left[1] >= c->gen) {
		finalize_game(tb, c->gen);
		G.games_done++;
	}
	if (G.stopping)
		return;
	if (c->role == 0) {
		tb->gen++;
		c->gen = tb->gen;
		c->ply = -1;
		open_table(tb);
	} else
		maybe_join(tb);
}

/* a `table` object seen by connection c (from `seated` or `state`) */
static void on_table(struct conn *c, const char *t, int is_seated)
{
	struct table *tb = c->tb;
	char code[16], tm[8];
	long ply;
	jstr(jget(t, "code"), code, sizeof code);
	if (strcmp(code, c->code) || !c->in_game) {
		G.stale++;  /* a frame of a table it has left */
		return;
	}
	unsigned char mv[MAXPLY];
	int n = jsquares(jget(t, "moves"), mv, MAXPLY);
	if (!jint(jget(t, "ply"), &ply) || n < 0 || ply != n) {
		G.bad_frames++;
		return;
	}
	jstr(jget(t, "to_move"), tm, sizeof tm);
	const char *res = jget(t, "result");
	int over = !jnull(res) || !strcmp(tm, "none");

	/* the signature of what may change without a move */
	char sig[160], lastmv[8] = "", lastby[12] = "", sb[8] = "", sw[8] = "";
	const char *last = jget(t, "last"), *seats = jget(t, "seats");
	jstr(jget(last, "move"), lastmv, sizeof lastmv);
	jstr(jget(last, "by"), lastby, sizeof lastby);
	jstr(jget(jget(seats, "black"), "state"), sb, sizeof sb);
	jstr(jget(jget(seats, "white"), "state"), sw, sizeof sw);
	snprintf(sig, sizeof sig, "%ld %s %s %s %s %s %d %d", ply, lastmv, lastby, tm, sb, sw,
		over, jnull(jget(t, "undo_offer")));

	/* duplicates */
	if (c->ply >= 0) {
		int prefix = n < c->ply ? n : c->ply;
		if (n < c->ply || memcmp(mv, c->seen, (size_t)prefix)) {
			G.dup++;
			fprintf(stderr, "serve-load: table %d %c: ply went from %d to %d or moves"
				" rewritten\n", tb->idx, c->role ? 'B' : 'A', c->ply, n);
		} else if (n == c->ply && n > 0 && !is_seated && !strcmp(sig, c->sig)) {
			G.dup++;
			fprintf(stderr, "serve-load: table %d %c: ply %d delivered twice (%s)\n",
				tb->idx, c->role ? 'B' : 'A', n, sig);
		} else if (n == c->ply)
			G.repeats++;
		else if (n > c->ply + 1) {
			/* plies with no state of their own: fine only when what followed them in the
			   same frame is the server's forced passes */
			for (int k = c->ply; k < n - 1; k++)
				if (mv[k + 1] != PASS_SQ) {
					G.skipped++;
					fprintf(stderr, "serve-load: table %d %c: no state for ply %d (ply"
						" %d to %d)\n", tb->idx, c->role ? 'B' : 'A', k + 1, c->ply, n);
				}
		}
	}

	/* acknowledgements and the opponent's view */
	int64_t t_now = now_us();
	int from = c->ply < 0 ? 0 : c->ply;
	struct mvrec *rec = tb->rec[c->gen & 1];
	for (int k = from; k < n; k++) {
		struct mvrec *r = &rec[k];
		if (!r->t_sent)
			continue;
		if (r->sq != mv[k]) {
			G.mismatch++;
			continue;
		}
		if (r->mover == c->color) {
			if (!r->acked) {
				r->acked = 1;
				G.acked++;
				G.pending_ack--;
				push_lat(&G.lat, &G.nlat, &G.caplat, (t_now - r->t_sent) / 1000.0);
				if (n > k + 1)
					G.coalesced++;
			}
		} else if (!r->opp_seen) {
			r->opp_seen = 1;
			G.pending_opp--;
			push_lat(&G.olat, &G.nolat, &G.capolat, (t_now - r->t_sent) / 1000.0);
		}
	}

	if (n != c->ply && c->move_sched) {
		/* a pending move (a delayed pass) of an older ply */
		lws_sul_cancel(&c->sul);
		c->move_sched = 0;
	}
	memcpy(c->seen, mv, (size_t)n);
	c->ply = n;
	strcpy(c->sig, sig);
	c->to_move = !strcmp(tm, "black") ? 0 : !strcmp(tm, "white") ? 1 : 2;
	c->over = over;
	int nl = jsquares(jget(t, "legal"), c->legal, 64);
	c->nlegal = nl < 0 ? 0 : nl;

	if (over) {
		leave_game(c);
		return;
	}
	consider(c);
}

static void on_frame(struct conn *c, char *msg)
{
	char t[16];
	struct table *tb = c->tb;
	trace(c, "<", "%s", msg);
	if (!jstr(jget(msg, "t"), t, sizeof t)) {
		G.bad_frames++;
		return;
	}
	if (!strcmp(t, "error")) {
		char e[16];
		jstr(jget(msg, "error"), e, sizeof e);
		G.errors++;
		int i;
		for (i = 0; ERR_NAMES[i] && strcmp(ERR_NAMES[i], e); i++)
			;
		G.err_by[i]++;
		if (!G.first_error[0])
			snprintf(G.first_error, sizeof G.first_error, "table %d %c: %.200s", tb->idx,
				c->role ? 'B' : 'A', msg);
		return;
	}
	if (!strcmp(t, "seated")) {
		const char *tbl = jget(msg, "table");
		char code[16], col[8];
		jstr(jget(msg, "code"), code, sizeof code);
		jstr(jget(msg, "color"), col, sizeof col);
		if (c->gen != tb->gen || c->in_game) {
			G.stale++;
			return;
		}
		snprintf(c->code, sizeof c->code, "%s", code);
		c->color = !strcmp(col, "black") ? 0 : !strcmp(col, "white") ? 1 : -1;
		c->in_game = 1;
		c->ply = -1;
		c->over = 0;
		c->sent_ply = -1;
		c->sig[0] = 0;
		if (c->role == 0) {
			snprintf(tb->code, sizeof tb->code, "%s", code);
			G.games_open++;
			maybe_join(tb);
		} else {
			tb->started = 1;
			tb->next_due = now_us();
			consider(&tb->c[0]);
		}
		on_table(c, tbl, 1);
		return;
	}
	if (!strcmp(t, "state")) {
		on_table(c, jget(msg, "table"), 0);
		return;
	}
	/* watching, lobby, pong: not expected here */
	G.bad_frames++;
}

/* ---------------------------------------------------------------- lws */
static void check_done(void);

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
	size_t len)
{
	struct conn *c = user;
	switch (reason) {
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		G.conn_err++;
		if (!G.first_conn_err[0])
			snprintf(G.first_conn_err, sizeof G.first_conn_err, "%s",
				in ? (const char *)in : "(no reason)");
		if (c)
			c->wsi = NULL;
		check_done();
		break;
	case LWS_CALLBACK_CLIENT_ESTABLISHED:
		G.established++;
		c->up = 1;
		if (c->qn)
			lws_callback_on_writable(wsi);
		if (c->tb->c[0].up && c->tb->c[1].up && c->tb->gen == 0 && !c->tb->c[0].qn &&
		    !c->tb->code[0] && !c->tb->c[0].in_game)
			open_table(c->tb);
		break;
	case LWS_CALLBACK_CLIENT_RECEIVE:
		if (c->rxlen + len + 1 > c->rxcap) {
			c->rxcap = (c->rxlen + len + 1) * 2;
			c->rx = realloc(c->rx, c->rxcap);
			if (!c->rx) {
				fprintf(stderr, "serve-load: out of memory\n");
				exit(2);
			}
		}
		memcpy(c->rx + c->rxlen, in, len);
		c->rxlen += len;
		if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
			c->rx[c->rxlen] = 0;
			if (!G.finished)
				on_frame(c, c->rx);
			c->rxlen = 0;
		}
		break;
	case LWS_CALLBACK_CLIENT_WRITEABLE:
		if (G.finished)
			return -1;
		if (write_one(c))
			return -1;
		break;
	case LWS_CALLBACK_CLIENT_CLOSED:
		if (c) {
			c->up = 0;
			c->wsi = NULL;
			if (!G.finished) {
				G.closed_early++;
				fprintf(stderr, "serve-load: table %d %c: connection closed by the"
					" server\n", c->tb->idx, c->role ? 'B' : 'A');
			}
		}
		break;
	default:
		break;
	}
	return 0;
}

static const struct lws_protocols protocols[] = {
	{"serve-load", callback, 0, 8192, 0, NULL, 0},
	{NULL, NULL, 0, 0, 0, NULL, 0}
};

static void connect_conn(struct conn *c)
{
	struct lws_client_connect_info ci;
	memset(&ci, 0, sizeof ci);
	ci.context = G.ctx;
	ci.address = G.host;
	ci.port = G.port;
	ci.path = "/ws";
	ci.host = G.host;
	ci.origin = G.host;
	ci.protocol = NULL;
	ci.local_protocol_name = "serve-load";
	ci.userdata = c;
	ci.pwsi = &c->wsi;
	G.attempted++;
	if (!lws_client_connect_via_info(&ci) && !c->wsi) {
		/* the error callback has normally counted it already */
	}
}

static void start_cb(lws_sorted_usec_list_t *sul)
{
	struct table *tb = lws_container_of(sul, struct table, sul_start);
	connect_conn(&tb->c[0]);
	connect_conn(&tb->c[1]);
}

static void check_done(void)
{
	if (G.finished)
		return;
	if (G.attempted == 2L * G.ntables && G.conn_err == G.attempted)
		G.finished = 1;  /* nobody there */
	if (G.stopping && G.pending_ack <= 0 && G.pending_opp <= 0)
		G.finished = 1;
	if (G.finished)
		lws_cancel_service(G.ctx);  /* out of the poll() of lws_service() */
}

static void stop_cb(lws_sorted_usec_list_t *sul)
{
	(void)sul;
	G.stopping = 1;
	G.t_stop = now_us();
	check_done();
}

static void mark_cb(lws_sorted_usec_list_t *sul)
{
	(void)sul;
	G.acked_at_2s = G.acked;
	G.t_2s = now_us();
}

static void end_cb(lws_sorted_usec_list_t *sul)
{
	(void)sul;
	G.finished = 1;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct(const double *v, size_t n, double p)
{
	if (!n)
		return 0;
	size_t i = (size_t)(p / 100.0 * (double)n);
	if (i >= n)
		i = n - 1;
	return v[i];
}

static void print_lat(const char *name, double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_d);
	printf("%s (ms, %zu moves): p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  max %.2f\n", name, n,
		pct(v, n, 50), pct(v, n, 90), pct(v, n, 99), pct(v, n, 99.9), n ? v[n - 1] : 0.0);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: serve-load [--host H] --port N [--tables N] [--rate R] [--seconds S]"
		" [--seed S] [--trace TABLE]\n"
		"  load client of emilia-serve (bench/scripts/serve-load.c); defaults: host"
		" 127.0.0.1, 500 tables,\n  10 moves a second per table, 20 seconds\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"host", required_argument, 0, 'H'}, {"port", required_argument, 0, 'p'},
		{"tables", required_argument, 0, 't'}, {"rate", required_argument, 0, 'r'},
		{"seconds", required_argument, 0, 's'}, {"seed", required_argument, 0, 'S'},
		{"trace", required_argument, 0, 'T'}, {"help", no_argument, 0, 'h'},
		{0, 0, 0, 0}};
	G.host = "127.0.0.1";
	G.port = 0;
	G.ntables = 500;
	G.rate = 10;
	G.seconds = 20;
	G.seed = 1;
	G.trace = -1;
	int o;
	char *end;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'H': G.host = optarg; break;
		case 'p': G.port = (int)strtol(optarg, &end, 10); if (*end) G.port = -1; break;
		case 't': G.ntables = (int)strtol(optarg, &end, 10); if (*end) G.ntables = -1; break;
		case 'r': G.rate = strtod(optarg, &end); if (*end) G.rate = -1; break;
		case 's': G.seconds = (int)strtol(optarg, &end, 10); if (*end) G.seconds = -1; break;
		case 'S': G.seed = strtoul(optarg, NULL, 10); break;
		case 'T': G.trace = (int)strtol(optarg, NULL, 10); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc || G.port <= 0 || G.port > 65535 || G.ntables < 1 || G.ntables > 100000 ||
	    !(G.rate > 0 && G.rate <= 1000) || G.seconds < 1 || G.seconds > 3600) {
		usage(stderr);
		return 2;
	}
	rng_state ^= (uint64_t)G.seed * 0xbf58476d1ce4e5b9ull;
	if (!rng_state)
		rng_state = 1;
	G.interval_us = (int64_t)(1e6 / G.rate);

	struct rlimit rl;
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (rlim_t)(2 * G.ntables + 64)) {
		fprintf(stderr, "serve-load: %d tables need %d descriptors; RLIMIT_NOFILE is %lu\n",
			G.ntables, 2 * G.ntables + 64, (unsigned long)rl.rlim_cur);
		return 2;
	}

	lws_set_log_level(LLL_ERR, NULL);
	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = protocols;
	info.gid = -1;
	info.uid = -1;
	info.fd_limit_per_thread = (unsigned int)(2 * G.ntables + 64);
	G.ctx = lws_create_context(&info);
	if (!G.ctx) {
		fprintf(stderr, "serve-load: lws_create_context failed\n");
		return 2;
	}

	G.tables = calloc((size_t)G.ntables, sizeof *G.tables);
	if (!G.tables) {
		fprintf(stderr, "serve-load: out of memory\n");
		return 2;
	}
	G.t0 = now_us();
	for (int i = 0; i < G.ntables; i++) {
		struct table *tb = &G.tables[i];
		tb->idx = i;
		tb->left[0] = tb->left[1] = -1;
		for (int r = 0; r < 2; r++) {
			struct conn *c = &tb->c[r];
			c->tb = tb;
			c->role = r;
			c->color = -1;
			c->gen = r ? -1 : 0;
			c->ply = -1;
			c->sent_ply = -1;
		}
		lws_sul_schedule(G.ctx, 0, &tb->sul_start, start_cb,
			(lws_usec_t)((int64_t)i * 1000000 / G.ntables));
	}
	lws_sul_schedule(G.ctx, 0, &G.sul_stop, stop_cb, (lws_usec_t)G.seconds * 1000000);
	if (G.seconds > 3)
		lws_sul_schedule(G.ctx, 0, &G.sul_2s, mark_cb, 2000000);
	lws_sul_schedule(G.ctx, 0, &G.sul_end, end_cb,
		(lws_usec_t)G.seconds * 1000000 + GRACE_US);

	while (!G.finished) {
		if (lws_service(G.ctx, 0) < 0)
			break;
		check_done();
	}
	int64_t t_fin = now_us();
	if (!G.t_stop)
		G.t_stop = t_fin;

	if (G.established == 0) {
		fprintf(stderr, "serve-load: no connection to ws://%s:%d/ws could be made (%s):"
			" is emilia-serve running?\n", G.host, G.port,
			G.first_conn_err[0] ? G.first_conn_err : "no answer");
		return 2;
	}

	/* the games still running: their unanswered moves are lost */
	for (int i = 0; i < G.ntables; i++) {
		struct table *tb = &G.tables[i];
		for (int g = 0; g < 2; g++) {
			struct mvrec *rec = tb->rec[g];
			for (int k = 0; k < MAXPLY; k++)
				if (rec[k].t_sent) {
					if (!rec[k].acked)
						G.lost++;
					if (!rec[k].opp_seen)
						G.opp_lost++;
				}
		}
	}

	double run_s = (G.t_stop - G.t0) / 1e6;
	printf("serve-load: ws://%s:%d/ws, %d tables, %.4g moves/s per table, %d s, seed %lu\n",
		G.host, G.port, G.ntables, G.rate, G.seconds, G.seed);
	printf("connections: %ld established of %ld, %ld connection errors%s%s, %ld closed early\n",
		G.established, G.attempted, G.conn_err, G.first_conn_err[0] ? ": " : "",
		G.first_conn_err, G.closed_early);
	printf("games: %ld tables opened, %ld games finished\n", G.games_open, G.games_done);
	printf("moves: %ld sent, %ld acked, %ld lost, %ld lost to the opponent, %ld duplicated,"
		" %ld mismatched\n", G.sent, G.acked, G.lost, G.opp_lost, G.dup, G.mismatch);
	printf("passes: %ld sent by the client (no auto pass within %d ms)\n", G.passes,
		PASS_WAIT_US / 1000);
	printf("frames: %ld coalesced acks, %ld repeated-ply states, %ld skipped plies, %ld stale,"
		" %ld unreadable\n", G.coalesced, G.repeats, G.skipped, G.stale, G.bad_frames);
	printf("errors: %ld", G.errors);
	for (int i = 0; ERR_NAMES[i] || G.err_by[i]; i++) {
		if (G.err_by[i])
			printf(" %s=%ld", ERR_NAMES[i] ? ERR_NAMES[i] : "other", G.err_by[i]);
		if (!ERR_NAMES[i])
			break;
	}
	printf("\n");
	if (G.first_error[0])
		printf("first error: %s\n", G.first_error);
	printf("rate: %.1f moves/s achieved (target %.1f) over %.2f s", G.acked / run_s,
		G.rate * G.ntables, run_s);
	if (G.t_2s && G.t_stop > G.t_2s)
		printf(", %.1f moves/s from 2 s on", (G.acked - G.acked_at_2s) / ((G.t_stop -
			G.t_2s) / 1e6));
	printf("\n");
	print_lat("latency", G.lat, G.nlat);
	print_lat("opponent latency", G.olat, G.nolat);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
		ru.ru_stime.tv_usec / 1e6;
	printf("client: %.2f s of CPU (%.0f%% of one core over %.2f s), max RSS %ld kB\n", cpu,
		cpu / ((t_fin - G.t0) / 1e6) * 100, (t_fin - G.t0) / 1e6, ru.ru_maxrss);
	long bad = G.lost + G.opp_lost + G.dup + G.mismatch + G.errors + G.conn_err +
		G.closed_early + G.skipped;
	printf("result: %s\n", bad ? "FAIL" : "ok");
	fflush(stdout);
	/* no lws_context_destroy(): closing 1,000 connections politely can take long on a busy
	   machine, and the process's end closes them all */
	return bad ? 1 : 0;
}
