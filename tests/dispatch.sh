#!/bin/sh
# The dispatch test (`make test` of the default build, ARCH=dispatch; docs/build.md): each
# program holds a portable and an AVX2 copy of the engine and runs one, chosen at start-up from
# the CPU or by EMILIA_KERNEL (src/core/dispatch.c).  Checks, from the same binaries:
#  - `--version` of emilia and of each tool names the kernel the CPU calls for, and the
#    portable one under EMILIA_KERNEL=portable; an unknown EMILIA_KERNEL (and avx2 on a CPU
#    without it) is refused with status 2;
#  - on a CPU without AVX2, emulated by qemu-x86_64 -cpu qemu64 (Debian: qemu-user) when it is
#    installed (not for sanitizer builds, which qemu cannot run): every program runs the
#    portable copy, perft 8 is right, EMILIA_KERNEL=avx2 is refused;
#  - both kernels give the same perft counts (8x8 both modes, 6x6), the same bench node
#    signature and the same solver results and node counts on FFO #1-#19 (one thread).
# On a CPU without AVX2 and BMI2 only the portable kernel runs: the comparisons are skipped.
# Usage: sh tests/dispatch.sh BUILD (build/dispatch-MODE: BUILD/emilia, BUILD/tools/emilia-*)
build=${1:?usage: sh tests/dispatch.sh BUILD}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$build/emilia
fail() {
	echo "dispatch: $*" >&2
	exit 1
}
[ -x "$bin" ] || fail "$bin not found"
if grep -qw avx2 /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then cpu=avx2; else cpu=portable; fi

# --version: the kernel and how it was chosen, for every program of the build
for p in "$bin" "$build"/tools/emilia-*; do
	[ -x "$p" ] || continue
	name=$(basename "$p")
	v=$("$p" --version) || fail "$name --version failed"
	case $cpu in
	avx2) want="($cpu kernel, dispatched)" ;;
	*) want="(portable kernel, dispatched: the CPU has no AVX2 and BMI2)" ;;
	esac
	[ "$v" = "$name ${v#* }" ] && [ "${v#* * }" = "$want" ] || fail "$name --version: '$v', expected '... $want'"
	v=$(EMILIA_KERNEL=portable "$p" --version)
	want="(portable kernel, dispatched: EMILIA_KERNEL=portable)"
	[ "${v#* * }" = "$want" ] || fail "EMILIA_KERNEL=portable $name --version: '$v'"
done
EMILIA_KERNEL=sse9 "$bin" --version >/dev/null 2>&1
[ $? = 2 ] || fail "EMILIA_KERNEL=sse9 was not refused with status 2"

# a CPU without AVX2 (and BMI2), emulated: where an ARCH=avx2 build dies of SIGILL
if ! command -v qemu-x86_64 >/dev/null; then
	emulated="a CPU without AVX2 not emulated (no qemu-x86_64)"
else
	case $build in
	*-release) emulated="" ;;
	*) emulated="a CPU without AVX2 not emulated (sanitizer build)" ;;
	esac
fi
if [ -z "$emulated" ]; then
	for p in "$bin" "$build"/tools/emilia-*; do
		[ -x "$p" ] || continue
		v=$(qemu-x86_64 -cpu qemu64 "$p" --version 2>/dev/null)
		[ "${v#* * }" = "(portable kernel, dispatched: the CPU has no AVX2 and BMI2)" ] ||
			fail "$(basename "$p") --version on qemu64: '$v'"
	done
	n=$(qemu-x86_64 -cpu qemu64 "$bin" perft 8 2>/dev/null | head -1)
	[ "$n" = 390216 ] || fail "perft 8 on qemu64 gave '$n', expected 390216"
	EMILIA_KERNEL=avx2 qemu-x86_64 -cpu qemu64 "$bin" --version >/dev/null 2>&1
	[ $? = 2 ] || fail "EMILIA_KERNEL=avx2 on qemu64 (no AVX2) was not refused with status 2"
	emulated="on qemu64 (no AVX2) every program runs the portable copy, perft 8 390216"
fi
if [ $cpu = portable ]; then
	EMILIA_KERNEL=avx2 "$bin" --version >/dev/null 2>&1
	[ $? = 2 ] || fail "EMILIA_KERNEL=avx2 on a CPU without AVX2 was not refused with status 2"
	echo "dispatch: --version of every program ok; $emulated; no AVX2 on this CPU: kernels not compared"
	exit 0
fi

# the same results from both kernels: perft, the bench signature, the solver
# steady: a command's output without its times and speeds
steady() {
	grep -v -e 'time' -e 'second' |
		sed -e 's/ *[0-9.]* s *[0-9]* kN\/s$//' -e 's/  *[0-9.]*  *[0-9]*  *ok$/ ok/'
}
# run_both WHAT ARGS...: emilia ARGS with EMILIA_KERNEL=avx2 and =portable must agree; the
# output goes to $tmp/out
run_both() {
	what=$1
	shift
	EMILIA_KERNEL=avx2 "$bin" "$@" >"$tmp/a" || fail "avx2: $what failed"
	EMILIA_KERNEL=portable "$bin" "$@" >"$tmp/p" || fail "portable: $what failed"
	a=$(steady <"$tmp/a")
	p=$(steady <"$tmp/p")
	[ -n "$a" ] || fail "$what printed nothing"
	[ "$a" = "$p" ] || fail "$what differs between the kernels: avx2 '$(echo "$a" | tail -1)', portable '$(echo "$p" | tail -1)'"
	echo "$a" >"$tmp/out"
}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
run_both "perft 9" perft 9
n=$(head -1 "$tmp/out")
[ "$n" = 3005288 ] || fail "perft 9 gave $n, expected 3005288"
run_both "perft 10 --mode 2" perft 10 --mode 2
n=$(head -1 "$tmp/out")
run_both "perft 11 --board 6" perft 11 --board 6
n6=$(head -1 "$tmp/out")
run_both bench bench
sig=$(tail -1 "$tmp/out")
case $sig in "Nodes searched: "[1-9]*) ;; *) fail "bench printed '$sig'" ;; esac
run_both "solve FFO #1-#19" solve "$root/tests/data/fforum-1-19.obf" --threads 1
ok=$(grep -c ' ok$' "$tmp/out")
[ "$ok" = 19 ] || fail "solve FFO #1-#19: $ok positions solved right, not 19"
echo "dispatch: --version of every program ok; $emulated; avx2 and portable kernels agree: perft 9 3005288," \
	"perft 10 mode 2 $n, 6x6 perft 11 $n6, bench $sig, FFO #1-#19 solved with the same nodes"
