#!/usr/bin/env bash
# Installs what hashring-lab needs and is missing; says what it installs; fails with the
# name of the missing piece. Idempotent: a few seconds when everything is present.
#   tools/setup.sh build   the wasm toolchain, the wasm-bindgen CLI, and npm's build tools:
#                          wasm-opt (binaryen) and the minifiers tools/build_page.mjs runs
#   tools/setup.sh test    the above plus Chromium + ChromeDriver and Playwright (npm)
# Versions are pinned in tools/versions.env (npm ones in package.json / package-lock.json).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=versions.env
source tools/versions.env
mode=${1:-test}
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PWD/node_modules/.bin:$PATH"
mkdir -p target/tools
WASM_ENV=target/tools/wasm.env

say() { printf 'setup: [%4ss] %s\n' "$SECONDS" "$*"; }
die() { printf 'setup: ERROR: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else die "need root (or sudo) to run: $*"; fi; }
apt_updated=
apt_install() {
  command -v apt-get >/dev/null || die "apt-get not found; install these packages by hand: $*"
  if [ -z "$apt_updated" ]; then say "apt-get update"; as_root apt-get update -qq || die "apt-get update failed"; apt_updated=1; fi
  say "installing Debian packages: $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null || die "apt-get install $* failed"
}

command -v cargo >/dev/null || die "cargo not found: install Rust with rustup (https://rustup.rs) first"
command -v python3 >/dev/null || apt_install python3
command -v node >/dev/null && command -v npm >/dev/null || apt_install nodejs npm
for c in rustfmt clippy; do
  if ! cargo "${c/rustfmt/fmt}" --version >/dev/null 2>&1; then say "adding rustup component $c"; rustup component add "$c" || die "rustup component add $c failed"; fi
done

# 1. The wasm32 standard library: rustup's target, or Debian's std source + build-std.
if [ ! -s "$WASM_ENV" ] || ! grep -q . "$WASM_ENV"; then
  if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo "# rustup's wasm32-unknown-unknown target is installed; nothing to set" > "$WASM_ENV"
  else
    say "adding the wasm32-unknown-unknown target (rustup)"
    if timeout 180 rustup target add wasm32-unknown-unknown; then
      echo "# rustup's wasm32-unknown-unknown target is installed; nothing to set" > "$WASM_ENV"
    else
      say "rustup could not fetch the target; falling back to Debian's rustc-web + build-std"
      apt_install rustc-web cargo-web rust-web-src rust-web-llvm lld-22
      rustup toolchain list | grep -q '^debian-web' || rustup toolchain link debian-web /usr
      cat > "$WASM_ENV" <<'ENV'
export RUSTUP_TOOLCHAIN=debian-web RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort
ENV
      (source "$WASM_ENV" && cargo fetch --target wasm32-unknown-unknown) || die "cargo fetch for build-std failed"
    fi
  fi
fi

# 1b. The page's own build (tools/build_page.mjs, wasm-release) rebuilds std with panics as a bare trap:
# no panic message, location or formatting machinery in the page (−31 KB gzip; the page has
# no panic hook, so a panic already showed the user nothing but a dead page). It needs std's
# source (rustup's rust-src); without it the page builds as before, only bigger. Nor does
# it keep panic locations (-Zlocation-detail=none: file names and line numbers a bare trap
# never shows; −89 B gzip). std is built with its `optimize_for_size` feature: smaller sorts
# and formatting (−3.2 KB gzip; the heavy clicks measured no slower, docs/PERFORMANCE.md),
# which pays for std's own allocator, faster than talc on the heaviest click. An env file
# written before either is written anew.
PAGE_ENV=target/tools/page.env
if [ ! -s "$PAGE_ENV" ] || ! grep -q -e 'optimize_for_size' -e 'no std source' "$PAGE_ENV"; then
  if ! grep -q debian-web "$WASM_ENV" && { rustup component list --installed 2>/dev/null | grep -q '^rust-src' || { say "adding rustup component rust-src (for the page's build-std)"; timeout 180 rustup component add rust-src; }; }; then
    cat > "$PAGE_ENV" <<'ENV'
export RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none"
ENV
  else
    echo "# no std source: the page builds with the prebuilt std (bigger)" > "$PAGE_ENV"
  fi
fi
# std's own dependencies (addr2line, …) fetched now, so the page's build finds them.
if grep -q BUILD_STD "$PAGE_ENV"; then
  (source "$WASM_ENV" && source "$PAGE_ENV" && cargo fetch -q --target wasm32-unknown-unknown) || die "cargo fetch of std's sources for the page's build-std failed"
fi

# Chromium and ChromeDriver for tests come from Debian: fetched and unpacked in the
# background while cargo compiles (one is network and disk, the other CPU).
# A Chinese font too (1.6 MB): without one, Chromium draws every 简体中文 character as an
# empty box, so the zh-CN pictures cannot be checked by looking and the zh-CN layout tests
# would measure boxes, not the glyphs a reader in China sees.
# (`fc-list` is in Debian's fontconfig, which Chromium does not need: without it, look for
# the font's own file.)
has_chinese_font() {
  if command -v fc-list >/dev/null; then [ -n "$(fc-list :lang=zh 2>/dev/null)" ]
  else [ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ]; fi
}
chromium_job=
browser_packages=()
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] || browser_packages+=(chromium chromium-driver)
has_chinese_font || browser_packages+=(fonts-wqy-microhei)
# The printed handout is checked as printed: Chromium's PDF read back as text (pdftotext) and
# as pictures (pdftoppm), both from Debian's poppler-utils.
if [ "$mode" = test ]; then command -v pdftotext >/dev/null && command -v pdftoppm >/dev/null || browser_packages+=(poppler-utils); fi
if [ "$mode" = test ] && [ ${#browser_packages[@]} -gt 0 ]; then
  say "installing Debian packages ${browser_packages[*]} (in the background)"
  ( apt_install "${browser_packages[@]}" ) > target/tools/apt.log 2>&1 &
  chromium_job=$!
fi

# 2. The wasm-bindgen CLI, at the pinned version. It only writes the glue, so its own speed
# hardly matters: compile it fast (no LTO, many codegen units, no optimisation; its release
# profile asks for fat LTO and one unit) and without the runner's download features.
# Unoptimised, it compiles in 50 s instead of 117 (90 CPU-s instead of 225) and writes the
# same glue; the page's glue then takes 0.8 s instead of 0.2, the browser tests' runner 8 s
# instead of 3 (measured 2026-12-06).
# (Trunk is not needed: tools/build_page.mjs runs the build Trunk.toml describes, with the
# minifiers Trunk links taken prebuilt from npm — Trunk itself was a 5–7 minute compile.)
tool_install() {
  CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=false \
  CARGO_PROFILE_RELEASE_INCREMENTAL=false \
    cargo install --force "$@"
}
lock_bindgen=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock 2>/dev/null || true)
[ -z "$lock_bindgen" ] || [ "$lock_bindgen" = "$WASM_BINDGEN_VERSION" ] || die "Cargo.lock has wasm-bindgen $lock_bindgen but tools/versions.env pins $WASM_BINDGEN_VERSION"
grep -q "wasm_bindgen = \"$WASM_BINDGEN_VERSION\"" Trunk.toml || die "Trunk.toml [tools] wasm_bindgen must be \"$WASM_BINDGEN_VERSION\" (tools/versions.env)"
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (cargo install)"
  # --force: cargo may still list a package whose binary was deleted, and skip it.
  tool_install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --no-default-features || die "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION failed"
  [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" = "$WASM_BINDGEN_VERSION" ] || die "wasm-bindgen $WASM_BINDGEN_VERSION is still not on PATH after installing it"
fi

# 3. npm tools: binaryen (wasm-opt), the page's minifiers (@swc/core, lightningcss,
#    @minify-html/node), playwright-core, axe-core (accessibility checks), jsqr (decodes the
#    page's QR code in the tests) and action-validator (the publishing workflow's check),
#    exactly as package-lock.json says.
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/@swc/core ] || [ ! -d node_modules/lightningcss ] || [ ! -d node_modules/@minify-html/node ] || [ ! -d node_modules/playwright-core ] || [ ! -f node_modules/axe-core/axe.min.js ] || [ ! -f node_modules/jsqr/dist/jsQR.js ] || [ ! -x node_modules/.bin/action-validator ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages (binaryen, the minifiers, playwright-core, axe-core, jsqr, action-validator) with npm ci"
  npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed"
fi

# 4. For tests: wait for Chromium and ChromeDriver (started in the background above).
if [ -n "${chromium_job:-}" ]; then
  wait "$chromium_job" || die "apt-get install ${browser_packages[*]} failed (log: target/tools/apt.log)"
fi
if [ "$mode" = test ]; then
  [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] || die "chromium or chromedriver missing after installing them"
  has_chinese_font || die "no Chinese font after installing fonts-wqy-microhei"
  if [ "$(/usr/bin/chromium --version 2>/dev/null | grep -o '[0-9]*' | head -1)" != "$(/usr/bin/chromedriver --version 2>/dev/null | grep -o '[0-9]*' | head -1)" ]; then
    die "chromium and chromedriver major versions differ; run: apt-get install --only-upgrade chromium chromium-driver"
  fi
fi
say "ok ($mode tools present)"
