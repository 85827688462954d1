#!/bin/sh
# bench/scripts/review.sh [EMILIA] [DATA] - time of a full `emilia review` of 60-move
# games at the default settings (level Hard: depth 16, exact from 20
# empties, 1 thread, 64 MB hash).  Games: the test fixture
# tests/data/review-game.ggf, plus WTHOR 2005 games 1-4 when DATA (default
# ../shared/data/games) holds wthor/WTH_2005.wtb.  Prints one line per game
# (wall and CPU seconds) and the median.  Figures: bench/results/review-results.md.
EMILIA=${1:-./emilia}
DATA=${2:-../shared/data/games}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # label, review arguments
	label=$1
	shift
	/usr/bin/time -f "%e %U" -o "$tmp/time" "$EMILIA" review "$@" --quiet > "$tmp/out" || exit 1
	set -- $(cat "$tmp/time")
	moves=$(sed -n 's/^Review: .*, \([0-9]*\) moves, .*/\1/p' "$tmp/out")
	printf '%-28s %3s moves  %6.1f s wall  %6.1f s CPU\n' "$label" "$moves" "$1" "$2"
	echo "$1" >> "$tmp/walls"
}
echo "emilia review at the default settings ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
run "review-game.ggf" tests/data/review-game.ggf
if [ -f "$DATA/wthor/WTH_2005.wtb" ]; then
	for g in 1 2 3 4; do
		run "WTH_2005.wtb game $g" --wthor "$DATA/wthor/WTH_2005.wtb" --game $g
	done
fi
echo "median wall: $(sort -n "$tmp/walls" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }') s"
