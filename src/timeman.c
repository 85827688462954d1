/* timeman.c - time management (rules in timeman.h). */
#include "timeman.h"

/* Minimum time a search gets once it is allowed to run at all. */
#define TIMEMAN_MIN 0.002

double timeman_margin(double avail)
{
	double m = 0.025 + 0.02 * avail;
	return m > 1.0 ? 1.0 : m;
}

static double timeman_min(double a, double b)
{
	if (a <= 0)
		return b;
	if (b <= 0)
		return a;
	return a < b ? a : b;
}

TimePlan timeman_plan(const EngineLimits *lim, int empties)
{
	TimePlan tp = { 0, 0 };
	if (lim->movetime > 0) {
		double h = lim->movetime - timeman_margin(lim->movetime);
		if (h < TIMEMAN_MIN)
			h = TIMEMAN_MIN;
		tp.soft = tp.hard = h;
	}
	if (lim->time_left >= 0) {
		/* the time this move may use at most: the clock, or when it is
		 * (nearly) exhausted the byo-yomi time of a move */
		double cap = lim->time_left;
		if (lim->time_left <= 0 && lim->increment > 0)
			cap = lim->increment;
		cap -= timeman_margin(cap);
		if (cap < TIMEMAN_MIN)
			cap = TIMEMAN_MIN;
		int mtg = (empties - 8) / 2;
		if (mtg < 1)
			mtg = 1;
		if (lim->moves_to_go > 0 && lim->moves_to_go < mtg)
			mtg = lim->moves_to_go;
		double usable = lim->time_left - timeman_margin(lim->time_left);
		if (usable < 0)
			usable = 0;
		double inc = lim->increment > 0 ? lim->increment : 0;
		double soft = usable / mtg + 0.8 * inc;
		double hard = soft * 4;
		/* with more moves to play on this clock, leave them at least half */
		if (mtg > 1 && hard > usable / 2 + 0.8 * inc)
			hard = usable / 2 + 0.8 * inc;
		if (soft > cap)
			soft = cap;
		if (hard > cap)
			hard = cap;
		if (soft < TIMEMAN_MIN)
			soft = TIMEMAN_MIN;
		if (hard < soft)
			hard = soft;
		tp.soft = timeman_min(tp.soft, soft);
		tp.hard = timeman_min(tp.hard, hard);
	}
	return tp;
}
