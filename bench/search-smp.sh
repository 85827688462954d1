#!/bin/sh
# Time-to-depth speedup of N threads over 1 (search module).
#   sh bench/search-smp.sh [THREADS [ROUNDS [DEPTH]]]
# Runs the midgame part of `emilia bench` at DEPTH (default 14) with 1 and
# with THREADS threads (default 2), alternating, ROUNDS times (default 5),
# and prints each round's ratios and their medians:
#  - wall: the ratio of the "Midgame time" lines, the real time-to-depth
#    speedup; it needs an otherwise idle machine with THREADS cores;
#  - cpu0: the ratio of thread 0's CPU time, the time-to-depth a machine
#    with THREADS free cores would see (thread 0 never waits there); it
#    stays meaningful on a loaded machine as long as the threads of the
#    process get equal shares of the CPU.
set -eu
cd "$(dirname "$0")/.."
th=${1:-2}; rounds=${2:-5}; depth=${3:-14}
bin=${EMILIA:-./emilia}
wall=""; cpu=""
field() { sed -n "s/^$1: \([0-9.]*\) s$/\1/p"; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { printf "%.2f", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
for r in $(seq "$rounds"); do
	o1=$("$bin" bench --depth "$depth" --threads 1)
	on=$("$bin" bench --depth "$depth" --threads "$th")
	w1=$(echo "$o1" | field "Midgame time"); wn=$(echo "$on" | field "Midgame time")
	c1=$(echo "$o1" | field "Midgame CPU time of thread 0"); cn=$(echo "$on" | field "Midgame CPU time of thread 0")
	rw=$(awk -v a="$w1" -v b="$wn" 'BEGIN { printf "%.3f", a / b }')
	rc=$(awk -v a="$c1" -v b="$cn" 'BEGIN { printf "%.3f", a / b }')
	echo "round $r: wall 1 thread $w1 s, $th threads $wn s: $rw; thread-0 CPU $c1 s, $cn s: $rc"
	wall="$wall $rw"; cpu="$cpu $rc"
done
echo "median speedup of $th threads: wall $(echo "$wall" | median), cpu0 $(echo "$cpu" | median)"
