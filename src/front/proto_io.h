/*
 * proto_io.h - line input and output shared by the text protocols (GTP,
 * NBoard, UGI, the terminal game).
 *
 * Input: proto_read_line() reads one line of at most PROTO_LINE_MAX - 1
 * bytes.  It never overflows and never blocks on anything but the stream:
 * a longer line is consumed to its end and reported as PROTO_LINE_TOO_LONG
 * (the caller answers with an error and goes on); NUL bytes and other
 * control characters are dropped (as GTP requires) and counted; tabs and
 * carriage returns become spaces.  So whatever arrives, the caller gets a
 * NUL-terminated printable line or an explicit status.
 *
 * Output: ProtoOut serialises whole lines from several threads
 * (a protocol's reader and its search worker) and flushes after each, as
 * the GUIs require.
 */
#ifndef EMILIA_PROTO_IO_H
#define EMILIA_PROTO_IO_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#define PROTO_LINE_MAX 16384
#define PROTO_MAX_ARGS 256

typedef enum {
	PROTO_LINE_OK = 0,
	PROTO_LINE_TOO_LONG,  /* longer than the buffer: discarded */
	PROTO_LINE_EOF        /* end of input, nothing read */
} ProtoLineStatus;

typedef struct ProtoLine {
	char text[PROTO_LINE_MAX];
	size_t len;
	int dropped;          /* control characters removed from this line */
} ProtoLine;

/* Read the next line (without its newline) into line->text.  A last line
 * without a newline is returned as PROTO_LINE_OK; then PROTO_LINE_EOF. */
ProtoLineStatus proto_read_line(FILE *in, ProtoLine *line);
/* The same cleaning applied to a string already in memory (one line; a
 * newline inside it is dropped like other control characters). */
ProtoLineStatus proto_clean_line(const char *s, ProtoLine *line);

/* Split s in place on blanks into at most max tokens; returns the count.
 * Tokens past max are left joined to the last one. */
int proto_split(char *s, char **argv, int max);

/* Join argv[from..to) with single spaces into out (cap bytes), truncating
 * safely; returns the length written. */
size_t proto_join(char *out, size_t cap, char **argv, int from, int to);

/* Write byte c to f as it is when printable ASCII (or a newline, when
 * newline_ok), else as \xHH: the last guard of every reply. */
void proto_put_byte(FILE *f, unsigned char c, bool newline_ok);

/* Whether s is an optionally signed decimal integer (of any size). */
bool proto_is_integer(const char *s);

/* Open a regular file for reading without ever blocking: a FIFO, a
 * device or a directory is refused ("not a regular file").  On failure
 * returns NULL with the reason in why. */
FILE *proto_open_regular(const char *path, char *why, size_t len);

/* Case-insensitive equality of two words. */
bool proto_eq(const char *a, const char *b);

typedef struct ProtoOut {
	FILE *f;
	pthread_mutex_t lock;
} ProtoOut;

void proto_out_init(ProtoOut *o, FILE *f);
void proto_out_destroy(ProtoOut *o);
/* Write one line (a newline is added) and flush, atomically. */
void proto_out_line(ProtoOut *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A growable text buffer for building multi-line replies. */
typedef struct ProtoBuf {
	char *s;
	size_t len, cap;
} ProtoBuf;

void proto_buf_init(ProtoBuf *b);
void proto_buf_free(ProtoBuf *b);
void proto_buf_clear(ProtoBuf *b);
void proto_buf_vprintf(ProtoBuf *b, const char *fmt, va_list ap);

#endif
