#!/bin/sh
# Time-to-depth speedup of N threads over 1 (midgame search).
#   sh bench/scripts/search-smp.sh [THREADS [ROUNDS [DEPTH [POSITIONS]]]]
# Runs `emilia bench --smp THREADS --depth DEPTH --file POSITIONS` ROUNDS
# times (defaults: 2 threads, 5 rounds, depth 14, bench/scripts/smp-positions.txt:
# 30 positions of 46 to 30 empties).  Each position is searched with 1
# thread, THREADS threads and 1 thread again, back to back, table cleared
# before each search, so the speed drifts of a shared machine (seconds to
# minutes) cancel out; a round's speedup is the sum of the 1-thread times
# (mean of the two runs) over the sum of the THREADS-thread times.  Prints
# each round and the median.  It needs THREADS otherwise idle cores.
set -eu
cd "$(dirname "$0")/../.."
th=${1:-2}; rounds=${2:-5}; depth=${3:-14}; file=${4:-bench/scripts/smp-positions.txt}
bin=${EMILIA:-./emilia}
median() { tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { printf "%.3f", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
all=""
for r in $(seq "$rounds"); do
	out=$("$bin" bench --smp "$th" --depth "$depth" --file "$file")
	s=$(echo "$out" | sed -n 's/^Time-to-depth speedup of [0-9]* threads: \([0-9.]*\)$/\1/p')
	t=$(echo "$out" | sed -n 's/^Time to depth, 1 thread: \([0-9.]*\) s.*threads: \([0-9.]*\) s$/\1 s vs \2 s/p')
	n=$(echo "$out" | sed -n 's/^Nodes, .*(\([0-9.]*\) times)$/\1/p')
	echo "round $r: $t, nodes x$n, speedup $s"
	all="$all $s"
done
echo "median time-to-depth speedup of $th threads at depth $depth: $(echo "$all" | median)"
