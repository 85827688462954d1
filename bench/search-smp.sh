#!/bin/sh
# Time-to-depth speedup of N threads over 1 (search module).
#   sh bench/search-smp.sh [THREADS [ROUNDS [DEPTH]]]
# Runs the midgame part of `emilia bench` at DEPTH (default 14) with 1 and
# with THREADS threads (default 2), alternating, ROUNDS times (default 5),
# and prints each round's "Midgame time" and the median ratio.  Needs an
# otherwise idle machine with at least THREADS cores to mean anything.
set -eu
cd "$(dirname "$0")/.."
th=${1:-2}; rounds=${2:-5}; depth=${3:-14}
bin=${EMILIA:-./emilia}
ratios=""
for r in $(seq "$rounds"); do
	t1=$("$bin" bench --depth "$depth" --threads 1 | sed -n 's/^Midgame time: \([0-9.]*\) s$/\1/p')
	tn=$("$bin" bench --depth "$depth" --threads "$th" | sed -n 's/^Midgame time: \([0-9.]*\) s$/\1/p')
	ratio=$(awk -v a="$t1" -v b="$tn" 'BEGIN { printf "%.3f", a / b }')
	echo "round $r: 1 thread $t1 s, $th threads $tn s, speedup $ratio"
	ratios="$ratios $ratio"
done
echo "$ratios" | tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "median speedup of %s threads: %.2f\n", "'"$th"'", m }'
