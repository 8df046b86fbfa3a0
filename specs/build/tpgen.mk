# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Regenerate tracepoint headers as a build step (GNU make).
#
#   include $(shell pkg-config --variable=datadir tpgen)/examples/tpgen.mk
#   # or copy these lines; then list $(TPGEN_HEADERS) as prerequisites of your .bpf.o
#
# KERNEL=dir/ builds for a 'tpgen snapshot' of another kernel; default: this one.
# tpgen rewrites a header only when its content changes, and writes a depfile
# naming every format file and BTF it read, so make reruns it exactly when needed.

TPGEN		?= $(shell pkg-config --variable=tpgen tpgen 2>/dev/null || echo tpgen)
TPGEN_EVENTS	?= sched/sched_process_exec sched/sched_switch
TPGEN_RAW	?= sched_switch
TPGEN_OUT	?= .output
TPGEN_KERNEL	:= $(if $(KERNEL),--kernel $(KERNEL))
TPGEN_HEADERS	:= $(TPGEN_OUT)/tp_ctx.h $(if $(TPGEN_RAW),$(TPGEN_OUT)/tp_raw.h)

$(TPGEN_OUT)/tp_ctx.h: | $(TPGEN_OUT)
	$(TPGEN) headers $(TPGEN_KERNEL) -o $@ -M $@.d $(TPGEN_EVENTS)

$(TPGEN_OUT)/tp_raw.h: | $(TPGEN_OUT)
	$(TPGEN) headers --raw $(TPGEN_KERNEL) -o $@ -M $@.d $(TPGEN_RAW)

$(TPGEN_OUT):
	mkdir -p $@

# CI: fail when the committed/generated headers are stale for this kernel
tpgen-check:
	$(TPGEN) headers $(TPGEN_KERNEL) -o $(TPGEN_OUT)/tp_ctx.h --check $(TPGEN_EVENTS)
	$(if $(TPGEN_RAW),$(TPGEN) headers --raw $(TPGEN_KERNEL) -o $(TPGEN_OUT)/tp_raw.h --check $(TPGEN_RAW))

-include $(TPGEN_HEADERS:=.d)
