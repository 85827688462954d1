#!/bin/sh
# tests/mpi.sh - emilia-mpi against the single-process commands (make test-mpi).
#
# Needs mpirun (Debian: openmpi-bin) and ./emilia-mpi (make mpi).  Every job
# runs under `mpirun -np 3` (a master and two workers) and its output must
# be byte-identical to the single-process command's:
#   solve        20 FFO positions (#1-#20), exact and WLD, against `emilia solve --results`
#   label        exact and depth-4 labels of 70 WTHOR games (tests/data/mpi), against
#                `emilia-train --make-labels`
#   book-expand  a deviation run from a 40-game book, against `emilia-book deviate`
# and then: a job killed with SIGKILL (master and workers) and resumed; a worker that
# fails a chunk (EMILIA_MPI_FAIL_RANK) whose chunk is retried on the other worker; a
# malformed input line; missing, corrupt, foreign and existing checkpoints.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
EMILIA=${EMILIA_BIN:-$ROOT/emilia}
TOOLS=${EMILIA_TOOLS:-$ROOT}
MPI=${EMILIA_MPI:-$ROOT/emilia-mpi}
DATA=$ROOT/tests/data
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
# no single-copy (CMA) transfers between ranks: containers often forbid the ptrace they need
export OMPI_MCA_btl_vader_single_copy_mechanism=none
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
run_mpi() { mpirun --allow-run-as-root --oversubscribe -np "${NP:-3}" "$MPI" "$@"; }
same() { # same FILE1 FILE2 WHAT
	if cmp -s "$1" "$2"; then pass "$3"; else fail "$3 ($1 and $2 differ)"; fi
}

command -v mpirun >/dev/null || { echo "tests/mpi.sh: mpirun is missing (apt-get install openmpi-bin)"; exit 1; }
[ -x "$MPI" ] || { echo "tests/mpi.sh: $MPI is missing (make mpi)"; exit 1; }

# ---- solve: 20 FFO positions -------------------------------------------------
cat "$DATA/fforum-1-19.obf" > "$T/ffo20.obf"
head -1 "$DATA/fforum-20-39.obf" >> "$T/ffo20.obf"
[ "$(grep -c . "$T/ffo20.obf")" = 20 ] || fail "the FFO fixture should hold 20 positions"
"$EMILIA" solve "$T/ffo20.obf" --quiet --results "$T/single.obf" > "$T/single.txt" || fail "emilia solve"
run_mpi solve "$T/ffo20.obf" --results "$T/mpi.obf" --quiet > "$T/mpi.txt" 2> "$T/mpi.err" || fail "emilia-mpi solve (exit status)"
[ "$(grep -c . "$T/mpi.obf")" = 20 ] || fail "emilia-mpi solve wrote $(grep -c . "$T/mpi.obf") results, not 20"
same "$T/single.obf" "$T/mpi.obf" "solve: 20 FFO positions as emilia solve"
grep -q "^totals: positions 20, wrong 0, malformed 0, failed 0" "$T/mpi.txt" && pass "solve: totals line" \
	|| fail "solve: totals: $(grep totals "$T/mpi.txt")"
[ ! -e "$T/mpi.obf.ckpt" ] && pass "solve: checkpoint removed after a complete run" || fail "solve: checkpoint left behind"
"$EMILIA" solve "$T/ffo20.obf" --quiet --wld --results "$T/single-wld.obf" > /dev/null || fail "emilia solve --wld"
NP=2 run_mpi solve "$T/ffo20.obf" --wld --threads 2 --results "$T/mpi-wld.obf" --quiet > /dev/null 2>&1 \
	|| fail "emilia-mpi solve --wld"
same "$T/single-wld.obf" "$T/mpi-wld.obf" "solve --wld with 1 worker of 2 threads as emilia solve --wld"

# ---- label ---------------------------------------------------------------------
mkdir -p "$T/games/wthor"
cp "$DATA/mpi/WTH_2005.wtb" "$DATA/mpi/WTH_2006.wtb" "$T/games/wthor/"
"$TOOLS/emilia-train" --data "$T/games" --make-labels "$T/lab-single" --label-empties 14-17 --threads 2 \
	> /dev/null 2>&1 || fail "emilia-train --make-labels"
run_mpi label --data "$T/games" --make-labels "$T/lab-mpi" --label-empties 14-17 --quiet > /dev/null 2> "$T/label.err" \
	|| fail "emilia-mpi label (exit status)"
n=0
for f in "$T"/lab-single/*.lab.gz; do
	n=$((n + 1))
	same "$f" "$T/lab-mpi/$(basename "$f")" "label: exact $(basename "$f")"
done
[ "$n" = 2 ] || fail "label: expected 2 label files, found $n"
"$TOOLS/emilia-train" --data "$T/games" --make-labels "$T/lab-d4" --label-empties 19-24 --label-depth 4 \
	> /dev/null 2>&1 || fail "emilia-train --label-depth 4"
run_mpi label --data "$T/games" --make-labels "$T/lab-d4-mpi" --label-empties 19-24 --label-depth 4 --quiet \
	> /dev/null 2>&1 || fail "emilia-mpi label --label-depth 4"
for f in "$T"/lab-d4/*.lab.gz; do
	same "$f" "$T/lab-d4-mpi/$(basename "$f")" "label: depth 4 $(basename "$f")"
done

# ---- book-expand -----------------------------------------------------------------
"$TOOLS/emilia-book" new "$T/b0.book" > /dev/null 2>&1
"$TOOLS/emilia-book" add "$T/b0.book" --plies 10 "$DATA/mpi/WTH_2005.wtb" > /dev/null 2>&1
cp "$T/b0.book" "$T/b-single.book"
cp "$T/b0.book" "$T/b-mpi.book"
"$TOOLS/emilia-book" deviate "$T/b-single.book" --level 6 --margin 4 --max-ply 14 --max-positions 300 --quiet \
	> /dev/null || fail "emilia-book deviate"
run_mpi book-expand "$T/b-mpi.book" --level 6 --margin 4 --max-ply 14 --max-positions 300 --quiet > "$T/book.txt" \
	2>&1 || fail "emilia-mpi book-expand (exit status)"
same "$T/b-single.book" "$T/b-mpi.book" "book-expand: the book as emilia-book deviate makes it"
cmp -s "$T/b0.book" "$T/b-mpi.book" && fail "book-expand: the book did not change"
cp "$T/b0.book" "$T/l-single.book"
cp "$T/b0.book" "$T/l-mpi.book"
"$TOOLS/emilia-book" leaves "$T/l-single.book" --level 5 --quiet > /dev/null || fail "emilia-book leaves"
run_mpi book-expand "$T/l-mpi.book" --leaves --level 5 --quiet > /dev/null 2>&1 || fail "emilia-mpi book-expand --leaves"
same "$T/l-single.book" "$T/l-mpi.book" "book-expand --leaves as emilia-book leaves"

# ---- kill and resume ------------------------------------------------------------
# SIGKILL mpirun and every rank once the checkpoint holds some finished work.
mpirun --allow-run-as-root --oversubscribe -np 3 "$MPI" label --data "$T/games" --make-labels "$T/lab-kill" \
	--label-empties 14-17 --quiet > /dev/null 2>&1 &
job=$!
i=0
while [ "$i" -lt 300 ]; do
	s=$(stat -c %s "$T/lab-kill/mpi.ckpt" 2>/dev/null || echo 0)
	[ "$s" -ge $((256 + 40 * 30)) ] && break
	sleep 0.05
	i=$((i + 1))
done
kids=$(pgrep -P "$job" | tr '\n' ' ')
kill -9 "$job" $kids 2>/dev/null
wait "$job" 2>/dev/null
[ -e "$T/lab-kill/mpi.ckpt" ] && pass "kill: the job was killed with a checkpoint" || fail "kill: no checkpoint after the kill"
run_mpi label --data "$T/games" --make-labels "$T/lab-kill" --label-empties 14-17 --resume > /dev/null 2> "$T/resume.err" \
	|| fail "resume (exit status)"
grep -q "resuming from .*: [1-9][0-9]* finished items" "$T/resume.err" && pass "resume: used the finished items" \
	|| fail "resume: $(head -3 "$T/resume.err")"
for f in "$T"/lab-single/*.lab.gz; do
	same "$f" "$T/lab-kill/$(basename "$f")" "resume: $(basename "$f") as an uninterrupted run"
done

# ---- a worker that fails: its chunk is retried on the other rank -----------------
EMILIA_MPI_FAIL_RANK=2 run_mpi solve "$T/ffo20.obf" --results "$T/retry.obf" --quiet > /dev/null 2> "$T/retry.err" \
	|| fail "retry: exit status"
grep -q "rank 2 failed a chunk of .* items (failure injected.*retrying .* on another rank" "$T/retry.err" \
	&& pass "retry: the failure is logged" || fail "retry: log: $(cat "$T/retry.err")"
same "$T/single.obf" "$T/retry.obf" "retry: results as emilia solve"

# ---- bad input ------------------------------------------------------------------------
{ head -2 "$DATA/fforum-1-19.obf"; echo "this is not a board"; sed -n 3,4p "$DATA/fforum-1-19.obf"; } > "$T/bad.obf"
"$EMILIA" solve "$T/bad.obf" --quiet --results "$T/bad-single.obf" > /dev/null 2>&1
run_mpi solve "$T/bad.obf" --results "$T/bad-mpi.obf" --quiet > "$T/bad.txt" 2> "$T/bad.err"
rc=$?
[ "$rc" = 1 ] && pass "bad line: exit status 1" || fail "bad line: exit status $rc"
grep -q "bad.obf:3: .*(line skipped)" "$T/bad.err" && pass "bad line: reported with its line number" \
	|| fail "bad line: stderr: $(cat "$T/bad.err")"
same "$T/bad-single.obf" "$T/bad-mpi.obf" "bad line: the other 4 positions as emilia solve"
[ "$(grep -c . "$T/bad-mpi.obf")" = 4 ] || fail "bad line: $(grep -c . "$T/bad-mpi.obf") results, not 4"

# ---- checkpoints: missing, corrupt, another job's, existing ------------------------------
run_mpi solve "$T/ffo20.obf" --results "$T/none.obf" --resume --quiet > /dev/null 2> "$T/ck1.err"
rc=$?
[ "$rc" != 0 ] && grep -q "cannot resume: no checkpoint .*none.obf.ckpt" "$T/ck1.err" && [ ! -e "$T/none.obf" ] \
	&& pass "checkpoint: a missing one is refused" || fail "checkpoint missing: rc $rc, $(cat "$T/ck1.err")"
head -3 "$DATA/fforum-1-19.obf" > "$T/three.obf"
"$EMILIA" solve "$T/three.obf" --quiet --results "$T/three-single.obf" > /dev/null
run_mpi solve "$T/three.obf" --results "$T/three.res" --keep-checkpoint --quiet > /dev/null 2>&1
size=$(stat -c %s "$T/three.res.ckpt" 2>/dev/null || echo 0)
[ "$size" = $((256 + 3 * 40)) ] && pass "checkpoint: --keep-checkpoint keeps 3 records" \
	|| fail "checkpoint: size $size after 3 positions"
run_mpi solve "$T/three.obf" --results "$T/three.res" --quiet > /dev/null 2> "$T/ck3.err"
rc=$?
[ "$rc" != 0 ] && grep -q "exists: add --resume" "$T/ck3.err" && pass "checkpoint: an existing one is not overwritten" \
	|| fail "checkpoint exists: rc $rc, $(cat "$T/ck3.err")"
run_mpi label --data "$T/games" --make-labels "$T/lab-x" --label-empties 14-14 --checkpoint "$T/three.res.ckpt" \
	--resume --quiet > /dev/null 2> "$T/ck4.err"
rc=$?
[ "$rc" != 0 ] && grep -q "belongs to another job ('solve 8x8 normal exact', not 'label exact')" "$T/ck4.err" \
	&& pass "checkpoint: another job's is refused" || fail "checkpoint of another job: rc $rc, $(cat "$T/ck4.err")"
cp "$T/three.res.ckpt" "$T/good.ckpt"
rm -f "$T/three.res"
run_mpi solve "$T/three.obf" --results "$T/three.res" --resume --quiet > /dev/null 2> "$T/ck5.err"
grep -q "resuming from .*: 3 finished items" "$T/ck5.err" && pass "checkpoint: resumed with 3 finished items" \
	|| fail "resume: $(cat "$T/ck5.err")"
same "$T/three-single.obf" "$T/three.res" "checkpoint: the results from the checkpoint as emilia solve"
# a record with one byte changed
cp "$T/good.ckpt" "$T/bad-record.ckpt"
printf 'X' | dd of="$T/bad-record.ckpt" bs=1 seek=$((256 + 40 + 10)) conv=notrunc 2>/dev/null
run_mpi solve "$T/three.obf" --results "$T/x.res" --checkpoint "$T/bad-record.ckpt" --resume --quiet > /dev/null \
	2> "$T/ck6.err"
rc=$?
[ "$rc" != 0 ] && grep -q "bad-record.ckpt is corrupt: record 2 (byte 296) fails its check" "$T/ck6.err" \
	&& [ ! -e "$T/x.res" ] && pass "checkpoint: a corrupt record is refused" || fail "corrupt record: rc $rc, $(cat "$T/ck6.err")"
# a damaged header
cp "$T/good.ckpt" "$T/bad-header.ckpt"
printf 'X' | dd of="$T/bad-header.ckpt" bs=1 seek=30 conv=notrunc 2>/dev/null
run_mpi solve "$T/three.obf" --results "$T/x.res" --checkpoint "$T/bad-header.ckpt" --resume --quiet > /dev/null \
	2> "$T/ck7.err"
rc=$?
[ "$rc" != 0 ] && grep -q "bad-header.ckpt is not an emilia-mpi checkpoint, or its header is damaged" "$T/ck7.err" \
	&& pass "checkpoint: a damaged header is refused" || fail "damaged header: rc $rc, $(cat "$T/ck7.err")"
# not a checkpoint at all
run_mpi solve "$T/three.obf" --results "$T/x.res" --checkpoint "$DATA/fforum-1-19.obf" --resume --quiet > /dev/null \
	2> "$T/ck8.err"
rc=$?
[ "$rc" != 0 ] && grep -q "is not an emilia-mpi checkpoint" "$T/ck8.err" && pass "checkpoint: another file is refused" \
	|| fail "checkpoint of another kind: rc $rc, $(cat "$T/ck8.err")"
# an incomplete last record (killed inside a write): cut off, that item done again
cp "$T/good.ckpt" "$T/torn.ckpt"
truncate -s $((256 + 2 * 40 + 13)) "$T/torn.ckpt"
rm -f "$T/three.res"
run_mpi solve "$T/three.obf" --results "$T/three.res" --checkpoint "$T/torn.ckpt" --resume --quiet > /dev/null \
	2> "$T/ck9.err" || fail "torn checkpoint: exit status"
grep -q "ends inside a record" "$T/ck9.err" && grep -q "resuming from .*: 2 finished items" "$T/ck9.err" \
	&& pass "checkpoint: an incomplete last record is cut off" || fail "torn checkpoint: $(cat "$T/ck9.err")"
same "$T/three-single.obf" "$T/three.res" "checkpoint: results after the torn record as emilia solve"

echo "tests/mpi.sh: $fails failure(s)"
[ "$fails" = 0 ]
