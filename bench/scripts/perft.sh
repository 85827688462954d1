#!/bin/sh
# Perft speed benchmark: `emilia perft DEPTH` (8x8, mode 1, one thread) run
# N times; prints every run and the medians of the time and of the speed.
# usage: bench/scripts/perft.sh [RUNS=5] [EMILIA=./emilia] [DEPTH=12]
# The machine is shared and noisy: compare binaries side by side (alternate
# them) and quote medians.
set -eu
runs=${1:-5}
bin=${2:-./emilia}
depth=${3:-12}
want=$(awk -F'\t' -v d="$depth" '$1 == d { print $2 }' "$(dirname "$0")/../../tests/data/perft-8x8.tsv")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
	out=$(nice "$bin" perft "$depth")
	count=$(echo "$out" | head -n 1)
	if [ -n "$want" ] && [ "$count" != "$want" ]; then
		echo "perft $depth gave $count, expected $want" >&2
		exit 1
	fi
	line=$(echo "$out" | tail -n 1)
	echo "$line"
	echo "$line" | sed 's/^time \([0-9.]*\) s, \([0-9.]*\) M leaves.*/\1 \2/' >>"$tmp"
	i=$((i + 1))
done
sort -n -k1,1 "$tmp" | awk -v n="$runs" -v d="$depth" '{ t[NR] = $1 } END { printf "median time %.3f s\n", t[int((n + 1) / 2)] }'
sort -n -k2,2 "$tmp" | awk -v n="$runs" -v d="$depth" '{ s[NR] = $2 } END { printf "median speed %.1f M leaves/s (perft %d, %d runs)\n", s[int((n + 1) / 2)], d, n }'
