# medley — the MeDLey compiler and its two runtimes.
#
#   make                 build everything into build/
#   make check           every test; ends with "N passed, N failed, N skipped"
#   make examples-check  the example programs on both runtimes, with their figures
#   make demo            set-up on a fresh machine, then the Monte Carlo example
#                        (MPI=openmpi or MPI=mpich: only that MPI installed)
#   make install PREFIX=dir
#   make MPICC=mpicc.openmpi BUILD=build-openmpi   the MPI runtime with another MPI
#                        (default: the mpicc on the PATH; one tree and prefix per MPI)
#   make check MPI=openmpi  the MPI suites on one MPI (default: every MPI installed)
#   make check SANITIZE=1   the same suite under ASan+UBSan
#   make model           SPIN model of the shared-memory protocol (model/)
#
# Sources are picked up by directory, so adding a file needs no edit here.

PREFIX  ?= /usr/local
CC      ?= cc
# The sanitized build has its own tree, so it never mixes objects with the
# normal one (make check SANITIZE=1 uses build-san/).
BUILD   := $(if $(filter 1,$(SANITIZE)),build-san,build)
VERSION := 0.1.0

WARN    := -Wall -Wextra -Werror
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_GNU_SOURCE $(WARN) -MMD -MP
ifeq ($(SANITIZE),1)
  CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
  LDFLAGS += -fsanitize=address,undefined
endif

# `make` alone builds everything (the first rule below is the parser's).
.DEFAULT_GOAL := all

# the CMake package refuses a project built for another word size
SIZEOF_VOID_P := $(shell echo | $(CC) -dM -E - | sed -n 's/^\#define __SIZEOF_POINTER__ //p')

# ---------------------------------------------------------------- the MPI
# The MPI runtime is built with the MPI behind the compiler wrapper MPICC:
# the mpicc on the PATH (what `module load` gives), or another, e.g.
# `make MPICC=mpicc.openmpi BUILD=build-openmpi` (one build tree and one
# install prefix per MPI).  tools/find-mpi.sh asks the wrapper for its
# flags and mpi.h for the MPI's name, and finds its launcher (MPIEXEC=
# names another); the answers stay in $(MPI_BUILD)/mpi/mpi.mk until MPICC,
# the program it names or MPIEXEC change.  The C compiler stays $(CC).
# MPI_BUILD: where libmdl_mpi is built (make check builds the other MPIs'
# in $(BUILD)/mpi-<name>; the rest does not depend on the MPI).
MPICC     ?= mpicc
MPIEXEC   ?=
MPI_BUILD ?= $(BUILD)
MPI_MK    := $(MPI_BUILD)/mpi/mpi.mk
MPI_KEY   := $(strip $(shell p=$$(command -v $(MPICC) 2>/dev/null) && readlink -f "$$p") $(MPIEXEC))
# (not for the goals that need no MPI: demo installs one first)
ifneq ($(filter-out clean demo model fuzz,$(or $(MAKECMDGOALS),all)),)
include $(MPI_MK)
endif
$(MPI_MK): tools/find-mpi.sh $(if $(filter-out $(MPI_KEY),$(MPI_FOUND_KEY)),FORCE,$(if $(filter-out $(MPI_FOUND_KEY),$(MPI_KEY)),FORCE))
	@mkdir -p $(@D)
	@tools/find-mpi.sh '$(MPICC)' '$(MPIEXEC)' '$(CC)' '$(MPI_KEY)' > $@.tmp || { rm -f $@.tmp; exit 1; }
	@mv $@.tmp $@
.PHONY: FORCE
FORCE:

# ---------------------------------------------------------------- compiler
# The front end (grammar/ and medley/ but the driver) is a library of one
# header, medley/frontend.h, which medleyc and mdltrace link (not
# installed); medleyc adds the driver and the emitters (codegen/).
GRAMMAR_C   := $(BUILD)/grammar/parser.tab.c $(BUILD)/grammar/lexer.c
COMPILER_SRC := $(wildcard medley/*.c codegen/*.c grammar/*.c common/*.c)
FRONT_SRC    := $(filter-out medley/main.c,$(wildcard medley/*.c grammar/*.c))
FRONT_LIB    := $(BUILD)/lib/libmedley_front.a
CODEGEN_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(wildcard codegen/*.c))
# common/: the files shared by the compiler, the tools and the runtimes
# (safe files in shared directories)
COMMON_OBJ   := $(patsubst %.c,$(BUILD)/%.o,$(wildcard common/*.c))
MEDLEYC      := $(BUILD)/bin/medleyc

$(BUILD)/grammar/parser.tab.c $(BUILD)/grammar/parser.tab.h &: grammar/parser.y
	@mkdir -p $(@D)
	bison -Wall -Werror --defines=$(BUILD)/grammar/parser.tab.h -o $(BUILD)/grammar/parser.tab.c $<

$(BUILD)/grammar/lexer.c $(BUILD)/grammar/lexer.h &: grammar/lexer.l
	@mkdir -p $(@D)
	flex --header-file=$(BUILD)/grammar/lexer.h -o $(BUILD)/grammar/lexer.c $<

# flex and bison output is not warning-clean under -Wextra; it is not ours.
$(BUILD)/grammar/%.o: $(BUILD)/grammar/%.c $(BUILD)/grammar/parser.tab.h $(BUILD)/grammar/lexer.h
	$(CC) $(CFLAGS) -Wno-unused-function -Wno-sign-compare -Wno-unused-parameter -Igrammar -Imedley -Icommon -I$(BUILD)/grammar -c $< -o $@

$(BUILD)/grammar/%.o: grammar/%.c $(BUILD)/grammar/parser.tab.h $(BUILD)/grammar/lexer.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Igrammar -Imedley -Icommon -I$(BUILD)/grammar -c $< -o $@

$(BUILD)/medley/%.o $(BUILD)/codegen/%.o: CPPFLAGS += -Imedley -Igrammar -Icodegen -Iinclude -Icommon -I$(BUILD)/grammar -DMEDLEY_VERSION='"$(VERSION)"'
$(BUILD)/medley/%.o: medley/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@
$(BUILD)/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icommon -c $< -o $@
$(BUILD)/codegen/%.o: codegen/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(FRONT_LIB): $(FRONT_SRC:%.c=$(BUILD)/%.o) $(GRAMMAR_C:.c=.o)
$(MEDLEYC): $(BUILD)/medley/main.o $(CODEGEN_OBJ) $(FRONT_LIB) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^

# ---------------------------------------------------------------- runtimes
# runtime/README.md: the components and what each library is made of.
# Runtime files include each other by component ("api/rt_backend.h").
CORE_SRC   := $(wildcard runtime/core/*.c runtime/api/*.c runtime/trace/*.c common/*.c) \
              runtime/tracefile/rt_trace_write.c
MPI_SRC    := $(CORE_SRC) $(wildcard runtime/mpi/*.c) runtime/tracefile/rt_trace_parts.c
SHM_SRC    := $(CORE_SRC) $(wildcard runtime/shm/*.c)
MDLRUN_SRC := $(wildcard tools/mdlrun/*.c)

RT_CFLAGS := $(CFLAGS) -fPIC -fvisibility=hidden -Iinclude -Icommon -Iruntime

$(MPI_BUILD)/mpi/%.o: %.c $(MPI_MK)
	@mkdir -p $(@D)
	$(CC) $(RT_CFLAGS) $(MPI_CFLAGS) -c $< -o $@
$(BUILD)/shm/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(RT_CFLAGS) -c $< -o $@

MPI_OBJ := $(MPI_SRC:%.c=$(MPI_BUILD)/mpi/%.o)
SHM_OBJ := $(SHM_SRC:%.c=$(BUILD)/shm/%.o)
MDLRUN_OBJ := $(MDLRUN_SRC:%.c=$(BUILD)/shm/%.o)

# Shared libraries are versioned: the soname's major number is the
# interface version of include/mdl_rt.h (MDL_ABI_VERSION), so a program
# built against one interface never loads a library of another; the usual
# links libmdl_X.so -> libmdl_X.so.N -> libmdl_X.so.N.0.0 sit beside them.
SO_MAJOR := $(shell sed -n 's/^\#define MDL_ABI_VERSION *\([0-9][0-9]*\).*/\1/p' include/mdl_rt.h)
SO_FULL  := $(SO_MAJOR).0.0
SO_LIBS  := $(MPI_BUILD)/lib/libmdl_mpi.so.$(SO_FULL) $(BUILD)/lib/libmdl_shm.so.$(SO_FULL)
LIBS := $(SO_LIBS) $(MPI_BUILD)/lib/libmdl_mpi.a $(BUILD)/lib/libmdl_shm.a

# so_links DIR NAME: the two links of libNAME.so.$(SO_FULL) in DIR
so_links = ln -sf $(2).so.$(SO_FULL) $(1)/$(2).so.$(SO_MAJOR) && ln -sf $(2).so.$(SO_MAJOR) $(1)/$(2).so

$(MPI_BUILD)/lib/libmdl_mpi.so.$(SO_FULL): $(MPI_OBJ)
	@mkdir -p $(@D)
	$(CC) -shared $(LDFLAGS) -Wl,-soname,libmdl_mpi.so.$(SO_MAJOR) -o $@ $^ $(MPI_LIBS)
	$(call so_links,$(@D),libmdl_mpi)
$(BUILD)/lib/libmdl_shm.so.$(SO_FULL): $(SHM_OBJ)
	@mkdir -p $(@D)
	$(CC) -shared $(LDFLAGS) -Wl,-soname,libmdl_shm.so.$(SO_MAJOR) -o $@ $^ -lpthread -lrt
	$(call so_links,$(@D),libmdl_shm)
# every static library (the MPI one may live in another build tree)
archive = @mkdir -p $(@D) && rm -f $@ && ar rcs $@ $^
$(MPI_BUILD)/lib/libmdl_mpi.a:
	$(archive)
$(BUILD)/lib/%.a:
	$(archive)
$(MPI_BUILD)/lib/libmdl_mpi.a: $(MPI_OBJ)
$(BUILD)/lib/libmdl_shm.a: $(SHM_OBJ)

# The trace file component once more for the tools (mdlrun, mdltrace):
# compiled as programs are, not as parts of a library (not installed).
TRACEFILE_LIB := $(BUILD)/lib/libmdl_tracefile.a
$(BUILD)/runtime/tracefile/%.o: runtime/tracefile/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iinclude -Icommon -Iruntime -c $< -o $@
$(TRACEFILE_LIB): $(patsubst %.c,$(BUILD)/%.o,$(wildcard runtime/tracefile/*.c)) $(COMMON_OBJ)

MDLRUN := $(BUILD)/bin/mdlrun
$(MDLRUN_OBJ): RT_CFLAGS += -DMEDLEY_VERSION='"$(VERSION)"'
# mdlrun writes the traces of MDL_TRACE with the libraries' writer.
$(MDLRUN): $(MDLRUN_OBJ) $(TRACEFILE_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread -lrt

# ---------------------------------------------------------------- mdltrace
# The trace analyser (docs/tracing.md): --spec asks the compiler's front
# end (medley/frontend.h), --recover reads the MPI runtime's trace parts
# and writes with the libraries' writer (runtime/tracefile/).
MDLTRACE_SRC := $(wildcard tools/mdltrace/*.c)
MDLTRACE_OBJ := $(MDLTRACE_SRC:%.c=$(BUILD)/%.o)
MDLTRACE     := $(BUILD)/bin/mdltrace

$(BUILD)/tools/mdltrace/%.o: tools/mdltrace/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itools/mdltrace -Imedley -Icommon -Iruntime \
	    -DMEDLEY_VERSION='"$(VERSION)"' -c $< -o $@
$(MDLTRACE): $(MDLTRACE_OBJ) $(FRONT_LIB) $(TRACEFILE_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

# ---------------------------------------------------------------- top level
.PHONY: all install check check-hosts demo examples-check clean unit
all: $(MEDLEYC) $(LIBS) $(if $(MDLRUN_SRC),$(MDLRUN)) $(MDLTRACE)

# The installed pkg-config and CMake files: @NAME@ in pkgconfig/*.pc.in and
# cmake/*.cmake.in.  medley-mpi.pc and medley::mpi carry the MPI of the
# build: its link flags, name, version, wrappers and launcher.
INSTALL_SUBST = -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
    -e 's|@SIZEOF_VOID_P@|$(SIZEOF_VOID_P)|g' -e 's|@MPI_LIBS@|$(MPI_LIBS)|g' \
    -e 's|@MPI_FLAVOR@|$(MPI_FLAVOR)|g' -e 's|@MPI_VERSION@|$(MPI_VERSION)|g' \
    -e 's|@MPI_CC@|$(MPI_CC)|g' -e 's|@MPI_CXX@|$(MPI_CXX)|g' \
    -e 's|@MPI_FC@|$(MPI_FC)|g' -e 's|@MPI_EXEC@|$(MPI_EXEC)|g'

# A prefix that is this tree (a clone in ~/medley, PREFIX=$HOME/medley)
# would fail half-way, its include/ being the one installed: refused before
# anything is built or written.
ifneq ($(filter install,$(MAKECMDGOALS)),)
ifeq ($(realpath $(DESTDIR)$(PREFIX)),$(CURDIR))
$(error PREFIX=$(PREFIX) is this source tree: install elsewhere, e.g. PREFIX=$$HOME/opt/medley)
endif
endif

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(MEDLEYC) $(DESTDIR)$(PREFIX)/bin/
	$(if $(MDLRUN_SRC),install -m 755 $(MDLRUN) $(DESTDIR)$(PREFIX)/bin/)
	install -m 755 $(MDLTRACE) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 include/mdl.h include/mdl_rt.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(LIBS) $(DESTDIR)$(PREFIX)/lib/
	$(call so_links,$(DESTDIR)$(PREFIX)/lib,libmdl_mpi)
	$(call so_links,$(DESTDIR)$(PREFIX)/lib,libmdl_shm)
	for rt in mpi shm; do \
	  sed $(INSTALL_SUBST) pkgconfig/medley-$$rt.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/medley-$$rt.pc; \
	done
	$(if $(wildcard docs/man/*.1),install -m 644 $(wildcard docs/man/*.1) $(DESTDIR)$(PREFIX)/share/man/man1/)
	install -d $(DESTDIR)$(PREFIX)/lib/cmake/medley
	for f in medleyConfig medleyConfigVersion; do \
	  sed $(INSTALL_SUBST) cmake/$$f.cmake.in > $(DESTDIR)$(PREFIX)/lib/cmake/medley/$$f.cmake; \
	done

# Tests run against an installed tree, as users build, so the pkg-config
# files and install rules are exercised too.
STAGE := $(CURDIR)/$(BUILD)/stage
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(BUILD)/tests/unit_tests
# runtime/core/rt_common.c is tested here too: plain C with no runtime
# behind it (the validation layer needs a backend: tests/rt, tests/e2e).
# mkdir and open wrapped in this link only: test_safe_files.c plays another
# process removing the private directory in common/safe_files.c's windows.
UNIT_WRAP := -Wl,--wrap=mkdir,--wrap=open
$(UNIT_BIN): $(UNIT_SRC) $(CODEGEN_OBJ) $(FRONT_LIB) $(COMMON_OBJ) $(BUILD)/shm/runtime/core/rt_common.o \
    $(TRACEFILE_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Imedley -Igrammar -Icodegen -Iinclude -Icommon -Iruntime -I$(BUILD)/grammar $(LDFLAGS) $(UNIT_WRAP) -o $@ $(filter %.c %.o %.a,$^) $(shell pkg-config --libs cunit)

# The MPIs the MPI suites run on (tests/lib/mpi.sh): MPI=mpich or
# MPI=openmpi, else the build's and every other one installed under its
# Debian name (mpicc.<name>) — under SANITIZE=1 the build's only, which
# keeps the whole CI under its time (docs/design.md, Tests).  Each other
# MPI gets its libmdl_mpi built in $(BUILD)/mpi-<name> and a staged
# install in $(BUILD)/stage-<name>.
MPI_NAMES := mpich openmpi
CHECK_MPIS = $(or $(MPI),$(MPI_FLAVOR) $(if $(filter 1,$(SANITIZE)),,$(foreach m,$(filter-out \
    $(MPI_FLAVOR),$(MPI_NAMES)),$(if $(shell command -v mpicc.$(m) 2>/dev/null),$(m)))))
TEST_ENV = MEDLEY_STAGE=$(STAGE) MEDLEY_BUILD=$(CURDIR)/$(BUILD) MEDLEY_MPIS='$(CHECK_MPIS)' SANITIZE=$(SANITIZE)
define stage_all
	@$(MAKE) --no-print-directory install PREFIX=$(STAGE) >/dev/null
	@for m in $(filter-out $(MPI_FLAVOR),$(CHECK_MPIS)); do \
	  ! command -v mpicc.$$m >/dev/null || $(MAKE) --no-print-directory install MPICC=mpicc.$$m MPIEXEC= \
	      MPI_BUILD=$(BUILD)/mpi-$$m PREFIX=$(CURDIR)/$(BUILD)/stage-$$m >/dev/null || exit 1; \
	done
endef

check: all $(UNIT_BIN)
	$(stage_all)
	@$(TEST_ENV) tests/run.sh

# The suites of the test hosts alone (tests/hosts/README.md; also part
# of make check): needs root, else they are skipped with the reason.
check-hosts: all
	$(stage_all)
	@$(TEST_ENV) MEDLEY_SUITES="hosts hosts-mdl" tests/run.sh

# The example programs on both runtimes, each checking its own result
# (also part of make check).
examples-check: all
	$(stage_all)
	@$(TEST_ENV) MEDLEY_SUITES=examples tests/run.sh

demo:
	@MPI='$(MPI)' tools/setup.sh
	@$(MAKE) --no-print-directory all
	@tools/demo.sh

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# The SPIN model of the shared-memory runtime's protocol: every scenario
# checked, every deliberately broken variant rejected (model/verify.sh,
# docs/runtime-shm.md "Model checking"; also run by make check).
.PHONY: model
model:
	@model/verify.sh $(BUILD)/model

# Benchmarks against the staged install (bench/run.sh, docs/performance.md);
# BENCH_QUICK=1 for a one-minute smoke run.
.PHONY: bench
bench: all
	$(stage_all)
	@$(TEST_ENV) BENCH_QUICK=$(BENCH_QUICK) bench/run.sh

# ---------------------------------------------------------------- fuzzing
# make fuzz [FUZZ_TARGET=medleyc|parts|image] [FUZZ_SECONDS=N] [FUZZ_ARGS=...]:
# libFuzzer (clang, ASan+UBSan) on
#   medleyc  parse + check + emit (tests/fuzz/fuzz_medleyc.c), seeded with
#            every spec of the repository;
#   parts    the reader of the MPI runtime's trace parts, then the writer
#            (tests/fuzz/fuzz_parts.c), seeded with tests/fuzz/parts/;
#   image    the trace image check, then the writer (tests/fuzz/fuzz_image.c),
#            seeded with tests/fuzz/images/.
# The corpus grows in build/fuzz/corpus[-TARGET] and findings are written
# to build/fuzz/findings[-TARGET] (docs/robustness.md).
FUZZ_TARGET  ?= medleyc
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_CFLAGS  := -O1 -g -std=c11 -D_GNU_SOURCE -MMD -MP -fno-omit-frame-pointer \
                -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
FUZZ_INC     := -Imedley -Igrammar -Icodegen -Iinclude -Icommon -Iruntime -I$(BUILD)/grammar -DMEDLEY_VERSION='"$(VERSION)"'
FUZZ_OBJ     := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(filter-out medley/main.c,$(COMPILER_SRC)))
FUZZ_GEN_OBJ := $(patsubst $(BUILD)/grammar/%.c,$(BUILD)/fuzz/obj/gen/%.o,$(GRAMMAR_C))
FUZZ_TRACE_OBJ := $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,runtime/tracefile/rt_trace_parts.c \
                    runtime/tracefile/rt_trace_write.c common/safe_files.c)
FUZZ_BIN_medleyc := $(BUILD)/fuzz/medley_fuzz
FUZZ_BIN_parts   := $(BUILD)/fuzz/parts_fuzz
FUZZ_BIN_image   := $(BUILD)/fuzz/image_fuzz
FUZZ_SEEDS_medleyc := $(wildcard tests/golden/*/*.mdl examples/*/*.mdl tests/e2e/*/*.mdl tests/gen/*.mdl) \
                      $(shell find bench -name '*.mdl' 2>/dev/null)
FUZZ_SEEDS_parts   := $(wildcard tests/fuzz/parts/*)
FUZZ_SEEDS_image   := $(wildcard tests/fuzz/images/*)
FUZZ_OPTS_medleyc  := -dict=tests/fuzz/medley.dict -max_len=65536
FUZZ_OPTS_parts    := -max_len=65536
FUZZ_OPTS_image    := -max_len=65536
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_SUFFIX := $(if $(filter medleyc,$(FUZZ_TARGET)),,-$(FUZZ_TARGET))

$(BUILD)/fuzz/obj/%.o: %.c | $(BUILD)/grammar/parser.tab.h $(BUILD)/grammar/lexer.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(WARN) $(FUZZ_INC) -c $< -o $@
$(BUILD)/fuzz/obj/gen/%.o: $(BUILD)/grammar/%.c $(BUILD)/grammar/parser.tab.h $(BUILD)/grammar/lexer.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(WARN) -Wno-unused-function -Wno-sign-compare -Wno-unused-parameter \
	    -Wno-unused-but-set-variable $(FUZZ_INC) -c $< -o $@
$(FUZZ_BIN_medleyc): $(FUZZ_OBJ) $(FUZZ_GEN_OBJ) tests/fuzz/fuzz_medleyc.c
	$(FUZZ_CC) $(subst fuzzer-no-link,fuzzer,$(FUZZ_CFLAGS)) $(WARN) $(FUZZ_INC) -o $@ $(filter %.o %.c,$^)
$(FUZZ_BIN_parts): $(FUZZ_TRACE_OBJ) tests/fuzz/fuzz_parts.c tests/fuzz/fuzz_trace.h
	$(FUZZ_CC) $(subst fuzzer-no-link,fuzzer,$(FUZZ_CFLAGS)) $(WARN) $(FUZZ_INC) -o $@ $(filter %.o %.c,$^)
$(FUZZ_BIN_image): $(FUZZ_TRACE_OBJ) tests/fuzz/fuzz_image.c tests/fuzz/fuzz_trace.h
	$(FUZZ_CC) $(subst fuzzer-no-link,fuzzer,$(FUZZ_CFLAGS)) $(WARN) $(FUZZ_INC) -o $@ $(filter %.o %.c,$^)

.PHONY: fuzz
fuzz: $(FUZZ_BIN_$(FUZZ_TARGET))
	@test -n "$(FUZZ_BIN_$(FUZZ_TARGET))" || { echo "FUZZ_TARGET is medleyc, parts or image"; exit 2; }
	@rm -rf $(FUZZ_DIR)/seeds$(FUZZ_SUFFIX) && mkdir -p $(FUZZ_DIR)/seeds$(FUZZ_SUFFIX) \
	    $(FUZZ_DIR)/corpus$(FUZZ_SUFFIX) $(FUZZ_DIR)/findings$(FUZZ_SUFFIX)
	@for f in $(FUZZ_SEEDS_$(FUZZ_TARGET)); do cp "$$f" "$(FUZZ_DIR)/seeds$(FUZZ_SUFFIX)/$$(echo "$$f" | tr / _)"; done
	$(FUZZ_BIN_$(FUZZ_TARGET)) $(FUZZ_OPTS_$(FUZZ_TARGET)) -max_total_time=$(FUZZ_SECONDS) -timeout=2 \
	    -rss_limit_mb=1024 -malloc_limit_mb=512 -artifact_prefix=$(FUZZ_DIR)/findings$(FUZZ_SUFFIX)/ \
	    $(FUZZ_ARGS) $(FUZZ_DIR)/corpus$(FUZZ_SUFFIX) $(FUZZ_DIR)/seeds$(FUZZ_SUFFIX)
