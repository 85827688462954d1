#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "match.h"
#include "text.h"
#include "util.h"

/* A short legal line after which Black must pass (White to move had just
 * played c1; Black has no move, White has): the pass-convention probe. */
static const char *const probe_line[] = { "d3", "c3", "b3", "b2", "f5", "a3", "a1", "c1" };

static const char *const colour_name[2] = { "black", "white" };

void match_ignore_sigpipe(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

/* ---- parsing the command line pieces ---------------------------------- */

static bool valid_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n >= MATCH_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._+-", s[i]))
			return false;
	return true;
}

/* Split s like sh does with quotes ('..', "..", backslash) into tokens
 * written one after another (NUL-separated) into out.  Returns the number
 * of tokens, or -1 on an unterminated quote or overflow. */
static int sh_split(const char *s, char *out, size_t n)
{
	size_t o = 0;
	int count = 0;
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		while (*s && *s != ' ' && *s != '\t') {
			char c = *s++;
			if (c == '\'') {
				while (*s && *s != '\'') {
					if (o + 1 >= n)
						return -1;
					out[o++] = *s++;
				}
				if (*s++ != '\'')
					return -1;
				continue;
			}
			if (c == '"') {
				while (*s && *s != '"') {
					if (*s == '\\' && s[1] && strchr("\"\\$`", s[1]))
						s++;
					if (o + 1 >= n)
						return -1;
					out[o++] = *s++;
				}
				if (*s++ != '"')
					return -1;
				continue;
			}
			if (c == '\\' && *s)
				c = *s++;
			if (o + 1 >= n)
				return -1;
			out[o++] = c;
		}
		if (o + 1 >= n)
			return -1;
		out[o++] = '\0';
		count++;
	}
	return count;
}

/* Store one key=value; false with a message when the key is unknown or the
 * value is bad. */
static bool set_key(MatchEngineSpec *spec, const char *word, char *err)
{
	const char *eq = strchr(word, '=');
	size_t klen = (size_t)(eq - word);
	const char *v = eq + 1;
	char val[MATCH_CMD_MAX];
	size_t vlen = strlen(v);
	/* One pair of quotes around the whole value is quoting the user meant
	 * for a shell that was not there ('cmd="x -l 1"' as one argument). */
	if (vlen >= 2 && (v[0] == '"' || v[0] == '\'') && v[vlen - 1] == v[0]) {
		v++;
		vlen -= 2;
	}
	if (vlen >= sizeof val) {
		snprintf(err, MATCH_ERR, "engine %.*s is too long (%zu bytes, at most %zu)",
		         (int)klen, word, vlen, sizeof val - 1);
		return false;
	}
	memcpy(val, v, vlen);
	val[vlen] = '\0';
	if (klen == 4 && !strncmp(word, "name", 4)) {
		if (!valid_name(val)) {
			snprintf(err, MATCH_ERR, "engine name '%.80s' must be 1 to %d letters, digits or ._+-",
			         val, MATCH_NAME_MAX - 1);
			return false;
		}
		strcpy(spec->name, val);
	} else if (klen == 3 && !strncmp(word, "cmd", 3)) {
		if (!val[0] || strspn(val, " \t") == vlen) {
			snprintf(err, MATCH_ERR, "empty engine command");
			return false;
		}
		strcpy(spec->cmd, val);
	} else if (klen == 4 && !strncmp(word, "init", 4)) {
		strcpy(spec->init, val);
	} else if (klen == 2 && !strncmp(word, "tc", 2)) {
		if (!match_parse_tc(val, &spec->tc)) {
			snprintf(err, MATCH_ERR, "engine tc '%.80s' is not S, M+I or none", val);
			return false;
		}
		spec->has_tc = true;
	} else {
		snprintf(err, MATCH_ERR, "unknown engine key '%.*s' (name=, cmd=, init=, tc=)", (int)klen, word);
		return false;
	}
	for (const char *p = val; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t') {
			snprintf(err, MATCH_ERR, "control character in engine %.*s", (int)klen, word);
			return false;
		}
	return true;
}

static bool is_key_word(const char *w)
{
	size_t k = strcspn(w, "= \t\"'");
	return k > 0 && w[k] == '=';
}

int match_parse_engine_words(int nwords, char **words, MatchEngineSpec *spec, char *err)
{
	memset(spec, 0, sizeof *spec);
	int used = 0;
	for (; used < nwords && is_key_word(words[used]); used++) {
		const char *w = words[used];
		/* Several pairs in one argument: only when it starts with name=
		 * (a name has no spaces); a cmd= argument is taken verbatim. */
		if (!strncmp(w, "name=", 5) && strpbrk(w, " \t")) {
			char toks[2 * MATCH_CMD_MAX];
			int nt = sh_split(w, toks, sizeof toks);
			if (nt < 0) {
				snprintf(err, MATCH_ERR, "unbalanced quotes in engine '%.80s'", w);
				return 0;
			}
			const char *t = toks;
			for (int i = 0; i < nt; i++, t += strlen(t) + 1) {
				if (!is_key_word(t)) {
					snprintf(err, MATCH_ERR, "'%.80s' is not key=value in engine '%.80s'", t, w);
					return 0;
				}
				if (!set_key(spec, t, err))
					return 0;
			}
			continue;
		}
		if (!set_key(spec, w, err))
			return 0;
	}
	if (!spec->name[0] || !spec->cmd[0]) {
		snprintf(err, MATCH_ERR, "--engine needs name=NAME and cmd=\"COMMAND\"%s%.80s%s",
		         used < nwords ? " (stopped at '" : "", used < nwords ? words[used] : "",
		         used < nwords ? "')" : "");
		return 0;
	}
	return used;
}

/* A non-negative decimal number, digits and at most one '.', nothing else. */
static bool parse_decimal(const char *s, size_t len, double *out)
{
	char tmp[32];
	if (len == 0 || len >= sizeof tmp)
		return false;
	int dots = 0, digits = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '.')
			dots++;
		else if (isdigit((unsigned char)s[i]))
			digits++;
		else
			return false;
	}
	if (dots > 1 || digits == 0)
		return false;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	*out = strtod(tmp, NULL);
	return isfinite(*out);
}

bool match_parse_tc(const char *s, MatchTimeControl *tc)
{
	MatchTimeControl t = { 0, 0, 0, false };
	if (!strcmp(s, "none")) {
		t.none = true;
		*tc = t;
		return true;
	}
	const char *plus = strchr(s, '+');
	if (!plus) {
		if (!parse_decimal(s, strlen(s), &t.move_time) || t.move_time <= 0 || t.move_time > 86400)
			return false;
	} else {
		double m;
		if (!parse_decimal(s, (size_t)(plus - s), &m) ||
		    !parse_decimal(plus + 1, strlen(plus + 1), &t.increment))
			return false;
		t.clock = m * 60;
		if (t.clock + t.increment <= 0 || t.clock > 864000 || t.increment > 86400)
			return false;
	}
	*tc = t;
	return true;
}

/* m:ss with a fraction when needed ("00:02", "00:00.1"). */
static void ggf_clock(double secs, char *out, size_t n)
{
	long whole = (long)floor(secs + 1e-9);
	double frac = secs - (double)whole;
	char f[16] = "";
	if (frac > 1e-6) {
		snprintf(f, sizeof f, "%.3f", frac);
		size_t l = strlen(f);
		while (l > 0 && f[l - 1] == '0')
			f[--l] = '\0';
		memmove(f, f + 1, strlen(f)); /* drop the leading 0 */
	}
	snprintf(out, n, "%02ld:%02ld%s", whole / 60, whole % 60, f);
}

void match_tc_ggf(const MatchTimeControl *tc, char *out, size_t n)
{
	char a[32], b[32];
	if (tc->none) {
		snprintf(out, n, "-");
		return;
	}
	if (tc->move_time > 0) {
		ggf_clock(0, a, sizeof a);
		ggf_clock(tc->move_time, b, sizeof b);
	} else {
		ggf_clock(tc->clock, a, sizeof a);
		ggf_clock(tc->increment, b, sizeof b);
	}
	snprintf(out, n, "%s/%s", a, b);
}

/* ---- engine processes ------------------------------------------------- */

static void log_line(MatchEngine *e, const char *dir, const char *text)
{
	if (!e->log || !e->log->f)
		return;
	pthread_mutex_lock(&e->log->mu);
	fprintf(e->log->f, "[game %d] %s %s %s\n", e->tag, e->spec->name, dir, text);
	fflush(e->log->f);
	pthread_mutex_unlock(&e->log->mu);
}

static void set_error(MatchEngine *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->error, sizeof e->error, fmt, ap);
	va_end(ap);
	log_line(e, "!!", e->error);
}

/* Printable excerpt of engine output for messages. */
static void excerpt(const char *s, char *out, size_t n)
{
	size_t o = 0;
	for (; *s && o + 5 < n; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c < 0x7f)
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, n - o, "\\x%02x", c);
	}
	if (*s && o + 4 <= n)
		o += (size_t)snprintf(out + o, n - o, "...");
	out[o < n ? o : n - 1] = '\0';
}

void match_engine_init(MatchEngine *e, const MatchEngineSpec *spec, MatchLog *log,
                       const atomic_int *stop)
{
	memset(e, 0, sizeof *e);
	e->spec = spec;
	e->to_fd = e->from_fd = -1;
	e->log = log;
	e->stop = stop;
}

/* Describe how the process ended, reaping it if it has (waits up to `wait`). */
static void reap(MatchEngine *e, double wait, char *out, size_t n)
{
	double end = util_now() + wait;
	int status;
	snprintf(out, n, "still running");
	for (;;) {
		pid_t r = waitpid(e->pid, &status, WNOHANG);
		if (r == e->pid) {
			if (WIFEXITED(status))
				snprintf(out, n, "exit status %d", WEXITSTATUS(status));
			else if (WIFSIGNALED(status))
				snprintf(out, n, "killed by signal %d", WTERMSIG(status));
			e->pid = 0;
			return;
		}
		if (r < 0) {
			e->pid = 0;
			snprintf(out, n, "gone");
			return;
		}
		if (util_now() >= end)
			return;
		usleep(2000);
	}
}

static void close_fds(MatchEngine *e)
{
	if (e->to_fd >= 0)
		close(e->to_fd);
	if (e->from_fd >= 0)
		close(e->from_fd);
	e->to_fd = e->from_fd = -1;
	e->len = 0;
}

void match_engine_stop(MatchEngine *e, double wait)
{
	if (!e->pid) {
		close_fds(e);
		return;
	}
	char how[64];
	const pid_t group = e->pid; /* the child leads its own process group */
	if (wait > 0 && e->to_fd >= 0 && !e->failed) {
		static const char q[] = "quit\n";
		if (write(e->to_fd, q, sizeof q - 1) == (ssize_t)(sizeof q - 1))
			log_line(e, "<<", "quit");
	}
	close_fds(e);
	reap(e, e->failed ? 0 : wait, how, sizeof how);
	if (e->pid) {
		kill(-group, SIGKILL);
		kill(group, SIGKILL);
		waitpid(group, NULL, 0);
		e->pid = 0;
	} else {
		/* The shell is gone; processes it started may not be.  The group
		 * id cannot be reused while any of them lives. */
		kill(-group, SIGKILL);
	}
	/* e->probed stays: the pass convention is a property of the program. */
}

static bool spawn(MatchEngine *e)
{
	int in[2], out[2];
	if (pipe2(in, O_CLOEXEC))
		goto fail;
	if (pipe2(out, O_CLOEXEC)) {
		close(in[0]);
		close(in[1]);
		goto fail;
	}
	int errfd = -1;
	if (e->log && e->log->f) {
		pthread_mutex_lock(&e->log->mu);
		fflush(e->log->f);
		pthread_mutex_unlock(&e->log->mu);
		errfd = fileno(e->log->f);
	} else {
		errfd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	}
	pid_t pid = fork();
	if (pid == 0) {
		/* Child: only async-signal-safe calls until exec. */
		setpgid(0, 0);
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = SIG_DFL;
		sigaction(SIGPIPE, &sa, NULL);
		dup2(in[0], 0);
		dup2(out[1], 1);
		if (errfd >= 0)
			dup2(errfd, 2);
		execl("/bin/sh", "sh", "-c", e->spec->cmd, (char *)NULL);
		_exit(127);
	}
	if (!(e->log && e->log->f) && errfd >= 0)
		close(errfd);
	close(in[0]);
	close(out[1]);
	if (pid < 0) {
		close(in[1]);
		close(out[0]);
		goto fail;
	}
	setpgid(pid, pid); /* also in the parent: no race with kill(-pid) */
	e->pid = pid;
	e->to_fd = in[1];
	e->from_fd = out[0];
	e->len = 0;
	e->failed = false;
	e->games = 0;
	return true;
fail:
	set_error(e, "cannot start '%s': %s", e->spec->cmd, strerror(errno));
	return false;
}

/* Read one line (without its end of line) before the deadline. */
static MatchReplyStatus read_line(MatchEngine *e, double deadline, char *line)
{
	for (;;) {
		char *nl = memchr(e->buf, '\n', e->len);
		if (nl) {
			size_t n = (size_t)(nl - e->buf);
			memcpy(line, e->buf, n);
			line[n] = '\0';
			if (n > 0 && line[n - 1] == '\r')
				line[n - 1] = '\0';
			memmove(e->buf, nl + 1, e->len - n - 1);
			e->len -= n + 1;
			return MATCH_REPLY_OK;
		}
		if (e->len >= MATCH_LINE_MAX) {
			e->buf[60] = '\0';
			memcpy(line, e->buf, 61);
			return MATCH_REPLY_JUNK;
		}
		if (e->stop && atomic_load(e->stop))
			return MATCH_REPLY_ABORT;
		double left = deadline - util_now();
		if (left <= 0)
			return MATCH_REPLY_TIMEOUT;
		int ms = left > 0.05 ? 50 : (int)ceil(left * 1000);
		struct pollfd p = { e->from_fd, POLLIN, 0 };
		int r = poll(&p, 1, ms);
		if (r < 0 && errno != EINTR)
			return MATCH_REPLY_EOF;
		if (r <= 0)
			continue;
		ssize_t got = read(e->from_fd, e->buf + e->len, MATCH_LINE_MAX - e->len);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0)
			return MATCH_REPLY_EOF;
		e->len += (size_t)got;
	}
}

static bool has_control(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return true;
	}
	return false;
}

/* Mark a failure of the engine with a message naming the command. */
static MatchReplyStatus failure(MatchEngine *e, MatchReplyStatus st, const char *cmd,
                                const char *line, double timeout)
{
	char ex[96], how[64];
	e->failed = true;
	e->last = st;
	switch (st) {
	case MATCH_REPLY_TIMEOUT:
		set_error(e, "no reply to '%s' within %.2f s (hung or too slow)", cmd, timeout);
		break;
	case MATCH_REPLY_EOF:
		reap(e, 0.2, how, sizeof how);
		set_error(e, "exited during '%s' (%s)", cmd, how);
		break;
	case MATCH_REPLY_JUNK:
		excerpt(line, ex, sizeof ex);
		set_error(e, "printed junk in reply to '%s': '%s'", cmd, ex);
		break;
	default:
		e->failed = st != MATCH_REPLY_ABORT;
		break;
	}
	return st;
}

MatchReplyStatus match_engine_command(MatchEngine *e, const char *cmd, double timeout,
                                      char *reply, size_t replylen, double *secs)
{
	char line[MATCH_LINE_MAX + 1];
	if (reply && replylen)
		reply[0] = '\0';
	if (secs)
		*secs = 0;
	if (!e->pid || e->to_fd < 0) {
		e->failed = true;
		e->last = MATCH_REPLY_EOF;
		set_error(e, "not running (for '%s')", cmd);
		return MATCH_REPLY_EOF;
	}
	size_t n = strlen(cmd);
	char out[MATCH_LINE_MAX + 2];
	if (n > MATCH_LINE_MAX)
		n = MATCH_LINE_MAX;
	memcpy(out, cmd, n);
	out[n++] = '\n';
	log_line(e, "<<", cmd);
	double t0 = util_now();
	for (size_t w = 0; w < n;) {
		ssize_t r = write(e->to_fd, out + w, n - w);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return failure(e, MATCH_REPLY_EOF, cmd, "", timeout);
		w += (size_t)r;
	}
	double deadline = t0 + timeout;
	bool started = false, ok = false;
	size_t rl = 0;
	for (;;) {
		MatchReplyStatus st = read_line(e, deadline, line);
		if (st != MATCH_REPLY_OK)
			return failure(e, st, cmd, line, timeout);
		log_line(e, ">>", line);
		if (has_control(line))
			return failure(e, MATCH_REPLY_JUNK, cmd, line, timeout);
		char *s = line;
		if (!started) {
			while (*s == ' ' || *s == '\t')
				s++;
			if (!*s)
				continue; /* empty lines before a reply */
			if (*s != '=' && *s != '?')
				return failure(e, MATCH_REPLY_JUNK, cmd, line, timeout);
			ok = *s++ == '=';
			while (isdigit((unsigned char)*s))
				s++;
			started = true;
		} else if (!*s) {
			break; /* the empty line that ends the reply */
		}
		while (*s == ' ' || *s == '\t')
			s++;
		size_t l = strlen(s);
		while (l > 0 && (s[l - 1] == ' ' || s[l - 1] == '\t'))
			s[--l] = '\0';
		if (reply && replylen) {
			if (rl > 0 && rl + 1 < replylen)
				reply[rl++] = '\n';
			size_t c = l < replylen - 1 - rl ? l : replylen - 1 - rl;
			memcpy(reply + rl, s, c);
			rl += c;
			reply[rl] = '\0';
		}
	}
	if (secs)
		*secs = util_now() - t0;
	e->last = ok ? MATCH_REPLY_OK : MATCH_REPLY_FAIL;
	return e->last;
}

/* Command that must succeed; on '?' the engine is marked failed. */
static MatchReplyStatus must_status(MatchEngine *e, const char *cmd, double timeout)
{
	char reply[256];
	MatchReplyStatus st = match_engine_command(e, cmd, timeout, reply, sizeof reply, NULL);
	if (st == MATCH_REPLY_FAIL) {
		char ex[96];
		excerpt(reply, ex, sizeof ex);
		e->failed = true;
		set_error(e, "refused '%s': '%s'", cmd, ex);
	}
	return st;
}

static bool must(MatchEngine *e, const char *cmd, double timeout)
{
	return must_status(e, cmd, timeout) == MATCH_REPLY_OK;
}

/* Which pass convention the program accepts: play the probe line, then
 * `play b pass` where Black really must pass. */
static bool probe_pass(MatchEngine *e, double timeout)
{
	char cmd[32], reply[256];
	if (!must(e, "clear_board", timeout))
		return false;
	for (size_t i = 0; i < sizeof probe_line / sizeof probe_line[0]; i++) {
		snprintf(cmd, sizeof cmd, "play %s %s", i % 2 ? "w" : "b", probe_line[i]);
		if (!must(e, cmd, timeout))
			return false;
	}
	MatchReplyStatus st = match_engine_command(e, "play b pass", timeout, reply, sizeof reply, NULL);
	if (st != MATCH_REPLY_OK && st != MATCH_REPLY_FAIL)
		return false;
	e->explicit_pass = st == MATCH_REPLY_OK;
	e->probed = true;
	log_line(e, "--", e->explicit_pass ? "accepts explicit passes" : "passes are implicit");
	return true;
}

bool match_engine_start(MatchEngine *e, double timeout)
{
	if (e->pid)
		match_engine_stop(e, 0);
	e->error[0] = '\0';
	if (!spawn(e)) {
		e->failed = true;
		e->last = MATCH_REPLY_EOF;
		return false;
	}
	MatchReplyStatus st = match_engine_command(e, "protocol_version", timeout, NULL, 0, NULL);
	if (st != MATCH_REPLY_OK && st != MATCH_REPLY_FAIL)
		return false;
	if (!must(e, "boardsize 8", timeout))
		return false;
	if (e->spec->init[0]) {
		char buf[MATCH_CMD_MAX];
		strcpy(buf, e->spec->init);
		for (char *save = NULL, *c = strtok_r(buf, ";", &save); c; c = strtok_r(NULL, ";", &save)) {
			while (*c == ' ')
				c++;
			if (*c && !must(e, c, timeout))
				return false;
		}
	}
	if (!e->probed && !probe_pass(e, timeout))
		return false;
	return true;
}

/* ---- refereeing a game ------------------------------------------------ */

const char *match_end_name(MatchEnd end)
{
	static const char *const names[] = { "board", "resignation", "time", "illegal move",
	                                     "crash", "junk", "aborted" };
	return names[end];
}

static MatchEnd end_of(MatchReplyStatus st)
{
	switch (st) {
	case MATCH_REPLY_TIMEOUT: return MATCH_END_TIME;
	case MATCH_REPLY_EOF: return MATCH_END_CRASH;
	case MATCH_REPLY_ABORT: return MATCH_END_ABORTED;
	default: return MATCH_END_JUNK;
	}
}

/* Colour `c` loses by `end`; the message names the engine. */
static void forfeit(MatchGameResult *res, MatchEngine *e, int c, MatchEnd end, const char *msg)
{
	res->end = end;
	res->loser = c;
	res->winner = !c;
	res->margin = c == BLACK ? -64 : 64;
	snprintf(res->reason, sizeof res->reason, "%s (%s) %s", e->spec->name, colour_name[c], msg);
	e->failed = true;
}

/* Start (or clear) an engine for a new game and replay the opening. */
static MatchReplyStatus setup(MatchEngine *e, const Game *opening, const MatchGameConfig *cfg)
{
	double to = cfg->command_timeout;
	if (e->pid && e->failed)
		match_engine_stop(e, 0);
	if (!e->pid && !match_engine_start(e, to))
		return e->last == MATCH_REPLY_OK ? MATCH_REPLY_EOF : e->last;
	e->games++;
	char cmd[96], reply[256];
	MatchReplyStatus st = must_status(e, "clear_board", to);
	if (st != MATCH_REPLY_OK)
		return st;
	const MatchTimeControl *tc = e->spec->has_tc ? &e->spec->tc : &cfg->tc;
	if (tc->none) {
		st = MATCH_REPLY_OK;
	} else if (tc->move_time > 0) {
		if (!e->int_time && tc->move_time != floor(tc->move_time))
			snprintf(cmd, sizeof cmd, "time_settings 0 %g 1", tc->move_time);
		else
			snprintf(cmd, sizeof cmd, "time_settings 0 %.0f 1", ceil(tc->move_time));
	} else {
		snprintf(cmd, sizeof cmd, "time_settings %.0f %.0f 0", floor(tc->clock), 0.0);
	}
	if (!tc->none)
		st = match_engine_command(e, cmd, to, reply, sizeof reply, NULL);
	if (st == MATCH_REPLY_FAIL && tc->move_time > 0 && !e->int_time &&
	    tc->move_time != floor(tc->move_time)) {
		/* Integer seconds only (GTP's letter): round the budget up. */
		e->int_time = true;
		snprintf(cmd, sizeof cmd, "time_settings 0 %.0f 1", ceil(tc->move_time));
		st = match_engine_command(e, cmd, to, reply, sizeof reply, NULL);
	}
	if (st != MATCH_REPLY_OK && st != MATCH_REPLY_FAIL)
		return st; /* a refused time_settings is not fatal: the clock is ours */
	for (int i = 0; i < opening->nply; i++) {
		const GamePly *h = &opening->hist[i];
		if (h->move == BOARD_PASS && !e->explicit_pass)
			continue;
		char sq[8];
		text_square(h->move, sq);
		snprintf(cmd, sizeof cmd, "play %s %s", colour_name[h->side], sq);
		st = must_status(e, cmd, to);
		if (st != MATCH_REPLY_OK)
			return st;
	}
	return MATCH_REPLY_OK;
}

static bool aborted(const MatchEngine *e)
{
	return e->stop && atomic_load(e->stop);
}

/* What one turn of match_play_game leaves: the game goes on, it has ended
 * (res says how), or it was aborted. */
enum { TURN_ON, TURN_END, TURN_ABORT };

/* Colour c must pass: played, and told to the engines that want passes. */
static int turn_pass(MatchEngine *eng[2], Game *g, int c, const MatchGameConfig *cfg,
                     MatchGameResult *res)
{
	char cmd[96];
	game_play(g, BOARD_PASS);
	res->ply_secs[g->nply - 1] = 0;
	snprintf(cmd, sizeof cmd, "play %s pass", colour_name[c]);
	for (int k = 0; k < 2; k++) {
		int who = k == 0 ? c : !c;
		if (!eng[who]->explicit_pass)
			continue;
		MatchReplyStatus st = must_status(eng[who], cmd, cfg->command_timeout);
		if (st == MATCH_REPLY_ABORT)
			return TURN_ABORT;
		if (st != MATCH_REPLY_OK) {
			forfeit(res, eng[who], who, end_of(st), eng[who]->error);
			return TURN_END;
		}
	}
	return TURN_ON;
}

/* Colour c's engine played the illegal move ex (or passed while it had a
 * move): it forfeits. */
static void forfeit_illegal(MatchGameResult *res, MatchEngine *me, int c, const Game *g, const char *ex)
{
	char legal[200] = "", msg[400];
	size_t l = 0;
	for (uint64_t m = game_moves(g); m && l + 4 < sizeof legal; m &= m - 1) {
		char sq[8];
		text_square(bit_first(m), sq);
		l += (size_t)snprintf(legal + l, sizeof legal - l, "%s%s", l ? " " : "", sq);
	}
	snprintf(msg, sizeof msg, "played illegal move '%s' (legal: %s)", ex, legal);
	forfeit(res, me, c, MATCH_END_ILLEGAL, msg);
}

/* genmove for colour c within limit + grace (after time_left on a game
 * clock); TURN_ON with the reply and its seconds, or the end or abort. */
static int ask_move(MatchEngine *me, int c, double limit, double grace, const MatchGameConfig *cfg,
                    MatchGameResult *res, char *cmd, size_t ncmd, char *reply, size_t nreply,
                    double *secs)
{
	const MatchTimeControl *tc = &res->tc[c];
	if (!tc->none && tc->move_time <= 0) {
		snprintf(cmd, ncmd, "time_left %s %.0f 0", colour_name[c],
		         floor(res->clock_left[c] > 0 ? res->clock_left[c] : 0));
		MatchReplyStatus st = match_engine_command(me, cmd, cfg->command_timeout, NULL, 0, NULL);
		if (st != MATCH_REPLY_OK && st != MATCH_REPLY_FAIL) {
			if (st == MATCH_REPLY_ABORT)
				return TURN_ABORT;
			forfeit(res, me, c, end_of(st), me->error);
			return TURN_END;
		}
	}
	snprintf(cmd, ncmd, "genmove %s", colour_name[c]);
	MatchReplyStatus st = match_engine_command(me, cmd, limit + grace, reply, nreply, secs);
	if (st == MATCH_REPLY_ABORT)
		return TURN_ABORT;
	if (st == MATCH_REPLY_TIMEOUT) {
		char msg[160];
		snprintf(msg, sizeof msg, "lost on time: no move within %.3f s (%.3f s + %.3f s grace)",
		         limit + grace, limit, grace);
		forfeit(res, me, c, MATCH_END_TIME, msg);
		return TURN_END;
	}
	if (st != MATCH_REPLY_OK && st != MATCH_REPLY_FAIL) {
		forfeit(res, me, c, end_of(st), me->error);
		return TURN_END;
	}
	if (st == MATCH_REPLY_FAIL) {
		char ex[96], msg[400];
		excerpt(reply, ex, sizeof ex);
		snprintf(msg, sizeof msg, "refused '%s': '%s'", cmd, ex);
		forfeit(res, me, c, MATCH_END_JUNK, msg);
		return TURN_END;
	}
	return TURN_ON;
}

/* Colour c (not passing) moves: asked, checked against its clock and the
 * rules, played and told to the opponent. */
static int turn_move(MatchEngine *eng[2], Game *g, int c, const MatchGameConfig *cfg,
                     MatchGameResult *res)
{
	char cmd[96], reply[MATCH_LINE_MAX];
	MatchEngine *me = eng[c], *op = eng[!c];
	const MatchTimeControl *tc = &res->tc[c];
	/* no clock: only the hang limit, no grace, no time commands */
	double limit = tc->none ? cfg->command_timeout :
	               tc->move_time > 0 ? tc->move_time : res->clock_left[c];
	double grace = tc->none ? 0 : cfg->grace;
	double secs;
	int turn = ask_move(me, c, limit, grace, cfg, res, cmd, sizeof cmd, reply, sizeof reply, &secs);
	if (turn != TURN_ON)
		return turn;
	char ex[96], msg[400];
	excerpt(reply, ex, sizeof ex);
	if (secs > limit + grace) {
		snprintf(msg, sizeof msg, "lost on time: took %.3f s, limit %.3f s + %.3f s grace",
		         secs, limit, grace);
		forfeit(res, me, c, MATCH_END_TIME, msg);
		return TURN_END;
	}
	if (!tc->none && tc->move_time <= 0) {
		double left = res->clock_left[c] - secs;
		res->clock_left[c] = (left > 0 ? left : 0) + tc->increment;
	}
	if (!strcasecmp(reply, "resign")) {
		res->end = MATCH_END_RESIGN;
		res->loser = c;
		res->winner = !c;
		res->margin = c == BLACK ? -64 : 64;
		snprintf(res->reason, sizeof res->reason, "%s (%s) resigned", me->spec->name, colour_name[c]);
		return TURN_END;
	}
	int mv = strchr(reply, '\n') ? -1 : text_parse_move(reply, 8);
	if (mv < 0) {
		snprintf(msg, sizeof msg, "answered '%s' with '%s', not a move", cmd, ex);
		forfeit(res, me, c, MATCH_END_JUNK, msg);
		return TURN_END;
	}
	if (mv == BOARD_PASS || game_play(g, mv) != GAME_OK) {
		forfeit_illegal(res, me, c, g, ex);
		return TURN_END;
	}
	res->ply_secs[g->nply - 1] = secs;
	char sq[8];
	text_square(mv, sq);
	snprintf(cmd, sizeof cmd, "play %s %s", colour_name[c], sq);
	MatchReplyStatus st = must_status(op, cmd, cfg->command_timeout);
	if (st != MATCH_REPLY_OK) {
		if (st == MATCH_REPLY_ABORT)
			return TURN_ABORT;
		forfeit(res, op, !c, end_of(st), op->error);
		return TURN_END;
	}
	return TURN_ON;
}

bool match_play_game(MatchEngine *black, MatchEngine *white, const Game *opening,
                     const MatchGameConfig *cfg, MatchGameResult *res)
{
	MatchEngine *eng[2] = { black, white };
	memset(res, 0, sizeof *res);
	res->loser = -1;
	res->end = MATCH_END_BOARD;
	Game *g = &res->game;
	*g = *opening;
	res->opening_plies = opening->nply;
	for (int c = 0; c < 2; c++) {
		res->tc[c] = eng[c]->spec->has_tc ? eng[c]->spec->tc : cfg->tc;
		res->clock_left[c] = res->tc[c].none || res->tc[c].move_time > 0 ? 0 : res->tc[c].clock;
	}

	for (int c = 0; c < 2; c++) {
		MatchReplyStatus st = setup(eng[c], opening, cfg);
		if (st == MATCH_REPLY_ABORT || aborted(eng[c])) {
			res->end = MATCH_END_ABORTED;
			return false;
		}
		if (st != MATCH_REPLY_OK) {
			forfeit(res, eng[c], c, end_of(st), eng[c]->error);
			return true;
		}
	}

	while (!game_is_over(g)) {
		int c = g->side;
		int turn = game_must_pass(g) ? turn_pass(eng, g, c, cfg, res) : turn_move(eng, g, c, cfg, res);
		if (turn == TURN_END)
			return true;
		if (turn == TURN_ABORT) {
			res->end = MATCH_END_ABORTED;
			return false;
		}
	}
	res->end = MATCH_END_BOARD;
	res->margin = game_margin(g, cfg->scoring);
	res->winner = game_winner(g);
	return true;
}

/* ---- GGF -------------------------------------------------------------- */

void match_ggf(const MatchGameResult *res, const char *black, const char *white,
               const char *date, char *out, size_t n)
{
	const Game *g = &res->game;
	char ti[160], tb[64], tw[64], bo[80];
	match_tc_ggf(&res->tc[BLACK], tb, sizeof tb);
	match_tc_ggf(&res->tc[WHITE], tw, sizeof tw);
	/* TI when both clocks are the same, else TB / TW ("-": no clock) */
	if (!strcmp(tb, tw))
		snprintf(ti, sizeof ti, "TI[%s]", tb);
	else
		snprintf(ti, sizeof ti, "TB[%s]TW[%s]", tb, tw);
	/* BO: the start position a1..h8, '*' black, 'O' white, then the side. */
	size_t k = 0;
	bo[k++] = '8';
	bo[k++] = ' ';
	for (int sq = 0; sq < 64; sq++) {
		uint64_t b = bit_of(sq);
		uint64_t bl = g->start_side == BLACK ? g->start.p : g->start.o;
		uint64_t wh = g->start_side == BLACK ? g->start.o : g->start.p;
		bo[k++] = (bl & b) ? '*' : (wh & b) ? 'O' : '-';
	}
	bo[k++] = ' ';
	bo[k++] = g->start_side == BLACK ? '*' : 'O';
	bo[k] = '\0';
	const char *flag = res->end == MATCH_END_BOARD ? "" : res->end == MATCH_END_TIME ? ":t" : ":r";
	size_t o = (size_t)snprintf(out, n,
	        "(;GM[Othello]PC[emilia-match]DT[%s]PB[%s]PW[%s]RE[%+d.000%s]%sTY[8%s]BO[%s]",
	        date, black, white, res->margin, flag, ti, g->variant == VARIANT_ANTI ? "a" : "", bo);
	for (int i = 0; i < g->nply && o < n; i++) {
		const GamePly *h = &g->hist[i];
		char sq[8];
		if (h->move == BOARD_PASS)
			strcpy(sq, "PA");
		else
			text_square_upper(h->move, sq);
		if (i < res->opening_plies || h->move == BOARD_PASS)
			o += (size_t)snprintf(out + o, n - o, "%c[%s]", h->side == BLACK ? 'B' : 'W', sq);
		else
			o += (size_t)snprintf(out + o, n - o, "%c[%s//%.3f]", h->side == BLACK ? 'B' : 'W', sq,
			                      res->ply_secs[i]);
	}
	if (o < n)
		snprintf(out + o, n - o, ";)");
}
