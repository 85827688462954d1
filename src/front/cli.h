/*
 * cli.h - the `emilia <command>` entry points.  main.c only dispatches;
 * each command lives with its module.  Each returns the process exit
 * status; argv[0] is the command name.
 */
#ifndef EMILIA_CLI_H
#define EMILIA_CLI_H

int cli_perft(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_eval(int argc, char **argv);
int cli_solve(int argc, char **argv);
/* GTP (default), --nboard, --ugi with the global options; `play`. */
int cli_protocol(int argc, char **argv);
int cli_protocol_usage(void);
int cli_play(int argc, char **argv);
/* `review GAME` (review.h) and `show POSITION` (svg.h). */
int cli_review(int argc, char **argv);
int cli_show(int argc, char **argv);
/* `serve`: runs emilia-serve (serve_cli.h). */
int cli_serve(int argc, char **argv);

#endif
