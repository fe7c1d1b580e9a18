#!/usr/bin/env bash
# Builds the npm package `sdconv` in js/: the engine compiled to wasm32-unknown-unknown, the
# wasm-bindgen glue, wasm-opt, laid out as js/wasm/{sdconv.js,sdconv_bg.wasm,sdconv_fonts.bin}
# beside the package's own modules. Runs on a clean Debian machine: whatever is missing is installed
# (apt packages need root).
#
# The toolchain is Debian's, not rustup's (no `rustup target add`): rustc-web and cargo-web,
# with std for wasm32 built from rust-web-src by -Zbuild-std under RUSTC_BOOTSTRAP=1, linked by
# rust-lld (rust-web-llvm, pointing at lld-22). wasm-bindgen-cli comes from crates.io at exactly
# the version of the wasm-bindgen crate in Cargo.lock (the two must match); wasm-opt from npm's
# binaryen (js/package-lock.json).
#
# Environment: SDCONV_JS_TOOLS (where wasm-bindgen-cli is installed; default
# ~/.cache/sdconv-js-tools), SDCONV_JS_TARGET_DIR for the wasm build (default js/target).
set -euo pipefail
js="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$js")"
cd "$root"
started=$SECONDS

say() { printf '== js/build.sh: %s\n' "$*"; }

# --- Debian's Rust for the web -----------------------------------------------------------------
# rustup's shims come first on PATH: every call below names /usr/bin's rustc and cargo.
apt_packages=()
[ -x /usr/bin/rustc ] && /usr/bin/rustc --print target-list | grep -qx wasm32-unknown-unknown \
    || apt_packages+=(rustc-web)
[ -x /usr/bin/cargo ] || apt_packages+=(cargo-web)
[ -d /usr/lib/rustlib/src/rust/library/std ] || apt_packages+=(rust-web-src)
command -v rust-lld >/dev/null || [ -x /usr/bin/rust-lld ] || apt_packages+=(rust-web-llvm)
command -v lld-22 >/dev/null || apt_packages+=(lld-22)
command -v npm >/dev/null || apt_packages+=(nodejs npm)
if [ ${#apt_packages[@]} -gt 0 ]; then
    say "installing ${apt_packages[*]}"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${apt_packages[@]}"
fi

# --- npm dev dependencies (binaryen's wasm-opt, and the tests' tools) ---------------------------
if [ ! -x "$js/node_modules/.bin/wasm-opt" ]; then
    say "npm ci"
    (cd "$js" && npm ci --no-audit --no-fund --ignore-scripts)
fi

# --- wasm-bindgen-cli, the version of the crate ----------------------------------------------------
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' \
    Cargo.lock)
if [ -z "$bindgen_version" ]; then
    echo "js/build.sh: no wasm-bindgen in Cargo.lock" >&2
    exit 1
fi
tools="${SDCONV_JS_TOOLS:-$HOME/.cache/sdconv-js-tools}"
bindgen="$tools/bin/wasm-bindgen"
if ! [ -x "$bindgen" ] || [ "$("$bindgen" --version)" != "wasm-bindgen $bindgen_version" ]; then
    say "installing wasm-bindgen-cli $bindgen_version into $tools"
    # Not --locked: its lock file names a webpki-roots release crates.io no longer serves.
    cargo install wasm-bindgen-cli --version "=$bindgen_version" --root "$tools" --force
fi

# --- the engine for wasm32 ------------------------------------------------------------------
target_dir="${SDCONV_JS_TARGET_DIR:-$js/target}"
say "cargo build (wasm32-unknown-unknown, release)"
# Built for size: the .wasm has a budget of 3 MB gzipped (js/test/size.test.js). Fat LTO in one
# codegen unit with opt-level s takes about a sixth off the code and lets LLVM drop what no
# export reaches; no panic locations (-Zlocation-detail=none: file names and lines of every
# panic site, never shown to a JavaScript caller). panic=abort is what build-std's panic_abort
# gives; no debug info (the workspace's release profile keeps line tables for native
# backtraces, which wasm-bindgen would only strip again).
RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc RUSTFLAGS="-Zlocation-detail=none" \
    CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_PANIC=abort CARGO_INCREMENTAL=0 \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=s CARGO_PROFILE_RELEASE_LTO=fat \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
    /usr/bin/cargo build --release --target wasm32-unknown-unknown \
    -Zbuild-std=std,panic_abort -p sdconv-js --lib --target-dir "$target_dir"

say "wasm-bindgen"
rm -rf "$js/wasm"
"$bindgen" --target web --experimental-reset-state-function --out-dir "$js/wasm" --out-name sdconv --no-typescript \
    "$target_dir/wasm32-unknown-unknown/release/sdconv_wasm.wasm"
node "$js/glue-reset.mjs" "$js/wasm/sdconv.js"
# The bundled fonts, loaded by the package on the first export that needs them.
node "$js/fonts-bundle.mjs" "$root/templates/pdf/fonts" "$js/wasm/sdconv_fonts.bin"

say "wasm-opt"
# Only the names and producers are stripped (16 s). Measured on this package: -O3 made the .wasm
# 7.5 MB but 2.77 MB gzipped against 2.64 MB for the stripped 8.3 MB (its inlining compresses
# worse), took minutes, and no conversion was measurably faster; -Oz was no better. LTO has
# done the optimising already.
"$js/node_modules/.bin/wasm-opt" --strip-debug --strip-producers --enable-bulk-memory \
    --enable-sign-ext --enable-nontrapping-float-to-int --enable-mutable-globals \
    --enable-multivalue --enable-reference-types \
    -o "$js/wasm/sdconv_bg.wasm" "$js/wasm/sdconv_bg.wasm"

raw=$(stat -c %s "$js/wasm/sdconv_bg.wasm")
gz=$(gzip -9c "$js/wasm/sdconv_bg.wasm" | wc -c)
say "done in $((SECONDS - started)) s: sdconv_bg.wasm $raw bytes, $gz gzipped"
