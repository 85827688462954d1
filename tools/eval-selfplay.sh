#!/bin/sh
# eval-selfplay.sh OPENINGS OUTDIR FIRST LAST - the evaluation's self-play games
# (make eval-selfplay).  Chunk K (FIRST <= K <= LAST) plays the XOT openings
# K*1000+1 .. K*1000+1000 of OPENINGS (one transcript per line, e.g.
# ../shared/data/openings/xot-large.txt), or, past the end of that file, 1000
# random 10-20-ply openings drawn with seed K (tools/random-openings.py),
# each twice with colours swapped,
# between `emilia --level 8` and `emilia --level 10` (no book, 1 thread,
# a fixed depth: the games do not depend on the machine's speed or load),
# and writes them in logbook format (tools/ggf-to-logbook.py) to
# OUTDIR/sp-KKK.gam.gz (sorted: the same file on every run), where
# emilia-train --selfplay OUTDIR reads them.
# A chunk takes about 4 minutes on 2 cores; chunks that exist are skipped,
# so a run can be stopped and started again.
set -e
OPENINGS=${1:?usage: eval-selfplay.sh OPENINGS OUTDIR FIRST LAST}
OUT=${2:?usage: eval-selfplay.sh OPENINGS OUTDIR FIRST LAST}
FIRST=${3:-0}
LAST=${4:-$FIRST}
MATCH=${EMILIA_MATCH:-./emilia-match}
ENGINE=${EMILIA:-./emilia}
mkdir -p "$OUT"
tmp=$(mktemp -d /tmp/emilia-selfplay-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
k=$FIRST
while [ "$k" -le "$LAST" ]; do
	name=$(printf '%s/sp-%03d.gam.gz' "$OUT" "$k")
	if [ -f "$name" ]; then
		k=$((k + 1))
		continue
	fi
	sed -n "$((k * 1000 + 1)),$((k * 1000 + 1000))p" "$OPENINGS" > "$tmp/openings"
	n=$(grep -c . "$tmp/openings" || true)
	if [ "$n" -eq 0 ]; then
		python3 "$(dirname "$0")/random-openings.py" "$k" 1000 > "$tmp/openings"
		n=$(grep -c . "$tmp/openings" || true)
	fi
	echo "eval-selfplay: chunk $k, $n openings, $((2 * n)) games" >&2
	rm -f "$tmp/games.ggf"
	"$MATCH" --engine name=l8 cmd="$ENGINE --no-book --level 8 --hash 16" \
		--engine name=l10 cmd="$ENGINE --no-book --level 10 --hash 16" \
		--openings "$tmp/openings" --order sequential --games $((2 * n)) --tc none --timeout 600 \
		--concurrency 2 --reuse --seed 1 --quiet --out "$tmp/games.ggf" > "$tmp/match.log"
	python3 "$(dirname "$0")/ggf-to-logbook.py" "$tmp/games.ggf" | LC_ALL=C sort > "$tmp/games.txt"
	g=$(grep -c . "$tmp/games.txt")
	[ "$g" -eq $((2 * n)) ] || { echo "eval-selfplay: chunk $k: $g games of $((2 * n))" >&2; exit 1; }
	gzip -9n < "$tmp/games.txt" > "$name.tmp"
	mv "$name.tmp" "$name"
	k=$((k + 1))
done
