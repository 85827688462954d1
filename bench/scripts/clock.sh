#!/bin/sh
# clock.sh - how much of the clock Emilia uses (bench/results/clock-results.md):
# Emilia against Emilia through emilia-match (GTP), from XOT openings, for
# per-move clocks of 0.05, 0.1, 0.25, 1 and 5 s and whole-game clocks of
# 10 s + 0.1 s and 60 s + 0 s.  For each: the runner's mean and maximum
# time per move (genmove sent to reply read) and, for the whole-game
# clocks, the least and the mean time left on a clock at a game's end.
#
# usage: sh bench/scripts/clock.sh XOT_FILE [GAMES [CONCURRENCY]]
#   XOT_FILE     e.g. ../shared/data/openings/xot-large.txt
#   GAMES        games per clock (default 4; 5 s a move takes 5 min a game)
#   CONCURRENCY  games at once (default 1; 2 loads both cores)
# Environment: CLOCKS (default "0.05 0.1 0.25 1 5 10+0.1 60+0"; S is S
#   seconds a move, T+I is T seconds a game plus I a move), EMILIA, MATCH
#   (binaries, default ./emilia and ./emilia-match), OUT (default /tmp),
#   SEED (default 1), ARGS (extra emilia arguments, default --no-book).
set -eu
xot=${1:?usage: sh bench/scripts/clock.sh XOT_FILE [GAMES [CONCURRENCY]]}
games=${2:-4}
conc=${3:-1}
here=$(cd "$(dirname "$0")/../.." && pwd)
emilia=${EMILIA:-$here/emilia}
match=${MATCH:-$here/emilia-match}
out=${OUT:-/tmp}
seed=${SEED:-1}
args=${ARGS:---no-book}
clocks=${CLOCKS:-0.05 0.1 0.25 1 5 10+0.1 60+0}
[ -x "$emilia" ] && [ -x "$match" ] || { echo "build first: make" >&2; exit 1; }

printf '| clock | games | moves | mean s/move | max s/move | mean/clock | time losses | least left | mean left |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for c in $clocks; do
	case $c in
	*+*)
		secs=${c%+*}
		inc=${c#*+}
		# emilia-match takes minutes; a hair more keeps the whole seconds
		tc=$(awk -v s="$secs" -v i="$inc" 'BEGIN { printf "%.7f+%s", s / 60 + 1e-7, i }')
		;;
	*)
		tc=$c
		;;
	esac
	ggf="$out/emilia-clock-$c.ggf"
	rm -f "$ggf"
	res=$(nice "$match" --engine name=a cmd="$emilia $args" --engine name=b cmd="$emilia $args" \
		--openings "$xot" --games "$games" --tc "$tc" --concurrency "$conc" --seed "$seed" \
		--out "$ggf" --quiet 2>&1)
	# the runner's summary: "time per move: a mean X s, max Y s (N moves); b ..."
	printf '%s\n' "$res" | awk -v clock="$c" -v games="$games" -v ggf="$ggf" '
		/^time per move:/ {
			line = $0
			gsub(/[;,()]/, " ", line)
			n = split(line, w, " ")
			for (i = 1; i <= n; i++) {
				if (w[i] == "mean") { sum += w[i + 1] * 0; means[++k] = w[i + 1] }
				if (w[i] == "max" && w[i + 1] + 0 > max) max = w[i + 1] + 0
				if (w[i] == "moves") moves[k] = w[i - 1]
			}
		}
		/forfeits:/ { forf = $0 }
		/lost on time/ { losses++ }
		END {
			tot = 0; mv = 0
			for (j = 1; j <= k; j++) { tot += means[j] * moves[j]; mv += moves[j] }
			mean = mv ? tot / mv : 0
			split(clock, p, "+")
			per = (clock ~ /\+/) ? "" : sprintf("%.0f %%", 100 * mean / p[1])
			left = "-"; avg = "-"
			if (clock ~ /\+/) {
				least = 1e9; sumleft = 0; nleft = 0
				while ((getline g < ggf) > 0) {
					t[0] = 0; t[1] = 0; m[0] = 0; m[1] = 0
					s = g
					while (match(s, /[BW]\[[A-Ha-h][1-8]\/\/[0-9.]+\]/)) {
						e = substr(s, RSTART, RLENGTH)
						side = substr(e, 1, 1) == "B" ? 0 : 1
						sub(/^.*\/\//, "", e); sub(/\]$/, "", e)
						t[side] += e; m[side]++
						s = substr(s, RSTART + RLENGTH)
					}
					for (q = 0; q < 2; q++) {
						if (!m[q]) continue
						l = p[1] + p[2] * m[q] - t[q]
						if (l < least) least = l
						sumleft += l; nleft++
					}
				}
				if (nleft) { left = sprintf("%.2f s", least); avg = sprintf("%.2f s", sumleft / nleft) }
			}
			printf "| %s | %d | %d | %.4f | %.4f | %s | %d | %s | %s |\n", clock, games, mv, mean, max,
			       per, losses + 0, left, avg
		}'
	printf '%s\n' "$res" | grep -i "forfeit" >&2 || true
done
