#!/usr/bin/env bash
# Install the pinned agent CLIs used by the e2e tests (tests/e2e), and the npm guard hook they host
# (cc-safety-net), into a cache dir.
#
#   .ci/install-clis.sh                 # all of them
#   .ci/install-clis.sh qwen copilot    # only these (names: claude gemini codex qwen copilot opencode droid
#                                       # pi kilo cline cc-safety-net)
#   .ci/install-clis.sh --pins          # print each name, package and pinned version; install nothing
#
# Cache: ${HOOKWRAP_CLI_CACHE:-$HOME/.cache/hookwrap-clis}. Layout (one npm prefix per entry):
#   $CACHE/node_modules/.bin/{claude,gemini,codex}   Claude Code, Gemini CLI, Codex CLI (shared
#                                              prefix, as harness.py and codex_harness.py expect)
#   $CACHE/qwen/node_modules/.bin/qwen         Qwen Code
#   $CACHE/copilot/node_modules/.bin/copilot   GitHub Copilot CLI
#   $CACHE/copilot/pkg-cache/                  Copilot's unpacked runtime (COPILOT_PKG_CACHE_HOME)
#   $CACHE/opencode/node_modules/.bin/opencode OpenCode (the native binary is the optional
#                                              dependency opencode-linux-x64; the tests run it)
#   $CACHE/droid/node_modules/@factory/cli-linux-x64/bin/droid   Factory Droid (the platform
#                                              package alone: the 0.225.1 wrapper has no binary)
#   $CACHE/pi/node_modules/.bin/pi             pi (@mariozechner/pi-coding-agent, plain JS on node)
#   $CACHE/kilo/node_modules/@kilocode/cli-linux-x64/bin/kilo   Kilo CLI (the platform package
#                                              alone: the 7.8.1 wrapper finds no binary on npm)
#   $CACHE/cline/node_modules/.bin/cline       Cline (a node wrapper; the Bun binary the tests run is
#                                              the optional dependency @cline/cli-linux-x64)
#   $CACHE/cc-safety-net/node_modules/.bin/cc-safety-net   cc-safety-net, the npm command-safety
#                                              hook: a peer of hookwrap's guard, which the e2e
#                                              tests host through the bridge and benchmarks/guard.py
#                                              measures beside the guard (not an agent CLI)
#
# Each CLI is checked and installed on its own: one that is already there at its pinned version
# and runs is reused, one that fails to install does not stop the others. The npm prefixes are
# handled at once, the CLIs of one prefix in turn (and with flock, when it is available, against
# another install run). Never fails the build: without node/npm or without registry access it prints a warning and exits 0, and the e2e tests for a missing CLI
# skip with the reason. The last line printed is the cache dir.
set -u

# The packages and versions are in src/hookwrap/generator/pins.txt, the one place they are written.
# Codex's npm package is a node wrapper around a native binary in the optional dependency
# @openai/codex-linux-x64 (~300 MB); node_modules/.bin/codex runs either way. Droid's wrapper
# (@factory/cli) only picks a platform package, and the linux-x64 one holds the 254 MB Bun binary
# itself: pinned to that platform package (the 0.225.1 wrapper's own platform package was never
# published). Kilo CLI's wrapper (@kilocode/cli@7.8.1) asks for a platform package npm does not
# have: pinned to the platform package (a Bun binary, ~170 MB) of the newest release that has one.
# Cline's npm package is a node wrapper around the Bun binary in its optional dependency
# @cline/cli-linux-x64 (~151 MB); the postinstall only hard-links it.
PINS_FILE="$(cd "$(dirname "$0")/.." && pwd)/src/hookwrap/generator/pins.txt"
ALL_NAMES=(claude gemini codex qwen copilot opencode droid pi kilo cline cc-safety-net)
CACHE="${HOOKWRAP_CLI_CACHE:-$HOME/.cache/hookwrap-clis}"
NPM_TIMEOUT="${HOOKWRAP_NPM_TIMEOUT:-600}"

say() { printf 'install-clis: %s\n' "$*" >&2; }

# A scratch HOME so that `--version` runs leave nothing in the real one.
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/hookwrap-clis.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

# Per CLI: npm package, pinned version (the pins file's second and third columns), npm prefix.
pin_field() {  # pin_field NAME COLUMN
  local name pkg version oldest
  while read -r name pkg version oldest; do
    case "$name" in ''|'#'*) continue ;; esac
    if [ "$name" = "$1" ]; then
      case "$2" in 2) echo "$pkg" ;; 3) echo "$version" ;; esac
      return 0
    fi
  done <"$PINS_FILE"
  return 1
}
pkg_of() { pin_field "$1" 2; }
version_of() { pin_field "$1" 3; }
prefix_of() { case "$1" in claude|gemini|codex) echo "$CACHE" ;; *) echo "$CACHE/$1" ;; esac; }
bin_of() { case "$1" in droid) echo "$(prefix_of droid)/node_modules/$(pkg_of droid)/bin/droid" ;;
                        kilo) echo "$(prefix_of kilo)/node_modules/$(pkg_of kilo)/bin/kilo" ;;
                        *) echo "$(prefix_of "$1")/node_modules/.bin/$1" ;; esac; }

# version_ok NAME: the binary exists, runs, and reports its pinned version. For Copilot this first
# run also unpacks its runtime into the shared package cache the tests use.
version_ok() {
  local bin out
  bin="$(bin_of "$1")"
  [ -x "$bin" ] || return 1
  mkdir -p "$SCRATCH/.codex"
  out="$(cd "$SCRATCH" && env -i PATH="$PATH" HOME="$SCRATCH" CODEX_HOME="$SCRATCH/.codex" \
         GEMINI_CLI_NO_RELAUNCH=true DISABLE_AUTOUPDATER=1 QWEN_CODE_NO_RELAUNCH=true \
         COPILOT_OFFLINE=true COPILOT_AUTO_UPDATE=false COPILOT_PKG_CACHE_HOME="$CACHE/copilot/pkg-cache" \
         XDG_CONFIG_HOME="$SCRATCH/.config" XDG_DATA_HOME="$SCRATCH/.local/share" \
         XDG_CACHE_HOME="$SCRATCH/.cache" XDG_STATE_HOME="$SCRATCH/.local/state" \
         OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 npm_config_offline=true \
         FACTORY_DISABLE_KEYRING=1 FACTORY_AIRGAP_ENABLED=true \
         CLINE_SESSION_BACKEND_MODE=local CLINE_NO_AUTO_UPDATE=1 \
         PI_OFFLINE=1 PI_SKIP_VERSION_CHECK=1 PI_TELEMETRY=0 \
         KILO_NO_DAEMON=1 KILO_DISABLE_AUTOUPDATE=1 KILO_TELEMETRY_LEVEL=off \
         "$bin" --version </dev/null 2>"$SCRATCH/version-stderr-$1")" || return 1
  # pi prints its version on stderr.
  [ "$1" = pi ] && out="$(cat "$SCRATCH/version-stderr-$1")"
  case "$out" in *"$(version_of "$1")"*) return 0 ;; *) return 1 ;; esac
}

# with_lock PREFIX CMD...: run CMD holding PREFIX/.install.lock (if flock exists).
with_lock() {
  local prefix="$1"; shift
  if command -v flock >/dev/null 2>&1; then
    ( flock 9 && "$@" ) 9>"$prefix/.install.lock"
  else
    "$@"
  fi
}

npm_install() {  # npm_install PREFIX SPEC
  local runner=()
  command -v timeout >/dev/null 2>&1 && runner=(timeout "$NPM_TIMEOUT")
  ${runner[@]+"${runner[@]}"} npm install --prefix "$1" --save-exact --no-audit --no-fund \
    --no-update-notifier --loglevel=error --fetch-retries=1 "$2"
}

# install NAME: reuse or install one CLI; returns 0 when it runs at its pinned version.
install() {
  local name="$1" pkg version prefix log start
  pkg="$(pkg_of "$name")"; version="$(version_of "$name")"; prefix="$(prefix_of "$name")"
  if version_ok "$name"; then
    say "$name $version already in $prefix"
    return 0
  fi
  mkdir -p "$prefix"
  log="$prefix/install-$name.log"
  start=$(date +%s)
  say "installing $pkg@$version into $prefix"
  if ! with_lock "$prefix" npm_install "$prefix" "$pkg@$version" >"$log" 2>&1; then
    say "WARNING: npm install of $pkg@$version failed (registry unreachable?). Log $log:"
    tail -n 20 "$log" >&2
    return 1
  fi
  # Claude Code's postinstall puts the native binary in place of a stub; an npm that skips install
  # scripts leaves the stub, so run that step here when needed.
  if [ "$name" = claude ] && ! version_ok claude && [ -f "$prefix/node_modules/$pkg/install.cjs" ]; then
    (cd "$prefix/node_modules/$pkg" && node install.cjs) >>"$log" 2>&1
  fi
  if version_ok "$name"; then
    say "$name $version installed in $(( $(date +%s) - start ))s"
    return 0
  fi
  say "WARNING: $(bin_of "$name") does not report $version; see $log"
  return 1
}

if [ "${1:-}" = --pins ]; then  # what this script reads from the pins file, and nothing else
  for name in "${ALL_NAMES[@]}"; do printf '%s %s %s\n' "$name" "$(pkg_of "$name")" "$(version_of "$name")"; done
  exit 0
fi
names=("$@")
[ ${#names[@]} -gt 0 ] || names=("${ALL_NAMES[@]}")
known() { case "$1" in claude|gemini|codex|qwen|copilot|opencode|droid|pi|kilo|cline|cc-safety-net) return 0 ;; esac; return 1; }
for name in "${names[@]}"; do
  known "$name" || say "WARNING: unknown CLI '$name' ignored"
done

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  # Nothing can be installed, but a cache filled elsewhere is still reported.
  for name in "${names[@]}"; do
    version_ok "$name" 2>/dev/null && say "$name $(version_of "$name"): $(bin_of "$name")"
  done
  say "WARNING: node/npm not found; the e2e tests for missing CLIs will be skipped"
  printf '%s\n' "$CACHE"
  exit 0
fi

mkdir -p "$CACHE"
# One job per npm prefix, all at once: on a cold cache the downloads overlap, on a warm one the
# version checks do. The CLIs sharing a prefix (Claude Code, Gemini CLI, Codex CLI) go in turn.
# Each job leaves a mark for every CLI that is ready.
mkdir -p "$SCRATCH/ready"
install_all() {  # install_all NAME...: in turn
  local name
  for name in "$@"; do
    if install "$name"; then
      say "$name $(version_of "$name"): $(bin_of "$name")"
      : >"$SCRATCH/ready/$name"
    fi
  done
}
prefixes=()
for name in "${names[@]}"; do
  known "$name" || continue
  prefix="$(prefix_of "$name")"
  seen=""
  for other in ${prefixes[@]+"${prefixes[@]}"}; do [ "$other" = "$prefix" ] && seen=1; done
  [ -n "$seen" ] || prefixes+=("$prefix")
done
for prefix in ${prefixes[@]+"${prefixes[@]}"}; do
  group=()
  for name in "${names[@]}"; do
    known "$name" && [ "$(prefix_of "$name")" = "$prefix" ] && group+=("$name")
  done
  install_all "${group[@]}" &
done
wait
missing=()
for name in "${names[@]}"; do
  known "$name" && [ ! -e "$SCRATCH/ready/$name" ] && missing+=("$name")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "the e2e tests for ${missing[*]} will be skipped"
fi
printf '%s\n' "$CACHE"
exit 0
