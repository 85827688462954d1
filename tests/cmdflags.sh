#!/bin/sh
# The flags of the commands (src/front/cmdflags.h tables), run by `make test-cmdflags` and
# `make test`: for each command, --help exits 0 on stdout and lists every flag; a bad value
# of a ranged flag exits 2 with the range in the message; an unknown flag is refused; and
# --threads takes exactly the option table's range (the maximum of `emilia --help-options`:
# accepted, one more refused with that maximum in the message).  Also: every flag that
# `emilia --help` names for a command is in the command's own --help.
#
# Usage: sh tests/cmdflags.sh [EMILIA] (default: $EMILIA_BIN, else ./emilia)
set -u
emilia=${1:-${EMILIA_BIN:-./emilia}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/emilia-cmdflags.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
checks=0

bad() {
	echo "cmdflags: $*" >&2
	fail=1
}

# run ARGS...: the command's stdout, stderr and status in $tmp/out, $tmp/err, $rc
# (stdin: quit, for play)
run() {
	checks=$((checks + 1))
	echo quit | "$emilia" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# expect_rc WANT ARGS...
expect_rc() {
	want=$1
	shift
	run "$@"
	[ "$rc" -eq "$want" ] || bad "emilia $*: exit status $rc, not $want ($(head -c 200 "$tmp/err"))"
}

# expect_err WANT_RC TEXT ARGS...: stderr holds TEXT (a fixed string)
expect_err() {
	want_rc=$1
	text=$2
	shift 2
	expect_rc "$want_rc" "$@"
	grep -qF -- "$text" "$tmp/err" || bad "emilia $*: stderr has no '$text': $(head -c 300 "$tmp/err")"
}

# expect_not ARGS... (after a run): stderr does not hold TEXT
expect_not() {
	! grep -qF -- "$1" "$tmp/err" || bad "$2: stderr has '$1'"
}

# help CMD FLAG...: `emilia CMD --help` exits 0, prints on stdout (not stderr) and has a
# line for each flag
help() {
	cmd=$1
	shift
	expect_rc 0 "$cmd" --help
	head -2 "$tmp/out" | grep -q "^usage: emilia .*$cmd" || bad "$cmd --help: no usage line for $cmd: '$(head -1 "$tmp/out")'"
	[ -s "$tmp/err" ] && bad "$cmd --help wrote on stderr: $(head -c 200 "$tmp/err")"
	for f in "$@"; do
		grep -q "^  $f\( \|$\)" "$tmp/out" || bad "$cmd --help has no line for $f"
	done
	cp "$tmp/out" "$tmp/help.$cmd"
}

help eval --depth --json --board --anti --eval
help perft --board --mode --divide --threads
help bench --depth --threads --file --smp
help solve --threads --hash --board --variant --disable --results --wld --json --quiet
help show --svg --numbers --no-legal --board --cell
# review and play: their table, then the engine options (--level, --threads, --hash ...)
help review --wthor --game --exact-from --html --diagrams --board --json --quiet --threads --hash --level --no-book
help serve --port --bind --data --web --grace --idle --max-tables --max-connections --engine-threads --hash --quiet
help play --color --colour --time --clock --thinking --no-thinking --threads --hash --level --no-book

# the ranges shown are the tables' (and the option table's)
grep -q '^  --cell PIXELS .*(16\.\.200 pixels)$' "$tmp/help.show" || bad "show --help: --cell's range"
grep -q '^  --depth N .*(0\.\.30)$' "$tmp/help.eval" || bad "eval --help: --depth's range"
grep -q '^  --mode 1|2 ' "$tmp/help.perft" || bad "perft --help: --mode's choices"
grep -q '^  --board 8|6 ' "$tmp/help.show" || bad "show --help: --board's choices (the option table's size)"

# every flag that `emilia --help` names for a command is in its own --help
expect_rc 0 --help
for cmd in eval play bench perft review show solve; do
	for f in $(grep "^  $cmd " "$tmp/out" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -q "^  $f\( \|$\)" "$tmp/help.$cmd" || bad "emilia --help names $cmd $f, not in $cmd --help"
	done
done

# bad values: the message gives the range (or the choices), exit status 2
expect_err 2 "eval: depth must be 0..30, not '31'" eval x.obf --depth 31
expect_err 2 "eval: board size must be 8, 6 or 4, not '5'" eval x.obf --board 5
expect_err 2 "perft: mode must be 1 or 2, not '3'" perft 2 --mode 3
expect_err 2 "perft: board size must be 8, 6 or 4, not '7'" perft 2 --board 7
expect_err 2 "perft: depth must be 0..60, not '61'" perft 61
expect_err 2 "bench: depth must be 1..30, not '0'" bench --depth 0
expect_err 2 "bench: --smp must be 2..256 threads, not '1'" bench --smp 1
expect_err 2 "solve: hash must be 1..65536 MB, not '0'" solve f5 --hash 0
expect_err 2 "solve: variant must be normal or anti, not 'misere'" solve f5 --variant misere
expect_err 2 "emilia show: --cell must be 16..200 pixels, not '15'" show f5 --cell 15
expect_err 2 "emilia show: --board must be 8 or 6, not '4'" show f5 --board 4
expect_err 2 "emilia review: --exact-from must be 0..60 empties, not '61'" review f5 --exact-from 61
expect_err 2 "emilia review: --diagrams must be 0..60, not '-1'" review f5 --diagrams -1
expect_err 2 "emilia review: --game must be 1..100000000, not '0'" review --wthor x --game 0
expect_err 2 "emilia review: --board must be 8 or 6, not '7'" review f5 --board 7
expect_err 2 "emilia: --time must be 0..86400 seconds, not '-1'" play --time -1
expect_err 2 "emilia: --time must be 0..86400 seconds, not 'nan'" play --time nan
expect_err 2 "emilia: --color must be black, white, both or none" play --color red

# unknown flags are refused (status 2, the command's usage on stderr)
expect_err 2 "eval: unknown argument '--bogus'" eval x.obf --bogus
expect_err 2 "perft: unknown argument '--bogus'" perft 2 --bogus
expect_err 2 "usage: emilia bench" bench --bogus
expect_err 2 "solve: unknown option '--bogus'" solve f5 --bogus
expect_err 2 "emilia show: unknown option '--bogus'" show f5 --bogus
expect_err 2 "emilia review: unknown option '--bogus'" review f5 --bogus
expect_err 2 "emilia: unknown argument '--bogus'" play --bogus
# a flag without its value is no flag
expect_err 2 "perft: unknown argument '--threads'" perft 2 --threads

# --threads: exactly the option table's range
max=$(grep -o -- '--threads *1\.\.[0-9]*' "$tmp/help.play" | sed 's/.*\.\.//')
[ -n "$max" ] && [ "$max" -ge 2 ] || bad "no range of --threads in play --help ('$max')"
over=$((max + 1))
expect_err 2 "perft: threads must be 1..$max, not '$over'" perft 2 --threads "$over"
expect_err 2 "bench: threads must be 1..$max, not '$over'" bench --threads "$over"
expect_err 2 "solve: threads must be 1..$max, not '$over'" solve f5 --threads "$over"
expect_err 2 "emilia review: threads must be an integer in 1..$max" review f5 --threads "$over"
expect_err 2 "emilia: threads must be an integer in 1..$max" play --threads "$over"
expect_err 2 "perft: threads must be 1..$max, not '0'" perft 2 --threads 0
# the maximum is accepted: each command goes on to its next step
expect_rc 0 perft 2 --threads "$max"
[ "$(head -1 "$tmp/out")" = 12 ] || bad "perft 2 --threads $max: '$(head -1 "$tmp/out")', not 12"
expect_err 1 "bench: cannot open '$tmp/none'" bench --threads "$max" --file "$tmp/none"
expect_err 2 "is not a readable file, an OBF line" solve zz --threads "$max"
expect_not "threads" "solve zz --threads $max"
expect_err 1 "emilia review: " review --wthor "$tmp/none" --game 1 --threads "$max"
expect_not "threads" "review --threads $max"
expect_rc 0 play --threads "$max" --hash 16 --no-book --color both

echo "cmdflags: $checks runs, $([ "$fail" -eq 0 ] && echo ok || echo FAILED)"
exit "$fail"
