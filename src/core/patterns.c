/*
 * patterns.c - pattern definitions, their placements, index tables.
 *
 * The tables are built once at load time (constructor) from the base
 * square lists below and never change afterwards.
 */
#include <string.h>
#include "board.h"
#include "patterns.h"

/* Squares as row * 8 + column, a1 = 0.  Order matters: square k is
 * ternary digit k. */
typedef struct PatternDef {
	const char *name;
	int n;
	int sq[PATTERN_MAX_SQUARES];
} PatternDef;

#define SQ(c, r) ((r - 1) * 8 + (c - 'a'))

static const PatternDef defs[PATTERN_COUNT] = {
	{ "edge+2x", 10, { SQ('a', 1), SQ('b', 1), SQ('c', 1), SQ('d', 1), SQ('e', 1),
	                   SQ('f', 1), SQ('g', 1), SQ('h', 1), SQ('b', 2), SQ('g', 2) } },
	{ "corner3x3", 9, { SQ('a', 1), SQ('b', 1), SQ('c', 1), SQ('a', 2), SQ('b', 2),
	                    SQ('c', 2), SQ('a', 3), SQ('b', 3), SQ('c', 3) } },
	{ "corner2x5", 10, { SQ('a', 1), SQ('b', 1), SQ('c', 1), SQ('d', 1), SQ('e', 1),
	                     SQ('a', 2), SQ('b', 2), SQ('c', 2), SQ('d', 2), SQ('e', 2) } },
	{ "row2", 8, { SQ('a', 2), SQ('b', 2), SQ('c', 2), SQ('d', 2), SQ('e', 2),
	               SQ('f', 2), SQ('g', 2), SQ('h', 2) } },
	{ "row3", 8, { SQ('a', 3), SQ('b', 3), SQ('c', 3), SQ('d', 3), SQ('e', 3),
	               SQ('f', 3), SQ('g', 3), SQ('h', 3) } },
	{ "row4", 8, { SQ('a', 4), SQ('b', 4), SQ('c', 4), SQ('d', 4), SQ('e', 4),
	               SQ('f', 4), SQ('g', 4), SQ('h', 4) } },
	{ "diag8", 8, { SQ('a', 1), SQ('b', 2), SQ('c', 3), SQ('d', 4), SQ('e', 5),
	                SQ('f', 6), SQ('g', 7), SQ('h', 8) } },
	{ "diag7", 7, { SQ('b', 1), SQ('c', 2), SQ('d', 3), SQ('e', 4), SQ('f', 5),
	                SQ('g', 6), SQ('h', 7) } },
	{ "diag6", 6, { SQ('c', 1), SQ('d', 2), SQ('e', 3), SQ('f', 4), SQ('g', 5), SQ('h', 6) } },
	{ "diag5", 5, { SQ('d', 1), SQ('e', 2), SQ('f', 3), SQ('g', 4), SQ('h', 5) } },
	{ "diag4", 4, { SQ('e', 1), SQ('f', 2), SQ('g', 3), SQ('h', 4) } },
	/* the patterns of weight file version 3 (incremental indices made
	 * them cheap): the corner triangle, the edge with the inner block, a
	 * band along the main diagonal, and row 2 with both corners */
	{ "triangle", 10, { SQ('a', 1), SQ('b', 1), SQ('c', 1), SQ('d', 1), SQ('a', 2),
	                    SQ('b', 2), SQ('c', 2), SQ('a', 3), SQ('b', 3), SQ('a', 4) } },
	{ "edgeblock", 10, { SQ('a', 1), SQ('c', 1), SQ('d', 1), SQ('e', 1), SQ('f', 1),
	                     SQ('h', 1), SQ('c', 2), SQ('d', 2), SQ('e', 2), SQ('f', 2) } },
	{ "diagband", 10, { SQ('a', 1), SQ('b', 1), SQ('a', 2), SQ('b', 2), SQ('c', 2),
	                    SQ('b', 3), SQ('c', 3), SQ('d', 3), SQ('c', 4), SQ('d', 4) } },
	{ "row2+corners", 10, { SQ('a', 1), SQ('a', 2), SQ('b', 2), SQ('c', 2), SQ('d', 2),
	                        SQ('e', 2), SQ('f', 2), SQ('g', 2), SQ('h', 2), SQ('h', 1) } },
};

/* One group: squares of an instance lying in distinct columns of the
 * board (trans = 0) or of its transpose (trans = 1). */
typedef struct Group {
	uint64_t mask;
	int trans;
	int inst;
	uint16_t tab[256];
} Group;

enum { MAX_GROUPS = 4 * PATTERN_INSTANCES, PEXT_TABLE = 36000 };

static struct {
	uint32_t size[PATTERN_COUNT];
	uint32_t offset[PATTERN_COUNT];
	int ninst;
	int inst_pattern[PATTERN_INSTANCES];
	uint32_t inst_offset[PATTERN_INSTANCES];
	int inst_sq[PATTERN_INSTANCES][PATTERN_MAX_SQUARES];
	/* self-symmetries of each pattern as permutations of digit positions */
	int nself[PATTERN_COUNT];
	int self_perm[PATTERN_COUNT][8][PATTERN_MAX_SQUARES];
	int ngroups;
	Group groups[MAX_GROUPS];
	uint32_t set_id, v2_set_id;
	/* the bit-extract kernel: each instance's squares as a mask, and a
	 * table from the extracted bits (in square order) to the ternary
	 * index's share of one colour */
	uint64_t inst_mask[PATTERN_INSTANCES];
	uint32_t pext_base[PATTERN_INSTANCES];
	uint16_t pext_tab[PEXT_TABLE];
	int kernel;
	/* the incremental state: sq_pow[x][i] = 3^k when square x is digit
	 * k of instance i, else 0 */
	uint16_t sq_pow[64][PATTERN_INST_PAD];
} T;

static int sym_square(int sq, int s)
{
	return bit_first(bit_symmetry(bit_of(sq), s));
}

static uint64_t square_set(const int *sq, int n)
{
	uint64_t m = 0;
	for (int k = 0; k < n; k++)
		m |= bit_of(sq[k]);
	return m;
}

static void add_groups(int inst)
{
	const int n = defs[T.inst_pattern[inst]].n;
	const int *sq = T.inst_sq[inst];
	/* orientation needing fewer groups: max squares in one column */
	int best_trans = 0, best_max = 99;
	for (int trans = 0; trans < 2; trans++) {
		int cnt[8] = { 0 }, mx = 0;
		for (int k = 0; k < n; k++) {
			int c = trans ? sq[k] / 8 : sq[k] % 8;
			if (++cnt[c] > mx)
				mx = cnt[c];
		}
		if (mx < best_max) {
			best_max = mx;
			best_trans = trans;
		}
	}
	int first = T.ngroups;
	for (int g = 0; g < best_max; g++) {
		Group *gr = &T.groups[T.ngroups++];
		memset(gr, 0, sizeof *gr);
		gr->trans = best_trans;
		gr->inst = inst;
	}
	for (int k = 0; k < n; k++) {
		int r = sq[k] / 8, c = sq[k] % 8;
		int tsq = best_trans ? c * 8 + r : sq[k];
		int col = tsq % 8;
		/* first group of this instance with the column free */
		for (int g = first; g < T.ngroups; g++) {
			Group *gr = &T.groups[g];
			if (!(gr->mask & (0x0101010101010101ULL << col))) {
				gr->mask |= bit_of(tsq);
				uint32_t pw = 1;
				for (int j = 0; j < k; j++)
					pw *= 3;
				for (int byte = 0; byte < 256; byte++)
					if (byte & (1 << col))
						gr->tab[byte] = (uint16_t)(gr->tab[byte] + pw);
				break;
			}
		}
	}
}

/* The bit-extract kernel needs BMI2's PEXT, which is fast on Intel CPUs
 * and on AMD from Zen 3, but microcoded (tens of cycles) on Zen 1 and 2:
 * those keep the multiply kernel.  Both give the same indices. */
static int patterns_kernel_default(void)
{
#if EMILIA_HAVE_AVX2
	__builtin_cpu_init();
	if (__builtin_cpu_is("znver1") || __builtin_cpu_is("znver2"))
		return PATTERNS_KERNEL_MULTIPLY;
	return PATTERNS_KERNEL_PEXT;
#else
	return PATTERNS_KERNEL_MULTIPLY;
#endif
}

int patterns_kernel(void) { return T.kernel; }

bool patterns_set_kernel(int kernel)
{
	if (kernel == PATTERNS_KERNEL_MULTIPLY || (kernel == PATTERNS_KERNEL_PEXT && EMILIA_HAVE_AVX2)) {
		T.kernel = kernel;
		return true;
	}
	return false;
}

__attribute__((constructor)) static void patterns_init(void)
{
	uint32_t off = 0, h = 2166136261u;
	T.ninst = 0;
	T.ngroups = 0;
	for (int i = 0; i < PATTERN_COUNT; i++) {
		const PatternDef *d = &defs[i];
		uint32_t size = 1;
		for (int k = 0; k < d->n; k++) {
			size *= 3;
			h = (h ^ (uint32_t)(d->sq[k] + 1)) * 16777619u;
		}
		h = (h ^ 0xFFu) * 16777619u;
		if (i == PATTERN_V2_COUNT - 1) {
			/* version 2's set: these patterns and the same globals */
			uint32_t h2 = (h ^ (uint32_t)PATTERN_MOB_SIDE) * 16777619u;
			h2 = (h2 ^ (uint32_t)PATTERN_POT_SIDE) * 16777619u;
			T.v2_set_id = (h2 ^ (uint32_t)PATTERN_DISC_SIZE) * 16777619u;
		}
		T.size[i] = size;
		T.offset[i] = off;
		off += size;
		const uint64_t base = square_set(d->sq, d->n);
		T.nself[i] = 0;
		uint64_t seen[8];
		int nseen = 0;
		for (int s = 0; s < 8; s++) {
			int img[PATTERN_MAX_SQUARES];
			for (int k = 0; k < d->n; k++)
				img[k] = sym_square(d->sq[k], s);
			uint64_t set = square_set(img, d->n);
			if (set == base) {
				/* digit k moves to the position of img[k] in the base order */
				int *perm = T.self_perm[i][T.nself[i]++];
				for (int k = 0; k < d->n; k++)
					for (int j = 0; j < d->n; j++)
						if (d->sq[j] == img[k])
							perm[k] = j;
			}
			int dup = 0;
			for (int j = 0; j < nseen; j++)
				dup |= seen[j] == set;
			if (dup)
				continue;
			seen[nseen++] = set;
			int inst = T.ninst++;
			T.inst_pattern[inst] = i;
			T.inst_offset[inst] = off - size;
			memcpy(T.inst_sq[inst], img, sizeof img);
			add_groups(inst);
		}
	}
	/* bit-extract tables: bit j of the extracted value is the j-th lowest
	 * square of the instance, worth 3^k where k is its digit */
	uint32_t base = 0;
	for (int i = 0; i < T.ninst; i++) {
		const int n = defs[T.inst_pattern[i]].n;
		T.inst_mask[i] = square_set(T.inst_sq[i], n);
		T.pext_base[i] = base;
		int digit_of_bit[PATTERN_MAX_SQUARES], j = 0;
		for (uint64_t m = T.inst_mask[i]; m; m = bit_pop(m), j++)
			for (int k = 0; k < n; k++)
				if (T.inst_sq[i][k] == bit_first(m))
					digit_of_bit[j] = k;
		for (uint32_t bits = 0; bits < (1u << n); bits++) {
			uint32_t v = 0;
			for (int b = 0; b < n; b++)
				if (bits & (1u << b)) {
					uint32_t pw = 1;
					for (int k = 0; k < digit_of_bit[b]; k++)
						pw *= 3;
					v += pw;
				}
			T.pext_tab[base + bits] = (uint16_t)v;
		}
		base += 1u << n;
	}
	T.kernel = patterns_kernel_default();
	for (int i = 0; i < T.ninst; i++) {
		uint16_t pw = 1;
		for (int k = 0; k < defs[T.inst_pattern[i]].n; k++, pw = (uint16_t)(pw * 3))
			T.sq_pow[T.inst_sq[i][k]][i] = pw;
	}
	/* the global features are part of the set too */
	h = (h ^ (uint32_t)PATTERN_MOB_SIDE) * 16777619u;
	h = (h ^ (uint32_t)PATTERN_POT_SIDE) * 16777619u;
	h = (h ^ (uint32_t)PATTERN_DISC_SIZE) * 16777619u;
	T.set_id = h;
}

int patterns_squares(int pattern) { return defs[pattern].n; }
uint32_t patterns_size(int pattern) { return T.size[pattern]; }
uint32_t patterns_offset(int pattern) { return T.offset[pattern]; }
int patterns_instance_pattern(int inst) { return T.inst_pattern[inst]; }
int patterns_instance_square(int inst, int k) { return T.inst_sq[inst][k]; }
uint32_t patterns_set_id(void) { return T.set_id; }
uint32_t patterns_v2_set_id(void) { return T.v2_set_id; }

uint32_t patterns_canonical(int pattern, uint32_t idx)
{
	const int n = defs[pattern].n;
	int digit[PATTERN_MAX_SQUARES];
	uint32_t x = idx;
	for (int k = 0; k < n; k++) {
		digit[k] = (int)(x % 3);
		x /= 3;
	}
	uint32_t best = idx;
	for (int s = 0; s < T.nself[pattern]; s++) {
		const int *perm = T.self_perm[pattern][s];
		int moved[PATTERN_MAX_SQUARES];
		for (int k = 0; k < n; k++)
			moved[perm[k]] = digit[k];
		uint32_t v = 0;
		for (int k = n - 1; k >= 0; k--)
			v = v * 3 + (uint32_t)moved[k];
		if (v < best)
			best = v;
	}
	return best;
}

uint32_t patterns_mobility_index(uint64_t p, uint64_t o)
{
	int mp = bit_count(board_moves(p, o)), mo = bit_count(board_moves(o, p));
	if (mp >= PATTERN_MOB_SIDE)
		mp = PATTERN_MOB_SIDE - 1;
	if (mo >= PATTERN_MOB_SIDE)
		mo = PATTERN_MOB_SIDE - 1;
	return PATTERN_MOB_OFFSET + (uint32_t)(mp * PATTERN_MOB_SIDE + mo);
}

#if EMILIA_HAVE_AVX2
/* Instance i's feature position, by the bit-extract kernel. */
static inline uint32_t pext_feature(int i, uint64_t p, uint64_t o)
{
	const uint16_t *tab = T.pext_tab + T.pext_base[i];
	return T.inst_offset[i] + tab[_pext_u64(p, T.inst_mask[i])] + 2u * tab[_pext_u64(o, T.inst_mask[i])];
}

static void features_pext(uint64_t p, uint64_t o, uint32_t out[PATTERN_FEATURES])
{
	for (int i = 0; i < PATTERN_INSTANCES; i++)
		out[i] = pext_feature(i, p, o);
	patterns_globals(p, o, out + PATTERN_INSTANCES);
}
#endif

/* Empty squares next to a disc of x. */
static uint64_t empty_neighbours(uint64_t x, uint64_t empty)
{
	const uint64_t nA = 0xFEFEFEFEFEFEFEFEULL, nH = 0x7F7F7F7F7F7F7F7FULL;
	const uint64_t row = x | ((x << 1) & nA) | ((x >> 1) & nH);
	return (row | (row << 8) | (row >> 8)) & empty;
}

void patterns_globals(uint64_t p, uint64_t o, uint32_t out[PATTERN_GLOBALS])
{
	const uint64_t empty = ~(p | o);
	int pp = bit_count(empty_neighbours(o, empty)), po = bit_count(empty_neighbours(p, empty));
	if (pp >= PATTERN_POT_SIDE)
		pp = PATTERN_POT_SIDE - 1;
	if (po >= PATTERN_POT_SIDE)
		po = PATTERN_POT_SIDE - 1;
	out[0] = patterns_mobility_index(p, o);
	out[1] = PATTERN_POT_OFFSET + (uint32_t)(pp * PATTERN_POT_SIDE + po);
	out[2] = PATTERN_DISC_OFFSET + (uint32_t)(bit_count(p) - bit_count(o) + 64);
}

void patterns_features(uint64_t p, uint64_t o, uint32_t out[PATTERN_FEATURES])
{
#if EMILIA_HAVE_AVX2
	if (T.kernel == PATTERNS_KERNEL_PEXT) {
		features_pext(p, o, out);
		return;
	}
#endif
	const uint64_t M = 0x0101010101010101ULL;
	const uint64_t b[2][2] = { { p, o }, { bit_transpose(p), bit_transpose(o) } };
	/* local accumulators: stores to out[] could alias the tables */
	uint32_t idx[PATTERN_INSTANCES];
	memcpy(idx, T.inst_offset, sizeof idx);
	const Group *gr = T.groups, *end = T.groups + T.ngroups;
	for (; gr < end; gr++) {
		const uint64_t *x = b[gr->trans];
		const unsigned bp = (unsigned)(((x[0] & gr->mask) * M) >> 56);
		const unsigned bo = (unsigned)(((x[1] & gr->mask) * M) >> 56);
		idx[gr->inst] += (uint32_t)gr->tab[bp] + 2u * gr->tab[bo];
	}
	memcpy(out, idx, sizeof idx);
	patterns_globals(p, o, out + PATTERN_INSTANCES);
}

int patterns_score(uint64_t p, uint64_t o, const int16_t *w)
{
	uint32_t g[PATTERN_GLOBALS];
	patterns_globals(p, o, g);
	int s = w[g[0]] + w[g[1]] + w[g[2]];
#if EMILIA_HAVE_AVX2
	if (T.kernel == PATTERNS_KERNEL_PEXT) {
		for (int i = 0; i < PATTERN_INSTANCES; i++)
			s += w[pext_feature(i, p, o)];
		return s;
	}
#endif
	uint32_t f[PATTERN_FEATURES];
	patterns_features(p, o, f);
	for (int i = 0; i < PATTERN_INSTANCES; i++)
		s += w[f[i]];
	return s;
}

void patterns_features_ref(uint64_t p, uint64_t o, uint32_t out[PATTERN_FEATURES])
{
	for (int i = 0; i < T.ninst; i++) {
		const int pat = T.inst_pattern[i];
		uint32_t idx = 0;
		for (int k = defs[pat].n - 1; k >= 0; k--) {
			int sq = T.inst_sq[i][k];
			idx = idx * 3 + ((p >> sq) & 1 ? 1u : (o >> sq) & 1 ? 2u : 0u);
		}
		out[i] = T.offset[pat] + idx;
	}
	int mp = 0, mo = 0;
	for (int sq = 0; sq < 64; sq++) {
		if ((p | o) & bit_of(sq))
			continue;
		mp += board_flips(p, o, sq) != 0;
		mo += board_flips(o, p, sq) != 0;
	}
	if (mp >= PATTERN_MOB_SIDE)
		mp = PATTERN_MOB_SIDE - 1;
	if (mo >= PATTERN_MOB_SIDE)
		mo = PATTERN_MOB_SIDE - 1;
	out[PATTERN_INSTANCES] = PATTERN_MOB_OFFSET + (uint32_t)(mp * PATTERN_MOB_SIDE + mo);
	/* potential mobility and disc difference, square by square */
	int pp = 0, po = 0, d = 0;
	for (int sq = 0; sq < 64; sq++) {
		d += (p >> sq & 1) ? 1 : (o >> sq & 1) ? -1 : 0;
		if ((p | o) & bit_of(sq))
			continue;
		bool near_p = false, near_o = false;
		for (int dr = -1; dr <= 1; dr++)
			for (int dc = -1; dc <= 1; dc++) {
				int r = sq / 8 + dr, c = sq % 8 + dc;
				if ((dr || dc) && r >= 0 && r < 8 && c >= 0 && c < 8) {
					near_p |= (p >> (r * 8 + c)) & 1;
					near_o |= (o >> (r * 8 + c)) & 1;
				}
			}
		pp += near_o;
		po += near_p;
	}
	pp = pp < PATTERN_POT_SIDE ? pp : PATTERN_POT_SIDE - 1;
	po = po < PATTERN_POT_SIDE ? po : PATTERN_POT_SIDE - 1;
	out[PATTERN_INSTANCES + 1] = PATTERN_POT_OFFSET + (uint32_t)(pp * PATTERN_POT_SIDE + po);
	out[PATTERN_INSTANCES + 2] = PATTERN_DISC_OFFSET + (uint32_t)(d + 64);
}

void patterns_state_init(PatternState *s, uint64_t p, uint64_t o)
{
	uint32_t f[PATTERN_FEATURES];
	patterns_features(p, o, f);
	memset(s, 0, sizeof *s);
	for (int i = 0; i < PATTERN_INSTANCES; i++) {
		const uint32_t v = f[i] - T.inst_offset[i];
		s->idx[0][i] = (uint16_t)v;
		/* swap the digits 1 and 2: the index of the colours exchanged */
		uint32_t sw = 0, x = v, pw = 1;
		for (; x; x /= 3, pw *= 3)
			sw += pw * (x % 3 == 1 ? 2u : x % 3 == 2 ? 1u : 0u);
		s->idx[1][i] = (uint16_t)sw;
	}
}

/* The sum of sq_pow over the squares of m (m != 0: a move flips at
 * least one disc). */
static inline void sum_pow(uint64_t m, uint16_t *restrict out)
{
	const uint16_t *t = T.sq_pow[bit_first(m)];
	for (int i = 0; i < PATTERN_INST_PAD; i++)
		out[i] = t[i];
	for (m = bit_pop(m); m; m = bit_pop(m)) {
		t = T.sq_pow[bit_first(m)];
		for (int i = 0; i < PATTERN_INST_PAD; i++)
			out[i] = (uint16_t)(out[i] + t[i]);
	}
}

/* The state after (play: t0 = 2, t1 = 1) or before (undo: t0 = -1,
 * t1 = -2) the move at sq that flips flips: the two views swap, the digit
 * of sq changes by t0 times its power in the first and t1 times in the
 * second, those of the flipped squares by +1 and -1 times theirs.  s is
 * copied first: out may be s. */
static inline __attribute__((always_inline)) void state_move(const PatternState *s, int sq, uint64_t flips,
                                                              PatternState *out, int t0, int t1)
{
	uint16_t f[PATTERN_INST_PAD], a[PATTERN_INST_PAD], b[PATTERN_INST_PAD];
	sum_pow(flips, f);
	memcpy(a, s->idx[0], sizeof a);
	memcpy(b, s->idx[1], sizeof b);
	const uint16_t *t = T.sq_pow[sq];
	for (int i = 0; i < PATTERN_INST_PAD; i++) {
		out->idx[0][i] = (uint16_t)(b[i] + t0 * t[i] + f[i]);
		out->idx[1][i] = (uint16_t)(a[i] + t1 * t[i] - f[i]);
	}
}

void patterns_state_play(const PatternState *s, int sq, uint64_t flips, PatternState *out)
{
	state_move(s, sq, flips, out, 2, 1);
}

int patterns_score_play(const PatternState *s, int sq, uint64_t flips, uint64_t p, uint64_t o, const int16_t *w)
{
	uint16_t f[PATTERN_INST_PAD], x[PATTERN_INST_PAD];
	sum_pow(flips, f);
	const uint16_t *t = T.sq_pow[sq];
	for (int i = 0; i < PATTERN_INST_PAD; i++)
		x[i] = (uint16_t)(s->idx[1][i] + 2 * t[i] + f[i]);
	uint32_t g[PATTERN_GLOBALS];
	patterns_globals(p, o, g);
	int sum = w[g[0]] + w[g[1]] + w[g[2]];
	for (int i = 0; i < PATTERN_INSTANCES; i++)
		sum += w[T.inst_offset[i] + x[i]];
	return sum;
}

void patterns_state_undo(const PatternState *s, int sq, uint64_t flips, PatternState *out)
{
	state_move(s, sq, flips, out, -1, -2);
}

void patterns_state_pass(const PatternState *s, PatternState *out)
{
	uint16_t a[PATTERN_INST_PAD];
	memcpy(a, s->idx[0], sizeof a);
	memmove(out->idx[0], s->idx[1], sizeof a);
	memcpy(out->idx[1], a, sizeof a);
}

int patterns_score_state(const PatternState *s, uint64_t p, uint64_t o, const int16_t *w)
{
	uint32_t g[PATTERN_GLOBALS];
	patterns_globals(p, o, g);
	int sum = w[g[0]] + w[g[1]] + w[g[2]];
	for (int i = 0; i < PATTERN_INSTANCES; i++)
		sum += w[T.inst_offset[i] + s->idx[0][i]];
	return sum;
}
