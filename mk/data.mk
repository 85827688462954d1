# mk/data.mk - making the data (included by the Makefile): the evaluation's label files and
# self-play games, the training of the weights, the other games' weights, the default book.

EVAL_DATA ?= ../shared/data/games
DATA ?= $(EVAL_DATA)
EVAL_THREADS ?= 2
# `make eval-data`: the label files in data/labels (tools/eval-data.sh: solved game positions,
# resumable; EVAL_SECONDS bounds one run, run it again to go on).
EVAL_SECONDS ?= 3000
.PHONY: eval-data
eval-data: tools
	nice sh tools/eval-data.sh $(DATA) data/labels $(EVAL_THREADS) $(EVAL_SECONDS)
# `make eval-selfplay`: Emilia's self-play games in data/selfplay (tools/eval-selfplay.sh: chunks
# SELFPLAY_FIRST..SELFPLAY_LAST of 1000 openings (XOT, then random from chunk 11), 2000 games and
# about 4 minutes each;
# chunks that exist are kept).  OPENINGS: the XOT file of ../shared/data/openings.
OPENINGS ?= $(DATA)/../openings/xot-large.txt
SELFPLAY_FIRST ?= 0
SELFPLAY_LAST ?= 40
.PHONY: eval-selfplay
eval-selfplay: all
	nice sh tools/eval-selfplay.sh $(OPENINGS) data/selfplay $(SELFPLAY_FIRST) $(SELFPLAY_LAST)
.PHONY: eval-train bench-eval bench-eval-curve
# Full training run (see README, "Training the evaluation"): writes data/eval.bin and bench/results/eval-train.txt.
eval-train: tools
	nice ./emilia-train --data $(DATA) --selfplay data/selfplay --out data/eval.bin --threads $(EVAL_THREADS) \
	  --solve 10 --max-solve 2000000 --cache build/eval-labels.cache --report bench/results/eval-train.txt \
	  --labels data/labels --drop-after 15-23 --check-depths 4,8 --check-max 300 --epochs 300 \
	  --phase-overlap 2 --huber 3
	@$(MAKE) --no-print-directory all
# `make eval-games`: the pattern evaluations of 8x8 Anti, 6x6 and 6x6 Anti from generated games
# (no archives needed; docs/evaluation.md), about 13, 8 and 12 minutes on 2 cores.  Writes
# data/eval-{anti,6x6,6x6-anti}.bin.gz and their reports bench/results/eval-{anti,6x6,6x6-anti}.txt.
.PHONY: eval-games
eval-games: tools
	nice ./emilia-train --game-train anti --games 24000 --game-exact 16 --game-max-search 60000 \
	  --threads $(EVAL_THREADS) --out build/eval-anti.bin --report bench/results/eval-anti.txt
	nice ./emilia-train --game-train 6x6 --games 30000 --game-exact 18 --game-max-search 1000000 \
	  --threads $(EVAL_THREADS) --out build/eval-6x6.bin --report bench/results/eval-6x6.txt
	nice ./emilia-train --game-train 6x6-anti --games 30000 --game-exact 16 --game-max-search 1000000 \
	  --threads $(EVAL_THREADS) --out build/eval-6x6-anti.bin --report bench/results/eval-6x6-anti.txt
	for g in anti 6x6 6x6-anti; do gzip -9nc build/eval-$$g.bin > data/eval-$$g.bin.gz || exit 1; done
	@$(MAKE) --no-print-directory all

# Default book (book/emilia.book, built into the programs by blobs.c).
BOOK_DATA ?= $(if $(DATA),$(DATA),../shared/data/games)
BOOK_LEVEL ?= 6
BOOK_THREADS ?= 2
.PHONY: book
# Default book from the WTHOR games plus engine searches (see docs/protocols.md, "Opening book").
book: tools
	nice sh book/build.sh $(BOOK_DATA) $(BOOK_LEVEL) $(BOOK_THREADS)
	@$(MAKE) --no-print-directory all
