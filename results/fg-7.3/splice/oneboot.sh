#!/bin/sh
# one splice pass of a 64 MiB file, 4 KiB per splice(): Active(file) growth,
# classic LRU (enabled 0) and MGLRU without FG (enabled 7)
cd /mnt/scratch || exit 1
dd if=/dev/zero of=f bs=1M count=64 2>/dev/null; sync
act() { awk '/^Active\(file\)/ {print $2}' /proc/meminfo; }
for caps in "$@"; do
	echo "$caps" > /sys/kernel/mm/lru_gen/enabled
	for how in splice read; do
		sync; echo 3 > /proc/sys/vm/drop_caches; sleep 1
		a=$(act)
		if [ $how = splice ]; then
			/guest/splicem f 4096 || exit 1
		else
			dd if=f of=/dev/null bs=4k 2>/dev/null || exit 1
		fi
		sleep 1
		b=$(act)
		echo "### SPLICE $how caps=$(cat /sys/kernel/mm/lru_gen/enabled) active_file_kb_before=$a after=$b delta=$((b - a))"
	done
done
