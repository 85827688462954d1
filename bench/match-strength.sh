#!/bin/sh
# match-strength.sh - Emilia's strength table (bench/match-results.md):
# Emilia Easy, Normal and Hard against gtp-rhino levels 3 and 4, and Hard
# against Normal, from XOT openings with colours swapped.
#
# usage: sh bench/match-strength.sh XOT_FILE [GAMES [TC [CONCURRENCY]]]
#   XOT_FILE     e.g. ../shared/data/openings/xot-large.txt
#   GAMES        games per pairing (default 100), TC (default 0.1 s per move),
#   CONCURRENCY  games at once (default 2; the machine is shared: keep it low)
# Environment: MATCHES="normal easy hard hvn" selects the runs (in order),
# SEED (default 1), OUT (directory for GGF files and logs, default /tmp).
# Runs nice'd; each run prints its command line and the runner's summary.
set -eu
xot=${1:?usage: sh bench/match-strength.sh XOT_FILE [GAMES [TC [CONCURRENCY]]]}
games=${2:-100}
tc=${3:-0.1}
conc=${4:-2}
seed=${SEED:-1}
out=${OUT:-/tmp}
rhino=/usr/games/gtp-rhino
here=$(cd "$(dirname "$0")/.." && pwd)
emilia=$here/emilia
match=$here/emilia-match
[ -x "$rhino" ] || { echo "needs $rhino (Debian package grhino)" >&2; exit 1; }
[ -x "$emilia" ] && [ -x "$match" ] || { echo "build first: make" >&2; exit 1; }

run() {
	name=$1
	shift
	echo "== $name"
	echo "$match $*"
	nice "$match" "$@" --openings "$xot" --games "$games" --tc "$tc" --concurrency "$conc" \
		--seed "$seed" --quiet --out "$out/match-$name.ggf"
	echo
}

for m in ${MATCHES:-normal easy hard hvn}; do
	case $m in
	easy|normal|hard)
		run "$m" --engine name="emilia-$m" cmd="$emilia --level $m" \
			--engine name=rhino-l3 cmd="$rhino -l 3" --engine name=rhino-l4 cmd="$rhino -l 4" ;;
	hvn)
		run hard-vs-normal --engine name=emilia-hard cmd="$emilia --level hard" \
			--engine name=emilia-normal cmd="$emilia --level normal" ;;
	*) echo "unknown match '$m'" >&2; exit 2 ;;
	esac
done
