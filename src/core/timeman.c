/* timeman.c - time management (the model and its rules in timeman.h). */
#include "timeman.h"

/* Minimum time a search gets once it is allowed to run at all. */
#define TIMEMAN_MIN 0.002
/* The engine's own stop latency and a loaded machine (see timeman.h). */
#define TIMEMAN_LATENCY 0.0015
#define TIMEMAN_LATENCY_SHARE 0.015
#define TIMEMAN_LATENCY_MAX 0.5
/* The reserve left on a whole-game clock at the end. */
#define TIMEMAN_RESERVE_SHARE 0.02
#define TIMEMAN_RESERVE_MAX 1.0
/* hard: at most this many targets, at most this share of the usable time
 * while more moves follow on the same clock. */
#define TIMEMAN_HARD_TARGETS 4.0
#define TIMEMAN_HARD_SHARE 0.4
/* The soft limit is this many targets: a search stops between iterations
 * and so uses well under its soft limit: a soft limit of one target
 * would leave part of a whole-game clock unused at the end. */
#define TIMEMAN_SOFT_TARGETS 1.3

double timeman_margin(double avail)
{
	double m = TIMEMAN_LATENCY + TIMEMAN_LATENCY_SHARE * (avail > 0 ? avail : 0);
	return m > TIMEMAN_LATENCY_MAX ? TIMEMAN_LATENCY_MAX : m;
}

double timeman_weight(int empties)
{
	if (empties > 40)
		return 1.0;
	if (empties > 24)
		return 1.3;
	if (empties > 18)
		return 2.0;
	return 0.2;
}

static double overhead_of(const EngineLimits *lim)
{
	return lim->overhead > 0 ? lim->overhead : 0;
}

/* What a move may use of `avail` seconds that are its alone. */
static double budget(double avail, double overhead)
{
	double b = avail - overhead - timeman_margin(avail);
	return b < TIMEMAN_MIN ? TIMEMAN_MIN : b;
}

static double tmin(double a, double b)
{
	if (a <= 0)
		return b;
	if (b <= 0)
		return a;
	return a < b ? a : b;
}

/* A byo-yomi period's share of one move, when periods follow the clock. */
static double period_share(const EngineLimits *lim)
{
	if (lim->byo_time > 0 && lim->byo_moves > 0)
		return lim->byo_time / lim->byo_moves;
	return 0;
}

static TimePlan clock_plan(const EngineLimits *lim, int empties)
{
	const double ov = overhead_of(lim);
	TimePlan tp = { 0, 0, false };
	double left = lim->time_left;
	int mtg = lim->moves_to_go > 0 ? lim->moves_to_go : 0;
	const double share = mtg == 0 ? period_share(lim) : 0;
	if (left <= 0 && mtg == 0) {
		/* the main time is spent: the move lives on what follows it */
		if (share > 0) {
			left = lim->byo_time;
			mtg = lim->byo_moves;
		} else if (lim->increment > 0) {
			tp.soft = tp.hard = budget(lim->increment, ov);
			tp.use_all = true;
			return tp;
		}
	}
	if (mtg == 1) {
		/* this move's own budget, not banked */
		tp.soft = tp.hard = budget(left, ov);
		tp.use_all = true;
		return tp;
	}
	int mine = (empties + 1) / 2;
	if (mine < 1)
		mine = 1;
	const int n = mtg > 0 && mtg < mine ? mtg : mine;
	double wsum = 0;
	for (int k = 0; k < n; k++)
		wsum += timeman_weight(empties - 2 * k);
	const double inc = lim->increment > 0 ? lim->increment : 0;
	double reserve = mtg > 0 ? 0 : TIMEMAN_RESERVE_SHARE * left;
	if (reserve > TIMEMAN_RESERVE_MAX)
		reserve = TIMEMAN_RESERVE_MAX;
	double usable = left - reserve - n * (ov + TIMEMAN_LATENCY) - TIMEMAN_LATENCY_SHARE * left +
	                inc * (n - 1);
	if (usable < 0)
		usable = 0;
	double target = usable * timeman_weight(empties) / wsum;
	double cap = left - ov - timeman_margin(left);
	if (share > 0) {
		/* periods follow the main time: each move can count on its
		 * share of one */
		double b = share - ov - timeman_margin(share);
		if (b > 0) {
			cap = (cap > 0 ? cap : 0) + b;
			if (target < b)
				target = b;
		}
	}
	double hard = TIMEMAN_HARD_TARGETS * target;
	if (n > 1 && hard > TIMEMAN_HARD_SHARE * usable + (share > 0 ? share : 0))
		hard = TIMEMAN_HARD_SHARE * usable + (share > 0 ? share : 0);
	if (hard > cap)
		hard = cap;
	if (hard < TIMEMAN_MIN)
		hard = TIMEMAN_MIN;
	const double soft = TIMEMAN_SOFT_TARGETS * target;
	tp.soft = soft < hard ? soft : hard;
	if (tp.soft < TIMEMAN_MIN)
		tp.soft = TIMEMAN_MIN;
	tp.hard = hard;
	return tp;
}

TimePlan timeman_plan(const EngineLimits *lim, int empties)
{
	TimePlan tp = { 0, 0, false };
	if (lim->movetime > 0) {
		tp.soft = tp.hard = budget(lim->movetime, overhead_of(lim));
		tp.use_all = true;
	}
	if (lim->time_left >= 0) {
		TimePlan c = clock_plan(lim, empties);
		if (tp.hard > 0 && c.hard >= tp.hard) {
			/* the fixed time is the tighter limit: keep it */
		} else {
			tp.soft = tmin(tp.soft, c.soft);
			tp.hard = c.hard;
			tp.use_all = c.use_all;
			if (tp.soft > tp.hard)
				tp.soft = tp.hard;
		}
	}
	return tp;
}

double timeman_deadline(const EngineLimits *lim)
{
	const double ov = overhead_of(lim);
	double d = 0;
	if (lim->movetime > 0)
		d = lim->movetime - ov;
	if (lim->time_left >= 0) {
		double avail = lim->time_left;
		if (lim->moves_to_go == 0)
			avail += lim->time_left > 0 ? period_share(lim) : lim->byo_time;
		if (avail <= 0)
			avail = lim->increment;
		d = tmin(d, avail - ov);
	}
	return d > TIMEMAN_MIN ? d : d != 0 ? TIMEMAN_MIN : 0;
}

double timeman_factor(int d, int stable, int drop)
{
	if (d < 2)
		return 1.0;
	double f = stable == 0 ? 2.0 : stable >= 3 ? 0.5 : 1.0;
	if (drop >= 2)
		f *= 1.5;
	return f;
}
