/*
 * serve_cli.c - `emilia serve`: see serve_cli.h.
 */
#include "serve_cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const CmdFlag serve_flags[SERVE_FLAGS] = {
	[SERVE_PORT] = { "--port", CMDFLAG_INT, "N", 0, 65535, "the port", "", "TCP port (8080; 0: any free one, printed)", 0 },
	[SERVE_BIND] = { "--bind", CMDFLAG_STR, "ADDR", 0, 0, NULL, NULL, "address to listen on (127.0.0.1; 0.0.0.0: every interface)", 0 },
	[SERVE_DATA] = { "--data", CMDFLAG_STR, "DIR", 0, 0, NULL, NULL, "tables and finished games are kept here (emilia-data)", 0 },
	[SERVE_WEB] = { "--web", CMDFLAG_STR, "DIR", 0, 0, NULL, NULL, "the page to serve, as `make web` builds it (build/web)", 0 },
	[SERVE_GRACE] = { "--grace", CMDFLAG_INT, "S", 1, 3600, "the grace period", " s", "seconds a player who lost the connection has to come back (30)", 0 },
	[SERVE_IDLE] = { "--idle", CMDFLAG_INT, "S", 1, 86400, "the idle timeout", " s", "close a silent connection, or a table nobody joined, after S seconds (300)", 0 },
	[SERVE_TABLES] = { "--max-tables", CMDFLAG_INT, "N", 1, 100000, "the number of tables", "", "tables at most (1000)", 0 },
	[SERVE_CONNS] = { "--max-connections", CMDFLAG_INT, "N", 1, 100000, "the number of connections", "", "WebSocket connections at most (4000)", 0 },
	[SERVE_THREADS] = { "--engine-threads", CMDFLAG_INT, "N", 1, 64, "the engine threads", "", "threads searching Emilia's moves (1)", 0 },
	[SERVE_HASH] = { "--hash", CMDFLAG_INT, "MB", 1, 4096, "the hash", " MB", "each engine thread's table per kind of game (16)", 0 },
	[SERVE_QUIET] = { "--quiet", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "print errors only", 0 },
};

/* emilia-serve beside this program, else on PATH. */
int cli_serve(int argc, char **argv)
{
	if (cmdflags_wants_help(argc, argv)) {
		cmdflags_help(stdout, "serve", SERVE_SYNOPSIS, serve_flags, SERVE_FLAGS);
		return 0;
	}
	char self[PATH_MAX], path[PATH_MAX + 16];
	const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	argv[0] = "emilia-serve";
	if (n > 0) {
		self[n] = 0;
		char *slash = strrchr(self, '/');
		if (slash) {
			slash[1] = 0;
			snprintf(path, sizeof path, "%semilia-serve", self);
			if (access(path, X_OK) == 0) {
				execv(path, argv);
				fprintf(stderr, "serve: %s: %s\n", path, strerror(errno));
				return 1;
			}
		}
	}
	execvp("emilia-serve", argv);
	fprintf(stderr, "serve: emilia-serve is not built: run 'make serve' (it needs libwebsockets-dev)\n");
	return 1;
}
