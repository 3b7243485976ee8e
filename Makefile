# MGLRU series: see README.md.  Every target runs from a fresh Debian 12
# machine as root; 'setup' installs what is missing.
SHELL := /bin/bash
.DEFAULT_GOAL := help
.PHONY: help setup tree export kernel kernel-bench test kunit check stress run check-series mail bench report clean

help:
	@sed -n '/^## Targets/,/^## /{/^make /p}' README.md

setup:
	scripts/setup.sh
tree: setup
	scripts/tree.sh
export:
	scripts/export.sh
kernel: tree
	scripts/kernel.sh test
kernel-bench: tree
	scripts/kernel.sh bench
test:
	scripts/test.sh
kunit: tree
	scripts/kunit.sh
check: tree
	scripts/check.sh
stress: tree
	scripts/stress.sh
run:
	scripts/run.sh
check-series: tree
	scripts/check-series.sh
mail: tree
	scripts/mail.sh
bench: tree
	scripts/bench.sh
report:
	scripts/report.sh
# Keeps build/mail (b4's state and earlier revisions, for range-diffs) and
# build/bench (the lab's records, appended run after run).
clean:
	[ ! -d build ] || find build -mindepth 1 -maxdepth 1 ! -name mail ! -name bench -exec rm -rf {} +
