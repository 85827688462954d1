#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gtp.h"
#include "harness.h"
#include "nboard.h"
#include "ugi.h"

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
