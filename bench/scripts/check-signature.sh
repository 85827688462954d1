#!/bin/sh
# Bench signature check (search module).
#   sh bench/scripts/check-signature.sh [EXPECTED]
# Builds ARCH=portable, ARCH=avx2 (when the CPU has AVX2 and BMI2), the default
# ARCH=dispatch and its MODE=debug, runs `emilia bench` with each (the dispatched
# builds with both of their kernels: the CPU's and EMILIA_KERNEL=portable) and
# checks that all print the same last line "Nodes searched: N"; with EXPECTED (a
# number, e.g. the commit's "Bench:" value) also that N equals it.  Exit status 0
# when all agree.  Leaves ./emilia as the debug build.
set -eu
cd "$(dirname "$0")/../.."
JOBS=${JOBS:-2}
expected=${1:-}
variants="ARCH=portable"
grep -qw avx2 /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo && variants="$variants ARCH=avx2"
variants="$variants ARCH=dispatch MODE=debug"
first=""
status=0
for v in $variants; do
	case $v in
	ARCH=*) make -s -j"$JOBS" $v emilia >/dev/null; bin=build/${v#ARCH=}-release/emilia ;;
	MODE=debug) make -s -j"$JOBS" ARCH=dispatch $v emilia >/dev/null; bin=build/dispatch-debug/emilia ;;
	esac
	kernels=default
	case $bin in build/dispatch-*) kernels="default portable" ;; esac
	for k in $kernels; do
		if [ $k = default ]; then
			n=$("$bin" bench | tail -1 | sed -n 's/^Nodes searched: \([0-9]*\)$/\1/p')
			k=$("$bin" --version | sed -n 's/.*(\([a-z0-9]*\) kernel.*/\1/p')
		else
			n=$(EMILIA_KERNEL=$k "$bin" bench | tail -1 | sed -n 's/^Nodes searched: \([0-9]*\)$/\1/p')
		fi
		echo "$v ($k kernel): Nodes searched: ${n:-?}"
		[ -n "$n" ] || { status=1; continue; }
		[ -z "$first" ] && first=$n
		[ "$n" = "$first" ] || status=1
		[ -z "$expected" ] || [ "$n" = "$expected" ] || status=1
	done
done
[ $status = 0 ] && echo "bench signature OK: $first" || echo "bench signature MISMATCH" >&2
exit $status
