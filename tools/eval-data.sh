#!/bin/sh
# eval-data.sh DATA LABELS THREADS SECONDS - the evaluation's label files
# (make eval-data).  Runs the stages below in order with emilia-train
# --make-labels, each resuming where an earlier run stopped, until all
# are complete or SECONDS have passed (the chunk in progress is finished,
# so a run may overshoot by a few minutes).  Run it again to go on.
#
# Stages, cheapest first (a stage's solves cost about 0.25 s of CPU a game
# at 10-18 empties, 1 s at 19-20, 10 s at 21-23):
#   1. hold-out games (WTHOR 2015-2017), every game, 10-18 empties
#   2. training games (all other WTHOR years and Logistello's book; the
#      self-play games' results are already near-exact in the endgame),
#      11-14 empties
#   3. hold-out, every 16th game, 19-20 empties
#   4. hold-out, every 64th game, 21-23 empties (24 empties: the WTHOR
#      theoretical score), then 25-26 empties (about 7 s a position)
#   5. training games, 17-23 empties, backward induction: depth-6 search
#      labels by the build and the weights (data/eval.bin) of commit
#      $EVAL_LABEL_COMMIT, exported from git and built under build/ (its
#      feature set may differ from the current one; about 0.6 ms a position)
#   6. training games, 15-16 empties
#   7. training games, 17-18 empties (exact; these beat the search labels)
#   8. hold-out, every 512th game, 27-30 empties (a report row only: a
#      solve there takes 2-10 minutes on 2 cores)
set -e
DATA=${1:?usage: eval-data.sh DATA LABELS THREADS SECONDS}
LABELS=${2:-data/labels}
THREADS=${3:-2}
SECONDS_MAX=${4:-3000}
HOLDOUT=${EVAL_HOLDOUT:-2015-2017}
TRAIN=${EMILIA_TRAIN:-./emilia-train}
LABEL_COMMIT=${EVAL_LABEL_COMMIT:-ac4eaad}
LABEL_TREE=build/label-tree-$LABEL_COMMIT
start=$(date +%s)
bin=$TRAIN

stage() {
	now=$(date +%s)
	left=$((SECONDS_MAX - (now - start)))
	if [ "$left" -le 0 ]; then
		echo "eval-data: time is up; run again to go on" >&2
		exit 0
	fi
	echo "eval-data: $* ($left s left)" >&2
	"$bin" --data "$DATA" --make-labels "$LABELS" --threads "$THREADS" --time-limit "$left" "$@" \
		2>&1 | grep -v '(skipped)$' >&2 || true
}

stage --label-years "$HOLDOUT" --label-empties 10-18
stage --label-except "$HOLDOUT" --label-sources wthor,book --label-empties 11-14
stage --label-years "$HOLDOUT" --label-empties 19-20 --label-stride 16
stage --label-years "$HOLDOUT" --label-empties 21-23 --label-stride 64
stage --label-years "$HOLDOUT" --label-empties 25-26 --label-stride 64
if [ ! -x "$LABEL_TREE/emilia-train" ]; then
	echo "eval-data: building the labelling commit $LABEL_COMMIT in $LABEL_TREE" >&2
	rm -rf "$LABEL_TREE"
	mkdir -p "$LABEL_TREE"
	git archive "$LABEL_COMMIT" | tar -x -C "$LABEL_TREE"
	make -C "$LABEL_TREE" -j"$THREADS" tools >/dev/null
fi
bin=$LABEL_TREE/emilia-train
stage --label-except "$HOLDOUT" --label-sources wthor,book --label-empties 17-23 \
	--label-depth 6 --label-eval "$LABEL_TREE/data/eval.bin"
bin=$TRAIN
stage --label-except "$HOLDOUT" --label-sources wthor,book --label-empties 15-16
stage --label-except "$HOLDOUT" --label-sources wthor,book --label-empties 17-18
stage --label-years "$HOLDOUT" --label-empties 27-30 --label-stride 512
echo "eval-data: done ($(($(date +%s) - start)) s)" >&2
