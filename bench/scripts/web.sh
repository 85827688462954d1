#!/bin/sh
# bench/scripts/web.sh WEB WEB_NAME ALT ALT_NAME [RUNS]: make bench-web (bench/results/web-results.md).
#  - `emilia bench` RUNS times each: the native build (AVX2 kernel, then EMILIA_KERNEL=portable),
#    and the WebAssembly build in node (bench/scripts/web-node.js): WEB (the page's) and ALT (the same
#    with the other WEB_SIMD), the median of "Nodes/second" and each run's signature;
#  - each level's time for a move in node (bench/scripts/web-node.js levels);
#  - cold loads in headless Chromium, the bench in the page's worker and the files' sizes
#    (bench/scripts/web-first-move.py).
set -eu
web=$1 web_name=$2 alt=$3 alt_name=$4 runs=${5:-5}
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
rate() { # label, command...
	label=$1
	shift
	out=$(for i in $(seq "$runs"); do "$@" | sed -n 's/^Nodes\/second: //p; s/^Nodes searched: /sig /p'; done)
	sigs=$(echo "$out" | sed -n 's/^sig //p' | sort -u | tr '\n' ' ')
	printf '| %s | %s | %s |\n' "$label" "$(echo "$out" | grep -v '^sig' | median)" "$sigs"
}

echo "## emilia bench ($runs runs, median)"
echo
echo "| build | nodes/s | signature |"
echo "|---|---|---|"
rate "native, AVX2 kernel" ./emilia bench
rate "native, portable kernel" env EMILIA_KERNEL=portable ./emilia bench
rate "wasm in node, $web_name" node bench/scripts/web-node.js "$web"
rate "wasm in node, $alt_name" node bench/scripts/web-node.js "$alt"
echo
echo "## a move at each level (wasm in node, $web)"
echo
node bench/scripts/web-node.js "$web" levels 12 | tail -3
echo
echo "## cold loads"
echo
$py bench/scripts/web-first-move.py "$web" "$runs"
