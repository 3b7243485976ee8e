#!/bin/sh
# Guest side of the aging-cost measurement: run lab/aging_cost with the
# arguments given to vm-run.sh and tag each JSON record with the kernel.
set -eu
kernel=$(uname -r)
/guest/aging_cost "$@" | sed "s/^{/{\"kernel\":\"$kernel\",/"
