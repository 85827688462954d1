#!/bin/sh
# Bench signature check (search module).
#   sh bench/check-signature.sh [EXPECTED]
# Builds ARCH=portable, ARCH=avx2 (when the CPU has it) and MODE=debug,
# runs `emilia bench` with each and checks that all print the same last
# line "Nodes searched: N"; with EXPECTED (a number, e.g. the commit's
# "Bench:" value) also that N equals it.  Exit status 0 when all agree.
set -eu
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}
expected=${1:-}
variants="ARCH=portable MODE=debug"
grep -qw avx2 /proc/cpuinfo && variants="ARCH=portable ARCH=avx2 MODE=debug"
first=""
status=0
for v in $variants; do
	make -s -j"$JOBS" $v emilia >/dev/null
	case $v in
	ARCH=*) bin=build/${v#ARCH=}-release/emilia ;;
	MODE=debug) bin=$(ls -d build/*-debug/emilia | head -1) ;;
	esac
	n=$("$bin" bench | tail -1 | sed -n 's/^Nodes searched: \([0-9]*\)$/\1/p')
	echo "$v: Nodes searched: ${n:-?}"
	[ -n "$n" ] || { status=1; continue; }
	[ -z "$first" ] && first=$n
	[ "$n" = "$first" ] || status=1
	[ -z "$expected" ] || [ "$n" = "$expected" ] || status=1
done
[ $status = 0 ] && echo "bench signature OK: $first" || echo "bench signature MISMATCH" >&2
exit $status
