#!/bin/sh
# Guest side of 'make test': the interface smoke test, then the series'
# kselftests through run_vmtests.sh.  Each part prints TAP between
# '### SECTION' markers; the host counts the results.
set -u
rc=0
echo "### SECTION smoke"
sh /guest/smoke.sh || rc=1
if [ -x /guest/mm/run_vmtests.sh ] && [ -s /guest/mm/categories ]; then
	echo "### SECTION kselftest"
	cd /guest/mm
	# file-backed tests need a disk, not the initramfs or tmpfs
	if grep -q ' /mnt/scratch ' /proc/mounts; then
		export TMPDIR=/mnt/scratch
	fi
	# run_vmtests.sh exits 4 (ksft_skip) if any test skipped.
	bash ./run_vmtests.sh -t "$(cat categories)"
	st=$?
	[ "$st" = 0 ] || [ "$st" = 4 ] || rc=1
fi
echo "### SECTION end"
exit $rc
