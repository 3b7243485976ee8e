#!/bin/bash
# vm-run.sh [-k BZIMAGE] [-n NAME] [-t SECONDS] [-m MIB] [-z ZRAM_MIB]
#           [-d DISK_MIB] [-w SWAP_MIB] [-D IMAGE] [-f DIR] [-s SHARE_DIR]
#           [-a CMDLINE]
#           GUEST_SCRIPT [ARGS...]
#
# Boot BZIMAGE in qemu (2 vCPUs, 2 NUMA nodes) with a busybox initramfs,
# run GUEST_SCRIPT (busybox sh, or bash via its #! line) and exit with its
# status.  The initramfs holds busybox, bash-static as /bin/bash, the script
# as /guest.sh and the files of DIR under /guest (the working directory).
#   -z  zram swap of that size      -d  scratch ext4 disk at /mnt/scratch
#   -w  swap on a virtio disk of that size (host cache bypassed); its device
#       name is in $SWAP_DEV for the guest script
#   -D  an existing ext4 image, attached read-only (host cache bypassed) and
#       mounted read-only at /mnt/data; its device name (e.g. vdb) is in
#       $DATA_DEV for the guest script
#   -s  host directory shared read-only over 9p at /mnt/host, cache=loose
#       (programs run from 9p in the default cache mode crashed 6.12 guests)
#   -t  timeout (default 1200 s)    -m  guest memory, split over 2 nodes
#   -a  more kernel command line, e.g., debug_pagealloc=on
# The kernel console goes to $BUILD/logs/NAME.console.log, the guest script's
# output (second serial port) to stdout and $BUILD/logs/NAME.guest.log.
# The run fails on timeout, on a missing exit marker, and on any kernel
# warning, BUG, lockdep report, RCU stall, KASAN report or Oops in the log.
# VM_ACCEL=tcg|kvm|auto (default auto: KVM only if a 20 s probe boot works).
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$BUILD/out-test/arch/x86/boot/bzImage
name=vm timeout_s=1200 mem=2048 zram=0 disk=0 swap=0 data='' files='' share='' extra=''
while getopts k:n:t:m:z:d:w:D:f:s:a: opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	n) name=$OPTARG ;;
	t) timeout_s=$OPTARG ;;
	m) mem=$OPTARG ;;
	z) zram=$OPTARG ;;
	d) disk=$OPTARG ;;
	w) swap=$OPTARG ;;
	D) data=$OPTARG ;;
	f) files=$OPTARG ;;
	s) share=$OPTARG ;;
	a) extra=$OPTARG ;;
	*) die "bad option (see the header of $0)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || die "usage: vm-run.sh [options] GUEST_SCRIPT [ARGS...]"
script=$1
shift
for v in "$timeout_s" "$mem" "$zram" "$disk" "$swap"; do
	case $v in '' | *[!0-9]*) die "numeric option expected, got '$v'" ;; esac
done
[ "$mem" -ge 256 ] || die "-m $mem: at least 256 MiB"
[ $((mem % 2)) = 0 ] || die "-m $mem: must be even (two nodes)"
[ -f "$kernel" ] || die "no kernel at $kernel: run 'make kernel'"
[ -f "$script" ] || die "no guest script $script"
[ -z "$files" ] || [ -d "$files" ] || die "-f $files is not a directory"
[ -z "$share" ] || [ -d "$share" ] || die "-s $share is not a directory"
[ -z "$data" ] || [ -f "$data" ] || die "-D $data is not a file"
[ -x /bin/busybox ] || die "/bin/busybox missing: run 'make setup'"
[ -x /bin/bash-static ] || die "/bin/bash-static missing: run 'make setup'"

vm=$BUILD/vm
logs=$BUILD/logs
mkdir -p "$vm" "$logs"
console=$logs/$name.console.log
guestlog=$logs/$name.guest.log

# gen_init_cpio is a stand-alone host tool from the kernel tree.
cpio_tool=$vm/gen_init_cpio
if [ ! -x "$cpio_tool" ]; then
	cc -O2 -o "$cpio_tool" "$TREE/usr/gen_init_cpio.c" || die "cannot build gen_init_cpio"
fi

# /init: mount what the tests need, set up swap and disks, run the script
# with its output on ttyS1, print the exit marker, power off.
init=$vm/$name.init
cat > "$init" <<EOI
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mkdir -p /proc /sys /dev /tmp /mnt
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t cgroup2 cgroup2 /sys/fs/cgroup
mount -t tmpfs tmp /tmp
if grep -q vm_probe /proc/cmdline; then echo VM-PROBE-OK; poweroff -f; fi
exec >/dev/ttyS1 2>&1
echo "### GUEST-START $name"
if [ $zram -gt 0 ]; then
	echo ${zram}M > /sys/block/zram0/disksize && mkswap /dev/zram0 >/dev/null &&
		swapon /dev/zram0 || echo "### zram swap setup failed"
fi
if [ $disk -gt 0 ]; then
	for d in /sys/block/vd*; do
		[ "\$(cat \$d/serial 2>/dev/null)" = scratch ] && scratch=\${d##*/}
	done
	mkdir -p /mnt/scratch && mount -t ext4 /dev/\${scratch:-none} /mnt/scratch ||
		echo "### scratch disk mount failed"
fi
if [ $swap -gt 0 ]; then
	for d in /sys/block/vd*; do
		[ "\$(cat \$d/serial 2>/dev/null)" = swap ] && export SWAP_DEV=\${d##*/}
	done
	mkswap /dev/\${SWAP_DEV:-none} >/dev/null && swapon /dev/\$SWAP_DEV ||
		echo "### disk swap setup failed"
fi
if [ -n "$data" ]; then
	for d in /sys/block/vd*; do
		[ "\$(cat \$d/serial 2>/dev/null)" = data ] && export DATA_DEV=\${d##*/}
	done
	mkdir -p /mnt/data && mount -t ext4 -o ro /dev/\${DATA_DEV:-none} /mnt/data ||
		echo "### data disk mount failed"
fi
if [ -n "$share" ]; then
	mkdir -p /mnt/host && mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=512000,cache=loose host /mnt/host ||
		echo "### 9p mount failed"
fi
cd /guest
/bin/sh /guest.sh $*
rc=\$?
sync
[ -n "$share" ] && umount /mnt/host
[ $disk -gt 0 ] && umount /mnt/scratch
[ -n "$data" ] && umount /mnt/data
echo "### GUEST-EXIT rc=\$rc"
poweroff -f
EOI

list=$vm/$name.cpio.list
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "dir /bin 0755 0 0"
	echo "dir /guest 0755 0 0"
	echo "file /bin/busybox /bin/busybox 0755 0 0"
	echo "file /bin/bash /bin/bash-static 0755 0 0"
	echo "file /init $init 0755 0 0"
	echo "file /guest.sh $(realpath "$script") 0755 0 0"
	if [ -n "$files" ]; then
		(cd "$files" && find . -mindepth 1 -type d | sort) | while read -r d; do
			echo "dir /guest/${d#./} 0755 0 0"
		done
		(cd "$files" && find . -type f | sort) | while read -r f; do
			echo "file /guest/${f#./} $(realpath "$files/$f") 0755 0 0"
		done
	fi
} > "$list"
# Not compressed: unpacking is much faster than gunzip under TCG.
initrd=$vm/$name.cpio
rm -f "$vm/$name.cpio.gz"
"$cpio_tool" "$list" > "$initrd"

half=$((mem / 2))
# shellcheck disable=SC2054 # qemu option values have commas
qemu=(qemu-system-x86_64 -nodefaults -nographic -no-reboot -machine q35
	-smp 2,sockets=2,cores=1,threads=1 -m "${mem}M"
	-object "memory-backend-ram,id=m0,size=${half}M" -numa node,nodeid=0,cpus=0,memdev=m0
	-object "memory-backend-ram,id=m1,size=${half}M" -numa node,nodeid=1,cpus=1,memdev=m1
	-kernel "$kernel" -initrd "$initrd")
if [ "$disk" -gt 0 ]; then
	img=$vm/$name.disk.img
	rm -f "$img"
	truncate -s "${disk}M" "$img"
	mkfs.ext4 -q -F "$img"
	qemu+=(-drive "file=$img,if=none,id=scratch,format=raw,cache=none"
		-device "virtio-blk-pci,drive=scratch,serial=scratch")
fi
if [ "$swap" -gt 0 ]; then
	swap_img=$vm/$name.swap.img
	rm -f "$swap_img"
	truncate -s "${swap}M" "$swap_img"
	qemu+=(-drive "file=$swap_img,if=none,id=swap,format=raw,cache=none,aio=native"
		-device "virtio-blk-pci,drive=swap,serial=swap")
fi
if [ -n "$data" ]; then
	qemu+=(-drive "file=$(realpath "$data"),if=none,id=data,format=raw,readonly=on,cache=none,aio=native"
		-device "virtio-blk-pci,drive=data,serial=data")
fi
if [ -n "$share" ]; then
	qemu+=(-virtfs "local,path=$(realpath "$share"),mount_tag=host,security_model=none,readonly=on,multidevs=remap,id=host")
fi
append="console=ttyS0 panic=-1 kunit_shutdown=none${extra:+ $extra}"

# KVM only when the CPU advertises it and a short probe boot completes.
accel=${VM_ACCEL:-auto}
if [ "$accel" = auto ]; then
	accel=tcg
	if grep -qwE 'vmx|svm' /proc/cpuinfo && [ -w /dev/kvm ]; then
		if timeout 20 "${qemu[@]}" -accel kvm -cpu host -serial stdio \
			-append "$append vm_probe" 2>/dev/null | grep -q VM-PROBE-OK; then
			accel=kvm
		fi
	fi
fi
case $accel in
kvm) qemu+=(-accel kvm -cpu host) ;;
tcg) qemu+=(-accel "tcg,thread=multi" -cpu max) ;;
*) die "VM_ACCEL=$accel: use auto, tcg or kvm" ;;
esac

note "booting $name ($accel, 2 vCPUs, 2 nodes, ${mem} MiB), console log: $console"
rm -f "$console" "$guestlog"
start=$(date +%s)
set +e
timeout --foreground -k 10 "$timeout_s" "${qemu[@]}" \
	-serial "file:$console" -serial stdio -append "$append" </dev/null |
	tee "$guestlog"
qrc=${PIPESTATUS[0]}
set -e
note "$name: qemu exited with $qrc after $(($(date +%s) - start)) s"

fail=0
[ "$qrc" = 124 ] && { echo "vm-run: TIMEOUT after $timeout_s s" >&2; fail=1; }
if splat=$(grep -nE 'WARNING:|BUG:|Oops|Kernel panic|general protection|KASAN|UBSAN|list_add corruption|list_del corruption|Bad page|possible circular locking|lockdep is turned off|DEBUG_LOCKS_WARN_ON|possible recursive locking|inconsistent lock state|suspicious RCU usage|rcu_.* detected stall|rcu: INFO|hung_task|soft lockup|hard LOCKUP' "$console"); then
	echo "vm-run: kernel log has splats:" >&2
	echo "$splat" | head -20 >&2
	fail=1
fi
rc=$(sed -n 's/^### GUEST-EXIT rc=\([0-9]*\).*/\1/p' "$guestlog" | tail -1)
if [ -z "$rc" ]; then
	echo "vm-run: the guest did not finish (no exit marker); last console lines:" >&2
	tail -20 "$console" >&2
	exit 1
fi
[ "$fail" = 0 ] || exit 1
exit "$rc"
