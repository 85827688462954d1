#!/bin/sh
# Load benchmark of emilia-serve (make bench-serve; bench/results/serve-results.md):
#   sh bench/scripts/serve-load.sh [--tables N] [--rate R] [--seconds S] [--seed S]
#                                  [--server BIN] [--port N] [--tmp DIR]
# Starts BIN (default ./emilia-serve, `make serve`) on a free loopback port with a temporary
# --data, waits for the line `listening` on its stderr, runs the load client
# (bench/scripts/serve-load.c, compiled into build/serve-load when missing or older than its
# source; needs libwebsockets-dev) with TABLES tables (500) playing random legal moves at
# RATE moves a second per table (10) for SECONDS (20), samples the server's CPU
# (utime+stime of /proc/PID/stat, as a % of one core) every second and its memory (VmHWM,
# VmRSS of /proc/PID/status), stops it with SIGTERM and prints one summary with the client's
# report.  The temporary --data is made in DIR (default $TMPDIR, else /tmp): the server writes
# each busy table's file once a second there, so its file system matters (/dev/shm: tmpfs).
# The whole run ends within SECONDS + 30 s.  Exit status: the client's (0: no move
# lost or duplicated and no error), 2 when the server does not start.
set -eu
cd "$(dirname "$0")/../.."
TABLES=500 RATE=10 SECONDS_=20 SEED=1 BIN=./emilia-serve PORT=
while [ $# -gt 0 ]; do
	case $1 in
	--tables) TABLES=$2; shift 2 ;;
	--rate) RATE=$2; shift 2 ;;
	--seconds) SECONDS_=$2; shift 2 ;;
	--seed) SEED=$2; shift 2 ;;
	--server) BIN=$2; shift 2 ;;
	--port) PORT=$2; shift 2 ;;
	--tmp) TMPDIR=$2; export TMPDIR; shift 2 ;;
	*) echo "serve-load.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
case $SECONDS_ in ''|*[!0-9]*) echo "serve-load.sh: --seconds wants whole seconds" >&2; exit 2 ;; esac
[ -x "$BIN" ] || { echo "serve-load.sh: no server $BIN (make serve)" >&2; exit 2; }
START=$(date +%s)
DEADLINE=$((START + SECONDS_ + 30))
left() { echo $((DEADLINE - $(date +%s))); }

CLIENT=build/serve-load
if [ ! -x $CLIENT ] || [ -n "$(find bench/scripts/serve-load.c -newer $CLIENT)" ]; then
	mkdir -p build
	pkg-config --exists libwebsockets ||
		{ echo "serve-load.sh: needs libwebsockets-dev (apt-get install libwebsockets-dev)" >&2; exit 2; }
	# shellcheck disable=SC2046
	${CC:-cc} -O2 -Wall -Wextra -o $CLIENT bench/scripts/serve-load.c \
		$(pkg-config --cflags --libs libwebsockets)
fi

# as many descriptors as allowed: the server holds 2 per table
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

TMP=$(mktemp -d)
SPID=
cleanup() {
	if [ -n "$SPID" ] && kill -0 "$SPID" 2>/dev/null; then
		kill -TERM "$SPID" 2>/dev/null || true
		sleep 1
		kill -KILL "$SPID" 2>/dev/null || true
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# a free loopback port: ask the kernel (bind to 0) unless --port
if [ -z "$PORT" ]; then
	PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
		echo $((20000 + $$ % 20000)))
fi
mkdir -p "$TMP/data"
MAXT=$((TABLES * 2 + 100))
"$BIN" --port "$PORT" --bind 127.0.0.1 --data "$TMP/data" --grace 30 --idle 300 \
	--max-tables "$MAXT" --max-connections "$((TABLES * 4 + 100))" 2>"$TMP/server.err" &
SPID=$!
i=0
while ! grep -q listening "$TMP/server.err" 2>/dev/null; do
	if ! kill -0 "$SPID" 2>/dev/null || [ $i -ge 100 ]; then
		echo "serve-load.sh: $BIN did not start (no 'listening' in 10 s):" >&2
		cat "$TMP/server.err" >&2
		exit 2
	fi
	sleep 0.1
	i=$((i + 1))
done

HZ=$(getconf CLK_TCK)
cpu_ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$SPID/stat"; }
status_kb() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$SPID/status"; }
now_ns() { date +%s%N; }

T0=$(now_ns) C0=$(cpu_ticks)
rc=0
timeout -k 2 "$((SECONDS_ + 15))" $CLIENT --port "$PORT" --tables "$TABLES" --rate "$RATE" \
	--seconds "$SECONDS_" --seed "$SEED" >"$TMP/client.out" 2>"$TMP/client.err" &
CPID=$!
# one sample a second: the peak 1-second CPU and the RSS over the run
PEAK=0 RSSMAX=0
TP=$T0 CP=$C0
while kill -0 "$CPID" 2>/dev/null; do
	sleep 1
	kill -0 "$SPID" 2>/dev/null || break
	TN=$(now_ns) CN=$(cpu_ticks)
	P=$(awk -v c=$((CN - CP)) -v t=$((TN - TP)) -v hz="$HZ" 'BEGIN { printf "%d", c / hz / (t / 1e9) * 100 }')
	[ "$P" -gt "$PEAK" ] && PEAK=$P
	R=$(status_kb VmRSS); [ "${R:-0}" -gt "$RSSMAX" ] && RSSMAX=$R
	TP=$TN CP=$CN
	[ "$(left)" -gt 8 ] || { kill -TERM "$CPID" 2>/dev/null || true; break; }
done
wait "$CPID" || rc=$?
T1=$(now_ns)
if kill -0 "$SPID" 2>/dev/null; then
	C1=$(cpu_ticks) HWM=$(status_kb VmHWM) RSS=$(status_kb VmRSS)
	[ "${RSS:-0}" -gt "$RSSMAX" ] && RSSMAX=$RSS
	THREADS=$(status_kb Threads)
	kill -TERM "$SPID"
	i=0
	while kill -0 "$SPID" 2>/dev/null && [ $i -lt 50 ] && [ "$(left)" -gt 2 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$SPID" 2>/dev/null; then
		STOP="did not stop within 5 s of SIGTERM (killed)"
		kill -KILL "$SPID" 2>/dev/null || true
	else
		wait "$SPID" && STOP="stopped on SIGTERM (exit 0)" || STOP="stopped on SIGTERM (exit $?)"
		STOP="$STOP in $((i * 100)) ms"
	fi
	SPID=
	CPU=$(awk -v c=$((C1 - C0)) -v t=$((T1 - T0)) -v hz="$HZ" 'BEGIN { printf "%.1f", c / hz / (t / 1e9) * 100 }')
	CPUS=$(awk -v c=$((C1 - C0)) -v hz="$HZ" 'BEGIN { printf "%.2f", c / hz }')
else
	echo "serve-load.sh: the server died during the run:" >&2
	tail -20 "$TMP/server.err" >&2
	[ $rc -ne 0 ] || rc=1
	CPU='?' CPUS='?' HWM='?' RSS='?' THREADS='?' STOP="died during the run"
fi

echo "== emilia-serve load: $TABLES tables, $RATE moves/s per table, $SECONDS_ s, loopback port $PORT"
echo "server: $BIN, --data in $(df -T "$TMP" 2>/dev/null | awk 'NR == 2 { print $1 " (" $2 ")" }'), $(nproc) cores here, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "server CPU: $CPU% of one core on average over the client's run ($CPUS s of CPU in $(awk -v t=$((T1 - T0)) 'BEGIN { printf "%.1f", t / 1e9 }') s), peak 1-s sample $PEAK%"
echo "server memory: VmHWM $HWM kB, VmRSS $RSS kB at the end (max sampled $RSSMAX kB), $THREADS threads"
echo "server: $STOP"
cat "$TMP/client.out"
if [ -s "$TMP/client.err" ]; then
	echo "client stderr ($(wc -l <"$TMP/client.err") lines, first 20):"
	head -20 "$TMP/client.err"
fi
if grep -qiv listening "$TMP/server.err" 2>/dev/null; then
	echo "server stderr (last 10 lines):"
	tail -10 "$TMP/server.err"
fi
[ $rc -eq 124 ] && echo "serve-load.sh: the client ran past its time limit" >&2
echo "exit: $rc"
exit $rc
