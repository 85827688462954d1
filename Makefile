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
# (libemilia-tools.a: the match runner and Elo, for emilia-match and its tests).
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
# TEST_SUITES="board perft": `make test` runs those suites only (default: every tests/test_*.c)
TEST_SUITES ?= $(TEST_SRC:tests/test_%.c=%)
TEST_BIN := $(TEST_SUITES:%=$(BUILD)/tests/test_%)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)

.PHONY: mpi test-mpi bench-mpi all emilia tools lib install uninstall test-install test-python test-readme test test-dispatch layers debug test-debug tsan clean help bench perft-deep check-deps FORCE

all: emilia tools

# ---- the objects of each kernel: build/KERNEL-MODE/{src,pic,tools,tests}/ ----
# pic/: the library's objects, position-independent with hidden symbols.  blobs.c embeds
# data/eval.bin and book/emilia.book with .incbin.
HEADERS := $(wildcard src/core/*.h src/front/*.h)
TOOLS_HEADERS := $(wildcard tools/*.h tools/lib/*.h)
define kernel_rules
$(call kdir,$(1))/src/core/%.o: src/core/%.c $(HEADERS)
	@mkdir -p $$(@D)
	$$(CC) $$(call kflags,$(1)) -c $$< -o $$@
$(call kdir,$(1))/src/front/%.o: src/front/%.c $(HEADERS)
	@mkdir -p $$(@D)
	$$(CC) $$(call kflags,$(1)) $(INC_FRONT) -c $$< -o $$@
$(call kdir,$(1))/pic/%.o: src/core/%.c $(HEADERS)
	@mkdir -p $$(@D)
	$$(CC) $$(call kflags,$(1)) -fPIC -fvisibility=hidden -c $$< -o $$@
$(call kdir,$(1))/tools/%.o: tools/%.c $(HEADERS) $(TOOLS_HEADERS)
	@mkdir -p $$(@D)
	$$(CC) $$(call kflags,$(1)) $(INC_TOOLS) -c $$< -o $$@
$(call kdir,$(1))/tools/emilia-mpi.o: tools/emilia-mpi.c $(HEADERS) $(TOOLS_HEADERS)
	@mkdir -p $$(@D)
	$$(MPICC) $$(call kflags,$(1)) $(INC_TOOLS) -c $$< -o $$@
$(call kdir,$(1))/tests/%.o: tests/%.c $(HEADERS) $(TOOLS_HEADERS) $(wildcard tests/*.h)
	@mkdir -p $$(@D)
	$$(CC) $$(call kflags,$(1)) $$(CHECK_CFLAGS) $(INC_TOOLS) -c $$< -o $$@
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
# only api.c and its test include the public header
$(KDIRS:%=%/src/core/api.o) $(KDIRS:%=%/pic/api.o) $(KDIRS:%=%/tests/test_api.o): include/emilia.h

# ---- programs: $(call program,NAME,OBJECTS,LINKER,LIBS) links $(BUILD)/NAME from OBJECTS,
# paths inside a kernel's object folder, and libemilia-data.a.
# ARCH=dispatch: for each kernel, tools/dispatch-copy.sh joins its OBJECTS into
# $(BUILD)/kernel-KERNEL/NAME.o (ld -r), all of whose symbols are local except main and
# board_kernel_choice, renamed dispatch_KERNEL_*, and whose constructors the loader does not
# run; the program is both of these with the dispatcher src/core/dispatch.c, whose main() runs one
# copy's constructors and main, and the data both use.
ifeq ($(ARCH),dispatch)
define program
$(BUILD)/$(1): $(BUILD)/src/dispatch.o $(KERNELS:%=$(BUILD)/kernel-%/$(1).o) $(DATA_LIB)
	@mkdir -p $$(@D)
	$(3) $$(LDFLAGS_ALL) -o $$@ $$^ $(4)
$(KERNELS:%=$(BUILD)/kernel-%/$(1).o): $(BUILD)/kernel-%/$(1).o: $(addprefix build/%-$(MODE)/,$(2)) tools/dispatch-copy.sh
	@mkdir -p $$(@D)
	$$(DISPATCH_COPY) program $$* $$@ $$(filter-out tools/dispatch-copy.sh,$$^)
endef
$(BUILD)/src/dispatch.o: src/core/dispatch.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -DDISPATCH_PROGRAM -c $< -o $@
else
define program
$(BUILD)/$(1): $(addprefix $(BUILD)/,$(2)) $(DATA_LIB)
	@mkdir -p $$(@D)
	$(3) $$(LDFLAGS_ALL) -o $$@ $$^ $(4)
endef
endif

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

check-deps:
	@if [ "$(HAVE_ZLIB)" != yes ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing zlib (Debian package 'zlib1g-dev') for emilia-train..."; \
			(apt-get install -y zlib1g-dev >/dev/null 2>&1 || (apt-get update >/dev/null && apt-get install -y zlib1g-dev >/dev/null)) || exit 1; \
		else \
			echo "The tests need zlib for emilia-train: run 'sudo apt-get install zlib1g-dev'" >&2; exit 1; \
		fi; \
	fi
	@if ! pkg-config --exists check 2>/dev/null && [ ! -f /usr/include/check.h ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing the Check unit test library (Debian package 'check')..."; \
			(apt-get install -y check >/dev/null 2>&1 || (apt-get update >/dev/null && apt-get install -y check >/dev/null)) || exit 1; \
		else \
			echo "The tests need the Check library: run 'sudo apt-get install check pkg-config'" >&2; exit 1; \
		fi; \
	fi

# `make test` runs the layer check (tests/layers.sh: no upward include of a module or a
# folder, see docs/ARCHITECTURE.md; it must also catch the two fixtures' upward includes), then
# every tests/test_*.c suite against this build's binaries, then (ARCH=dispatch)
# test-dispatch, the installed library, the Python binding and the README's commands.
# CK_DEFAULT_TIMEOUT: sanitizer builds are several times slower.
test: check-deps layers
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory test-bins
	@EMILIA_BIN=$(CURDIR)/$(BUILD)/emilia EMILIA_TOOLS=$(CURDIR)/$(BUILD)/tools EMILIA_TESTDATA=$(CURDIR)/tests/data \
	  CK_DEFAULT_TIMEOUT=600 sh tests/run.sh $(TEST_BIN)
	@if [ $(ARCH) = dispatch ]; then $(MAKE) --no-print-directory test-dispatch; fi
	@$(MAKE) --no-print-directory test-install
	@$(MAKE) --no-print-directory test-python
	@$(MAKE) --no-print-directory test-readme

# test-readme: the cheap commands of README.md (its ```sh blocks) run from a scratch
# copy of the repository root (tests/readme.sh, a few seconds); release builds only,
# since ./emilia is the last build and a sanitizer build is several times slower.
test-readme: all
	@if [ "$(MODE)" != release ]; then echo "readme: not checked in MODE=$(MODE) (release builds only)"; \
	else sh tests/readme.sh; fi

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

tsan:
	@$(MAKE) --no-print-directory MODE=tsan test TSAN_OPTIONS="halt_on_error=1"

# `make bench`: the search's node signature (./emilia bench); the heavier benchmarks have
# their own targets: perft-deep, bench-ffo, bench-ffo-threads, bench-6x6, bench-smp,
# bench-eval, bench-eval-curve, bench-book, match-strength.
bench: all
	./emilia bench

# Deep perft references (minutes): 8x8 mode 1 to 12, mode 2 to 11, 6x6 to 12, 4x4 complete.
perft-deep: all
	sh bench/perft-deep.sh ./emilia

clean:
	rm -rf build emilia $(TOOLS) emilia-mpi

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

$(LIBOUT):
	@mkdir -p $@
ifeq ($(ARCH),dispatch)
LIB_PARTS := $(BUILD)/pic/dispatch.o $(KERNELS:%=$(LIBOUT)/kernel-%.o) $(DATA_SRC:src/core/%.c=$(DATA_DIR)/pic/%.o)
$(KERNELS:%=$(LIBOUT)/kernel-%.o): $(LIBOUT)/kernel-%.o: $(addprefix build/%-$(MODE)/pic/,$(LIB_SRC:src/core/%.c=%.o)) tools/dispatch-copy.sh | $(LIBOUT)
	$(DISPATCH_COPY) library $* $@ $(filter-out tools/dispatch-copy.sh,$^)
# the emilia_* functions, the same in both copies (and all functions: type T)
$(LIBOUT)/dispatch-api.h: $(KERNELS:%=$(LIBOUT)/kernel-%.o)
	@for k in $(KERNELS); do $(NM) -g --defined-only $(LIBOUT)/kernel-$$k.o | \
	  sed -n "s/^[0-9a-f]* \(.\) dispatch_$${k}_\(emilia_.*\)/\1 \2/p" | LC_ALL=C sort > $@.$$k || exit 1; done
	@cmp -s $@.portable $@.avx2 || { echo "$@: the kernels' emilia_* functions differ" >&2; exit 1; }
	@! grep -v '^T ' $@.portable || { echo "$@: emilia_* symbols that are not functions" >&2; exit 1; }
	@{ echo '/* Generated by the Makefile: the functions of the library (src/core/dispatch.c). */'; \
	  sed 's/^T \(.*\)/DISPATCH_API(\1)/' $@.portable; } > $@
	@rm -f $@.portable $@.avx2
$(BUILD)/pic/dispatch.o: src/core/dispatch.c $(LIBOUT)/dispatch-api.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -fPIC -fvisibility=hidden -DDISPATCH_LIBRARY -I$(LIBOUT) -c $< -o $@
else
LIB_PARTS := $(PIC_OBJ) $(DATA_SRC:src/core/%.c=$(DATA_DIR)/pic/%.o)
endif
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
$(eval $(call program,tools/emilia-mpi,tools/emilia-mpi.o tools/mpiwork.o tools/checkpoint.o \
  tools/labels.o tools/booksearch.o libemilia-tools.a libemilia-front.a libemilia.a,$$(MPICC),$$(LDLIBS_ALL) $$(TOOL_LIBS)))
mpi: $(BUILD)/tools/emilia-mpi
	@cmp -s $< emilia-mpi 2>/dev/null || cp $< emilia-mpi
test-mpi: all mpi
	EMILIA_BIN=$(CURDIR)/emilia sh tests/mpi.sh
bench-mpi: all mpi
	sh bench/mpi.sh

help:
	@echo "make [ARCH=dispatch|portable|avx2|native] [MODE=release|debug|tsan] TARGET"
	@echo "  ARCH=dispatch (default on x86-64) runs on any x86-64 and picks the AVX2 or portable"
	@echo "               kernel at start-up (EMILIA_KERNEL=portable forces it); the others build"
	@echo "               one kernel (portable: the default on other targets); docs/build.md"
	@echo "  all          build ./emilia and the tools (default)"
	@echo "  test         layer check, the Check test suites (installs Check as root), test-dispatch,"
	@echo "               test-install, test-python, test-readme"
	@echo "               (TEST_SUITES=\"board perft\": those suites only)"
	@echo "  test-dispatch  (ARCH=dispatch) both kernels of one binary agree on perft, bench, solver"
	@echo "  debug        build with AddressSanitizer + UndefinedBehaviorSanitizer"
	@echo "  test-debug   run the test suites under ASan + UBSan"
	@echo "  tsan         run the test suites under ThreadSanitizer"
	@echo "  lib          build the public library: $(BUILD)/lib/libemilia.so.0, libemilia.a, emilia.pc"
	@echo "  install      install binaries, libraries, header, emilia.pc, man pages (PREFIX=/usr/local DESTDIR=)"
	@echo "  uninstall    remove what install installed (same PREFIX and DESTDIR)"
	@echo "  test-install install into a temporary DESTDIR, build a program against it, uninstall"
	@echo "  test-python  the Python binding's tests (python/, release builds)"
	@echo "  test-readme  run the cheap commands of README.md (its sh blocks; release builds)"
	@echo "  bench        ./emilia bench: the search node signature (more: bench-* targets)"
	@echo "  perft-deep   check perft against the deep reference counts (minutes)"
	@echo "  mpi          build ./emilia-mpi with mpicc (needs libopenmpi-dev; docs/mpi.md)"
	@echo "  test-mpi     emilia-mpi against the single-process commands under mpirun (tests/mpi.sh)"
	@echo "  deb          Debian packages emilia, libemilia0, libemilia-dev into build/deb/, with lintian"
	@echo "  test-deb     build the packages, dpkg -i them, check /usr/bin/emilia and the library, purge (root)"
	@echo "  cross-arm64  cross-compile the portable build for arm64 (build/arm64-portable-release/)"
	@echo "  test-arm64   perft, bench and the board and rules suites under qemu-aarch64, against x86"
	@echo "  clean        remove build outputs"

# ---- evaluation: embedded weights, zlib for the trainer, training recipe ----
# blobs.c embeds data/eval.bin with .incbin: rebuild it when the file changes.
$(KDIRS:%=%/src/core/blobs.o) $(KDIRS:%=%/pic/blobs.o): data/eval.bin
# ... and the weights of 8x8 Anti, 6x6 and 6x6 Anti, stored gzipped, unpacked into build/blobs/.
GAME_BLOBS := build/blobs/eval-anti.bin build/blobs/eval-6x6.bin build/blobs/eval-6x6-anti.bin
build/blobs/%.bin: data/%.bin.gz
	@mkdir -p $(@D)
	gzip -dc $< > $@.tmp && mv $@.tmp $@
$(KDIRS:%=%/src/core/blobs.o) $(KDIRS:%=%/pic/blobs.o): $(GAME_BLOBS)
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
# Full training run (see README, "Training the evaluation"): writes data/eval.bin and bench/eval-train.txt.
eval-train: tools
	nice ./emilia-train --data $(DATA) --selfplay data/selfplay --out data/eval.bin --threads $(EVAL_THREADS) \
	  --solve 10 --max-solve 2000000 --cache build/eval-labels.cache --report bench/eval-train.txt \
	  --labels data/labels --drop-after 15-23 --check-depths 4,8 --check-max 300 --epochs 300 \
	  --phase-overlap 2 --huber 3
	@$(MAKE) --no-print-directory all
bench-eval: all
	sh bench/eval.sh $(DATA)
# The learning curve: held-out error at 20-24 empties against the share of training games
# (bench/eval-curve.sh; about 3 minutes on 2 cores after `make eval-train` has filled the label cache).
bench-eval-curve: tools
	EVAL_THREADS=$(EVAL_THREADS) sh bench/eval-curve.sh $(DATA)
# `make eval-games`: the pattern evaluations of 8x8 Anti, 6x6 and 6x6 Anti from generated games
# (no archives needed; docs/evaluation.md), about 13, 8 and 12 minutes on 2 cores.  Writes
# data/eval-{anti,6x6,6x6-anti}.bin.gz and their reports bench/eval-{anti,6x6,6x6-anti}.txt.
.PHONY: eval-games
eval-games: tools
	nice ./emilia-train --game-train anti --games 24000 --game-exact 16 --game-max-search 60000 \
	  --threads $(EVAL_THREADS) --out build/eval-anti.bin --report bench/eval-anti.txt
	nice ./emilia-train --game-train 6x6 --games 30000 --game-exact 18 --game-max-search 1000000 \
	  --threads $(EVAL_THREADS) --out build/eval-6x6.bin --report bench/eval-6x6.txt
	nice ./emilia-train --game-train 6x6-anti --games 30000 --game-exact 16 --game-max-search 1000000 \
	  --threads $(EVAL_THREADS) --out build/eval-6x6-anti.bin --report bench/eval-6x6-anti.txt
	for g in anti 6x6 6x6-anti; do gzip -9nc build/eval-$$g.bin > data/eval-$$g.bin.gz || exit 1; done
	@$(MAKE) --no-print-directory all

# ---- book: embedded default book, book recipe, book benchmarks ----
# blobs.c embeds book/emilia.book with .incbin: rebuild it when the file changes.
$(KDIRS:%=%/src/core/blobs.o) $(KDIRS:%=%/pic/blobs.o): book/emilia.book
BOOK_DATA ?= $(if $(DATA),$(DATA),../shared/data/games)
BOOK_LEVEL ?= 6
BOOK_THREADS ?= 2
.PHONY: book bench-book
# Default book from the WTHOR games plus engine searches (see docs/protocols.md, "Opening book").
book: tools
	nice sh book/build.sh $(BOOK_DATA) $(BOOK_LEVEL) $(BOOK_THREADS)
	@$(MAKE) --no-print-directory all
bench-book: all
	sh bench/book.sh

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
$(FUZZ_DIR)/src/%.o: src/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(INC_FRONT) -c $< -o $@
$(FUZZ_DIR)/src/core/api.o: include/emilia.h
$(FUZZ_DIR)/src/core/blobs.o: data/eval.bin book/emilia.book $(GAME_BLOBS)
$(FUZZ_DIR)/harness.o: tests/fuzz/harness.c tests/fuzz/harness.h $(HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(INC_TOOLS) -c $< -o $@
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

# ---- match runner (emilia-match) --------------------------------------------
# Strength table of bench/match-results.md: Emilia Easy/Normal/Hard against
# gtp-rhino (Debian package grhino) levels 3 and 4, and Hard against Normal.
# XOT: the XOT openings file; MATCH_GAMES games per match (hours at 100).
XOT ?= ../shared/data/openings/xot-large.txt
MATCH_GAMES ?= 100
.PHONY: match-strength
match-strength: all
	sh bench/match-strength.sh $(XOT) $(MATCH_GAMES)

# ---- clock: time used per move against per-move and whole-game
# clocks (bench/clock-results.md); CLOCK_GAMES games per clock (5 s a move:
# 5 minutes a game).
CLOCK_GAMES ?= 4
.PHONY: bench-clock
bench-clock: all
	sh bench/clock.sh $(XOT) $(CLOCK_GAMES)

# ---- endgame solver ---------------------------------------------------------
# ffo: FFO #1-#39 must all be solved exactly (CI runs the fast part in
# tests/test_endgame.c).  bench-ffo: FFO #40-#49 with 1 thread.
# bench-ffo-threads: #40-#59 with 1 and 2 threads and
# the speedup.  bench-6x6: the 6x6 start solved from scratch.  Each run
# appends to bench/ffo-history.csv.
.PHONY: ffo bench-ffo bench-ffo-threads bench-6x6
ffo: all
	sh bench/ffo.sh 1-39 1 ./emilia --quiet
bench-ffo: all
	sh bench/ffo.sh 40-49 1 ./emilia --quiet
bench-ffo-threads: all
	sh bench/ffo-threads.sh ./emilia 40-59
bench-6x6: all
	sh bench/solve-6x6.sh ./emilia 1

# ---- search: bench signature on every build, thread speedup ----
# make bench-signature [BENCH=N]: builds portable, avx2 and debug, checks that
# `emilia bench` gives the same "Nodes searched" everywhere (and equals N).
.PHONY: bench-signature bench-smp
bench-signature:
	sh bench/check-signature.sh $(BENCH)
# bench-smp: the 2-thread time-to-depth speedup at depths 14 and 16
# (bench/search-results.md).
bench-smp: all
	sh bench/search-smp.sh 2 5 14
	sh bench/search-smp.sh 2 5 16

# ---- game review: the time of a full review of 60-move games at
# the default settings (bench/review-results.md).
.PHONY: bench-review
bench-review: all
	sh bench/review.sh ./emilia $(DATA)

# ---- memory: hash tables' start-up time and peak RSS ----
# bench-memory: start-up time and peak RSS for --hash 1, 64, 1024 and 4096, the
# first searches, and the refusal of a size above the memory available
# (bench/memory-results.md).
.PHONY: bench-memory
bench-memory: all
	sh bench/memory.sh ./emilia

# ---- arm64: the portable build cross-compiled, run under qemu-user (docs/packaging.md) ----
# cross-arm64: build/arm64-portable-release/: emilia and the library, with Debian's
# gcc-aarch64-linux-gnu.  test-arm64 (tests/arm64.sh; installs what it needs as root,
# check:arm64 through multiarch): also the board and rules suites, then runs them, perft
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

# ---- the public API: how soon emilia_stop() ends a 1 s search (bench/api-results.md) ----
.PHONY: bench-api-stop
# (linked with the public libemilia.a, the library users get: both kernels in ARCH=dispatch)
$(BUILD)/bench/api-stop: bench/api-stop.c $(PUBLIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(PUBLIC_LIB) $(LDFLAGS_ALL) $(LDLIBS_ALL)
bench-api-stop: $(BUILD)/bench/api-stop
	$(BUILD)/bench/api-stop $(TARGET_MS)
