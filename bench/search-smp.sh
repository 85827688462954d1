#!/bin/sh
# Time-to-depth speedup of N threads over 1 (midgame search, issue 4).
#   sh bench/search-smp.sh [THREADS [ROUNDS [DEPTH]]]
# Runs the midgame part of `emilia bench` at DEPTH (default 15) with 1 and
# with THREADS threads (default 2): 1, N, 1, N, ..., 1 (ROUNDS runs with N
# threads, default 7).  Each N-thread run is compared with the mean of the
# 1-thread runs just before and after it, which cancels slow drifts of a
# shared machine's speed; prints each round's ratio and their median.  It
# needs THREADS otherwise idle cores.
set -eu
cd "$(dirname "$0")/.."
th=${1:-2}; rounds=${2:-7}; depth=${3:-15}
bin=${EMILIA:-./emilia}
field() { sed -n "s/^$1: \([0-9.]*\) s$/\1/p"; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { printf "%.2f", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
one() { "$bin" bench --depth "$depth" --threads "$1" | field "Midgame time"; }
ratios=""
before=$(one 1)
for r in $(seq "$rounds"); do
	wn=$(one "$th")
	after=$(one 1)
	ratio=$(awk -v a="$before" -v b="$after" -v n="$wn" 'BEGIN { printf "%.3f", (a + b) / 2 / n }')
	echo "round $r: 1 thread $before s / $after s, $th threads $wn s: $ratio"
	ratios="$ratios $ratio"
	before=$after
done
echo "median time-to-depth speedup of $th threads at depth $depth: $(echo "$ratios" | median)"
