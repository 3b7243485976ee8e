#!/bin/bash
# Configure and build a kernel from $TREE.
#   scripts/kernel.sh test    tinyconfig + base + debug fragments (KUnit, lockdep)
#   scripts/kernel.sh bench   tinyconfig + base + bench fragments (no debug)
#   scripts/kernel.sh stress  tinyconfig + base + debug + stress (KASAN, ...)
# Output goes to $BUILD/out-<variant> (O=... overrides); the bzImage path is
# printed last.  Fails if any option of the fragments did not survive
# olddefconfig.
set -eu
. "$(dirname "$0")/lib.sh"

variant=${1:-test}
case $variant in
test) frags="base debug" ;;
bench) frags="base bench" ;;
stress) frags="base debug stress" ;;
*) die "unknown variant '$variant' (test, bench or stress)" ;;
esac
out=$(realpath -m "${O:-$BUILD/out-$variant}")
[ -e "$TREE/.git" ] || die "no tree at $TREE: run 'make tree'"
mkdir -p "$out"

files=
for f in $frags; do files="$files $TOP/configs/$f.config"; done

# Generate the config from scratch each time: cheap, and kbuild only
# rebuilds what changed.
make -s -C "$TREE" O="$out" tinyconfig >/dev/null
# shellcheck disable=SC2086
(cd "$out" && "$TREE/scripts/kconfig/merge_config.sh" -m -O "$out" .config $files >/dev/null)
make -s -C "$TREE" O="$out" olddefconfig

# Every requested option must be in the final .config as requested.
# shellcheck disable=SC2086 # $files is a list of paths without spaces
"$TOP/scripts/check-config.sh" "$out/.config" $files

make -s -C "$TREE" O="$out" -j"$JOBS" bzImage
make -s -C "$TREE" O="$out" headers >/dev/null
echo "$out/arch/x86/boot/bzImage"
