#!/bin/sh
# Cargo runs this instead of rustc for the crates of this package (build.rustc-workspace-wrapper
# in .cargo/config.toml): `$1` is rustc, the rest its arguments.
#
# When rustc links a binary (`--crate-type bin`: the `ladders` command) natively for a glibc Linux
# target, and the C toolchain has the static C libraries, it adds `-C target-feature=+crt-static
# -C relocation-model=static`: the binary is a classic static executable, so a process starts
# without the dynamic loader mapping, relocating and binding four shared libraries, and without
# relocating itself (a static PIE applies 3,400 relocations at every start). `ladders boards` went
# from 2.1 M instructions and 148 page faults to 0.56 M and 52 (docs/solver.md, "Start-up"). The
# price: the program's code, libc's included, sits at a fixed address (the heap, the stack and
# mappings are still randomised). RUSTFLAGS cannot do this: without --target they also reach the
# proc-macro crates, which cannot be built with crt-static.
#
# Everything else passes through unchanged: libraries, tests, build scripts, cargo's `--print`
# queries, cross builds (`--target`), other systems, and toolchains without libc.a (then the
# binary is dynamic, as usual, and only slower to start).
rustc=$1
shift
case " $* " in
*" --print"* | *" --target"* | *" --crate-name build_script_"*) exec "$rustc" "$@" ;;
*" --crate-type bin "*) ;;
*) exec "$rustc" "$@" ;;
esac
case $("$rustc" -vV 2>/dev/null | sed -n 's/^host: //p') in
*-linux-gnu*) ;;
*) exec "$rustc" "$@" ;;
esac
for lib in libc.a libm.a libgcc_eh.a; do
    case $(cc -print-file-name="$lib" 2>/dev/null) in
    /*) ;;
    *) exec "$rustc" "$@" ;;
    esac
done
exec "$rustc" "$@" -C target-feature=+crt-static -C relocation-model=static
