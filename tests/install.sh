#!/bin/sh
# The installation test (`make test-install`, run by `make test`): `make
# install` into a temporary DESTDIR, every file where it belongs, a small
# program built against the installed header and libraries through
# pkg-config (shared and static) that is refused a missing weights file and a bad book
# (error codes; it lives on), solves FFO #1 and counts perft 8
# (with each kernel when the build holds both, ARCH=dispatch; the portable
# one on an emulated CPU without AVX2 when qemu-x86_64 is installed),
# examples/two-engines.c built the same way playing a whole game, the man
# pages without a warning, then `make uninstall` and nothing left.
# Environment: MAKE, ARCH, MODE, CC as the caller's make; TEST_CFLAGS the
# sanitizer flags of the build (its libraries need them).
MAKE=${MAKE:-make}
CC=${CC:-cc}
prefix=/usr/local
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
dest=$tmp/root
root=$dest$prefix
fail() {
	echo "install: $*" >&2
	exit 1
}
step() {
	log=$tmp/log
	"$@" >"$log" 2>&1 || { cat "$log" >&2; fail "failed: $*"; }
}

step $MAKE --no-print-directory install DESTDIR="$dest" PREFIX=$prefix ${ARCH:+ARCH=$ARCH} ${MODE:+MODE=$MODE}
for f in bin/emilia bin/emilia-book bin/emilia-match bin/emilia-probcut \
	lib/libemilia.so.0 lib/libemilia.so lib/libemilia.a include/emilia.h lib/pkgconfig/emilia.pc \
	share/man/man6/emilia.6 share/man/man6/emilia-match.6 share/man/man6/emilia-book.6 \
	share/man/man6/emilia-probcut.6; do
	[ -e "$root/$f" ] || fail "$prefix/$f was not installed"
done
"$root/bin/emilia" --version | grep -q '^emilia ' || fail "the installed emilia does not run"
if command -v readelf >/dev/null; then
	readelf -d "$root/lib/libemilia.so.0" | grep -q 'SONAME.*\[libemilia\.so\.0\]' ||
		fail "libemilia.so.0 has no soname libemilia.so.0"
fi
# the shared library exports the API and nothing else, and never ends or prints for its
# caller: no exit, _exit, abort, printf or puts among the functions it calls
if command -v nm >/dev/null; then
	other=$(nm -D --defined-only "$root/lib/libemilia.so.0" | awk '$3 !~ /^emilia_/ { print $3 }')
	[ -z "$other" ] || fail "libemilia.so.0 exports more than emilia_*: $(echo "$other" | head -5 | tr '\n' ' ')"
	ends=$(nm -D --undefined-only "$root/lib/libemilia.so.0" | awk '{ sub(/@.*/, "", $2); print $2 }' |
		grep -xE 'exit|_exit|_Exit|abort|printf|puts|putchar|vprintf|perror' | tr '\n' ' ')
	[ -z "$ends" ] || fail "libemilia.so.0 calls $ends"
fi

cat >"$tmp/prog.c" <<'EOF'
#include <emilia.h>
#include <stdio.h>
#include <string.h>

#define FFO1 "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"

int main(int argc, char **argv)
{
#if EMILIA_VERSION_MAJOR != 0 || EMILIA_VERSION_MINOR != 1
#error "unexpected version"
#endif
	if (argc > 1 && !strcmp(argv[1], "kernel")) {
		printf("%s\n", emilia_kernel());
		return 0;
	}
	if (strcmp(emilia_version(), EMILIA_VERSION_STRING)) {
		printf("version %s, header %s\n", emilia_version(), EMILIA_VERSION_STRING);
		return 1;
	}
	emilia_options o;
	emilia_options_init(&o);
	o.hash_mb = 4;
	emilia_engine *e = NULL;
	char err[256];
	/* a missing weights file and a file that is no book (this program):
	 * error codes and messages, and the process lives on */
	o.weights_file = "/nonexistent/eval.bin";
	if (emilia_create(&o, &e, err, sizeof err) != EMILIA_ERR_FILE || e || !strstr(err, "/nonexistent/eval.bin")) {
		printf("missing weights: %s\n", err);
		return 1;
	}
	o.weights_file = NULL;
	o.book_file = argv[0];
	if (emilia_create(&o, &e, err, sizeof err) != EMILIA_ERR_FILE || e || !strstr(err, "book")) {
		printf("bad book: %s\n", err);
		return 1;
	}
	emilia_options_init(&o);
	o.threads = 2;
	o.hash_mb = 16;
	if (emilia_create(&o, &e, err, sizeof err) != EMILIA_OK) {
		printf("create: %s\n", err);
		return 1;
	}
	uint64_t n = 0;
	if (emilia_perft(e, 8, &n) != EMILIA_OK || n != 390216) {
		printf("perft 8: %llu\n", (unsigned long long)n);
		return 1;
	}
	emilia_info r;
	char move[5];
	if (emilia_set_obf(e, FFO1) != EMILIA_OK || emilia_solve(e, 0, NULL, &r) != EMILIA_OK) {
		printf("solve: %s\n", emilia_last_error(e));
		return 1;
	}
	emilia_move_name(r.move, move);
	if (strcmp(move, "g8") || r.score != 18 || !r.exact) {
		printf("FFO #1: %s %+d\n", move, r.score);
		return 1;
	}
	if (emilia_play(e, 0) != EMILIA_ERR_ILLEGAL) {
		printf("a1 was not refused\n");
		return 1;
	}
	emilia_destroy(e);
	printf("perft 8 %llu, FFO #1 %s %+d, bad files refused\n", (unsigned long long)n, move, r.score);
	return 0;
}
EOF
export PKG_CONFIG_PATH="$root/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
flags=$(pkg-config --cflags --libs emilia) || fail "pkg-config does not find emilia"
echo "$flags" | grep -q -- "-I$root/include" || fail "pkg-config --cflags: $flags"
[ "$(pkg-config --modversion emilia)" = 0.1.0 ] || fail "pkg-config --modversion: $(pkg-config --modversion emilia)"
# the header alone: strict C99, and C++
# shellcheck disable=SC2086
step $CC -std=c99 -pedantic -Wall -Wextra -Werror -fsyntax-only $(pkg-config --cflags emilia) "$tmp/prog.c"
if command -v c++ >/dev/null; then
	# shellcheck disable=SC2086
	step c++ -x c++ -Wall -Wextra -Werror -fsyntax-only $(pkg-config --cflags emilia) "$tmp/prog.c"
fi
# shellcheck disable=SC2086
step $CC $TEST_CFLAGS -o "$tmp/prog" "$tmp/prog.c" $flags
out=$(LD_LIBRARY_PATH="$root/lib" "$tmp/prog") || fail "the program built against libemilia.so failed: $out"
[ "$out" = "perft 8 390216, FFO #1 g8 +18, bad files refused" ] || fail "unexpected output: $out"
# the kernel: the CPU's in a build of both (AVX2 needs AVX2 and BMI2), the portable one on request
if grep -qw avx2 /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then cpu=avx2; else cpu=portable; fi
kernel=$(LD_LIBRARY_PATH="$root/lib" "$tmp/prog" kernel)
case ${ARCH:-} in
dispatch)
	[ "$kernel" = $cpu ] || fail "libemilia.so runs the $kernel kernel on a CPU for $cpu"
	kernel=$(EMILIA_KERNEL=portable LD_LIBRARY_PATH="$root/lib" "$tmp/prog" kernel)
	[ "$kernel" = portable ] || fail "EMILIA_KERNEL=portable: libemilia.so runs the $kernel kernel"
	out=$(EMILIA_KERNEL=portable LD_LIBRARY_PATH="$root/lib" "$tmp/prog") ||
		fail "the program built against libemilia.so failed with EMILIA_KERNEL=portable: $out"
	[ "$out" = "perft 8 390216, FFO #1 g8 +18, bad files refused" ] || fail "unexpected output with EMILIA_KERNEL=portable: $out"
	# a CPU without AVX2, emulated (Debian: qemu-user; sanitizer builds do not run under qemu)
	if command -v qemu-x86_64 >/dev/null && [ -z "${TEST_CFLAGS:-}" ]; then
		kernel=$(LD_LIBRARY_PATH="$root/lib" qemu-x86_64 -cpu qemu64 "$tmp/prog" kernel)
		[ "$kernel" = portable ] || fail "libemilia.so runs the $kernel kernel on qemu64 (no AVX2)"
	fi ;;
portable | avx2)
	[ "$kernel" = "$ARCH" ] || fail "libemilia.so of ARCH=$ARCH runs the $kernel kernel" ;;
esac
if command -v ldd >/dev/null; then
	LD_LIBRARY_PATH="$root/lib" ldd "$tmp/prog" | grep -q "$root/lib/libemilia.so.0" ||
		fail "the program does not use the installed libemilia.so.0"
fi
# the static library: the same program, no libemilia.so at run time
# shellcheck disable=SC2086
step $CC $TEST_CFLAGS -o "$tmp/prog-static" "$tmp/prog.c" $(pkg-config --cflags emilia) "$root/lib/libemilia.a" \
	$(pkg-config --libs-only-other --static emilia) -lm -pthread
out=$("$tmp/prog-static") || fail "the program built against libemilia.a failed: $out"
[ "$out" = "perft 8 390216, FFO #1 g8 +18, bad files refused" ] || fail "unexpected output (static): $out"
if [ "${ARCH:-}" = dispatch ]; then
	kernel=$("$tmp/prog-static" kernel)
	[ "$kernel" = $cpu ] || fail "libemilia.a runs the $kernel kernel on a CPU for $cpu"
	kernel=$(EMILIA_KERNEL=portable "$tmp/prog-static" kernel)
	[ "$kernel" = portable ] || fail "EMILIA_KERNEL=portable: libemilia.a runs the $kernel kernel"
fi

# examples/two-engines.c, built as its comment says: a whole game between two
# levels, whose transcript the installed emilia replays to a finished game (no
# legal move) with the same final score
ex=$(dirname "$0")/../examples/two-engines.c
# shellcheck disable=SC2086
step $CC -std=c99 -pedantic -Wall -Wextra -Werror $TEST_CFLAGS -o "$tmp/two-engines" "$ex" $flags
game=$(LD_LIBRARY_PATH="$root/lib" "$tmp/two-engines" 2 4) || fail "examples/two-engines failed: $game"
moves=$(echo "$game" | sed -n 's/^transcript: \([a-h1-8]*\)$/\1/p')
# shellcheck disable=SC2046
set -- $(echo "$game" | sed -n 's/^final score: Black \([0-9]*\), White \([0-9]*\)$/\1 \2/p')
if [ $# != 2 ] || [ $(($1 + $2)) -gt 64 ] || [ $(($1 + $2)) -lt 5 ] || [ ${#moves} -lt 18 ]; then
	fail "examples/two-engines: no legal final score: $(echo "$game" | tail -3)"
fi
if [ "$1" -gt "$2" ]; then want="B+$(($1 - $2))"; elif [ "$1" -lt "$2" ]; then want="W+$(($2 - $1))"; else want=0; fi
got=$(printf 'emilia-transcript %s\nemilia-legal\nfinal_score\nquit\n' "$moves" | "$root/bin/emilia" | grep '^=' | tr '\n' '|')
[ "$got" = "=|=|= $want|=|" ] || fail "examples/two-engines: emilia replays '$moves' as '$got', expected final score $want"
echo "install: examples/two-engines: $(echo "$game" | grep -c '^ *[0-9]*\. ') plies, $(echo "$game" | tail -1)"

# the man pages format without a warning
if command -v man >/dev/null; then
	for p in emilia emilia-match emilia-book emilia-probcut emilia-train; do
		[ -e "$root/bin/$p" ] || continue
		[ -e "$root/share/man/man6/$p.6" ] || fail "$p has no man page"
		w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$root/share/man/man6/$p.6" 2>&1 >/dev/null)
		[ -z "$w" ] || fail "man $p: $w"
	done
else
	echo "install: man is not installed: the man pages were not checked (Debian: man-db)"
fi

step $MAKE --no-print-directory uninstall DESTDIR="$dest" PREFIX=$prefix ${ARCH:+ARCH=$ARCH} ${MODE:+MODE=$MODE}
left=$(cd "$dest" && find . ! -type d)
[ -z "$left" ] || fail "left after make uninstall: $left"
echo "install: make install, pkg-config, a program against the shared and static library, make uninstall: ok"
