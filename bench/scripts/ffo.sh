#!/bin/sh
# FFO endgame benchmark (endgame solver).
#
#   sh bench/scripts/ffo.sh RANGE THREADS [EMILIA] [EXTRA SOLVE OPTIONS...]
#
# RANGE is 1-19, 20-39, 1-39, 40-49, 50-59 or 40-59 (positions of the FFO suite,
# from tests/data/fforum-*.obf).  Solves them with `emilia solve`, prints
# the table, and appends one line to bench/results/ffo-history.csv (bench/scripts/history.sh;
# only from a tree whose sources are committed):
#   date, commit, range, threads, positions, wrong, nodes, wall seconds,
#   CPU seconds (user+sys, all threads), load average at the start, options
# The machine is shared: CPU seconds and nodes compare runs; wall seconds
# only mean something on a quiet machine (see the load column).
# FFO_HISTORY=0 leaves the history file alone (make test-ffo).
# Exit status: that of `emilia solve` (0 when every score and move is right).
set -u
range=${1:-40-49}
threads=${2:-1}
bin=${3:-./emilia}
[ $# -ge 3 ] && shift 3 || shift $#
extra="$*"
dir=$(dirname "$0")
data=$dir/../../tests/data
tmp=$(mktemp /tmp/emilia-ffo-XXXXXX)
trap 'rm -f "$tmp" "$tmp.out" "$tmp.time"' EXIT
case $range in
1-19) cat "$data/fforum-1-19.obf" > "$tmp" ;;
20-39) cat "$data/fforum-20-39.obf" > "$tmp" ;;
1-39) cat "$data/fforum-1-19.obf" "$data/fforum-20-39.obf" > "$tmp" ;;
40-49) head -n 10 "$data/fforum-40-59.obf" > "$tmp" ;;
40-59) cat "$data/fforum-40-59.obf" > "$tmp" ;;
50-59) tail -n 10 "$data/fforum-40-59.obf" > "$tmp" ;;
*) echo "ffo.sh: range must be 1-19, 20-39, 1-39, 40-49, 50-59 or 40-59" >&2; exit 2 ;;
esac
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
start=$(date +%s.%N)
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f "%U %S" -o "$tmp.time" nice "$bin" solve "$tmp" --threads "$threads" $extra > "$tmp.out"
	rc=$?
	cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$tmp.time")
else
	nice "$bin" solve "$tmp" --threads "$threads" $extra > "$tmp.out"
	rc=$?
	cpu="?"
fi
end=$(date +%s.%N)
cat "$tmp.out"
wall=$(echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }')
tot=$(grep '^totals:' "$tmp.out")
positions=$(echo "$tot" | sed 's/.*positions \([0-9]*\).*/\1/')
wrong=$(echo "$tot" | sed 's/.*wrong \([0-9]*\).*/\1/')
nodes=$(echo "$tot" | sed 's/.*nodes \([0-9]*\).*/\1/')
. "$dir/history.sh"
echo "ffo $range, $threads thread(s): $nodes nodes, $wall s wall, $cpu s CPU, load $load"
history_append "$range,$threads,$positions,$wrong,$nodes,$wall,$cpu,$load,$extra"
exit $rc
