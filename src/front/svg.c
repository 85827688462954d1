/*
 * svg.c - board diagrams and score graphs as SVG (svg.h).
 */
#include <string.h>
#include "svg.h"
#include "text.h"

void svg_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n')
				fputc(*s, f);
		}
	}
}

void svg_board_defaults(SvgBoard *o)
{
	memset(o, 0, sizeof *o);
	o->cell = 40;
	o->legal = true;
	o->last = -1;
	o->good = -1;
	o->bad = -1;
}

void svg_move_numbers(const Game *g, int numbers[64])
{
	memset(numbers, 0, 64 * sizeof numbers[0]);
	int n = 0;
	for (int i = 0; i < g->nply; i++)
		if (g->hist[i].move != BOARD_PASS)
			numbers[g->hist[i].move] = ++n;
}

void svg_board(FILE *f, const Game *g, const SvgBoard *o)
{
	const int c = o->cell > 0 ? o->cell : 40, n = g->size;
	const int m = c * 3 / 5;          /* margin for the coordinates */
	const int side = n * c;
	const int w = side + 2 * m, h = side + 2 * m + (o->caption ? c / 2 + 4 : 0);
	uint64_t black = game_colour_bits(g, BLACK), white = game_colour_bits(g, WHITE);
	uint64_t legal = o->legal && !game_is_over(g) ? game_moves(g) : 0;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	           "font-family=\"sans-serif\">\n", w, h, w, h);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f4f1e8\"/>\n", w, h);
	fprintf(f, "<rect class=\"board\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#2f7d4a\" "
	           "stroke=\"#123\" stroke-width=\"2\"/>\n", m, m, side, side);
	for (int i = 1; i < n; i++) {
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#123\" stroke-width=\"1\"/>\n",
		        m + i * c, m, m + i * c, m + side);
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#123\" stroke-width=\"1\"/>\n",
		        m, m + i * c, m + side, m + i * c);
	}
	if (n == 8) /* the four dots that mark the centre and X-square regions */
		for (int k = 0; k < 4; k++)
			fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"#123\"/>\n", m + (k & 1 ? 6 : 2) * c,
			        m + (k & 2 ? 6 : 2) * c, c / 14 + 1);
	const int fs = c * 2 / 5;
	for (int i = 0; i < n; i++) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" fill=\"#333\">%c</text>\n",
		        m + i * c + c / 2, m - c / 6, fs, 'a' + i);
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" fill=\"#333\">%d</text>\n",
		        m / 2, m + i * c + c / 2 + fs / 3, fs, i + 1);
	}
	for (int sq = 0; sq < 64; sq++) {
		int r = sq / 8, col = sq % 8;
		if (r >= n || col >= n)
			continue;
		int cx = m + col * c + c / 2, cy = m + r * c + c / 2;
		uint64_t b = bit_of(sq);
		char name[8];
		text_square(sq, name);
		if (black & b || white & b) {
			bool isb = black & b;
			fprintf(f, "<circle class=\"disc %s\" data-square=\"%s\" cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\" "
			           "stroke=\"#111\" stroke-width=\"1\"/>\n",
			        isb ? "black" : "white", name, cx, cy, c * 2 / 5, isb ? "#111" : "#fafafa");
			int num = o->numbers ? o->numbers[sq] : 0;
			if (num > 0)
				fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" fill=\"%s\">%d</text>\n",
				        cx, cy + fs / 3, fs, sq == o->last ? "#e33" : isb ? "#fafafa" : "#111", num);
			else if (sq == o->last)
				fprintf(f, "<circle class=\"last\" cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"#e33\"/>\n", cx, cy, c / 9 + 1);
		} else if (legal & b) {
			fprintf(f, "<circle class=\"legal\" data-square=\"%s\" cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"#1a4d2e\" "
			           "fill-opacity=\"0.8\"/>\n", name, cx, cy, c / 9 + 1);
		}
		if (sq == o->good)
			fprintf(f, "<circle class=\"best\" cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"none\" stroke=\"#3c3\" "
			           "stroke-width=\"%d\"/>\n", cx, cy, c * 2 / 5 - 1, c / 12 + 1);
		if (sq == o->bad)
			fprintf(f, "<circle class=\"played\" cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"none\" stroke=\"#e33\" "
			           "stroke-width=\"%d\"/>\n", cx, cy, c * 2 / 5 - 1, c / 12 + 1);
	}
	if (o->caption) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" fill=\"#222\">", w / 2,
		        m + side + m / 2 + c / 3, fs);
		svg_escape(f, o->caption);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
}

void svg_score_graph(FILE *f, const int *scores, int n, const bool *marks, int width, int height)
{
	const int left = 40, right = 12, top = 12, bottom = 28;
	const int pw = width - left - right, ph = height - top - bottom;
	int range = 8;
	for (int i = 0; i < n; i++) {
		int a = scores[i] < 0 ? -scores[i] : scores[i];
		while (range < a && range < 64)
			range *= 2;
	}
	if (range > 64)
		range = 64;
#define GX(i) (left + (n > 1 ? (double)(i) * pw / (n - 1) : pw / 2.0))
#define GY(v) (top + ph / 2.0 - (double)(v) * (ph / 2.0) / range)
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"graph\" width=\"%d\" height=\"%d\" "
	           "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n", width, height, width, height);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"#999\"/>\n", left, top, pw, ph);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.1f\" fill=\"#222\" fill-opacity=\"0.08\"/>\n", left,
	        top, pw, ph / 2.0);
	for (int k = -2; k <= 2; k++) {
		int v = k * range / 2;
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1\"/>\n", left,
		        GY(v), left + pw, GY(v), k ? "#ddd" : "#666");
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#444\">%+d</text>\n", left - 4, GY(v) + 4, v);
	}
	for (int i = 0; i < n; i += 10)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#444\">%d</text>\n", GX(i),
		        top + ph + 16, i + 1);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#444\">move</text>\n", left + pw, height - 2);
	fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#444\">Black ahead</text>\n", left + 4, top + 12);
	fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#444\">White ahead</text>\n", left + 4, top + ph - 4);
	if (n > 0) {
		fputs("<polyline class=\"score\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"2\" points=\"", f);
		for (int i = 0; i < n; i++) {
			int v = scores[i] > range ? range : scores[i] < -range ? -range : scores[i];
			fprintf(f, "%s%.1f,%.1f", i ? " " : "", GX(i), GY(v));
		}
		fputs("\"/>\n", f);
	}
	for (int i = 0; marks && i < n; i++)
		if (marks[i]) {
			int v = scores[i] > range ? range : scores[i] < -range ? -range : scores[i];
			fprintf(f, "<circle class=\"mistake\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#e33\"/>\n", GX(i), GY(v));
		}
#undef GX
#undef GY
	fputs("</svg>\n", f);
}
