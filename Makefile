# cerebras-plan - plain GNU Makefile.  See README.md for the quick start.
#   make            build build/cerebras-plan
#   make run        build and run the headline job: estimate GPT-3 175B on CS-2
#   make test       build and run every test, then all again under ASan and
#                   UBSan (make sanitize); ends with "N passed, N failed"
#   make bench      throughput figures ("name value unit" lines)
#   make report     regenerate reports/example (needs gnuplot for the figures)
#   make fuzz       fuzz the description loader (clang, libFuzzer)
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
LIBS     := -lcsv -linih -lgsl -lgslcblas -lm -pthread
CURSES_CFLAGS := $(shell pkg-config --cflags ncursesw 2>/dev/null)
CURSES_LIBS   := $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)
TEST_LIBS := -lcmocka

B        ?= build
CORE_SRC := $(wildcard src/base/*.c src/spec/*.c src/model/*.c src/sim/*.c src/plan/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
DATA     := $(wildcard hw/*.ini models/*.ini reports/*.gp) reports/claims.csv
TESTS    := $(patsubst tests/%.c,$(B)/tests/%,$(wildcard tests/test_*.c))

CORE_OBJ := $(patsubst src/%.c,$(B)/obj/%.o,$(CORE_SRC)) $(B)/obj/embedded.o
CLI_OBJ  := $(patsubst src/%.c,$(B)/obj/%.o,$(CLI_SRC))
BIN      := $(B)/cerebras-plan

.PHONY: all run test check tests sanitize bench report install uninstall clean deps fuzz FORCE
all: $(BIN)

deps:
	@./tools/deps.sh

run: deps
	@$(MAKE) --no-print-directory all
	$(BIN) estimate -m gpt3-175b -s cs2

# The example report in the repository (README shows two of its figures).
report: deps
	@$(MAKE) --no-print-directory all
	$(BIN) report -m gpt3-175b -s cs2 -o reports/example --force

test check: deps
	@$(MAKE) --no-print-directory all $(TESTS)
	@./tests/run.sh
	@$(MAKE) --no-print-directory sanitize

tests: $(TESTS)

# Every test again, built with AddressSanitizer and UndefinedBehaviorSanitizer
# in $(B)-san: any error or leak fails the run.
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=undefined
sanitize:
	@echo "--- the tests again under ASan and UBSan ($(B)-san)"
	@$(MAKE) --no-print-directory WERROR=0 B=$(B)-san CFLAGS="$(SAN_FLAGS)" \
	    LDFLAGS="-fsanitize=address,undefined" all tests
	@B=$(B)-san ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	    LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ./tests/run.sh

# Regenerated on every run, replaced only when it changes, so a new PREFIX
# rebuilds what depends on it.
$(B)/gen/config.h: FORCE
	@mkdir -p $(@D)
	@printf '#define CP_VERSION "%s"\n#define CP_DATADIR "%s"\n' '$(VERSION)' '$(DATADIR)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(B)/embed: tools/embed.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<

$(B)/gen/embedded.c: $(B)/embed $(DATA)
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
$(B)/obj/cli/explore.o $(B)/obj/cli/explore_draw.o $(B)/obj/cli/cmd_explore.o: \
	CPPFLAGS += $(CURSES_CFLAGS)

$(BIN): $(CLI_OBJ) $(B)/libcore.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(B)/libcore.a $(LIBS) $(CURSES_LIBS)

$(B)/tests/%: tests/%.c $(B)/libcore.a $(B)/gen/config.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(B)/libcore.a $(TEST_LIBS) $(LIBS)

# Throughput figures, one line each: "name value unit".
bench: deps $(B)/bench $(BIN)
	@$(B)/bench
	@TERM=xterm-256color COLUMNS=120 LINES=40 CEREBRAS_PLAN_EXPLORE_FRAMES=500 \
	    $(BIN) explore -m gpt3-175b -s cs3 -n 2048 </dev/null 2>&1 >/dev/null
	@for j in 1 2; do \
	    t0=$$(date +%s.%N); \
	    $(BIN) sweep -m gpt3-175b --systems 1..2048 --sparsity $$(seq -s, 0 0.02 0.98) \
	        -j $$j >/dev/null 2>&1; \
	    t1=$$(date +%s.%N); \
	    awk -v a=$$t0 -v b=$$t1 -v j=$$j 'BEGIN { printf "sweep_points_per_s%s %.4g points/s\n", \
	        j == 1 ? "" : "_j" j, 102400 / (b - a) }'; \
	done
	@t0=$$(date +%s.%N); \
	for i in $$(seq 1 100); do $(BIN) estimate -m gpt3-175b -s cs2 -n 192 >/dev/null; done; \
	t1=$$(date +%s.%N); \
	awk -v a=$$t0 -v b=$$t1 'BEGIN { printf "cli_estimate_wall_ms %.3g ms\n", (b - a) * 10 }'

$(B)/bench: tests/bench.c $(B)/libcore.a $(B)/gen/config.h
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(B)/libcore.a $(LIBS)

# Coverage-guided fuzzing of the description loader (clang + libFuzzer):
#   make fuzz FUZZ_SECONDS=60
FUZZ_SECONDS ?= 60
$(B)/fuzz_desc: tests/fuzz_desc.c $(CORE_SRC) $(B)/gen/embedded.c $(B)/gen/config.h
	clang $(CPPFLAGS) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o $@ \
	    tests/fuzz_desc.c $(CORE_SRC) $(B)/gen/embedded.c $(LIBS)

fuzz: deps $(B)/fuzz_desc
	@mkdir -p $(B)/fuzz-corpus
	cp hw/*.ini models/*.ini $(B)/fuzz-corpus/
	$(B)/fuzz_desc -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(B)/fuzz-corpus

install: $(BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	        $(DESTDIR)$(DATADIR)/hw $(DESTDIR)$(DATADIR)/hw/calibration \
	        $(DESTDIR)$(DATADIR)/models $(DESTDIR)$(DATADIR)/reports
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/cerebras-plan
	install -m 644 man/cerebras-plan.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/cerebras-plan.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 644 hw/*.ini $(DESTDIR)$(DATADIR)/hw/
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
