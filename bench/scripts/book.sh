#!/bin/sh
# bench/scripts/book.sh - load time, memory and lookup speed of the default (embedded) book and of a
# synthetic book of 10^6 positions (made once in /tmp).  `make bench-book`; figures are
# recorded in bench/results/book-results.md.
set -eu
SYNTH=${BOOK_SYNTH:-/tmp/emilia-synth-1m.book}
[ -f "$SYNTH" ] || ./emilia-book synth "$SYNTH" --positions 1000000 --quiet
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD 2>/dev/null || echo '?'), load $(cut -d' ' -f1-3 /proc/loadavg)"
./emilia-book bench --default --probes 1000000
echo
./emilia-book bench "$SYNTH" --probes 1000000
