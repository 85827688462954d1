#!/bin/sh
# The evaluation's learning curve: held-out error at 20-24 empties against the
# amount of training data.
#   sh bench/scripts/eval-curve.sh [DATA] [FRACTIONS]
# DATA: the games folder (default ../shared/data/games); FRACTIONS: the
# shares of the training games to fit on (default "0.0625 0.125 0.25 0.5 1").
# For each share the phases 16-20 and 21-25 are fitted from zero on that
# share of the games (emilia-train --fraction, every source: WTHOR,
# Logistello, self-play; the hold-out years 2015-2017 stay whole), with the
# options of `make eval-train`; the other phases keep data/eval.bin.  Prints
# the held-out static error at 20, 22, 24 and 20-24 empties (6,907 exact
# positions), then a fit err(N) = a + b * N^-c over the shares, whose a is the
# error this feature set would reach with unlimited data of the same kind.
# About 30-45 s a share on 2 cores with the label cache of `make eval-train`.
# EMILIA_TRAIN selects another trainer (a scratch build with other features,
# then EVAL_INIT= empty: data/eval.bin does not fit it, and the other phases
# stay zero, which does not change the figures at 20-24 empties); EVAL_PHASES
# the phases to refit (default 3-4).
set -e
DATA=${1:-../shared/data/games}
FRACTIONS=${2:-0.0625 0.125 0.25 0.5 1}
TRAIN=${EMILIA_TRAIN:-./emilia-train}
PHASES=${EVAL_PHASES:-3-4}
INIT=${EVAL_INIT-data/eval.bin}
[ -d "$DATA/wthor" ] || { echo "eval-curve: no game data at $DATA" >&2; exit 1; }
tmp=$(mktemp -d /tmp/emilia-curve-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
for f in $FRACTIONS; do
	"$TRAIN" --data "$DATA" --selfplay data/selfplay --threads "${EVAL_THREADS:-2}" --solve 10 \
		--max-solve 2000000 --cache build/eval-labels.cache --labels data/labels --drop-after 15-23 \
		--epochs 300 --phase-overlap 2 --huber 3 --phases "$PHASES" ${INIT:+--init "$INIT"} \
		--fraction "$f" --out "$tmp/w.bin" --report "$tmp/report.txt" > "$tmp/log" 2>&1 ||
		{ tail -5 "$tmp/log" >&2; exit 1; }
	awk -v f="$f" '/exactly labelled positions: mean absolute error by empties/ { on = 1; next }
		on && $1 ~ /^(20|21|22|23|24)$/ { n += $2; s += $2 * $4; e[$1] = $4 }
		END { printf "%s %.3f %s %s %s\n", f, s / n, e[20], e[22], e[24] }' "$tmp/report.txt" >> "$tmp/curve"
done
echo "share  20-24   20     22     24"
awk '{ printf "%-6s %.3f  %s  %s  %s\n", $1, $2, $3, $4, $5 }' "$tmp/curve"
python3 - "$tmp/curve" <<'EOF'
import sys
rows = [l.split() for l in open(sys.argv[1])]
n = [float(r[0]) for r in rows]
e = [float(r[1]) for r in rows]
if len(n) < 4:
    print("fewer than 4 shares: no fit")
    sys.exit(0)
best = None
for ci in range(1, 601):  # c by grid, a and b by least squares
    c = ci / 200
    x = [v ** -c for v in n]
    mx, me = sum(x) / len(x), sum(e) / len(e)
    b = sum((xi - mx) * (ei - me) for xi, ei in zip(x, e)) / sum((xi - mx) ** 2 for xi in x)
    a = me - b * mx
    r = sum((a + b * xi - ei) ** 2 for xi, ei in zip(x, e))
    if best is None or r < best[0]:
        best = (r, a, b, c)
r, a, b, c = best
print("fit: err = %.3f + %.3f * share^-%.3f (rms residual %.3f)" % (a, b, c, (r / len(n)) ** 0.5))
print("predicted: twice the games %.3f, 4 times %.3f, 16 times %.3f, unlimited %.3f"
      % (a + b * 2 ** -c, a + b * 4 ** -c, a + b * 16 ** -c, a))
EOF
