#!/bin/sh
# FFO endgame positions with 1 and 2 threads (or N), position by position:
# each position is solved with 1 and with N threads back to back (the
# order alternates from one position to the next), so that the speed
# drifts of a shared machine (minutes) touch both alike.  Prints each
# position's times, nodes and speedup, then the totals, and appends the
# totals to bench/results/ffo-history.csv.
#   sh bench/scripts/ffo-threads.sh [EMILIA [RANGE [THREADS]]]
# RANGE: FIRST-LAST within 1-59 (default 40-59).  It needs THREADS
# otherwise idle cores; #55 alone takes about 20 minutes with 1 thread.
set -u
bin=${1:-./emilia}
range=${2:-40-59}
th=${3:-2}
dir=$(dirname "$0")
data=$dir/../../tests/data
first=${range%-*}
last=${range#*-}
case "$first$last" in *[!0-9]*|"") echo "ffo-threads.sh: RANGE must be FIRST-LAST" >&2; exit 2 ;; esac
tmp=$(mktemp -d /tmp/emilia-ffo-threads-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat "$data/fforum-1-19.obf" "$data/fforum-20-39.obf" "$data/fforum-40-59.obf" > "$tmp/all.obf"
status=0
t1=0; tn=0; n1=0; nn=0
for k in $(seq "$first" "$last"); do
	sed -n "${k}p" "$tmp/all.obf" > "$tmp/pos.obf"
	[ -s "$tmp/pos.obf" ] || { echo "ffo-threads.sh: no position $k" >&2; exit 2; }
	if [ $((k % 2)) = 0 ]; then order="1 $th"; else order="$th 1"; fi
	for t in $order; do
		"$bin" solve "$tmp/pos.obf" --threads "$t" > "$tmp/out$t.txt" 2>/dev/null || status=1
	done
	# the result line: number, empties, move, score, nodes, seconds, nodes/s, ok
	set -- $(grep -E '^ *1 ' "$tmp/out1.txt") ; a_n=$5; a_t=$6; a_ok=${8:-?}
	set -- $(grep -E '^ *1 ' "$tmp/out$th.txt"); b_n=$5; b_t=$6; b_ok=${8:-?}
	echo "$k $a_n $a_t $b_n $b_t $a_ok $b_ok" | awk -v th="$th" '{ printf "#%d  1 thread %12.0f nodes %9.3f s %s   %d threads %12.0f nodes %9.3f s %s   %.2fx\n", $1, $2, $3, $6, th, $4, $5, $7, $3 / ($5 > 0 ? $5 : 1e-9) }'
	t1=$(echo "$t1 $a_t" | awk '{ print $1 + $2 }'); tn=$(echo "$tn $b_t" | awk '{ print $1 + $2 }')
	n1=$(echo "$n1 $a_n" | awk '{ printf "%.0f", $1 + $2 }'); nn=$(echo "$nn $b_n" | awk '{ printf "%.0f", $1 + $2 }')
done
echo "$t1 $tn $n1 $nn" | awk -v th="$th" -v r="$range" '{ printf "FFO #%s: 1 thread %.3f G nodes %.1f s, %d threads %.3f G nodes %.1f s: speedup %.2fx\n", r, $3 / 1e9, $1, th, $4 / 1e9, $2, $1 / $2 }'
. "$dir/history.sh"
history_append "$first-$last,1,,,$n1,$t1,?,?,ffo-threads.sh: position by position against $th threads"
history_append "$first-$last,$th,,,$nn,$tn,?,?,ffo-threads.sh: position by position against 1 thread"
exit $status
