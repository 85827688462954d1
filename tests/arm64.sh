#!/bin/sh
# The arm64 check (`make test-arm64`, CI): the portable build cross-compiled
# with Debian's gcc-aarch64-linux-gnu and run under qemu-user must give what
# the x86 portable build gives: perft 8 = 390216, the same full perft outputs
# (8x8 with --divide and 2 threads, 6x6, 4x4, mode 2), the same bench
# signature, and the board and rules suites passing as on x86.
# It needs gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-user and
# check:arm64 through multiarch (`dpkg --add-architecture arm64`;
# docs/packaging.md says why), which .ci/run installs: make installs nothing.
# Environment: MAKE; ARM64_BUILD (build/arm64-portable-release);
# ARM64_SUITES ("board rules"); QEMU_ARM64 (default below).
set -u
MAKE=${MAKE:-make}
ARM64_BUILD=${ARM64_BUILD:-build/arm64-portable-release}
ARM64_SUITES=${ARM64_SUITES:-board rules}
X86_BUILD=build/portable-release
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
# installed PKG: dpkg -s is ambiguous for a package installed for two
# architectures (check and check:arm64 after make test-arm64)
installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed$'; }
fail() {
	echo "arm64: $*" >&2
	exit 1
}

# ---- what it needs ----
missing=""
for p in gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user check:arm64; do
	installed "$p" || missing="$missing $p"
done
[ -z "$missing" ] ||
	fail "needs$missing: run 'sudo dpkg --add-architecture arm64 && sudo apt-get update && sudo apt-get install$missing'"
# The runtime: check:arm64 brings the multiarch libc6:arm64, whose loader
# /lib/ld-linux-aarch64.so.1 qemu finds as is.  `-L /usr/aarch64-linux-gnu`
# (the cross libc) is only right without it: with both installed, the cross
# loader would load the multiarch libc.so.6, another build of glibc, and hang
# in pthread_create.
if [ -z "${QEMU_ARM64:-}" ]; then
	if [ -e /lib/ld-linux-aarch64.so.1 ]; then
		QEMU_ARM64=qemu-aarch64
	else
		QEMU_ARM64="qemu-aarch64 -L /usr/aarch64-linux-gnu"
	fi
fi

# ---- build: arm64 under $ARM64_BUILD, the x86 portable reference ----
suites=""
x86_targets="$X86_BUILD/emilia"
for s in $ARM64_SUITES; do
	suites="$suites tests/test_$s"
	x86_targets="$x86_targets $X86_BUILD/tests/test_$s"
done
t0=$(date +%s)
$MAKE --no-print-directory -j"${JOBS:-2}" cross-arm64-tests ARM64_SUITES="$ARM64_SUITES" >"$tmp/build.log" 2>&1 ||
	{ cat "$tmp/build.log" >&2; fail "make cross-arm64-tests failed"; }
# shellcheck disable=SC2086
$MAKE --no-print-directory -j"${JOBS:-2}" ARCH=portable $x86_targets >"$tmp/build.log" 2>&1 ||
	{ cat "$tmp/build.log" >&2; fail "the x86 portable build failed"; }
t1=$(date +%s)
file "$ARM64_BUILD/emilia" 2>/dev/null | grep -q 'ARM aarch64' ||
	[ "$(od -An -tx1 -j18 -N2 "$ARM64_BUILD/emilia" | tr -d ' ')" = b700 ] || fail "$ARM64_BUILD/emilia is not an arm64 program"

# ---- run under qemu and compare with x86 ----
# shellcheck disable=SC2086
arm() { timeout 600 $QEMU_ARM64 "$ARM64_BUILD/emilia" "$@"; }
out=$(arm perft 8 | head -1) || fail "emilia perft 8 failed under $QEMU_ARM64"
[ "$out" = 390216 ] || fail "perft 8 gave '$out' on arm64, expected 390216"
arm --version | grep -q '^emilia .*(portable kernel)$' || fail "arm64: emilia --version: $(arm --version)"
# every line of perft but the last (time, speed, kernel) must be equal
for args in "10 --divide --threads 2" "10 --board 6" "9 --mode 2" "14 --board 4"; do
	# shellcheck disable=SC2086
	arm perft $args | sed '$d' >"$tmp/arm.txt" || fail "perft $args failed on arm64"
	# shellcheck disable=SC2086
	"$X86_BUILD/emilia" perft $args | sed '$d' >"$tmp/x86.txt"
	cmp -s "$tmp/arm.txt" "$tmp/x86.txt" || { diff "$tmp/x86.txt" "$tmp/arm.txt" >&2; fail "perft $args: arm64 differs from x86"; }
done
echo "arm64: perft 8 390216; perft 10 --divide --threads 2, 10 --board 6, 9 --mode 2, 14 --board 4 equal to x86"
a=$(arm bench | tail -1)
x=$("$X86_BUILD/emilia" bench | tail -1)
[ "$a" = "$x" ] || fail "bench: arm64 '$a', x86 '$x'"
echo "arm64: bench $a (as x86)"
status=0
for s in $suites; do
	# Check's default timeout is made for native speed (make test uses the same 600 s)
	a=$(EMILIA_TESTDATA="$PWD/tests/data" CK_DEFAULT_TIMEOUT=600 $QEMU_ARM64 "$ARM64_BUILD/$s" 2>&1)
	ra=$?
	x=$(EMILIA_TESTDATA="$PWD/tests/data" CK_DEFAULT_TIMEOUT=600 "$X86_BUILD/$s" 2>&1)
	rx=$?
	sa=$(echo "$a" | grep '^[0-9]*%: Checks')
	sx=$(echo "$x" | grep '^[0-9]*%: Checks')
	if [ $ra != 0 ] || [ $rx != 0 ] || [ "$sa" != "$sx" ]; then
		echo "$a" >&2
		echo "arm64: $s: arm64 '$sa' (exit $ra), x86 '$sx' (exit $rx)" >&2
		status=1
	else
		echo "arm64: $s: $sa (as x86)"
	fi
done
[ $status = 0 ] || exit 1
echo "arm64: build $((t1 - t0)) s, runs $(($(date +%s) - t1)) s under $QEMU_ARM64: ok"
