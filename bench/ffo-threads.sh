#!/bin/sh
# FFO #40-#59 with 1 and then 2 threads, side by side: nodes, wall and CPU
# time, and the speedup (wall time ratio; meaningful on a quiet machine).
#   sh bench/ffo-threads.sh [EMILIA] [RANGE]
bin=${1:-./emilia}
range=${2:-40-59}
dir=$(dirname "$0")
sh "$dir/ffo.sh" "$range" 1 "$bin" --quiet > /tmp/emilia-ffo-t1.txt || exit 1
sh "$dir/ffo.sh" "$range" 2 "$bin" --quiet > /tmp/emilia-ffo-t2.txt || exit 1
tail -n 1 /tmp/emilia-ffo-t1.txt
tail -n 1 /tmp/emilia-ffo-t2.txt
w1=$(tail -n 1 /tmp/emilia-ffo-t1.txt | sed 's/.* nodes, \([0-9.]*\) s wall.*/\1/')
w2=$(tail -n 1 /tmp/emilia-ffo-t2.txt | sed 's/.* nodes, \([0-9.]*\) s wall.*/\1/')
echo "speedup 2 threads vs 1: $(echo "$w1 $w2" | awk '{ printf "%.2f", $1 / $2 }')x (wall time)"
