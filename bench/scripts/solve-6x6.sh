#!/bin/sh
# The 6x6 start position solved exactly from scratch (White wins by 4, so
# the score for Black to move is -4).  Appends to bench/results/ffo-history.csv
# with range "6x6-start".
#   sh bench/scripts/solve-6x6.sh [EMILIA] [THREADS]
bin=${1:-./emilia}
threads=${2:-1}
dir=$(dirname "$0")
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?")
start=$(date +%s.%N)
out=$(nice "$bin" solve --board 6 --threads "$threads" --json '')
rc=$?
end=$(date +%s.%N)
echo "$out"
wall=$(echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }')
nodes=$(echo "$out" | sed -n 's/.*"totals".*"nodes":\([0-9]*\).*/\1/p')
score=$(echo "$out" | sed -n 's/^{"n":1,.*"score":\(-*[0-9]*\),.*/\1/p')
. "$dir/history.sh"
wrong=0
[ "$score" = "-4" ] || wrong=1
echo "6x6 start: score $score (expected -4), $nodes nodes, $wall s wall"
history_append "6x6-start,$threads,1,$wrong,$nodes,$wall,?,$load,score $score"
[ $rc -eq 0 ] && [ "$wrong" -eq 0 ]
