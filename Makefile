# cerebras-plan - plain GNU Makefile.  See README.md for the quick start.
#   make            build build/cerebras-plan
#   make run        build and run the headline question: GPT-3 175B in 30 days on
#                   CS-3 or on H100, how many of each (compare --deadline 30d)
#   make test       what CI runs: build (2 jobs) and run every test with the
#                   first run of the binary of each kind under valgrind
#                   (make valgrind), then all again under ASan and UBSan
#                   (make sanitize) and a short fuzz run (make fuzz-smoke),
#                   each part two at a time and ending with "N passed,
#                   N failed" (README.md, Testing, has the measured times)
#   make test-full  make test with every run under ASan (make sanitize-all
#                   instead of make sanitize), then every run of the
#                   command-line tests' binary under valgrind (make
#                   valgrind-all): the exhaustive run, about an hour
#   make bench      throughput figures ("name value unit" lines)
#   make report     regenerate reports/example (needs gnuplot for the figures)
#   make fuzz       fuzz the parsers, FUZZ_SECONDS=60 each (clang, libFuzzer)
#   make fuzz-smoke the fuzz regressions, then each fuzz target briefly (CI)
#   make install    PREFIX=/usr/local DESTDIR= (binary, man pages, data files)
#   WERROR=1 make   treat warnings as errors (CI does)

VERSION  := 0.1.0
PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR    = $(PREFIX)/bin
MANDIR    = $(PREFIX)/share/man
DATADIR   = $(PREFIX)/share/cerebras-plan

CC       ?= cc
CFLAGS   ?= -O2 -g
WARN     := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wformat=2 -Wpointer-arith -Wcast-qual -Wvla -Wundef
ifeq ($(WERROR),1)
WARN     += -Werror
endif
CPPFLAGS += -D_GNU_SOURCE -I$(B)/gen -Isrc
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) -pthread -MMD -MP
# The four libraries from Debian's -dev packages are linked from their
# static archives: a process then starts about 1.3 ms sooner (no libgsl.so
# and three more objects to map and relocate; `estimate -s h100 -n 1024`,
# 12.0 to 10.6 ms), which every per-process figure of make bench counts.
# libm, libc and curses stay shared.
LIBS     := -Wl,-Bstatic -lcsv -linih -lgsl -lgslcblas -Wl,-Bdynamic -lm -pthread
CURSES_CFLAGS := $(shell pkg-config --cflags ncursesw 2>/dev/null)
CURSES_LIBS   := $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)
TEST_LIBS := -lcmocka

B        ?= build
CORE_SRC := $(wildcard src/base/*.c src/desc/*.c src/model/*.c src/sim/*.c src/plan/*.c \
                      src/grid/*.c src/gpu/*.c src/tm/*.c src/meas/*.c src/claim/*.c \
                      src/check/*.c)
# The front ends: the command line, each kind's face (src/face), the
# writers of the commands' tables (src/print), and the rooms of the
# explorer, the report writer and the sweep.
CLI_SRC  := $(wildcard src/cli/*.c src/face/*.c src/print/*.c src/explore/*.c src/report/*.c \
                       src/sweep/*.c)
DATA     := $(wildcard hw/*.ini models/*.ini reports/*.gp) reports/claims.csv hw/measurements.csv \
            hw/gpu-measurements.csv hw/gpu-measurements-holdout.csv
TESTS    := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/test_*.c))

CORE_OBJ := $(patsubst src/%.c,$(B)/obj/%.o,$(CORE_SRC)) $(B)/obj/embedded.o
CLI_OBJ  := $(patsubst src/%.c,$(B)/obj/%.o,$(CLI_SRC))
BIN      := $(B)/cerebras-plan

.PHONY: all run test check test-fast test-full tests sanitize sanitize-all valgrind valgrind-all bench report install uninstall clean deps fuzz \
        fuzz-smoke FORCE
all: $(BIN)

deps:
	@./tools/deps.sh

run: deps
	@$(MAKE) --no-print-directory all
	$(BIN) compare -m gpt3-175b -s cs3 --gpu h100 --deadline 30d || [ $$? -eq 1 ]

# The example report in the repository (README shows two of its figures).
report: deps
	@$(MAKE) --no-print-directory all
	$(BIN) report -m gpt3-175b -s cs2 --deadline 30d -o reports/example --force

# Each part two at a time (the builds -j2, run.sh two lanes).  The first
# part is make valgrind: the functional tests, which put the first run of
# each kind of the binary under memcheck (one pass where there were two).
test check: deps
	@$(MAKE) --no-print-directory -j2 all $(TESTS)
	@$(MAKE) --no-print-directory valgrind
	@$(MAKE) --no-print-directory sanitize
	@$(MAKE) --no-print-directory fuzz-smoke

test-full: deps
	@$(MAKE) --no-print-directory -j2 all $(TESTS)
	@$(MAKE) --no-print-directory valgrind
	@$(MAKE) --no-print-directory sanitize-all
	@$(MAKE) --no-print-directory fuzz-smoke
	@$(MAKE) --no-print-directory valgrind-all

tests: $(TESTS)

# The functional tests alone (cmocka programs and command-line scripts, two
# at a time): the quick check while working, about two minutes and a half.
test-fast: deps
	@$(MAKE) --no-print-directory -j2 all $(TESTS)
	@JOBS=2 ./tests/run.sh

# Every test again, built with AddressSanitizer and UndefinedBehaviorSanitizer
# in $(B)-san, two at a time: any error or leak fails the run.  The install
# check of tests/cli.sh is skipped (CP_TEST_NO_INSTALL=1): it builds and runs
# a default build, the same as in the functional pass.  CP_TEST_SAN=1 tells
# the scripts this is the ASan pass: tests/cli_numeric.sh takes the sample
# of single runs valgrind-all takes (its sweeps stay whole), and the option
# probes of tests/cli_help.sh run the default build's binary
# (CP_TEST_NATIVE); README.md, Testing, says what the pass covers.  gcc
# links the sanitizers' run-times statically (clang does by default): a
# run starts about 30 ms of CPU sooner (130 ms to 100).  make sanitize-all
# (in make test-full) runs every run of every script under ASan, the 4,300
# of cli_numeric.sh and the probes of cli_help.sh too: about 15 minutes more.
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=undefined
SAN_STATIC = $(shell echo 'int main(void) { return 0; }' | \
               $(CC) -fsanitize=address,undefined -static-libasan -static-libubsan -x c - \
                     -o /dev/null 2>/dev/null && echo -static-libasan -static-libubsan)
sanitize: $(BIN)
	@echo "--- the tests again under ASan and UBSan ($(B)-san)"
	@$(MAKE) --no-print-directory WERROR=0 B=$(B)-san CFLAGS="$(SAN_FLAGS)" \
	    LDFLAGS="-fsanitize=address,undefined $(SAN_STATIC)" -j2 all tests
	@B=$(B)-san ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	    LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 JOBS=2 CP_TEST_NO_INSTALL=1 \
	    $(SAN_SAMPLE) ./tests/run.sh
SAN_SAMPLE = CP_TEST_SAN=1 CP_TEST_NATIVE=$(abspath $(BIN))

sanitize-all: $(BIN)
	@$(MAKE) --no-print-directory sanitize SAN_SAMPLE=

# The functional tests (test programs and command-line scripts, two at a
# time, every check) with the first run of the binary of each kind under
# valgrind's memcheck (tests/run.sh --valgrind; the kinds: tests/lib.sh),
# the rest natively; valgrind-all puts every run of the scripts under it
# (about 1,900 runs, 35 minutes; a few scripts thin their samples there).
# Any error or leak fails the run; valgrind-all skips the install check of
# tests/cli.sh (it runs nothing under memcheck).
valgrind: all tests
	@echo "--- the tests, the first run of each kind under valgrind"
	@./tests/run.sh --valgrind

valgrind-all: all
	@echo "--- the command-line tests, every run of the binary under valgrind"
	@CP_TEST_NO_INSTALL=1 ./tests/run.sh --valgrind-all

# Regenerated on every run, replaced only when it changes, so a new PREFIX
# rebuilds what depends on it.
$(B)/gen/config.h: FORCE
	@mkdir -p $(@D)
	@printf '#define CP_VERSION "%s"\n#define CP_DATADIR "%s"\n' '$(VERSION)' '$(DATADIR)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(B)/embed: tools/embed.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<

# Makefile too: a file added to DATA is embedded without a clean build.
$(B)/gen/embedded.c: $(B)/embed $(DATA) Makefile
	@mkdir -p $(@D)
	$(B)/embed $@ $(DATA)

$(B)/obj/embedded.o: $(B)/gen/embedded.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -std=c11 $(CFLAGS) -c -o $@ $<

$(B)/obj/%.o: src/%.c $(B)/gen/config.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(B)/libcore.a: $(CORE_OBJ)
	$(AR) rcs $@ $^

# Only the explorer's files see curses.
$(patsubst src/%.c,$(B)/obj/%.o,$(wildcard src/explore/*.c)): CPPFLAGS += $(CURSES_CFLAGS)

$(BIN): $(CLI_OBJ) $(B)/libcore.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(B)/libcore.a $(LIBS) $(CURSES_LIBS)

$(B)/tests/%: tests/%.c $(B)/libcore.a $(B)/gen/config.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(B)/libcore.a $(TEST_LIBS) $(LIBS)

# Throughput figures, one line each: "name value unit", then the target
# from tests/bench-targets and whether this run met it (tools/bench.sh).
bench: deps $(B)/bench $(BIN)
	@B=$(B) ./tools/bench.sh

$(B)/bench: tests/bench.c $(B)/libcore.a $(B)/gen/config.h
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(B)/libcore.a $(LIBS)

# Coverage-guided fuzzing with clang's libFuzzer under ASan and UBSan: one
# harness per parser, tests/fuzz_TARGET.c (its header says what it asserts),
# seeds in tests/fuzz/TARGET/, words to try in tests/fuzz/TARGET.dict, and
# inputs that once crashed it in tests/fuzz/regress/TARGET/ (replayed before
# each run).  Findings (crash-*, leak-*, timeout-*, oom-*) go to
# $(B)/fuzz-artifacts/TARGET/, logs to $(B)/fuzz-logs/; FUZZ_JOBS targets
# run at once.
#   make fuzz [FUZZ_SECONDS=60]              each target on $(B)/fuzz-corpus/TARGET,
#                                            which keeps growing from run to run
#   make fuzz-smoke [FUZZ_SMOKE_SECONDS=15]  each target on a fresh copy of its seeds
#                                            (8 targets, 2 at a time: about 70 s)
# Replay one input:  $(B)/fuzz_meas FILE...
FUZZ_SECONDS       ?= 60
FUZZ_SMOKE_SECONDS ?= 15
FUZZ_JOBS          ?= 2
FUZZ_CC            ?= clang
FUZZ_TARGETS := fuzz_desc fuzz_meas fuzz_set fuzz_cli fuzz_run fuzz_gmeas fuzz_gpuhw fuzz_gcli
FUZZ_BINS    := $(addprefix $(B)/,$(FUZZ_TARGETS))
FUZZ_CFLAGS  := -std=c11 $(WARN) -g -O1 -fno-omit-frame-pointer \
                -fsanitize=address,undefined -fno-sanitize-recover=undefined -MMD -MP
FUZZ_CORE    := $(patsubst src/%.c,$(B)/fuzz-obj/%.o,$(CORE_SRC)) $(B)/fuzz-obj/embedded.o
FUZZ_CLI     := $(patsubst src/%.c,$(B)/fuzz-obj/%.o,$(CLI_SRC))
# Longest input per target: a description or CSV file, --set lines and an
# overlay, an argument vector.
FUZZ_LEN_fuzz_desc := 4096
FUZZ_LEN_fuzz_meas := 4096
FUZZ_LEN_fuzz_set  := 2048
FUZZ_LEN_fuzz_cli  := 512
FUZZ_LEN_fuzz_gcli := 512
FUZZ_LEN_fuzz_run  := 512
FUZZ_LEN_fuzz_gmeas := 4096
FUZZ_LEN_fuzz_gpuhw := 2048
# libFuzzer's slow-run watchdog is a process-wide SIGALRM, which the program
# rightly takes as a scheduler's warning to stop; libFuzzer's own threads do
# not block it, so fuzz_run (the program writing files) runs without the
# watchdog and the whole run is bounded by timeout(1) instead.
FUZZ_TIMEOUT_fuzz_run := 0
fuzz_opts = -max_len=$(FUZZ_LEN_$(1)) -timeout=$(or $(FUZZ_TIMEOUT_$(1)),10) -rss_limit_mb=2048 -malloc_limit_mb=512 \
            -artifact_prefix=$(B)/fuzz-artifacts/$(1)/ \
            $(if $(wildcard tests/fuzz/$(1).dict),-dict=tests/fuzz/$(1).dict)
FUZZ_NEED = command -v $(FUZZ_CC) >/dev/null 2>&1 || { \
              echo "$@: needs clang with libFuzzer ($(FUZZ_CC) not found; apt-get install clang)" >&2; \
              exit 1; }

$(B)/fuzz-obj/%.o: src/%.c $(B)/gen/config.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(B)/fuzz-obj/embedded.o: $(B)/gen/embedded.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) -std=c11 -g -O1 -c -o $@ $<

# fuzz_cli calls the program's main as cp_main.
$(B)/fuzz-obj/cli/main.o: CPPFLAGS += -Dmain=cp_main
$(B)/fuzz-obj/cli/main.o: FUZZ_CFLAGS += -Wno-missing-prototypes
$(patsubst src/%.c,$(B)/fuzz-obj/%.o,$(wildcard src/explore/*.c)): CPPFLAGS += $(CURSES_CFLAGS)

# fuzz_cli, fuzz_gcli (fuzz_cli.c for GPUs), fuzz_gmeas (validate) and
# fuzz_run run the whole program; fuzz_run copies its input files from
# tests/bad-input.
$(B)/fuzz_run: CPPFLAGS += -DFUZZ_FIXTURES='"$(CURDIR)/tests/bad-input"'
$(B)/fuzz_cli $(B)/fuzz_gcli $(B)/fuzz_gmeas $(B)/fuzz_run: $(B)/fuzz_%: tests/fuzz_%.c $(FUZZ_CLI) $(FUZZ_CORE)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_CLI) $(FUZZ_CORE) \
	    $(LIBS) $(CURSES_LIBS)

$(filter-out $(B)/fuzz_cli $(B)/fuzz_gcli $(B)/fuzz_gmeas $(B)/fuzz_run,$(FUZZ_BINS)): $(B)/fuzz_%: tests/fuzz_%.c $(FUZZ_CORE)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_CORE) $(LIBS)

# One target (built first): replay its regressions, then fuzz it for
# FUZZ_TIME seconds on FUZZ_CORPUS/TARGET (seeded from tests/fuzz/TARGET);
# one summary line, and the end of the log and the finding's file on failure.
$(B)/fuzz-logs/%.run: $(B)/% FORCE
	@mkdir -p $(@D) $(FUZZ_CORPUS)/$* $(B)/fuzz-artifacts/$*
	@rm -f $(B)/fuzz-logs/$*.ok
	@cp tests/fuzz/$*/* $(FUZZ_CORPUS)/$*/
	@set -- $$(find tests/fuzz/regress/$* -type f 2>/dev/null | LC_ALL=C sort); nreg=$$#; \
	log=$(B)/fuzz-logs/$*.log; \
	if [ $$# -gt 0 ] && ! timeout -s KILL 600 $(B)/$* $(call fuzz_opts,$*) "$$@" >$$log 2>&1; then \
	    tail -n 40 $$log; \
	    echo "$*: FAILED replaying tests/fuzz/regress/$* (log: $$log)"; exit 1; \
	fi; \
	if timeout -s KILL $$(( $(FUZZ_TIME) + 600 )) $(B)/$* $(call fuzz_opts,$*) \
	        -max_total_time=$(FUZZ_TIME) -print_final_stats=1 \
	        $(FUZZ_CORPUS)/$* >$$log 2>&1; then \
	    awk -v t=$* -v r=$$nreg '/^stat::number_of_executed_units:/ { n = $$2 } \
	        /^stat::average_exec_per_sec:/ { s = $$2 } /(DONE|INITED).*cov: / { c = $$0 } \
	        END { sub(/.*cov: /, "", c); sub(/ ft:.*/, "", c); \
	              printf "%s: %d runs, %d runs/s, %d edges, %d regression inputs, 0 crashes\n", \
	                     t, n, s, c, r }' $$log; \
	    touch $(B)/fuzz-logs/$*.ok; \
	else \
	    tail -n 40 $$log; \
	    echo "$*: FAILED: $$(grep -m1 -o 'written to .*' $$log || echo 'see the log') (log: $$log)"; \
	    exit 1; \
	fi

# Every target, FUZZ_JOBS at a time, then "N passed, N failed" (a target
# that did not build has failed).
fuzz_all = $(MAKE) --no-print-directory -k -j$(FUZZ_JOBS) FUZZ_TIME=$(1) FUZZ_CORPUS=$(2) \
               $(patsubst %,$(B)/fuzz-logs/%.run,$(FUZZ_TARGETS)); \
           p=0; f=0; for t in $(FUZZ_TARGETS); do \
               if [ -e $(B)/fuzz-logs/$$t.ok ]; then p=$$((p + 1)); else f=$$((f + 1)); fi; \
           done; \
           echo "$$p passed, $$f failed"; [ $$f -eq 0 ]

fuzz: deps
	@$(FUZZ_NEED)
	@echo "--- the fuzz targets, $(FUZZ_SECONDS) s each after their regressions"
	@rm -f $(B)/fuzz-logs/*.ok
	@$(call fuzz_all,$(FUZZ_SECONDS),$(B)/fuzz-corpus)

fuzz-smoke:
	@$(FUZZ_NEED)
	@echo "--- the fuzz targets, $(FUZZ_SMOKE_SECONDS) s each after their regressions"
	@rm -rf $(B)/fuzz-smoke-corpus $(B)/fuzz-logs/*.ok
	@$(call fuzz_all,$(FUZZ_SMOKE_SECONDS),$(B)/fuzz-smoke-corpus)

-include $(wildcard $(B)/fuzz-obj/*/*.d $(B)/fuzz_*.d)

install: $(BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	        $(DESTDIR)$(DATADIR)/hw $(DESTDIR)$(DATADIR)/hw/calibration \
	        $(DESTDIR)$(DATADIR)/models $(DESTDIR)$(DATADIR)/reports
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/cerebras-plan
	install -m 644 man/cerebras-plan.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/cerebras-plan.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 644 hw/*.ini hw/measurements.csv hw/gpu-measurements.csv \
	        hw/gpu-measurements-holdout.csv $(DESTDIR)$(DATADIR)/hw/
	install -m 644 hw/calibration/*.csv $(DESTDIR)$(DATADIR)/hw/calibration/
	install -m 644 models/*.ini $(DESTDIR)$(DATADIR)/models/
	install -m 644 reports/claims.csv reports/*.gp $(DESTDIR)$(DATADIR)/reports/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/cerebras-plan $(DESTDIR)$(MANDIR)/man1/cerebras-plan.1 \
	      $(DESTDIR)$(MANDIR)/man5/cerebras-plan.5
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf $(B) $(B)-san

-include $(wildcard $(B)/obj/*/*.d $(B)/tests/*.d)
