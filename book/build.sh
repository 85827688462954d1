#!/bin/sh
# book/build.sh DATA [LEVEL] [THREADS] - build the default opening book, book/emilia.book.
#
# Run by `make book DATA=/path/to/games` (DATA holds wthor/*.wtb, Logistello_book_1999.wtb and
# logbook.gam.gz, as /work/shared/data/games does).  Steps:
#   1. the positions of the first PLIES plies of every game, kept when at least MIN_GAMES games
#      reach them (up to symmetry);
#   2. every leaf (best move out of the book) searched at engine level LEVEL, values negamaxed;
#   3. deviate: from the start position, every leaf within MARGIN discs of the best move, down to
#      DEVIATE_PLY plies, is added and searched, until nothing is left or MAX_POSITIONS is reached;
#   4. verify, then the new book replaces book/emilia.book (atomically) and book/BUILD.txt records
#      the parameters, the time of each step and the statistics.
# The engine binary is rebuilt afterwards by make (the book is embedded in ./emilia).
# Defaults are the shipped book's; override with the environment, e.g. BOOK_PLIES=30.
set -eu
DATA=${1:?usage: book/build.sh DATA [LEVEL] [THREADS]}
LEVEL=${2:-6}
THREADS=${3:-2}
PLIES=${BOOK_PLIES:-24}
MIN_GAMES=${BOOK_MIN_GAMES:-30}
MARGIN=${BOOK_MARGIN:-2}
DEVIATE_PLY=${BOOK_DEVIATE_PLY:-12}
MAX_POSITIONS=${BOOK_MAX_POSITIONS:-26000}
HASH=${BOOK_HASH:-16}
TOOL=./emilia-book
OUT=book/emilia.book
WORK=book/emilia.book.build
REPORT=book/BUILD.txt

for f in "$DATA"/wthor/*.wtb "$DATA"/Logistello_book_1999.wtb "$DATA"/logbook.gam.gz; do
	[ -r "$f" ] || { echo "book/build.sh: cannot read $f" >&2; exit 1; }
done
start=$(date +%s)
step() { now=$(date +%s); echo "$1: $((now - t0)) s" >> "$REPORT.tmp"; t0=$now; }
: > "$REPORT.tmp"
t0=$start
$TOOL new "$WORK" --force
$TOOL add "$WORK" --plies "$PLIES" --min-games "$MIN_GAMES" \
	"$DATA"/wthor/*.wtb "$DATA"/Logistello_book_1999.wtb "$DATA"/logbook.gam.gz
step "add games (plies $PLIES, min games $MIN_GAMES)"
$TOOL leaves "$WORK" --level "$LEVEL" --threads "$THREADS" --hash "$HASH"
step "search leaves (level $LEVEL, $THREADS threads)"
$TOOL deviate "$WORK" --level "$LEVEL" --margin "$MARGIN" --max-ply "$DEVIATE_PLY" \
	--max-positions "$MAX_POSITIONS" --threads "$THREADS" --hash "$HASH"
step "deviate (margin $MARGIN, max ply $DEVIATE_PLY, max positions $MAX_POSITIONS)"
$TOOL verify "$WORK"
step "verify"
mv "$WORK" "$OUT"
{
	echo "Default opening book (book/emilia.book), built by: make book DATA=$DATA"
	echo "built $(date -u '+%Y-%m-%d %H:%M UTC') from commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
	[ -z "${BOOK_NOTE:-}" ] || echo "note: $BOOK_NOTE"
	echo "parameters: level $LEVEL, threads $THREADS, plies $PLIES, min games $MIN_GAMES, margin $MARGIN, deviate ply $DEVIATE_PLY, max positions $MAX_POSITIONS"
	echo
	cat "$REPORT.tmp"
	echo "total: $(( $(date +%s) - start )) s"
	echo
	$TOOL stats "$OUT"
	echo
	echo "book moves from the start position:"
	$TOOL probe "$OUT"
} > "$REPORT"
rm -f "$REPORT.tmp"
cat "$REPORT"
