#!/bin/sh
# bench/scripts/mpi.sh [FFO.obf] [POSITIONS.obf] - emilia-mpi's throughput (make bench-mpi).
#
#   1. FFO #40-#59: one process with 2 threads (emilia solve --threads 2) against
#      2 worker ranks with 1 thread each (mpirun -np 3: a master and 2 workers);
#   2. 200 positions at 20-24 empties from WTHOR 2010 games (bench/scripts/positions-20-24.obf,
#      made by bench/scripts/wthor-positions.py): 1 worker rank against 2.
# Each result file must be identical to the single-process one.  Prints the wall
# times, positions per second, and the master's CPU share from emilia-mpi's summary.
# The figures go to bench/results/mpi-results.md.  PARTS="ffo positions" (the default) picks the parts.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FFO=${1:-$ROOT/tests/data/fforum-40-59.obf}
POS=${2:-$ROOT/bench/positions-20-24.obf}
EMILIA=$ROOT/emilia
MPI=$ROOT/emilia-mpi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export OMPI_MCA_btl_vader_single_copy_mechanism=none
mpi() { mpirun --allow-run-as-root --oversubscribe -np "$@"; }
now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
line() { printf '%-44s %9.1f s  %6.2f pos/s  %s\n' "$1" "$2" "$3" "$4"; }
count() { grep -c . "$1"; }

echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load before: $(load)"
PARTS=${PARTS:-ffo positions}
case " $PARTS " in *" ffo "*)
n=$(count "$FFO")
t0=$(now)
"$EMILIA" solve "$FFO" --threads 2 --quiet --results "$T/ffo-single.obf" > /dev/null
t1=$(now)
w=$(echo "$t1 - $t0" | bc -l)
line "FFO: 1 process x 2 threads" "$w" "$(echo "$n / $w" | bc -l)" "(load $(load))"

t0=$(now)
mpi 3 "$MPI" solve "$FFO" --threads 1 --results "$T/ffo-mpi.obf" > /dev/null 2> "$T/ffo-mpi.err"
t1=$(now)
w=$(echo "$t1 - $t0" | bc -l)
line "FFO: 2 worker ranks x 1 thread (-np 3)" "$w" "$(echo "$n / $w" | bc -l)" "(load $(load))"
grep "master" "$T/ffo-mpi.err" | sed 's/^emilia-mpi: /  /'
cmp "$T/ffo-single.obf" "$T/ffo-mpi.obf" && echo "  results identical to emilia solve"
;; esac
case " $PARTS " in *" positions "*)

n=$(count "$POS")
for ranks in 2 3; do
	t0=$(now)
	mpi "$ranks" "$MPI" solve "$POS" --threads 1 --results "$T/pos-$ranks.obf" > /dev/null 2> "$T/pos-$ranks.err"
	t1=$(now)
	w=$(echo "$t1 - $t0" | bc -l)
	line "$n positions: $((ranks - 1)) worker rank(s) x 1 thread" "$w" "$(echo "$n / $w" | bc -l)" "(load $(load))"
	grep "master" "$T/pos-$ranks.err" | sed 's/^emilia-mpi: /  /'
done
cmp "$T/pos-2.obf" "$T/pos-3.obf" && echo "  results identical with 1 and 2 workers"
;; esac
