/*
 * two-engines.c - a whole game between two Emilia engines of different
 * levels, through the public API (include/emilia.h).
 *
 *     cc two-engines.c $(pkg-config --cflags --libs emilia) -o two-engines
 *     ./two-engines [BLACK_LEVEL [WHITE_LEVEL]]      (levels 0..60; default 2 and 6)
 *
 * Prints each move, the game's transcript and the final score.
 */
#include <emilia.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int level[2] = {argc > 1 ? atoi(argv[1]) : 2, argc > 2 ? atoi(argv[2]) : 6};
	emilia_engine *e[2];
	char err[256];
	for (int c = 0; c < 2; c++) {
		emilia_options o;
		emilia_options_init(&o);
		o.level = level[c];
		o.hash_mb = 16;
		if (emilia_create(&o, &e[c], err, sizeof err) != EMILIA_OK) {
			fprintf(stderr, "two-engines: %s\n", err);
			return 1;
		}
	}
	printf("Black: level %d, White: level %d\n", level[0], level[1]);
	for (int ply = 1; !emilia_is_game_over(e[0]); ply++) {
		int side = emilia_side_to_move(e[0]);
		emilia_info r;
		char name[5];
		if (emilia_search(e[side], NULL, NULL, NULL, &r) != EMILIA_OK ||
		    emilia_play(e[0], r.move) != EMILIA_OK || emilia_play(e[1], r.move) != EMILIA_OK) {
			fprintf(stderr, "two-engines: %s\n", emilia_last_error(e[side]));
			return 1;
		}
		emilia_move_name(r.move, name);
		printf("%2d. %s %-4s  score %+d%s\n", ply, side == EMILIA_BLACK ? "Black" : "White", name, r.score,
		       r.book ? " (book)" : "");
	}
	char moves[2 * 128 + 1];
	int black, white;
	emilia_get_transcript(e[0], moves, sizeof moves);
	emilia_discs(e[0], &black, &white);
	printf("transcript: %s\n", moves);
	printf("final score: Black %d, White %d\n", black, white);
	emilia_destroy(e[0]);
	emilia_destroy(e[1]);
	return 0;
}
