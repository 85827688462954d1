#include "board.h"

uint64_t board_ray[64][8];
uint64_t board_bit4[64][4];
const uint64_t board_lanes_valid[5][4] = {
	{ 0, 0, 0, 0 }, { ~0ULL, 0, 0, 0 }, { ~0ULL, ~0ULL, 0, 0 }, { ~0ULL, ~0ULL, ~0ULL, 0 },
	{ ~0ULL, ~0ULL, ~0ULL, ~0ULL },
};

__attribute__((constructor)) static void board_init_rays(void)
{
	static const int dr[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };
	static const int dc[8] = { 1, 0, 1, -1, -1, 0, -1, 1 };
	for (int sq = 0; sq < 64; sq++) {
		for (int d = 0; d < 8; d++) {
			uint64_t m = 0;
			int r = sq / 8 + dr[d], c = sq % 8 + dc[d];
			while (r >= 0 && r < 8 && c >= 0 && c < 8) {
				m |= bit_of(r * 8 + c);
				r += dr[d];
				c += dc[d];
			}
			board_ray[sq][d] = m;
		}
		for (int l = 0; l < 4; l++)
			board_bit4[sq][l] = bit_of(sq);
	}
}

const char *board_kernel_choice;

const char *board_kernel_name(void)
{
	return EMILIA_HAVE_AVX2 ? "avx2" : "portable";
}

Board board_start(int size)
{
	Board b = { 0, 0 };
	switch (size) {
	case 8: b.p = bit_of(28) | bit_of(35); b.o = bit_of(27) | bit_of(36); break;
	case 6: b.p = bit_of(19) | bit_of(26); b.o = bit_of(18) | bit_of(27); break;
	case 4: b.p = bit_of(10) | bit_of(17); b.o = bit_of(9) | bit_of(18); break;
	default: break;
	}
	return b;
}

Board board_canonical(Board b, int *sym)
{
	Board best = b;
	int bs = 0;
	for (int s = 1; s < 8; s++) {
		Board t = { bit_symmetry(b.p, s), bit_symmetry(b.o, s) };
		if (t.p < best.p || (t.p == best.p && t.o < best.o)) {
			best = t;
			bs = s;
		}
	}
	if (sym)
		*sym = bs;
	return best;
}
