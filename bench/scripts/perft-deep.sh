#!/bin/sh
# Deep perft check (`make perft-deep`): every depth of 8x8 mode 1 to 12,
# mode 2 to 11, 6x6 both modes to 12 and 4x4 both modes to the end of the
# game tree (60060 games), each compared with the reference counts in
# tests/data/perft-*.tsv.  Exits non-zero on the first mismatch.
# usage: bench/scripts/perft-deep.sh [EMILIA=./emilia] [THREADS=number of CPUs]
set -eu
bin=${1:-./emilia}
threads=${2:-$(nproc 2>/dev/null || echo 1)}
data=$(dirname "$0")/../../tests/data
start=$(date +%s)
checked=0

# check SIZE MODE MAX_DEPTH COLUMN
check() {
	d=1
	while [ "$d" -le "$3" ]; do
		want=$(awk -F'\t' -v d="$d" -v c="$4" '$1 == d { print $c }' "$data/perft-$1x$1.tsv")
		if [ -z "$want" ]; then
			echo "no reference for $1x$1 mode $2 depth $d" >&2
			exit 1
		fi
		out=$("$bin" perft "$d" --board "$1" --mode "$2" --threads "$threads")
		got=$(echo "$out" | head -n 1)
		if [ "$got" != "$want" ]; then
			echo "MISMATCH $1x$1 mode $2 depth $d: got $got, expected $want" >&2
			exit 1
		fi
		if [ "$d" -eq "$3" ]; then
			printf '%dx%d mode %d depth %2d: %s ok  (%s)\n' "$1" "$1" "$2" "$d" "$got" "$(echo "$out" | tail -n 1)"
		fi
		checked=$((checked + 1))
		d=$((d + 1))
	done
}

check 8 1 12 2
check 8 2 11 5
check 6 1 12 2
check 6 2 12 3
check 4 1 16 2
check 4 2 16 3
# past the end of the 4x4 tree the count stays at 60060 games
for m in 1 2; do
	got=$("$bin" perft 30 --board 4 --mode "$m" | head -n 1)
	[ "$got" = 60060 ] || { echo "MISMATCH 4x4 mode $m depth 30: got $got, expected 60060" >&2; exit 1; }
done
echo "perft-deep: all $checked counts match the references ($(( $(date +%s) - start )) s, $threads threads, $bin)"
