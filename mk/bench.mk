# mk/bench.mk - the benchmarks (included by the Makefile; their scripts and results are in
# bench/).  DATA and EVAL_THREADS: mk/data.mk.

# `make bench`: the search's node signature (./emilia bench); the heavier benchmarks have
# their own targets: perft-deep, bench-ffo, bench-ffo-threads, bench-6x6, bench-smp,
# bench-eval, bench-eval-curve, bench-book, match-strength, bench-serve.
bench: all
	./emilia bench

# Deep perft references (minutes): 8x8 mode 1 to 12, mode 2 to 11, 6x6 to 12, 4x4 complete.
perft-deep: all
	sh bench/scripts/perft-deep.sh ./emilia

# ---- evaluation and book ----
.PHONY: bench-eval bench-eval-curve bench-book
bench-eval: all
	sh bench/scripts/eval.sh $(DATA)
# The learning curve: held-out error at 20-24 empties against the share of training games
# (bench/scripts/eval-curve.sh; about 3 minutes on 2 cores after `make eval-train` has filled the label cache).
bench-eval-curve: tools
	EVAL_THREADS=$(EVAL_THREADS) sh bench/scripts/eval-curve.sh $(DATA)
bench-book: all
	sh bench/scripts/book.sh

# ---- match runner (emilia-match) --------------------------------------------
# Strength table of bench/results/match-results.md: Emilia Easy/Normal/Hard against
# gtp-rhino (Debian package grhino) levels 3 and 4, and Hard against Normal.
# XOT: the XOT openings file; MATCH_GAMES games per match (hours at 100).
XOT ?= ../shared/data/openings/xot-large.txt
MATCH_GAMES ?= 100
.PHONY: match-strength
match-strength: all
	sh bench/scripts/match-strength.sh $(XOT) $(MATCH_GAMES)

# ---- clock: time used per move against per-move and whole-game
# clocks (bench/results/clock-results.md); CLOCK_GAMES games per clock (5 s a move:
# 5 minutes a game).
CLOCK_GAMES ?= 4
.PHONY: bench-clock
bench-clock: all
	sh bench/scripts/clock.sh $(XOT) $(CLOCK_GAMES)

# ---- endgame solver ---------------------------------------------------------
# ffo: FFO #1-#39 must all be solved exactly (CI runs the fast part in
# tests/test_endgame.c).  bench-ffo: FFO #40-#49 with 1 thread.
# bench-ffo-threads: #40-#59 with 1 and 2 threads and
# the speedup.  bench-6x6: the 6x6 start solved from scratch.  Each run
# appends to bench/results/ffo-history.csv.
.PHONY: ffo bench-ffo bench-ffo-threads bench-6x6
ffo: all
	sh bench/scripts/ffo.sh 1-39 1 ./emilia --quiet
bench-ffo: all
	sh bench/scripts/ffo.sh 40-49 1 ./emilia --quiet
bench-ffo-threads: all
	sh bench/scripts/ffo-threads.sh ./emilia 40-59
bench-6x6: all
	sh bench/scripts/solve-6x6.sh ./emilia 1

# ---- search: bench signature on every build, thread speedup ----
# make bench-signature [BENCH=N]: builds portable, avx2 and debug, checks that
# `emilia bench` gives the same "Nodes searched" everywhere (and equals N).
.PHONY: bench-signature bench-smp
bench-signature:
	sh bench/scripts/check-signature.sh $(BENCH)
# bench-smp: the 2-thread time-to-depth speedup at depths 14 and 16
# (bench/results/search-results.md).
bench-smp: all
	sh bench/scripts/search-smp.sh 2 5 14
	sh bench/scripts/search-smp.sh 2 5 16

# ---- game review: the time of a full review of 60-move games at
# the default settings (bench/results/review-results.md).
.PHONY: bench-review
bench-review: all
	sh bench/scripts/review.sh ./emilia $(DATA)

# ---- memory: hash tables' start-up time and peak RSS ----
# bench-memory: start-up time and peak RSS for --hash 1, 64, 1024 and 4096, the
# first searches, and the refusal of a size above the memory available
# (bench/results/memory-results.md).
.PHONY: bench-memory
bench-memory: all
	sh bench/scripts/memory.sh ./emilia

# ---- the public API: how soon emilia_stop() ends a 1 s search (bench/results/api-results.md) ----
.PHONY: bench-api-stop
# (linked with the public libemilia.a, the library users get: both kernels in ARCH=dispatch)
$(BUILD)/bench/api-stop: bench/scripts/api-stop.c $(PUBLIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(PUBLIC_LIB) $(LDFLAGS_ALL) $(LDLIBS_ALL)
bench-api-stop: $(BUILD)/bench/api-stop
	$(BUILD)/bench/api-stop $(TARGET_MS)

# ---- online tables: emilia-serve under load (bench/results/serve-results.md) ----
# bench-serve: 500 tables of scripted clients (bench/scripts/serve-load.c, libwebsockets-dev)
# playing random legal moves at 10 moves a second per table for 20 s on the loopback; the
# latency percentiles, the server's CPU and memory, and no move lost or duplicated.
.PHONY: bench-serve
bench-serve: serve
	sh bench/scripts/serve-load.sh
