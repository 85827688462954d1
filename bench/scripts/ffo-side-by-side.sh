#!/bin/sh
# Emilia and a peer solver on the same FFO positions, side by side.
#
#   sh bench/scripts/ffo-side-by-side.sh [-f OBF] [-r FIRST-LAST] [-t THREADS] [-e EMILIA] PEER_CMD
#
# Solves each position of OBF (default tests/data/fforum-40-59.obf) with
# `EMILIA solve` (default ./emilia) and with PEER_CMD, one position at a
# time, alternating which of the two goes first from one position to the
# next, so that both see the same load on a shared machine.  PEER_CMD is
# run by sh -c after replacing %f with a file that holds the position
# (board and side to move only, as Egaroucid's console reads it), %o with
# a file that holds its whole OBF line and %t with the thread count.
# -r keeps positions FIRST..LAST of the file (1-based line numbers).
#
# Times: each solver's own figure when its output has one (Emilia's
# `totals: ... seconds S`, Egaroucid's `total N nodes in Ss`), so start-up
# work (Egaroucid allocates its table for seconds) is not counted; else the
# wall time of the command.  Prints per-position times, nodes and scores,
# both totals and the ratio Emilia / peer (below 1: Emilia is faster).
# Exit status 1 when the two scores differ on some position.
#
# Example (Egaroucid built outside the project, ../shared/tools/README.md):
#   sh bench/scripts/ffo-side-by-side.sh -r 1-10 -t 1 \
#     'cd /tmp/egaroucid-out/bin && ./Egaroucid_for_Console.out -solve %f -t %t -l 60 -nobook'
set -u
dir=$(dirname "$0")
obf=$dir/../../tests/data/fforum-40-59.obf
range=""
threads=1
emilia=./emilia
while getopts f:r:t:e: opt; do
	case $opt in
	f) obf=$OPTARG ;;
	r) range=$OPTARG ;;
	t) threads=$OPTARG ;;
	e) emilia=$OPTARG ;;
	*) echo "usage: $0 [-f OBF] [-r FIRST-LAST] [-t THREADS] [-e EMILIA] PEER_CMD" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-f OBF] [-r FIRST-LAST] [-t THREADS] [-e EMILIA] PEER_CMD" >&2; exit 2; }
peer=$1
case $emilia in /*) ;; *) emilia=$(pwd)/$emilia ;; esac
tmp=$(mktemp -d /tmp/emilia-sbs-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
grep -v '^[#%]' "$obf" | grep -v '^[[:space:]]*$' > "$tmp/all"
first=1
last=$(wc -l < "$tmp/all")
if [ -n "$range" ]; then
	first=${range%-*}
	last=${range#*-}
fi

now() { date +%s.%N; }

# run_timed OUT CMD...: runs CMD with stdout+stderr to OUT, prints the wall seconds
run_timed() {
	out=$1
	shift
	t0=$(now)
	"$@" > "$out" 2>&1 < /dev/null
	t1=$(now)
	echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }'
}

# parse OUT WALL: prints "seconds nodes score" read from a solver's output
parse() {
	awk -v wall="$2" '
	/^totals:/ { for (i = 1; i <= NF; i++) { if ($i == "seconds") s = $(i + 1); if ($i == "nodes") n = $(i + 1) } sub(",", "", s); sub(",", "", n) }
	/^ *[0-9]+ +[0-9]+ +[a-h][1-8]|^ *[0-9]+ +[0-9]+ +(pass|--)/ { sc = $4 }
	/^total [0-9]+ nodes in/ { n = $2; s = $5; sub("s$", "", s) }
	/^\| *[0-9]+\|/ { split($0, f, "|"); v = f[5]; gsub(/ /, "", v); sc = v }
	END { if (s == "") s = wall; if (n == "") n = "?"; if (sc == "") sc = "?"; printf "%s %s %s\n", s, n, sc }
	' "$1"
}

printf "%4s %5s | %14s %9s | %14s %9s | %6s\n" pos score "emilia nodes" seconds "peer nodes" seconds ratio
i=0
diff=0
while IFS= read -r line; do
	i=$((i + 1))
	[ $i -ge "$first" ] && [ $i -le "$last" ] || continue
	echo "$line" > "$tmp/pos.obf"
	echo "$line" | cut -d';' -f1 > "$tmp/pos.txt"
	cmd=$(echo "$peer" | sed -e "s|%f|$tmp/pos.txt|g" -e "s|%o|$tmp/pos.obf|g" -e "s|%t|$threads|g")
	if [ $((i % 2)) -eq 1 ]; then
		we=$(run_timed "$tmp/e.out" "$emilia" solve "$tmp/pos.txt" --threads "$threads")
		wp=$(run_timed "$tmp/p.out" sh -c "$cmd")
	else
		wp=$(run_timed "$tmp/p.out" sh -c "$cmd")
		we=$(run_timed "$tmp/e.out" "$emilia" solve "$tmp/pos.txt" --threads "$threads")
	fi
	# a peer run that printed no node count (a crash) is run once more
	if [ "$(parse "$tmp/p.out" "$wp" | cut -d' ' -f2)" = "?" ]; then
		wp=$(run_timed "$tmp/p.out" sh -c "$cmd")
	fi
	set -- $(parse "$tmp/e.out" "$we") $(parse "$tmp/p.out" "$wp")
	es=$1 en=$2 esc=$3 ps=$4 pn=$5 psc=$6
	[ "$(echo "$esc" | tr -d +)" = "$(echo "$psc" | tr -d +)" ] || { diff=1; esc="$esc!"; }
	printf "%4d %5s | %14s %9.3f | %14s %9.3f | %6.3f\n" "$i" "$esc" "$en" "$es" "$pn" "$ps" \
		"$(echo "$es $ps" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')"
	echo "$i $es $en $ps $pn" >> "$tmp/rows"
done < "$tmp/all"
[ -f "$tmp/rows" ] || { echo "no positions" >&2; exit 2; }
awk -v t="$threads" '
{ es += $2; ps += $4; en += $3; pn += $5 }
END {
	printf "totals (%d positions, %s thread(s)): emilia %.3f s %.0f nodes, peer %.3f s %.0f nodes, ratio emilia/peer %.3f\n",
	       NR, t, es, en, ps, pn, (ps > 0 ? es / ps : 0)
}' "$tmp/rows"
[ $diff = 0 ] || echo "scores differ (marked !)" >&2
exit $diff
