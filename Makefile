# scorch: GNU Make build.
#
#   make                 build ./scorch (optimised, with debug info)
#   make test            build and run the test suite (unit + shell tests)
#   make check           what CI runs: install missing Debian packages (as
#                        root), test, test again under ASan+UBSan, short fuzzing
#   make SAN=1 test      the suite against a sanitizer build (build-san/)
#   make fuzz            build the libFuzzer targets (clang, build-fuzz/)
#   make fuzz-smoke      run each fuzz target briefly on its seeds
#   make bench           benchmarks against the reference tools (slow)
#   make man             man pages in build/man/
#   make install PREFIX=/usr/local [DESTDIR=...]
#   make demo            profile the bundled demo workload into demo.svg

VERSION := 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
PKG_CONFIG ?= pkg-config
PKGS := libelf libdw libzstd libtraceevent libisal

CC ?= cc
ifeq ($(SAN),1)
BUILD ?= build-san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
OPT ?= -O1
else
BUILD ?= build
SANFLAGS :=
OPT ?= -O2
endif

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)

CFLAGS ?= $(OPT) -g
ALL_CFLAGS := -std=c17 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter \
	-Isrc -Itests -I$(BUILD)/gen $(PKG_CFLAGS) $(SANFLAGS) -DSCORCH_VERSION='"$(VERSION)"' $(CFLAGS)
ALL_LDFLAGS := $(SANFLAGS) $(LDFLAGS)
LIBS := $(PKG_LIBS) -liberty -lm -lpthread

SRCS := $(sort $(shell find src -name '*.c' ! -name '*_test.c'))
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
TEST_SRCS := $(sort $(shell find src -name '*_test.c'))
CMD_SRCS := $(sort $(wildcard src/cmd/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_OBJS := $(TEST_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/tests/unit_main.o
DEPS := $(SRCS:%.c=$(BUILD)/obj/%.d) $(TEST_OBJS:.o=.d)

DROPINS := stackcollapse-perf stackcollapse-perf.pl stackcollapse stackcollapse.pl \
	stackcollapse-stap stackcollapse-stap.pl flamegraph flamegraph.pl \
	difffolded difffolded.pl trace2heatmap trace2heatmap.pl

.PHONY: all test check unit fuzz fuzz-smoke bench man install uninstall demo clean deps
all: scorch

ifeq ($(SAN),1)
scorch: $(BUILD)/scorch
else
scorch: $(BUILD)/scorch
	@ln -sf $(BUILD)/scorch scorch
endif

$(BUILD)/scorch: $(BUILD)/obj/src/main.o $(LIB_OBJS)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/unit-tests: $(TEST_OBJS) $(LIB_OBJS)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# Command table: one SCORCH_COMMAND(name, "summary") line per command file.
$(BUILD)/gen/commands.h: $(CMD_SRCS) Makefile
	@mkdir -p $(@D)
	@grep -h '^SCORCH_COMMAND(' $(CMD_SRCS) /dev/null > $@.tmp || true
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

# Unit test table: one UNIT_TEST(name) line per test function.
$(BUILD)/gen/unit_tests.h: $(TEST_SRCS) Makefile
	@mkdir -p $(@D)
	@grep -h '^UNIT_TEST(' $(TEST_SRCS) /dev/null | sed 's/).*/)/' > $@.tmp || true
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

# The explorer's script and style, embedded as C strings (checked in).
src/render/view_assets.c: src/render/view.js src/render/view.css src/render/view2c.sh
	sh src/render/view2c.sh > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/src/main.o: $(BUILD)/gen/commands.h
$(BUILD)/obj/tests/unit_main.o: $(BUILD)/gen/unit_tests.h

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

-include $(DEPS)

unit: $(BUILD)/unit-tests

test: $(BUILD)/scorch $(BUILD)/unit-tests
	@SCORCH=$(CURDIR)/$(BUILD)/scorch UNIT_TESTS=$(CURDIR)/$(BUILD)/unit-tests \
		BUILD_DIR=$(CURDIR)/$(BUILD) BUILD_SAN=$(SAN) bash tests/run.sh

check:
	@bash tests/ci.sh

deps:
	@bash tools/install-deps.sh

# ---- fuzzing (clang + libFuzzer) ----
FUZZ_SRCS := $(sort $(wildcard fuzz/fuzz-*.c))
FUZZ_BUILD ?= build-fuzz
FUZZ_BINS := $(FUZZ_SRCS:fuzz/%.c=$(FUZZ_BUILD)/%)
FUZZ_CFLAGS := -std=c17 -D_GNU_SOURCE -g -O1 -Isrc -Itests -I$(FUZZ_BUILD)/gen $(PKG_CFLAGS) \
	-fsanitize=fuzzer-no-link,address,undefined -DSCORCH_VERSION='"$(VERSION)"'
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_BUILD)/obj/%.o)

fuzz: $(FUZZ_BINS)

# the library objects are prerequisites of a pattern rule only: keep them
# (make deletes such intermediates, and every `make fuzz` rebuilt all)
.SECONDARY: $(FUZZ_LIB_OBJS)

$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

# header dependencies, as for the main build (a changed struct otherwise
# leaves stale fuzz objects that disagree with the new ones)
-include $(FUZZ_LIB_OBJS:.o=.d)

$(FUZZ_BUILD)/fuzz-%: fuzz/fuzz-%.c $(FUZZ_LIB_OBJS)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $^ $(LIBS)

fuzz-smoke: fuzz
	@FUZZ_BUILD=$(FUZZ_BUILD) bash fuzz/run.sh smoke

bench: scorch
	@bash bench/run.sh

# ---- documentation ----
# a man page per command, named as `scorch --help` lists it: the name in
# SCORCH_COMMAND(name, ...) with _ as - (buildid_list -> buildid-list)
PAREN := (
MAN_CMDS := $(shell sed -n 's/^SCORCH_COMMAND$(PAREN)\([a-z0-9_]*\),.*/\1/p' $(CMD_SRCS) /dev/null | tr _ -)
MAN_PAGES := $(BUILD)/man/scorch.1 $(MAN_CMDS:%=$(BUILD)/man/scorch-%.1)
man: $(MAN_PAGES)

$(BUILD)/man/%.1: $(BUILD)/scorch tools/mkman.sh $(wildcard docs/*.md)
	@mkdir -p $(@D)
	@bash tools/mkman.sh $(BUILD)/scorch $* > $@.tmp && mv $@.tmp $@

install: $(BUILD)/scorch man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(BUILD)/scorch $(DESTDIR)$(BINDIR)/scorch
	for n in $(DROPINS); do ln -sf scorch $(DESTDIR)$(BINDIR)/$$n; done
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/scorch
	for n in $(DROPINS); do rm -f $(DESTDIR)$(BINDIR)/$$n; done
	rm -f $(DESTDIR)$(MANDIR)/man1/scorch.1 $(DESTDIR)$(MANDIR)/man1/scorch-*.1

demo:
	@bash tools/demo.sh

clean:
	rm -rf build build-san build-fuzz build-* scorch
