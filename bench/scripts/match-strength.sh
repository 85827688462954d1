#!/bin/sh
# match-strength.sh - Emilia's strength table (bench/results/match-results.md):
# Emilia Easy, Normal and Hard against gtp-rhino levels 3 and 4, and Hard
# against Normal, from XOT openings with colours swapped.
#
# usage: sh bench/scripts/match-strength.sh XOT_FILE [GAMES [TC [CONCURRENCY]]]
#   XOT_FILE     e.g. ../shared/data/openings/xot-large.txt
#   GAMES        games per match (default 100), TC (default 0.1 s per move),
#   CONCURRENCY  games at once (default 2; the machine is shared: keep it low)
# Environment:
#   MATCHES  the runs, in order (default "normal-l3 easy-l3 hard-l3
#            hard-normal normal-l4 easy-l4 hard-l4"); LEVEL-lN is Emilia at
#            LEVEL against gtp-rhino -l N, hard-normal is Emilia Hard
#            against Emilia Normal
#   GAMES_L4 games of the runs against level 4 (default GAMES; it is slow)
#   SEED (default 1), GRACE (default 0.1), TIMEOUT (hang limit of gtp-rhino,
#   default 60 s), OUT (GGF files, default /tmp),
#   EMILIA, MATCH (binaries, default ./emilia and ./emilia-match)
# gtp-rhino searches to a fixed depth at each level and ignores clocks, so it
# gets tc=none (no time losses; the runner still reports its time per move).
# Runs nice'd; each run prints its command line and the runner's summary.
set -eu
xot=${1:?usage: sh bench/scripts/match-strength.sh XOT_FILE [GAMES [TC [CONCURRENCY]]]}
games=${2:-100}
tc=${3:-0.1}
conc=${4:-2}
seed=${SEED:-1}
out=${OUT:-/tmp}
rhino=/usr/games/gtp-rhino
here=$(cd "$(dirname "$0")/../.." && pwd)
emilia=${EMILIA:-$here/emilia}
match=${MATCH:-$here/emilia-match}
[ -x "$rhino" ] || { echo "needs $rhino (Debian package grhino)" >&2; exit 1; }
[ -x "$emilia" ] && [ -x "$match" ] || { echo "build first: make" >&2; exit 1; }

run() {
	name=$1
	n=$2
	shift 2
	echo "== $name ($(date -u +%H:%M:%S))"
	printf 'emilia-match'
	for a in "$@"; do
		case $a in
		*' '*) printf " %s=\"%s\"" "${a%%=*}" "${a#*=}" ;;
		*) printf ' %s' "$a" ;;
		esac
	done
	echo " --openings $xot --games $n --tc $tc --concurrency $conc --seed $seed" \
	     "--timeout ${TIMEOUT:-60} --grace ${GRACE:-0.1} --out $out/match-$name.ggf"
	nice "$match" "$@" --openings "$xot" --games "$n" --tc "$tc" --concurrency "$conc" \
		--seed "$seed" --timeout ${TIMEOUT:-60} --grace "${GRACE:-0.1}" --quiet --out "$out/match-$name.ggf"
	echo
}

for m in ${MATCHES:-normal-l3 easy-l3 hard-l3 hard-normal normal-l4 easy-l4 hard-l4}; do
	case $m in
	easy-l[1-5]|normal-l[1-5]|hard-l[1-5])
		level=${m%-l*}
		l=${m##*-l}
		n=$games
		[ "$l" = 4 ] && n=${GAMES_L4:-$games}
		run "$m" "$n" --engine name="emilia-$level" cmd="$emilia --level $level" \
			--engine name="rhino-l$l" cmd="$rhino -l $l" tc=none ;;
	hard-normal)
		run "$m" "$games" --engine name=emilia-hard cmd="$emilia --level hard" \
			--engine name=emilia-normal cmd="$emilia --level normal" ;;
	*) echo "unknown match '$m'" >&2; exit 2 ;;
	esac
done
