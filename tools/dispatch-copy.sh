#!/bin/sh
# One kernel's copy of a program or of the library, for the dispatched build (ARCH=dispatch;
# docs/build.md, src/core/dispatch.c).  Run by the Makefile:
#
#   sh tools/dispatch-copy.sh program|library KERNEL OUT.o INPUT...
#
# The INPUTs (objects and archives, in link order) are joined by `ld -r` into OUT.o, in which
#  - every defined symbol becomes local except the entry points, renamed dispatch_KERNEL_NAME:
#    for a program main and board_kernel_choice, for the library every emilia_* function;
#  - the constructors' section .init_array becomes dispatch_init_KERNEL, a plain data section
#    that the loader does not run, between the symbols dispatch_KERNEL_init_begin and
#    dispatch_KERNEL_init_end: src/core/dispatch.c runs the chosen copy's constructors only.
# So two copies of the same code coexist in one link, each calling only itself.
# LD, OBJCOPY, NM and SIZE name the tools (default ld, objcopy, nm, size).
set -eu
[ $# -ge 4 ] || { echo "usage: sh tools/dispatch-copy.sh program|library KERNEL OUT.o INPUT..." >&2; exit 2; }
kind=$1
k=$2
out=$3
shift 3
LD=${LD:-ld}
OBJCOPY=${OBJCOPY:-objcopy}
NM=${NM:-nm}
SIZE=${SIZE:-size}
joined=$out.r
syms=$out.syms
trap 'rm -f "$joined" "$syms"' EXIT
"$LD" -r -o "$joined" "$@"
case $kind in
program)
	printf 'main dispatch_%s_main\nboard_kernel_choice dispatch_%s_board_kernel_choice\n' "$k" "$k" >"$syms" ;;
library)
	"$NM" -g --defined-only "$joined" | awk -v k="$k" '$3 ~ /^emilia_/ { print $3, "dispatch_" k "_" $3 }' >"$syms" ;;
*)
	echo "dispatch-copy: $kind: program or library" >&2
	exit 2 ;;
esac
# the constructors: the flags make the renamed section plain data (a section of type
# INIT_ARRAY would be merged into the program's .init_array by the linker)
init=$("$SIZE" -A "$joined" | awk '$1 == ".init_array" { print $2 }')
if [ -n "$init" ]; then
	set -- --rename-section ".init_array=dispatch_init_$k,alloc,load,data,contents" \
		--add-symbol "dispatch_${k}_init_begin=dispatch_init_$k:0,global" \
		--add-symbol "dispatch_${k}_init_end=dispatch_init_$k:$init,global"
else
	set --
fi
"$OBJCOPY" --redefine-syms="$syms" --wildcard --keep-global-symbol="dispatch_${k}_*" "$@" "$joined" "$out"
