# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# tpgen: build the generator, run the demo, run the tests.
#
#   make            build ./tpgen (installs missing build packages first, or names them)
#   make run        install what is missing, build, generate specs/sched.yaml, run it
#   make check      the whole test suite (ends with "N passed, N failed")
#   make bench      benchmarks against bpftool, bpftrace, ftrace and hand-written BPF
#   make install    PREFIX=/usr/local DESTDIR=

VERSION		:= 0.1.0
PREFIX		?= /usr/local
CC		?= cc
CFLAGS		?= -O2 -g
CFLAGS		+= -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter
CPPFLAGS	+= -D_GNU_SOURCE -Igen -Ibuild -DTPGEN_VERSION='"$(VERSION)"'
LDLIBS		+= -lbpf -lelf -lz -lyaml

BUILD		:= build
# gen/ holds one folder per stage of the pipeline: lib, input, model, emit, out, cmd.
GEN_STAGES	:= lib input model emit out cmd
GEN_SRCS	:= $(sort $(foreach s,$(GEN_STAGES),$(wildcard gen/$(s)/*.c)))
GEN_OBJS	:= $(patsubst gen/%.c,$(BUILD)/%.o,$(GEN_SRCS))
TEMPLATES	:= $(sort $(wildcard templates/*)) bpf/tpgen_names.c bpf/tpgen_names.h

ifeq ($(V),1)
	Q =
	msg =
else
	Q = @
	msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

.PHONY: all deps deps-test build-deps run check test bench install clean fuzz
.DELETE_ON_ERROR:

all: tpgen

# Debian packages the project needs; installed when missing (root, apt).
DEPS_BUILD	:= make gcc clang libbpf-dev bpftool libelf-dev zlib1g-dev libyaml-dev pkg-config
DEPS_TEST	:= libmicrohttpd-dev prometheus python3-prometheus-client libdw-dev liblzma-dev libbz2-dev libtraceevent-dev libcmocka-dev bpftrace libbpf-tools python3 cmake libclang-rt-14-dev libcap2-bin e2fsprogs strace
DEPS_BENCH	:= linux-perf

deps:
	$(Q)tests/deps.sh $(DEPS_BUILD)

# The headers tpgen includes: when one is missing, install the build packages
# (root) or name them (tests/deps.sh), instead of a compiler error.
BUILD_HEADERS	:= bpf/libbpf.h bpf/btf.h yaml.h libelf.h zlib.h
build-deps:
	$(Q)printf '$(foreach h,$(BUILD_HEADERS),#include <$(h)>\n)' | \
		$(CC) $(CPPFLAGS) -E -x c - >/dev/null 2>&1 || tests/deps.sh $(DEPS_BUILD)

deps-test: deps
	$(Q)tests/deps.sh $(DEPS_TEST)

$(BUILD):
	$(Q)mkdir -p $@

# Templates are embedded in the binary: build/templates.c holds one array each.
$(BUILD)/templates.c: $(TEMPLATES) gen/input/embed.sh | $(BUILD)
	$(call msg,EMBED,$@)
	$(Q)sh gen/input/embed.sh $(TEMPLATES) > $@.tmp && mv $@.tmp $@

$(BUILD)/templates.o: $(BUILD)/templates.c
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(CPPFLAGS) -c $< -o $@

$(BUILD)/%.o: gen/%.c | $(BUILD) build-deps
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(CPPFLAGS) -MMD -MP -c $< -o $@

tpgen: $(GEN_OBJS) $(BUILD)/templates.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

-include $(GEN_OBJS:.o=.d)

run: deps
	$(Q)$(MAKE) --no-print-directory tpgen
	$(Q)tests/run-demo.sh

check: deps-test
	$(Q)$(MAKE) --no-print-directory tpgen
	$(Q)tests/run.sh

test: check

bench: deps-test
	$(Q)tests/deps.sh $(DEPS_BENCH) || echo "  (perf not installable: B2 runs without the perf filter)"
	$(Q)$(MAKE) --no-print-directory tpgen
	$(Q)bench/run.sh

# make install PREFIX=/usr/local DESTDIR=: the tool, BPF-side headers, pkg-config file,
# man page and build-system snippets.
install: tpgen
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/tpgen \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man5 \
		$(DESTDIR)$(PREFIX)/share/tpgen/examples
	$(Q)install -m 0755 tpgen $(DESTDIR)$(PREFIX)/bin/tpgen
	$(Q)$(if $(wildcard bpf/*.h),install -m 0644 $(wildcard bpf/*.h) $(DESTDIR)$(PREFIX)/include/tpgen/)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' specs/build/tpgen.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/tpgen.pc
	$(Q)sed -e 's|@VERSION@|$(VERSION)|' docs/man/tpgen.1 > $(DESTDIR)$(PREFIX)/share/man/man1/tpgen.1
	$(Q)sed -e 's|@VERSION@|$(VERSION)|' docs/man/tpgen-spec.5 > $(DESTDIR)$(PREFIX)/share/man/man5/tpgen-spec.5
	$(Q)install -m 0644 specs/build/tpgen.mk specs/build/CMakeLists.txt specs/*.yaml \
		$(DESTDIR)$(PREFIX)/share/tpgen/examples/ 2>/dev/null || \
		install -m 0644 specs/build/tpgen.mk specs/build/CMakeLists.txt \
		$(DESTDIR)$(PREFIX)/share/tpgen/examples/

# Fuzzers (libFuzzer + ASan + UBSan), parsers and emitters, for FUZZ_SECONDS (60) each; findings in build/fuzz/.
fuzz: deps
	$(Q)$(MAKE) --no-print-directory $(BUILD)/templates.c
	$(Q)tests/fuzz/run.sh $(BUILD)/fuzz

clean:
	$(Q)rm -rf $(BUILD) tpgen out/*
