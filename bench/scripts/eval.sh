#!/bin/sh
# Evaluation benchmark: evaluation speed and accuracy.
#   sh bench/scripts/eval.sh [DATA]   (DATA = the games folder, default ../shared/data/games)
# 1. evaluations per second on 65,536 positions from random games, with a
#    signature (sum of scores) that must be equal on every build;
# 2. mean absolute error of the static evaluation per phase on the held-out
#    WTHOR years 2016-2017 (exact labels: the positions at 24 empties, whose
#    theoretical score the records carry; other positions: game results);
# 3. the same error on the FFO endgame positions (exact scores) at depth 0, 2,
#    4 and 8 with `emilia eval`.
set -e
DATA=${1:-../shared/data/games}
TRAIN=${EMILIA_TRAIN:-./emilia-train}
EMILIA=${EMILIA:-./emilia}
"$TRAIN" --speed 5000000
if [ -d "$DATA/wthor" ]; then
	"$TRAIN" --data "$DATA" --eval-only data/eval.bin --solve 10 --cache build/eval-labels.cache 2>/dev/null | sed -n '/^test set/,$p'
else
	echo "no game data at $DATA: accuracy on held-out games skipped"
fi
for f in tests/data/fforum-20-39.obf tests/data/fforum-40-59.obf; do
	for d in 0 2 4 8; do
		printf '%s depth %d: ' "$(basename "$f")" "$d"
		"$EMILIA" eval "$f" --depth "$d" | tail -1
	done
done
