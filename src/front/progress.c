/*
 * progress.c - time-left estimates and progress bars (progress.h).
 */
#include <stdio.h>
#include "progress.h"

void progress_eta_init(ProgressEta *e)
{
	e->have = false;
	e->shown = 0;
	e->at = 0;
}

double progress_eta_update(ProgressEta *e, double elapsed, double raw)
{
	double left = -1;
	if (e->have) {
		left = e->shown - (elapsed - e->at);
		if (left < 0)
			left = 0;
	}
	if (raw >= 0 && (left < 0 || raw < left))
		left = raw;
	if (left >= 0) {
		e->have = true;
		e->shown = left;
		e->at = elapsed;
	}
	return left;
}

double progress_solve_raw(double elapsed, int move_index, int moves)
{
	if (moves <= 0 || move_index < 0 || move_index >= moves || elapsed <= 0)
		return -1;
	double w = 3.0 + (moves - 1), done = move_index == 0 ? 1.5 : 3.0 + (move_index - 1) + 0.5;
	return elapsed * (w / done - 1.0);
}

void progress_time(char *out, size_t len, double s)
{
	if (s < 0)
		s = 0;
	long t = (long)(s + 0.5);
	if (t < 60)
		snprintf(out, len, "%ld s", t);
	else if (t < 3600)
		snprintf(out, len, "%ld:%02ld", t / 60, t % 60);
	else
		snprintf(out, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

void progress_bar(char *out, size_t len, int done, int total, const char *unit, double elapsed,
                  double eta, int width)
{
	char bar[128];
	if (width > (int)sizeof bar - 1)
		width = (int)sizeof bar - 1;
	if (width < 1)
		width = 1;
	int fill = total > 0 ? (int)((long)done * width / total) : 0;
	if (fill > width)
		fill = width;
	for (int i = 0; i < width; i++)
		bar[i] = i < fill ? '#' : '-';
	bar[width] = 0;
	char el[32], left[48] = "";
	progress_time(el, sizeof el, elapsed);
	if (eta > 0) {
		char t[32];
		progress_time(t, sizeof t, eta);
		snprintf(left, sizeof left, "  ~%s left", t);
	} else if (eta == 0)
		snprintf(left, sizeof left, "  finishing");
	snprintf(out, len, "[%s] %3d/%d %s  %s%s", bar, done, total, unit, el, left);
}
