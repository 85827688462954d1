#!/bin/sh
# zebra.sh - Emilia against Zebra (bench/results/strength.md): XOT openings, colours
# swapped, no books, Zebra following the GTP clock; each engine process
# plays every game (--reuse), so that no start-up competes with a search.
#
# usage: sh bench/scripts/zebra.sh ZEBRA_OUT XOT_FILE [GAMES [TC [SEED [CONCURRENCY]]]]
#   ZEBRA_OUT    where ../shared/tools/zebra/build.sh put Zebra (outside the tree)
#   XOT_FILE     e.g. ../shared/data/openings/xot-large.txt
#   GAMES        default 200; TC seconds a move, default 0.1; SEED default 1;
#   CONCURRENCY  games at once, default 1 (each game needs a core of its own)
# Environment: EMILIA, MATCH (binaries, default ./emilia and ./emilia-match),
#   OUT (the GGF file, default /tmp/zebra-TC-SEED.ggf), GRACE (default 0.1).
# Prints the runner's summary: score, Elo with its 95 % interval, seconds a
# move of each side and the forfeits.
set -eu
zebra=${1:?usage: sh bench/scripts/zebra.sh ZEBRA_OUT XOT_FILE [GAMES [TC [SEED [CONCURRENCY]]]]}
xot=${2:?usage: sh bench/scripts/zebra.sh ZEBRA_OUT XOT_FILE [GAMES [TC [SEED [CONCURRENCY]]]]}
games=${3:-200}
tc=${4:-0.1}
seed=${5:-1}
conc=${6:-1}
here=$(cd "$(dirname "$0")/../.." && pwd)
emilia=${EMILIA:-$here/emilia}
match=${MATCH:-$here/emilia-match}
out=${OUT:-/tmp/zebra-$tc-$seed.ggf}
[ -f "$zebra/zebra-gtp.py" ] || { echo "no $zebra/zebra-gtp.py: run ../shared/tools/zebra/build.sh" >&2; exit 1; }
[ -x "$emilia" ] && [ -x "$match" ] || { echo "build first: make" >&2; exit 1; }
exec "$match" --engine name=emilia cmd="$emilia --no-book" \
	--engine name=zebra cmd="python3 $zebra/zebra-gtp.py" \
	--openings "$xot" --games "$games" --tc "$tc" --concurrency "$conc" --seed "$seed" \
	--grace "${GRACE:-0.1}" --reuse --quiet --out "$out"
