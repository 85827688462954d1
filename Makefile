# Emilia - build.  `make help` lists the targets.
#
# CPU selection lives here and only here (docs/build.md):
#   ARCH=dispatch  (default for x86-64; ARCH=auto is the default) one build for every x86-64:
#                  the engine is compiled twice, with the portable and with the AVX2 kernel;
#                  each program, test suite and the library holds both copies and runs one,
#                  chosen at start-up from the CPU (AVX2 and BMI2) or by
#                  EMILIA_KERNEL=portable|avx2 (src/core/dispatch.c); --version names it
#   ARCH=portable  (default for other targets: arm64) any CPU, scalar kernels only
#   ARCH=avx2      AVX2 + BMI2 + POPCNT + LZCNT kernels only (Haswell and later)
#   ARCH=native    -march=native (AVX2 kernels when the CPU has AVX2)
# MODE=release|debug|tsan selects optimisation and sanitizers.
# Objects go to build/ARCH-MODE/ (BUILD=); ARCH=dispatch compiles into build/portable-MODE/ and
# build/avx2-MODE/, the same objects as those builds, and links in build/dispatch-MODE/.  The
# last build is copied to ./emilia and ./emilia-*.

MODE ?= release
CC ?= cc
ifeq ($(CC),cc)
CC := gcc
endif

HOST_AVX2 := $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw bmi2 /proc/cpuinfo 2>/dev/null && echo yes)
# the compiler's target: the AVX2 kernel exists on x86-64 only
TARGET_X86_64 := $(filter x86_64-%,$(shell $(CC) -dumpmachine 2>/dev/null))
ARCH ?= auto
ifeq ($(ARCH),auto)
override ARCH := $(if $(TARGET_X86_64),dispatch,portable)
endif

# The compiler flags of each kernel, and the kernels of this build.
ARCHFLAGS_portable :=
ARCHFLAGS_avx2 := -mavx2 -mbmi -mbmi2 -mpopcnt -mlzcnt -DEMILIA_AVX2
ARCHFLAGS_native := -march=native $(if $(HOST_AVX2),-DEMILIA_AVX2)
ifeq ($(ARCH),dispatch)
KERNELS := portable avx2
else ifneq ($(filter portable avx2 native,$(ARCH)),)
KERNELS := $(ARCH)
else
$(error ARCH must be dispatch, portable, avx2, native or auto)
endif

WARN := -Wall -Wextra -Werror -Wmissing-declarations -Wshadow -Wno-unused-parameter
ifeq ($(MODE),release)
OPT := -O3 -DNDEBUG
else ifeq ($(MODE),debug)
OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
else ifeq ($(MODE),tsan)
OPT := -O1 -g -fsanitize=thread
else
$(error MODE must be release, debug or tsan)
endif

CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -pthread -Iinclude $(WARN) $(OPT)
# every object also writes its header dependencies (OBJECT.d, read back below): an object is
# rebuilt when a header it includes changes, and only then
DEPFLAGS := -MMD -MP
# $(call kflags,KERNEL): the compiler flags of that kernel's objects
kflags = $(CFLAGS_BASE) $(ARCHFLAGS_$(1)) $(CFLAGS)
# the flags of this build's own objects (ARCH=dispatch: the dispatcher, for any x86-64)
CFLAGS_ALL := $(call kflags,$(if $(filter dispatch,$(ARCH)),portable,$(ARCH)))
LDFLAGS_ALL := -pthread $(OPT) $(LDFLAGS)
LDLIBS_ALL := -lm $(LDLIBS)
LD ?= ld
NM ?= nm
OBJCOPY ?= objcopy
SIZE ?= size
DISPATCH_COPY = LD="$(LD)" OBJCOPY="$(OBJCOPY)" NM="$(NM)" SIZE="$(SIZE)" sh tools/dispatch-copy.sh

BUILD := build/$(ARCH)-$(MODE)
# $(call kdir,KERNEL): the object folder of a kernel: BUILD in a build of one kernel (which may
# set BUILD, as cross-arm64 does), build/KERNEL-MODE for each kernel of ARCH=dispatch
kdir = $(if $(filter dispatch,$(ARCH)),build/$(1)-$(MODE),$(BUILD))
KDIRS := $(foreach k,$(KERNELS),$(call kdir,$(k)))
# The folders follow the layers (docs/ARCHITECTURE.md): src/core/ is the engine and the public
# API, src/front/ the options, sessions, protocols and commands, tools/lib/ the tools' own code.
# libemilia.a: the core, every src/core/*.c but dispatch.c and blobs.c (the built-in weights and
# book, 4.5 MB), which is alone in libemilia-data.a: ARCH=dispatch links it once (portable's),
# outside the two copies.  LIB_SRC (= CORE_SRC) lists the core library's sources for other
# makefiles; FRONT_SRC the front ends' (libemilia-front.a), TOOLS_LIB_SRC tools/lib's
# (libemilia-tools.a: the match runner and Elo, for emilia-match and its tests, and the linear
# solver of emilia-probcut and emilia-train).
DATA_SRC := src/core/blobs.c
CORE_SRC := $(filter-out src/core/dispatch.c $(DATA_SRC),$(wildcard src/core/*.c))
LIB_SRC := $(CORE_SRC)
FRONT_SRC := $(filter-out src/front/main.c,$(wildcard src/front/*.c))
TOOLS_LIB_SRC := $(wildcard tools/lib/*.c)
# what each folder's files may include besides their own folder: the core nothing, the front
# the core, the tools and tests all
INC_FRONT := -Isrc/core
INC_TOOLS := -Isrc/core -Isrc/front -Itools/lib
DATA_DIR := $(call kdir,$(firstword $(KERNELS)))
DATA_LIB := $(DATA_DIR)/libemilia-data.a
TOOLS := $(filter-out emilia-mpi,$(patsubst tools/%.c,%,$(wildcard tools/emilia-*.c)))
# emilia-train reads gzip files with zlib (Debian: zlib1g-dev); without its header the
# trainer is skipped with a note and everything else builds.
HAVE_ZLIB := $(shell printf '\043include <zlib.h>\n' | $(CC) -E - >/dev/null 2>&1 && echo yes)
ifneq ($(HAVE_ZLIB),yes)
TOOLS := $(filter-out emilia-train,$(TOOLS))
endif
TOOL_LIBS += -lz
TEST_SRC := $(wildcard tests/test_*.c)
TEST_SUPPORT_SRC := $(filter-out $(TEST_SRC),$(wildcard tests/*.c))
# TEST_SUITES="board perft": `make test` runs those suites only (default: every tests/test_*.c);
# TEST_KERNEL=portable|avx2 (ARCH=dispatch): the suites run that kernel (EMILIA_KERNEL)
TEST_SUITES ?= $(TEST_SRC:tests/test_%.c=%)
TEST_BIN := $(TEST_SUITES:%=$(BUILD)/tests/test_%)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)

.PHONY: mpi test-mpi bench-mpi all emilia tools lib install uninstall test-install test-python test-readme test-cmdflags test-ffo test test-dispatch layers debug test-debug tsan clean help bench perft-deep check-deps FORCE

all: emilia tools

# ---- the objects of each kernel: build/KERNEL-MODE/{src,pic,tools,tests}/ ----
# pic/: the library's objects, position-independent with hidden symbols.  blobs.c embeds
# data/eval.bin and book/emilia.book with .incbin.
define kernel_rules
$(call kdir,$(1))/src/core/%.o: src/core/%.c
	@mkdir -p $$(@D)
	$$(CC) $$(call kflags,$(1)) $(DEPFLAGS) -c $$< -o $$@
$(call kdir,$(1))/src/front/%.o: src/front/%.c
	@mkdir -p $$(@D)
	$$(CC) $$(call kflags,$(1)) $(DEPFLAGS) $(INC_FRONT) -c $$< -o $$@
$(call kdir,$(1))/pic/%.o: src/core/%.c
	@mkdir -p $$(@D)
	$$(CC) $$(call kflags,$(1)) $(DEPFLAGS) -fPIC -fvisibility=hidden -c $$< -o $$@
$(call kdir,$(1))/tools/%.o: tools/%.c
	@mkdir -p $$(@D)
	$$(CC) $$(call kflags,$(1)) $(DEPFLAGS) $(INC_TOOLS) -c $$< -o $$@
$(call kdir,$(1))/tools/emilia-mpi.o $(call kdir,$(1))/tools/mpi_master.o: $(call kdir,$(1))/tools/%.o: tools/%.c
	@mkdir -p $$(@D)
	$$(MPICC) $$(call kflags,$(1)) $(DEPFLAGS) $(INC_TOOLS) -c $$< -o $$@
$(call kdir,$(1))/tests/%.o: tests/%.c
	@mkdir -p $$(@D)
	$$(CC) $$(call kflags,$(1)) $(DEPFLAGS) $$(CHECK_CFLAGS) $(INC_TOOLS) -c $$< -o $$@
$(call kdir,$(1))/libemilia.a: $(LIB_SRC:src/%.c=$(call kdir,$(1))/src/%.o)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
$(call kdir,$(1))/libemilia-front.a: $(FRONT_SRC:src/%.c=$(call kdir,$(1))/src/%.o)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
$(call kdir,$(1))/libemilia-tools.a: $(TOOLS_LIB_SRC:tools/%.c=$(call kdir,$(1))/tools/%.o)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
$(call kdir,$(1))/libemilia-data.a: $(DATA_SRC:src/%.c=$(call kdir,$(1))/src/%.o)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach k,$(KERNELS),$(eval $(call kernel_rules,$(k))))
# the header dependencies the objects wrote (src/core/x.d, pic/x.d, tools/lib/x.d, ...); an
# object without its .d (built by an older Makefile) is built again, once
OBJ_DIRS := $(foreach d,$(sort $(KDIRS) $(BUILD)),$(addprefix $(d)/,src/* src/*/* pic/* tools/* tools/lib/* tests/*))
-include $(wildcard $(OBJ_DIRS:%=%.d))
$(foreach o,$(wildcard $(OBJ_DIRS:%=%.o)),$(if $(wildcard $(o:.o=.d)),,$(eval $(o): FORCE)))

# ---- the public library (include/emilia.h, src/core/api.c; docs/api.md) ----
# libemilia.so.0 and the public libemilia.a are built from position-independent objects
# compiled with hidden visibility, joined by ld -r into one object, emilia.o, whose symbols
# objcopy makes local except the emilia_* functions: both export those only.  The internal
# build/KERNEL-MODE/libemilia.a above, with every symbol, is what the programs and tests link.
# ARCH=dispatch: tools/dispatch-copy.sh joins each kernel's objects into lib/kernel-KERNEL.o,
# every symbol local but the emilia_* functions renamed dispatch_KERNEL_emilia_*, constructors
# not run at load; lib/dispatch-api.h lists the functions, and src/core/dispatch.c
# (-DDISPATCH_LIBRARY) makes each emilia_* function a jump to the copy that its constructor
# chose at load time (and runs that copy's constructors).
VERSION := $(shell awk '/^\#define EMILIA_VERSION_(MAJOR|MINOR|PATCH) /{printf "%s%s", s, $$3; s="."}' include/emilia.h)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
PIC_OBJ := $(LIB_SRC:src/core/%.c=$(BUILD)/pic/%.o)
LIBOUT := $(BUILD)/lib
SOLIB := $(LIBOUT)/libemilia.so.$(VERSION)
PUBLIC_LIB := $(LIBOUT)/libemilia.a
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
INSTALL ?= install
# a page for the engine and for each tool built (emilia-train needs zlib)
MAN_PAGES := man/emilia.6 $(TOOLS:%=man/%.6)

include mk/dispatch.mk


$(eval $(call program,emilia,src/front/main.o libemilia-front.a libemilia.a,$$(CC),$$(LDLIBS_ALL)))
emilia: $(BUILD)/emilia
	@cmp -s $< $@ 2>/dev/null || cp $< $@

# emilia-train also links its own tools/train_*.c and the game and label-file code of tools/labels.c; emilia-book shares
# the engine-backed leaf search of tools/booksearch.c with emilia-mpi
TOOL_OBJ_emilia-train := tools/labels.o $(patsubst %.c,%.o,$(wildcard tools/train_*.c))
TOOL_OBJ_emilia-book := tools/booksearch.o
$(foreach t,$(TOOLS),$(eval $(call program,tools/$(t),tools/$(t).o $(TOOL_OBJ_$(t)) libemilia-tools.a libemilia-front.a libemilia.a,$$(CC),$$(LDLIBS_ALL) $$(TOOL_LIBS))))
tools: $(TOOLS:%=$(BUILD)/tools/%)
	@for t in $(TOOLS); do cmp -s $(BUILD)/tools/$$t $$t 2>/dev/null || cp $(BUILD)/tools/$$t $$t; done
	@if [ "$(HAVE_ZLIB)" != yes ]; then echo "note: emilia-train not built: it needs zlib (sudo apt-get install zlib1g-dev)"; fi

$(foreach t,$(TEST_SRC:tests/%.c=%),$(eval $(call program,tests/$(t),tests/$(t).o $(TEST_SUPPORT_SRC:%.c=%.o) libemilia-tools.a libemilia-front.a libemilia.a,$$(CC),$$(CHECK_LIBS) $$(LDLIBS_ALL))))
# check-deps (run by `make test`): the packages the tests need are there.  make installs
# nothing: the README's first command and .ci/run install them.
check-deps:
	@missing=""; \
	[ "$(HAVE_ZLIB)" = yes ] || missing="$$missing zlib1g-dev"; \
	pkg-config --exists check 2>/dev/null || [ -f /usr/include/check.h ] || missing="$$missing check pkg-config"; \
	if [ -n "$$missing" ]; then \
		echo "The tests need the Debian packages$$missing: run 'sudo apt-get install$$missing' (README, Install)" >&2; \
		exit 1; \
	fi

# `make test` runs the layer check (tests/layers.sh: no upward include of a module or a
# folder, see docs/ARCHITECTURE.md; it must also catch the two fixtures' upward includes), then
# every tests/test_*.c suite against this build's binaries, then (ARCH=dispatch)
# test-dispatch, the installed library, the Python binding and the README's commands.
# CK_DEFAULT_TIMEOUT: sanitizer builds are several times slower.
test: check-deps layers
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory test-bins
	@$(if $(TEST_KERNEL),EMILIA_KERNEL=$(TEST_KERNEL)) EMILIA_BIN=$(CURDIR)/$(BUILD)/emilia EMILIA_TOOLS=$(CURDIR)/$(BUILD)/tools \
	  EMILIA_TESTDATA=$(CURDIR)/tests/data CK_DEFAULT_TIMEOUT=600 sh tests/run.sh $(TEST_BIN)
	@if [ $(ARCH) = dispatch ]; then $(MAKE) --no-print-directory test-dispatch; fi
	@$(MAKE) --no-print-directory test-install
	@$(MAKE) --no-print-directory test-python
	@$(MAKE) --no-print-directory test-readme
	@$(MAKE) --no-print-directory test-cmdflags
	@$(MAKE) --no-print-directory test-ffo

# test-readme: the cheap commands of README.md (its ```sh blocks) run from a scratch
# copy of the repository root (tests/readme.sh, a few seconds); release builds only,
# since ./emilia is the last build and a sanitizer build is several times slower.
test-readme: all
	@if [ "$(MODE)" != release ]; then echo "readme: not checked in MODE=$(MODE) (release builds only)"; \
	else sh tests/readme.sh; fi

# test-cmdflags: each command's flags (tests/cmdflags.sh, about 2 s): --help generated from its
# table, the range errors, the unknown flags refused, --threads' range the option table's.
test-cmdflags: all
	@sh tests/cmdflags.sh $(BUILD)/emilia

# test-ffo: FFO #1-#39 solved exactly, score and best move, 1 thread (a few seconds;
# release builds only, like test-readme); nothing is appended to ffo-history.csv.
test-ffo: all
	@if [ "$(MODE)" != release ]; then echo "ffo: not checked in MODE=$(MODE) (release builds only)"; \
	else FFO_HISTORY=0 sh bench/scripts/ffo.sh 1-39 1 $(BUILD)/emilia --quiet >$(BUILD)/ffo.out || { cat $(BUILD)/ffo.out; exit 1; }; tail -1 $(BUILD)/ffo.out; fi

# test-dispatch (ARCH=dispatch): the kernel each program runs, and the same perft counts, bench
# signature and solver nodes from the portable and the AVX2 copy of one binary (tests/dispatch.sh)
test-dispatch: all
	@sh tests/dispatch.sh $(BUILD)

.PHONY: layers
layers:
	@sh tests/layers.sh
	@for f in layers layers-folders; do \
		if sh tests/layers.sh tests/data/$$f >/dev/null; then \
			echo "tests/layers.sh did not see the upward include of tests/data/$$f" >&2; exit 1; fi; done
	@echo "layers: no upward include of a module or a folder"

.SECONDARY:
.PHONY: test-bins
test-bins: $(TEST_BIN)

debug:
	@$(MAKE) --no-print-directory MODE=debug all

test-debug:
	@$(MAKE) --no-print-directory MODE=debug test

# tsan: the suites whose code runs threads (the engine's workers, the parallel solver and perft,
# the protocols' search threads, the clock, the table's prefaulting, the API, the review's and
# eval's workers) and emilia-serve's protocol (its engine threads) under ThreadSanitizer; the
# other suites are single-threaded and run under ASan and UBSan in test-debug.  Test cases
# tagged "single-threaded", and "slow" (the trainer's label files and other games, whose
# threads are those of the case before them), are left out.  TSAN_SUITES="..." picks others.
TSAN_SUITES ?= api clock endgame engine_core engine_threads eval gtp memory perft protocols review search
tsan:
	@$(MAKE) --no-print-directory MODE=tsan TEST_SUITES="$(TSAN_SUITES)" tsan-run
.PHONY: tsan-run
tsan-run: all test-bins
	@EMILIA_BIN=$(CURDIR)/$(BUILD)/emilia EMILIA_TOOLS=$(CURDIR)/$(BUILD)/tools EMILIA_TESTDATA=$(CURDIR)/tests/data \
	  TSAN_OPTIONS="halt_on_error=1" CK_DEFAULT_TIMEOUT=600 CK_EXCLUDE_TAGS="slow single-threaded" sh tests/run.sh $(TEST_BIN)
	@if pkg-config --exists libwebsockets 2>/dev/null; then $(MAKE) --no-print-directory $(BUILD)/emilia-serve && \
	  cd tests/serve && EMILIA_SERVE=$(CURDIR)/$(BUILD)/emilia-serve TSAN_OPTIONS="halt_on_error=1" $(SERVE_PYTEST) test_protocol.py; \
	else echo "tsan: emilia-serve not checked (no libwebsockets)"; fi
clean:
	rm -rf build emilia $(TOOLS) emilia-mpi emilia-serve
$(LIBOUT):
	@mkdir -p $@
$(LIBOUT)/emilia.o: $(LIB_PARTS) | $(LIBOUT)
	$(LD) -r -o $@ $^
	$(OBJCOPY) --wildcard --keep-global-symbol='emilia_*' $@
$(SOLIB): $(LIBOUT)/emilia.o
	$(CC) $(LDFLAGS_ALL) -shared -Wl,-soname,libemilia.so.$(SOMAJOR) -Wl,--no-undefined -o $@ $^ $(LDLIBS_ALL)
	@ln -sf libemilia.so.$(VERSION) $(LIBOUT)/libemilia.so.$(SOMAJOR)
	@ln -sf libemilia.so.$(SOMAJOR) $(LIBOUT)/libemilia.so
$(PUBLIC_LIB): $(LIBOUT)/emilia.o
	@rm -f $@
	$(AR) rcs $@ $<
$(LIBOUT)/emilia.pc: FORCE | $(LIBOUT)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
	  'Name: emilia' 'Description: Reversi/Othello engine: search, exact solver, evaluation' \
	  'Version: $(VERSION)' \
	  'Libs: -L$${libdir} -lemilia' 'Libs.private: -lm -pthread' 'Cflags: -I$${includedir}' > $@
lib: $(SOLIB) $(PUBLIC_LIB) $(LIBOUT)/emilia.pc

# `make install PREFIX=/usr/local DESTDIR=`: the programs, the libraries, the header,
# emilia.pc and the man pages; `make uninstall` (same PREFIX and DESTDIR) removes them.
install: all lib
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) \
	  $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man6
	$(INSTALL) -m 755 $(BUILD)/emilia $(TOOLS:%=$(BUILD)/tools/%) $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 755 $(SOLIB) $(DESTDIR)$(LIBDIR)
	ln -sf libemilia.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libemilia.so.$(SOMAJOR)
	ln -sf libemilia.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libemilia.so
	$(INSTALL) -m 644 $(PUBLIC_LIB) $(DESTDIR)$(LIBDIR)
	$(INSTALL) -m 644 include/emilia.h $(DESTDIR)$(INCLUDEDIR)
	$(INSTALL) -m 644 $(LIBOUT)/emilia.pc $(DESTDIR)$(PKGCONFIGDIR)
	$(INSTALL) -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man6
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then ldconfig; fi
uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,emilia emilia-book emilia-match emilia-probcut emilia-train)
	rm -f $(addprefix $(DESTDIR)$(LIBDIR)/,libemilia.so.$(VERSION) libemilia.so.$(SOMAJOR) libemilia.so libemilia.a)
	rm -f $(DESTDIR)$(INCLUDEDIR)/emilia.h $(DESTDIR)$(PKGCONFIGDIR)/emilia.pc
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man6/,emilia.6 emilia-book.6 emilia-match.6 emilia-probcut.6 emilia-train.6)

# test-install: install into a temporary DESTDIR, build and run a program against the
# installed library through pkg-config, uninstall (tests/install.sh).  test-python: the
# ctypes binding (python/) under pytest (Debian's python3-pytest; plain unittest without
# it), release builds only (a sanitizer runtime cannot be loaded
# into python3).
test-install:
	@MAKE="$(MAKE)" ARCH=$(ARCH) MODE=$(MODE) CC="$(CC)" TEST_CFLAGS="$(filter -fsanitize=%,$(OPT))" sh tests/install.sh
test-python: lib
	@if [ "$(MODE)" != release ]; then echo "python binding: not tested in MODE=$(MODE) (release builds only)"; \
	elif ! command -v python3 >/dev/null; then echo "python binding: not tested (no python3)"; \
	else cd python && export EMILIA_LIB=$(CURDIR)/$(LIBOUT)/libemilia.so.$(SOMAJOR) && \
	  if python3 -m pytest --version >/dev/null 2>&1; then python3 -m pytest -q test_emilia.py; \
	  elif /usr/bin/python3 -m pytest --version >/dev/null 2>&1; then /usr/bin/python3 -m pytest -q test_emilia.py; \
	  else python3 -m unittest -q; fi && \
	  python3 -c 'import emilia; e = emilia.Engine(); r = e.search(move_time=0.1); e.play(r.move); print("python: played", r.move)'; fi
# ---- emilia-mpi: distributed solving, book expansion and labels (docs/mpi.md) ----
# Only `make mpi` needs MPI (Debian: libopenmpi-dev openmpi-bin); nothing else links it.
MPICC ?= mpicc
$(eval $(call program,tools/emilia-mpi,tools/emilia-mpi.o tools/mpi_master.o tools/mpiwork.o tools/checkpoint.o \
  tools/labels.o tools/booksearch.o libemilia-tools.a libemilia-front.a libemilia.a,$$(MPICC),$$(LDLIBS_ALL) $$(TOOL_LIBS)))
mpi: $(BUILD)/tools/emilia-mpi
	@cmp -s $< emilia-mpi 2>/dev/null || cp $< emilia-mpi
test-mpi: all mpi
	EMILIA_BIN=$(CURDIR)/emilia sh tests/mpi.sh
bench-mpi: all mpi
	sh bench/scripts/mpi.sh
help:
	@echo "make [ARCH=dispatch|portable|avx2|native] [MODE=release|debug|tsan] TARGET"
	@echo "  ARCH=dispatch (default on x86-64) runs on any x86-64 and picks the AVX2 or portable"
	@echo "               kernel at start-up (EMILIA_KERNEL=portable forces it); the others build"
	@echo "               one kernel (portable: the default on other targets); docs/build.md"
	@echo "  all          build ./emilia and the tools (default)"
	@echo "  test         layer check, the Check test suites (needs Check, README), test-dispatch,"
	@echo "               test-install, test-python, test-readme, test-cmdflags, test-ffo"
	@echo "               (TEST_SUITES=\"board perft\": those suites only)"
	@echo "  test-dispatch  (ARCH=dispatch) both kernels of one binary agree on perft, bench, solver"
	@echo "  debug        build with AddressSanitizer + UndefinedBehaviorSanitizer"
	@echo "  test-debug   run the test suites under ASan + UBSan"
	@echo "  tsan         run the threaded test suites under ThreadSanitizer (TSAN_SUITES)"
	@echo "  lib          build the public library: $(BUILD)/lib/libemilia.so.0, libemilia.a, emilia.pc"
	@echo "  install      install binaries, libraries, header, emilia.pc, man pages (PREFIX=/usr/local DESTDIR=)"
	@echo "  uninstall    remove what install installed (same PREFIX and DESTDIR)"
	@echo "  test-install install into a temporary DESTDIR, build a program against it, uninstall"
	@echo "  test-python  the Python binding's tests (python/, release builds)"
	@echo "  test-readme  run the cheap commands of README.md (its sh blocks; release builds)"
	@echo "  test-cmdflags  the flags of each command: --help, ranges, unknown flags (tests/cmdflags.sh)"
	@echo "  bench        ./emilia bench: the search node signature (more: bench-* targets)"
	@echo "  perft-deep   check perft against the deep reference counts (minutes)"
	@echo "  serve        build ./emilia-serve, the online tables (needs libwebsockets-dev; docs/serve.md)"
	@echo "  test-serve   its protocol (release and ASan) and the page in two headless browsers"
	@echo "  mpi          build ./emilia-mpi with mpicc (needs libopenmpi-dev; docs/mpi.md)"
	@echo "  test-mpi     emilia-mpi against the single-process commands under mpirun (tests/mpi.sh)"
	@echo "  deb          Debian packages emilia, libemilia0, libemilia-dev into build/deb/, with lintian"
	@echo "  test-deb     build the packages, dpkg -i them, check /usr/bin/emilia and the library, purge (root)"
	@echo "  cross-arm64  cross-compile the portable build for arm64 (build/arm64-portable-release/)"
	@echo "  test-arm64   perft, bench and the board and rules suites under qemu-aarch64, against x86"
	@echo "  clean        remove build outputs"
# ---- the embedded data: weights and book (the recipes that make them: mk/data.mk) ----
# blobs.c embeds data/eval.bin with .incbin: rebuild it when the file changes.
$(KDIRS:%=%/src/core/blobs.o) $(KDIRS:%=%/pic/blobs.o): data/eval.bin
# ... and the weights of 8x8 Anti, 6x6 and 6x6 Anti, stored gzipped, unpacked into build/blobs/.
GAME_BLOBS := build/blobs/eval-anti.bin build/blobs/eval-6x6.bin build/blobs/eval-6x6-anti.bin
build/blobs/%.bin: data/%.bin.gz
	@mkdir -p $(@D)
	gzip -dc $< > $@.tmp && mv $@.tmp $@
$(KDIRS:%=%/src/core/blobs.o) $(KDIRS:%=%/pic/blobs.o): $(GAME_BLOBS)
# blobs.c embeds book/emilia.book with .incbin: rebuild it when the file changes.
$(KDIRS:%=%/src/core/blobs.o) $(KDIRS:%=%/pic/blobs.o): book/emilia.book
# ---- the recipes of the data, the fuzzers and the benchmarks, in files of their own ----
include mk/data.mk
include mk/fuzz.mk
include mk/bench.mk
include mk/serve.mk

# ---- arm64: the portable build cross-compiled, run under qemu-user (docs/packaging.md) ----
# cross-arm64: build/arm64-portable-release/: emilia and the library, with Debian's
# gcc-aarch64-linux-gnu.  test-arm64 (tests/arm64.sh; it needs qemu-user and check:arm64
# through multiarch, which .ci/run installs): also the board and rules suites, then runs them, perft
# and the bench signature under qemu-aarch64 and compares them with the x86 portable build.
ARM64_TRIPLET := aarch64-linux-gnu
ARM64_BUILD := build/arm64-portable-release
ARM64_SUITES ?= board rules
# QEMU_ARM64: how to run an arm64 program (default: tests/arm64.sh picks it)
ARM64_MAKE = $(MAKE) --no-print-directory ARCH=portable MODE=release BUILD=$(ARM64_BUILD) \
  CC=$(ARM64_TRIPLET)-gcc AR=$(ARM64_TRIPLET)-ar LD=$(ARM64_TRIPLET)-ld OBJCOPY=$(ARM64_TRIPLET)-objcopy \
  CHECK_CFLAGS=-pthread CHECK_LIBS="$$(PKG_CONFIG_LIBDIR=/usr/lib/$(ARM64_TRIPLET)/pkgconfig pkg-config --libs check 2>/dev/null || echo -lcheck)"
.PHONY: cross-arm64 cross-arm64-tests test-arm64
cross-arm64:
	@command -v $(ARM64_TRIPLET)-gcc >/dev/null || { echo "cross-arm64 needs $(ARM64_TRIPLET)-gcc: sudo apt-get install gcc-$(ARM64_TRIPLET)" >&2; exit 1; }
	@$(ARM64_MAKE) $(ARM64_BUILD)/emilia lib
# what test-arm64 runs: emilia and the suites (not the library: its PIC objects would double the build)
cross-arm64-tests:
	@command -v $(ARM64_TRIPLET)-gcc >/dev/null || { echo "cross-arm64 needs $(ARM64_TRIPLET)-gcc: sudo apt-get install gcc-$(ARM64_TRIPLET)" >&2; exit 1; }
	@$(ARM64_MAKE) $(ARM64_BUILD)/emilia $(ARM64_SUITES:%=$(ARM64_BUILD)/tests/test_%)
test-arm64:
	@MAKE="$(MAKE)" ARM64_BUILD=$(ARM64_BUILD) ARM64_SUITES="$(ARM64_SUITES)" sh tests/arm64.sh
# ---- Debian packages: emilia, libemilia0, libemilia-dev (debian/, docs/packaging.md) ----
# deb: build them from a copy of the tree into build/deb/ and run lintian (no root needed).
# test-deb (CI; root): also install them with dpkg -i, check /usr/bin/emilia and the
# library, purge them (tests/deb.sh).
.PHONY: deb test-deb
deb:
	@KEEP=build/deb NO_INSTALL=1 sh tests/deb.sh
test-deb:
	@sh tests/deb.sh
include web/web.mk
