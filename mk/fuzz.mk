# mk/fuzz.mk - the libFuzzer harnesses (included by the Makefile).

# ---- protocols: libFuzzer harness for the GTP, NBoard and UGI parsers ----
# and for the file loaders (loadsgf contents, books, weight files).
# `make fuzz` builds tests/fuzz/fuzz_{gtp,nboard,ugi,sgf,book,weights} with clang (ASan+UBSan) and
# runs each for FUZZ_SECONDS, starting from the saved corpus and the session
# tests' inputs; new finds go to build/fuzz/corpus-NAME (`make fuzz-corpus`
# merges them, minimised, into tests/fuzz/corpus/NAME).  `make fuzz-replay`
# runs the saved corpus once through the fuzz builds; the test suite
# test_fuzz_corpus replays it with the normal compiler too.
FUZZ_CC ?= clang
FUZZ_DIR := build/fuzz
# one kernel: ARCH's, or for ARCH=dispatch this machine's best
FUZZ_ARCHFLAGS := $(if $(filter dispatch,$(ARCH)),$(if $(HOST_AVX2),$(ARCHFLAGS_avx2)),$(ARCHFLAGS_$(ARCH)))
FUZZ_SECONDS ?= 200
FUZZ_NAMES := gtp nboard ugi sgf book weights
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -pthread -Iinclude -g -O1 -fno-omit-frame-pointer \
  -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined $(FUZZ_ARCHFLAGS)
FUZZ_LIB_OBJ := $(patsubst src/%.c,$(FUZZ_DIR)/src/%.o,$(LIB_SRC) $(FRONT_SRC) $(DATA_SRC))
.PHONY: fuzz fuzz-build fuzz-replay fuzz-corpus
$(FUZZ_DIR)/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(DEPFLAGS) $(INC_FRONT) -c $< -o $@
$(FUZZ_DIR)/src/core/blobs.o: data/eval.bin book/emilia.book $(GAME_BLOBS)
$(FUZZ_DIR)/harness.o: tests/fuzz/harness.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(DEPFLAGS) $(INC_TOOLS) -c $< -o $@
$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DIR)/harness.o $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $(INC_TOOLS) -Itests/fuzz $^ -o $@ -lm
fuzz-build: $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)
fuzz: fuzz-build
	@for t in $(FUZZ_NAMES); do \
	  mkdir -p $(FUZZ_DIR)/corpus-$$t tests/fuzz/corpus/$$t; \
	  echo "fuzzing $$t for $(FUZZ_SECONDS) s"; \
	  nice $(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=20 -rss_limit_mb=3000 \
	    -max_len=2048 -dict=tests/fuzz/$$t.dict -print_final_stats=1 \
	    $(FUZZ_DIR)/corpus-$$t tests/fuzz/corpus/$$t tests/fuzz/seeds/$$t || exit 1; \
	done
fuzz-corpus: fuzz-build
	@for t in $(FUZZ_NAMES); do mkdir -p tests/fuzz/corpus/$$t; \
	  $(FUZZ_DIR)/fuzz_$$t -merge=1 -max_len=2048 tests/fuzz/corpus/$$t $(FUZZ_DIR)/corpus-$$t || exit 1; done
fuzz-replay: fuzz-build
	@for t in $(FUZZ_NAMES); do \
	  $(FUZZ_DIR)/fuzz_$$t -runs=0 tests/fuzz/corpus/$$t || exit 1; done
# their header dependencies; an object without its .d (an older Makefile's) is built again
-include $(wildcard $(FUZZ_DIR)/*.d $(FUZZ_DIR)/src/*/*.d)
$(foreach o,$(wildcard $(FUZZ_DIR)/harness.o $(FUZZ_DIR)/src/*/*.o),$(if $(wildcard $(o:.o=.d)),,$(eval $(o): FORCE)))
