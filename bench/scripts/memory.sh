#!/bin/sh
# Memory and start-up benchmark of the hash tables.
#   sh bench/scripts/memory.sh [EMILIA] [HASHES]        (make bench-memory)
# EMILIA: the binary (default ./emilia); HASHES: --hash sizes in MiB
# (default "1 64 1024 4096").  For each size:
#  - start-up: milliseconds from launch until the engine answers its first
#    command (GTP `name`, NBoard `ping 1`, UGI `ugi`), median of RUNS (3);
#  - peak RSS (VmHWM, /usr/bin/time) of: a GTP session that only starts and
#    quits; a GTP session that works (a depth-14 `reg_genmove` from a
#    midgame position, then `emilia-solve` of FFO #40, 20 empties); and
#    `emilia solve --hash N` of FFO #40;
#  - the first searches: UGI `go depth 18` from a midgame position sent
#    right after start-up (book off), then again 3 s later after
#    `uginewgame`: milliseconds each (the engine's own `time`).  The
#    tables' first-touch page faults fall into the first searches unless
#    the background pre-faulting had idle time to run;
# then the refusals of a size above the memory available.  Needs
# /usr/bin/time (Debian package `time`) and mkfifo.
set -eu
cd "$(dirname "$0")/../.."
BIN=${1:-./emilia}
HASHES=${2:-"1 64 1024 4096"}
RUNS=${RUNS:-3}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
[ -x "$BIN" ] || { echo "memory.sh: no binary $BIN" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "memory.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
FFO40='O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X'
MIDGAME='f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6'
MIDGAME10='f5 d6 c3 d3 c4 f4 f6 f3 e6 e7'

now_ms() { date +%s%N | sed 's/......$//'; }

# startup HASH MODE-ARGS FIRST-COMMAND ANSWER-PREFIX QUIT-COMMAND: ms until
# the first line starting with ANSWER-PREFIX
startup_once() {
	rm -f "$TMP/in" "$TMP/t1"
	mkfifo "$TMP/in"
	# the engine starts when the fifo has a writer (exec 3> below)
	"$BIN" --hash "$1" $2 <"$TMP/in" 2>/dev/null | {
		while IFS= read -r line; do
			case $line in "$4"*) now_ms >"$TMP/t1"; break ;; esac
		done
		cat >/dev/null
	} &
	t0=$(now_ms)
	exec 3>"$TMP/in"
	printf '%s\n' "$3" >&3
	while [ ! -s "$TMP/t1" ]; do sleep 0.002; done
	printf '%s\n' "$5" >&3
	exec 3>&-
	wait
	echo $(($(cat "$TMP/t1") - t0))
}

startup() {
	r=""
	i=0
	while [ $i -lt "$RUNS" ]; do
		r="$r $(startup_once "$@")"
		i=$((i + 1))
	done
	echo $r | tr ' ' '\n' | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}

# milliseconds of a depth-18 UGI search right after start-up, and of one 3 s later
first_search() {
	{
		printf 'ugi\nsetoption name usebook value false\nposition startpos moves %s\ngo depth 18\n' "$MIDGAME10"
		sleep 3
		printf 'uginewgame\nposition startpos moves %s\ngo depth 18\n' "$MIDGAME10"
		sleep 3
		echo quit
	} | "$BIN" --ugi --hash "$1" 2>/dev/null | awk '
		/^info .* time / { for (i = 1; i < NF; i++) if ($i == "time") t = $(i + 1) }
		/^bestmove/ { printf "%s%s", sep, t; sep = " / " }'
}

# peak RSS in MiB of a command reading stdin from a file
rss() {
	in=$1
	shift
	/usr/bin/time -f %M -o "$TMP/rss" "$@" <"$in" >/dev/null 2>&1 || true
	echo $(($(tail -1 "$TMP/rss") / 1024))
}

printf 'name\nquit\n' >"$TMP/idle"
printf 'emilia-transcript %s\nemilia-option level 14\nreg_genmove b\nemilia-setboard %s\nemilia-solve\nquit\n' \
	"$MIDGAME" "$FFO40" >"$TMP/work"
: >"$TMP/empty"

echo "binary: $BIN"
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%d MiB", $2/1024}' /proc/meminfo) memory, MemAvailable $(awk '/MemAvailable/ {printf "%d MiB", $2/1024}' /proc/meminfo)"
echo
echo "| --hash MiB | start-up GTP ms | NBoard ms | UGI ms | peak RSS idle MiB | peak RSS GTP work MiB | peak RSS solve MiB | depth 18 ms: first / 3 s later |"
echo "|---:|---:|---:|---:|---:|---:|---:|---|"
for h in $HASHES; do
	g=$(startup "$h" "--gtp" "name" "= " "quit")
	n=$(startup "$h" "--nboard" "ping 1" "pong 1" "quit")
	u=$(startup "$h" "--ugi" "ugi" "ugiok" "quit")
	ri=$(rss "$TMP/idle" "$BIN" --hash "$h")
	rw=$(rss "$TMP/work" "$BIN" --hash "$h")
	rs=$(rss "$TMP/empty" "$BIN" solve --hash "$h" --quiet "$FFO40")
	fs=$(first_search "$h")
	echo "| $h | $g | $n | $u | $ri | $rw | $rs | $fs |"
done
echo
avail=$(awk '/MemAvailable/ {print int($2/1024)}' /proc/meminfo)
above=$((avail + 1024))
[ $above -le 65536 ] || above=65536
echo "refusals (MemAvailable $avail MiB):"
for h in $above 65536; do
	echo "\$ emilia --hash $h"
	"$BIN" --hash "$h" </dev/null 2>&1 | sed 's/^/  /' || true
	echo "\$ emilia solve --hash $h FFO40"
	"$BIN" solve --hash "$h" --quiet "$FFO40" 2>&1 | sed 's/^/  /' || true
	echo "\$ GTP emilia-option hash $h"
	printf 'emilia-option hash %s\nquit\n' "$h" | "$BIN" 2>&1 | sed -n 1p | sed 's/^/  /'
done
