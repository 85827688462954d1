# web/web.mk - Emilia in a browser (docs/web.md), included by the Makefile.
#
#   make web        build/web/: index.html, its CSS and JavaScript, emilia.js and emilia.wasm
#                   (the library compiled by Emscripten, Debian's package `emscripten`), and
#                   data/*.gz, the built-in weights and book, gzipped, fetched when a game
#                   needs them.  Any static web server can serve the folder.
#   make test-web   the page in headless Chromium driven by Selenium (tests/web/test_web.py)
#   make bench-web  time to a first move on a cold load; the wasm engine's node rate against
#                   the native build (bench/scripts/web.sh, bench/results/web-results.md)
#
# The engine's sources are LIB_SRC and FRONT_SRC (the Makefile's); the built-in data of DATA_SRC is
# replaced by web/blobs.c, which the page fills.  WEB_SIMD=1 compiles with WebAssembly SIMD
# (-msimd128): no faster (bench/results/web-results.md), and older browsers lack it, so it is off.

EMCC ?= emcc
# Debian's emcc runs node scripts that need Debian's node-acorn (/usr/share/nodejs); a
# node from elsewhere does not look there by itself
WEB_ENV := NODE_PATH=/usr/share/nodejs$${NODE_PATH:+:$$NODE_PATH}
WEB_SIMD ?= 0
web_comma := ,
web_space := $(subst ,, )
WEB_OUT := build/web
WEB_OBJ := build/wasm$(if $(filter 1,$(WEB_SIMD)),-simd)
WEB_INC := -Iinclude $(addprefix -I,$(sort $(dir $(LIB_SRC) $(FRONT_SRC) $(DATA_SRC))))
WEB_CFLAGS := -std=c11 -D_GNU_SOURCE -O3 -DNDEBUG $(if $(filter 1,$(WEB_SIMD)),-msimd128) \
  -Wall -Wextra -Wno-unused-parameter $(WEB_INC)
# the core library and the front ends' code (the review, `emilia bench`): the linker keeps what
# the exported functions reach
WEB_C := $(LIB_SRC) $(FRONT_SRC) web/blobs.c web/glue.c web/mman.c
WEB_O := $(addprefix $(WEB_OBJ)/,$(notdir $(WEB_C:.c=.o)))
WEB_HEADERS := include/emilia.h $(wildcard $(addsuffix *.h,$(sort $(dir $(LIB_SRC) $(FRONT_SRC)))))
# what web/wasm.js calls
WEB_EXPORTS := malloc free emilia_destroy emilia_new_game emilia_set_transcript emilia_set_obf \
  emilia_get_obf emilia_get_transcript emilia_side_to_move emilia_is_game_over emilia_discs \
  emilia_legal_moves emilia_play emilia_undo emilia_last_error emilia_version \
  web_create web_error web_search web_review web_bench web_blob_alloc
WEB_LDFLAGS := -O3 -sMODULARIZE=1 -sEXPORT_NAME=EmiliaWasm -sENVIRONMENT=web,worker,node \
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=33554432 \
  -sEXPORTED_FUNCTIONS=$(subst $(web_space),$(web_comma),$(strip $(WEB_EXPORTS:%=_%))) \
  -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8
# the page: static files copied as they are, and the data each game fetches
WEB_STATIC := index.html style.css wasm.js game.js engine.js worker.js ui.js review.js online.js
WEB_DATA := $(WEB_OUT)/data/eval.bin.gz $(WEB_OUT)/data/book.bin.gz $(WEB_OUT)/data/eval-anti.bin.gz \
  $(WEB_OUT)/data/eval-6x6.bin.gz

.PHONY: web test-web bench-web web-check
web: $(WEB_OUT)/emilia.js $(WEB_STATIC:%=$(WEB_OUT)/%) $(WEB_DATA)
	@echo "web: $(WEB_OUT)/ (serve it: python3 -m http.server -d $(WEB_OUT) 8000)"

web-check:
	@command -v $(EMCC) >/dev/null || { echo "make web needs Emscripten: sudo apt-get install emscripten" >&2; exit 1; }

$(WEB_OBJ)/%.o: $(WEB_HEADERS) | web-check
	@mkdir -p $(@D)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) -c $(filter %/$*.c,$(WEB_C)) -o $@
# each object from its source (the sources' folders may change: LIB_SRC says where they are)
$(foreach c,$(WEB_C),$(eval $(WEB_OBJ)/$(notdir $(c:.c=.o)): $(c)))

$(WEB_OUT)/emilia.js: $(WEB_O) web/web.mk
	@mkdir -p $(@D)
	$(WEB_ENV) $(EMCC) $(WEB_LDFLAGS) $(WEB_O) -o $@

$(WEB_OUT)/%: web/%
	@mkdir -p $(@D)
	cp $< $@

$(WEB_OUT)/data/eval.bin.gz: data/eval.bin
	@mkdir -p $(@D)
	gzip -9nc $< > $@.tmp && mv $@.tmp $@
$(WEB_OUT)/data/book.bin.gz: book/emilia.book
	@mkdir -p $(@D)
	gzip -9nc $< > $@.tmp && mv $@.tmp $@
$(WEB_OUT)/data/%.bin.gz: data/%.bin.gz
	@mkdir -p $(@D)
	cp $< $@

# ---- the browser tests: tests/web/test_web.py against the native library and emilia ----
# Debian's python3-selenium is /usr/bin/python3's (another python3 on PATH may not see it).
WEB_PYTHON ?= $(if $(wildcard /usr/bin/python3),/usr/bin/python3,python3)
WEB_SHOTS := build/web-shots
test-web: web lib $(BUILD)/emilia
	@$(WEB_PYTHON) -c 'import selenium' 2>/dev/null && command -v chromium >/dev/null && \
	  command -v chromedriver >/dev/null || { echo "make test-web needs Chromium, its driver and Selenium:" \
	  "sudo apt-get install chromium chromium-driver python3-selenium" >&2; exit 1; }
	@mkdir -p $(WEB_SHOTS)
	EMILIA_WEB=$(CURDIR)/$(WEB_OUT) EMILIA_LIB=$(CURDIR)/$(LIBOUT)/libemilia.so.$(SOMAJOR) \
	  EMILIA_BIN=$(CURDIR)/$(BUILD)/emilia EMILIA_SHOTS=$(CURDIR)/$(WEB_SHOTS) \
	  CHROMIUM=$$(command -v chromium) CHROMEDRIVER=$$(command -v chromedriver) \
	  timeout 300 $(WEB_PYTHON) tests/web/test_web.py

# ---- bench-web: bench/scripts/web.sh (bench/results/web-results.md); the other WEB_SIMD built in build/web-alt ----
WEB_ALT_SIMD := $(if $(filter 1,$(WEB_SIMD)),0,1)
web_simd_name = $(if $(filter 1,$(1)),SIMD128,no SIMD)
BENCH_RUNS ?= 5
bench-web: web emilia
	@$(MAKE) --no-print-directory WEB_SIMD=$(WEB_ALT_SIMD) WEB_OUT=build/web-alt web >/dev/null
	sh bench/scripts/web.sh $(WEB_OUT) "$(call web_simd_name,$(WEB_SIMD))" build/web-alt \
	  "$(call web_simd_name,$(WEB_ALT_SIMD))" $(BENCH_RUNS)
