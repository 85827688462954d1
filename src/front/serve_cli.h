/*
 * serve_cli.h - the flags of `emilia serve` (docs/serve.md), one table for
 * both programs: `emilia serve` prints its help from it and runs
 * emilia-serve (src/serve/, built by `make serve`), which parses its
 * arguments with it.
 */
#ifndef EMILIA_SERVE_CLI_H
#define EMILIA_SERVE_CLI_H

#include "cmdflags.h"

enum {
	SERVE_PORT, SERVE_BIND, SERVE_DATA, SERVE_WEB, SERVE_GRACE, SERVE_IDLE, SERVE_TABLES, SERVE_CONNS,
	SERVE_THREADS, SERVE_HASH, SERVE_QUIET, SERVE_FLAGS
};
extern const CmdFlag serve_flags[SERVE_FLAGS];
#define SERVE_SYNOPSIS "[--port N] [--bind ADDR] [--data DIR] [--web DIR] [options]"

#endif
