/*
 * serve.c - emilia-serve: the browser page over HTTP and online tables
 * over WebSocket, with libwebsockets (docs/serve.md).  One event thread
 * runs the network, the tables and a 100 ms tick (clocks, grace periods,
 * idle connections, saving); Emilia's moves are searched by the engine
 * threads of pool.c, which wake the event loop when one is found.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libwebsockets.h>

#include "serve_cli.h"
#include "emilia.h"
#include "hall.h"
#include "text.h"

static lws_sorted_usec_list_t tick_sul;
static volatile sig_atomic_t stopping;

/* ---- the tick: clocks, grace periods, idle connections, files ---- */

static void tick_table(Table *t, int64_t now)
{
	for (int k = 0; k < 2; k++) {
		Seat *s = &t->seat[k];
		if (s->state != SEAT_AWAY || now < s->away_until)
			continue;
		if (!serve_seat_lost(t, k, now, false))
			return;
	}
	if (t->deadline && now >= t->deadline && !t->thinking && table_controller(t) == 1) {
		/* out of time: Emilia moves for the player, who keeps the seat */
		serve_move_for_player(t);
		serve_broadcast(t, NULL);
	}
	if (t->over && !t->conns && t->review[0]) {
		serve_close_table(t, "the game is over and everyone has left");
		return;
	}
	if (!t->over && table_controller(t) == 0 && !t->conns &&
	    (t->seat[0].state != SEAT_AWAY && t->seat[1].state != SEAT_AWAY)) {
		serve_close_table(t, "nobody is at it");
		return;
	}
	if ((t->seat[0].state == SEAT_FREE || t->seat[1].state == SEAT_FREE) && now - t->created >= cfg.idle * 1000LL) {
		serve_close_table(t, "nobody took the other seat in time");
		return;
	}
	if (t->dirty && now - t->saved_at >= 1000)
		serve_save_table(t, now);
	serve_maybe_think(t, now);
}

static void tick(lws_sorted_usec_list_t *sul)
{
	const int64_t now = serve_now_ms();
	for (Table *t = tables, *next; t; t = next) {
		next = t->next;
		tick_table(t, now);
	}
	for (Conn *c = conns; c; c = c->all_next)
		if (c->ws && now - c->last_msg >= cfg.idle * 1000LL)
			serve_conn_close(c);
	if (lobby_dirty && now - lobby_sent >= 250) {
		lobby_dirty = false;
		lobby_sent = now;
		serve_send_lobby(NULL);
	}
	if (!stopping)
		lws_sul_schedule(context, 0, &tick_sul, tick, TICK_MS * LWS_US_PER_MS);
}

/* ---- libwebsockets ---- */

static bool rate_ok(Conn *c, int64_t now)
{
	if (now - c->rate_window >= 1000) {
		c->rate_window = now;
		c->rate_count = 0;
	}
	c->rate_count++;
	if (c->rate_count <= RATE_PER_SECOND)
		return true;
	if (c->rate_count > 2 * RATE_PER_SECOND)
		serve_conn_close(c); /* it keeps sending */
	else
		serve_send_error(c, "rate", "more than 40 messages in a second: this one was dropped");
	return false;
}

static void on_receive(Conn *c, const char *in, size_t len)
{
	struct lws *wsi = c->wsi;
	if (lws_is_first_fragment(wsi)) {
		c->rx_len = 0;
		c->rx_oversize = false;
	}
	if (!c->rx && !(c->rx = malloc(MAX_FRAME)))
		c->rx_oversize = true;
	if (!c->rx_oversize && c->rx_len + len <= MAX_FRAME) {
		memcpy(c->rx + c->rx_len, in, len);
		c->rx_len += len;
	} else {
		c->rx_oversize = true;
	}
	if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi))
		return;
	const int64_t now = serve_now_ms();
	c->last_msg = now;
	if (!rate_ok(c, now))
		return;
	if (c->rx_oversize)
		return serve_send_error(c, "size", "a message over 4096 bytes: refused");
	if (lws_frame_is_binary(wsi))
		return serve_send_error(c, "bad", "a binary frame: messages are JSON text");
	serve_handle_message(c, c->rx, c->rx_len);
}

static void on_closed(Conn *c)
{
	const int64_t now = serve_now_ms();
	Table *t = c->table;
	const int k = c->colour;
	serve_detach(c);
	if (t) {
		if (k >= 0 && t->seat[k].state == SEAT_HERE && t->seat[k].conn == NULL) {
			t->seat[k].state = SEAT_AWAY;
			t->seat[k].away_until = now + cfg.grace * 1000LL;
			t->dirty = true;
		}
		serve_broadcast(t, NULL);
	}
	while (c->out) {
		Msg *m = c->out;
		c->out = m->next;
		free(m);
	}
	c->out_tail = NULL;
	free(c->rx);
	c->rx = NULL;
	if (c->all_prev)
		c->all_prev->all_next = c->all_next;
	else
		conns = c->all_next;
	if (c->all_next)
		c->all_next->all_prev = c->all_prev;
	nconns--;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	Conn *c = user;
	switch (reason) {
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: {
		char uri[64];
		if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 || strcmp(uri, "/ws") != 0)
			return 1;
		if (nconns >= cfg.max_connections)
			return 1;
		return 0;
	}
	case LWS_CALLBACK_ESTABLISHED:
		memset(c, 0, sizeof *c);
		c->wsi = wsi;
		c->ws = true;
		c->colour = -1;
		c->last_msg = serve_now_ms();
		c->all_next = conns;
		if (conns)
			conns->all_prev = c;
		conns = c;
		nconns++;
		return 0;
	case LWS_CALLBACK_RECEIVE:
		on_receive(c, in, len);
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE: {
		Msg *m = c->out;
		if (!m)
			return 0;
		if (lws_write(wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT) < (int)m->len)
			return -1;
		c->out = m->next;
		if (!c->out)
			c->out_tail = NULL;
		c->out_count--;
		free(m);
		if (c->out)
			lws_callback_on_writable(wsi);
		return 0;
	}
	case LWS_CALLBACK_CLOSED:
		if (c->ws)
			on_closed(c);
		return 0;
	case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
		if (pool)
			serve_engine_replies();
		return 0;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

static void wake_loop(void *user)
{
	lws_cancel_service(context);
}

static void on_signal(int sig)
{
	stopping = 1;
	if (context)
		lws_cancel_service(context);
}

/* ---- start-up ---- */

static bool make_dir(const char *path)
{
	if (mkdir(path, 0755) == 0 || errno == EEXIST)
		return true;
	serve_warn("%s: %s", path, strerror(errno));
	return false;
}

static void restore_tables(int64_t now)
{
	DIR *d = opendir(tables_dir);
	if (!d)
		return;
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		const size_t k = strlen(e->d_name);
		if (k < 6 || strcmp(e->d_name + k - 5, ".json") != 0)
			continue;
		char path[4400], err[512];
		snprintf(path, sizeof path, "%s/%s", tables_dir, e->d_name);
		Table *t = malloc(sizeof *t);
		if (!t)
			break;
		if (!table_load(t, next_table_id++, path, now, cfg.grace * 1000LL, err, sizeof err) || serve_find_table(t->code)) {
			char bad[4500];
			snprintf(bad, sizeof bad, "%s.bad", path);
			serve_warn("%s (kept as %s)", err, bad);
			rename(path, bad);
			free(t);
			continue;
		}
		t->next = tables;
		tables = t;
		ntables++;
		n++;
	}
	closedir(d);
	if (n)
		serve_note("restored %d table%s from %s", n, n == 1 ? "" : "s", tables_dir);
}

static int parse_args(int argc, char **argv)
{
	if (cmdflags_wants_help(argc, argv)) {
		cmdflags_help(stdout, "serve", SERVE_SYNOPSIS, serve_flags,
		              SERVE_FLAGS);
		exit(0);
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--version")) {
			char v[256];
			text_version("emilia-serve", v, sizeof v);
			printf("%s\n", v);
			exit(0);
		}
		CmdFlagValue v;
		const int f = cmdflags_next("serve", serve_flags, SERVE_FLAGS, argc, argv, &i, &v);
		switch (f) {
		case CMDFLAG_ERROR:
			return 2;
		case CMDFLAG_NONE:
			fprintf(stderr, "serve: unknown option '%s' (emilia serve --help lists them)\n", argv[i]);
			return 2;
		case SERVE_PORT: cfg.port = (int)v.num; break;
		case SERVE_BIND: cfg.bind = v.str; break;
		case SERVE_DATA: cfg.data = v.str; break;
		case SERVE_WEB: cfg.web = v.str; break;
		case SERVE_GRACE: cfg.grace = (int)v.num; break;
		case SERVE_IDLE: cfg.idle = (int)v.num; break;
		case SERVE_TABLES: cfg.max_tables = (int)v.num; break;
		case SERVE_CONNS: cfg.max_connections = (int)v.num; break;
		case SERVE_THREADS: cfg.engine_threads = (int)v.num; break;
		case SERVE_HASH: cfg.hash_mb = (int)v.num; break;
		case SERVE_QUIET: cfg.quiet = true; break;
		default: break;
		}
	}
	return 0;
}

static const struct lws_protocol_vhost_options mime_ggf = { NULL, NULL, ".ggf", "text/plain; charset=utf-8" };
static const struct lws_protocol_vhost_options mime_gz = { &mime_ggf, NULL, ".gz", "application/octet-stream" };
static const struct lws_protocol_vhost_options mime_mjs = { &mime_gz, NULL, ".mjs", "text/javascript" };
static const struct lws_protocol_vhost_options mime_json = { &mime_mjs, NULL, ".json", "application/json" };
static const struct lws_protocol_vhost_options mime_wasm = { &mime_json, NULL, ".wasm", "application/wasm" };

int main(int argc, char **argv)
{
	const int rc = parse_args(argc, argv);
	if (rc)
		return rc;
	signal(SIGPIPE, SIG_IGN);
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if ((urandom_fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) < 0) {
		serve_warn("/dev/urandom: %s", strerror(errno));
		return 1;
	}
	snprintf(tables_dir, sizeof tables_dir, "%s/tables", cfg.data);
	snprintf(games_dir, sizeof games_dir, "%s/games", cfg.data);
	if (!make_dir(cfg.data) || !make_dir(tables_dir) || !make_dir(games_dir))
		return 1;
	struct stat st;
	const bool have_web = stat(cfg.web, &st) == 0 && S_ISDIR(st.st_mode);
	if (!have_web)
		serve_warn("%s: no such folder: the page is not served (build it with `make web`, or give --web)", cfg.web);

	lws_set_log_level(LLL_ERR, NULL);
	static struct lws_protocols protocols[] = {
		{ "emilia", callback, sizeof(Conn), MAX_FRAME, 0, NULL, 0 },
		{ NULL, NULL, 0, 0, 0, NULL, 0 },
	};
	static struct lws_http_mount mount_games, mount_web;
	memset(&mount_games, 0, sizeof mount_games);
	mount_games.mountpoint = "/games";
	mount_games.mountpoint_len = 6;
	mount_games.origin = games_dir;
	mount_games.origin_protocol = LWSMPRO_FILE;
	mount_games.extra_mimetypes = &mime_wasm;
	memset(&mount_web, 0, sizeof mount_web);
	mount_web.mount_next = &mount_games;
	mount_web.mountpoint = "/";
	mount_web.mountpoint_len = 1;
	mount_web.origin = have_web ? cfg.web : games_dir;
	mount_web.def = "index.html";
	mount_web.origin_protocol = LWSMPRO_FILE;
	mount_web.extra_mimetypes = &mime_wasm;

	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.port = cfg.port;
	info.iface = cfg.bind;
	info.protocols = protocols;
	info.mounts = &mount_web;
	info.fd_limit_per_thread = (unsigned)(cfg.max_connections + 64);
	info.vhost_name = "emilia";
	info.timeout_secs = 30;
	const int64_t now = serve_now_ms();
	restore_tables(now);
	context = lws_create_context(&info);
	if (!context) {
		serve_warn("cannot listen on %s port %d", cfg.bind, cfg.port);
		return 1;
	}
	struct lws_vhost *vh = lws_get_vhost_by_name(context, "emilia");
	const int port = vh ? lws_get_vhost_listen_port(vh) : cfg.port;
	pool = pool_new(cfg.engine_threads, cfg.hash_mb, wake_loop, NULL);
	saver = saver_new(tables_dir);
	if (!pool || !saver) {
		serve_warn("cannot start the engine and saving threads");
		pool_free(pool);
		saver_free(saver);
		lws_context_destroy(context);
		return 1;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	lws_sul_schedule(context, 0, &tick_sul, tick, TICK_MS * LWS_US_PER_MS);
	fprintf(stderr, "emilia-serve: listening on http://%s:%d/ (tables in %s)\n", cfg.bind, port, cfg.data);
	while (!stopping)
		if (lws_service(context, 0) < 0)
			break;
	const int64_t end = serve_now_ms();
	pool_free(pool);
	pool = NULL;
	int saved = 0;
	for (Table *t = tables; t; t = t->next) {
		/* a search that was out is searched again after the restart */
		t->thinking = false;
		serve_save_table(t, end);
		saved++;
	}
	/* the connections' ends change nothing that is saved: every seat
	 * taken comes back away */
	lws_context_destroy(context);
	saver_free(saver);
	saver = NULL;
	serve_note("stopped; %d table%s saved in %s", saved, saved == 1 ? "" : "s", tables_dir);
	while (tables) {
		Table *t = tables;
		tables = t->next;
		free(t);
	}
	close(urandom_fd);
	return 0;
}
