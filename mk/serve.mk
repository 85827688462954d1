# mk/serve.mk - emilia-serve, the online tables (docs/serve.md), included by the Makefile.
#
#   make serve       ./emilia-serve (`emilia serve` runs it): the page and the tables, with
#                    libwebsockets (Debian: libwebsockets-dev)
#   make test-serve  its protocol and the page in two headless browsers (tests/serve/)
#
# src/serve/ is a front end of rank 3 (docs/ARCHITECTURE.md): it includes src/front/ and
# src/core/; it is linked like the other programs (both kernels with ARCH=dispatch).

LWS_CFLAGS := $(shell pkg-config --cflags libwebsockets 2>/dev/null)
LWS_LIBS := $(shell pkg-config --libs libwebsockets 2>/dev/null || echo -lwebsockets)
SERVE_SRC := $(wildcard src/serve/*.c)
INC_SERVE := -Isrc/core -Isrc/front
define serve_rules
$(call kdir,$(1))/src/serve/%.o: src/serve/%.c
	@mkdir -p $$(@D)
	$$(CC) $$(call kflags,$(1)) $(DEPFLAGS) $(INC_SERVE) $(LWS_CFLAGS) -c $$< -o $$@
endef
$(foreach k,$(KERNELS),$(eval $(call serve_rules,$(k))))
$(eval $(call program,emilia-serve,$(SERVE_SRC:%.c=%.o) libemilia-front.a libemilia.a,$$(CC),$$(LDLIBS_ALL) $(LWS_LIBS)))

.PHONY: serve test-serve
serve:
	@pkg-config --exists libwebsockets 2>/dev/null || { echo "emilia-serve needs libwebsockets: sudo apt-get install libwebsockets-dev" >&2; exit 1; }
	@$(MAKE) --no-print-directory $(BUILD)/emilia-serve
	@cmp -s $(BUILD)/emilia-serve emilia-serve 2>/dev/null || cp $(BUILD)/emilia-serve emilia-serve

# test-serve: the protocol against the release build and under ASan/UBSan (MODE=debug), then
# the page in two headless browsers (tests/serve/test_browser.py, which needs `make web`);
# everything on 127.0.0.1.  About a minute.
SERVE_PYTEST := /usr/bin/python3 -m pytest -q -p no:cacheprovider
test-serve: serve
	@$(MAKE) --no-print-directory MODE=debug serve-debug-bin
	cd tests/serve && EMILIA_SERVE=$(CURDIR)/$(BUILD)/emilia-serve $(SERVE_PYTEST) test_protocol.py
	cd tests/serve && EMILIA_SERVE=$(CURDIR)/build/$(ARCH)-debug/emilia-serve $(SERVE_PYTEST) test_protocol.py
	@if [ -f tests/serve/test_browser.py ]; then $(MAKE) --no-print-directory web && \
	  cd tests/serve && EMILIA_SERVE=$(CURDIR)/$(BUILD)/emilia-serve EMILIA_WEB=$(CURDIR)/build/web \
	  $(SERVE_PYTEST) test_browser.py; fi
.PHONY: serve-debug-bin
serve-debug-bin: $(BUILD)/emilia-serve
