#!/usr/bin/env bash
# Install the pinned Claude Code, Gemini CLI and Codex CLI used by the e2e tests (tests/e2e) into a
# cache dir.
#
#   .ci/install-clis.sh            # cache: ${HOOKWRAP_CLI_CACHE:-$HOME/.cache/hookwrap-clis}
#
# Reuses the cache: only a CLI whose pinned version is not already there and running is installed.
# Never fails the build: without node/npm or without registry access it prints a warning and exits
# 0, and the e2e tests then skip with the reason. The last line printed is the cache dir.
set -u

CLAUDE_PKG="@anthropic-ai/claude-code"
CLAUDE_VERSION="2.1.328"
GEMINI_PKG="@google/gemini-cli"
GEMINI_VERSION="0.61.0"
# The npm package is a node wrapper around a native binary in the optional dependency
# @openai/codex-linux-x64 (~300 MB); node_modules/.bin/codex runs either way.
CODEX_PKG="@openai/codex"
CODEX_VERSION="0.169.0"
CACHE="${HOOKWRAP_CLI_CACHE:-$HOME/.cache/hookwrap-clis}"
BIN="$CACHE/node_modules/.bin"
NPM_TIMEOUT="${HOOKWRAP_NPM_TIMEOUT:-600}"

say() { printf 'install-clis: %s\n' "$*" >&2; }

# A scratch HOME so that `--version` runs leave nothing in the real one.
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/hookwrap-clis.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

# version_ok NAME VERSION: the binary exists, runs, and reports VERSION.
version_ok() {
  local out
  [ -x "$BIN/$1" ] || return 1
  out="$(HOME="$SCRATCH" CODEX_HOME="$SCRATCH/.codex" GEMINI_CLI_NO_RELAUNCH=true DISABLE_AUTOUPDATER=1 \
         "$BIN/$1" --version </dev/null 2>/dev/null)" || return 1
  case "$out" in *"$2"*) return 0 ;; *) return 1 ;; esac
}

# name, npm package, pinned version (the version string `--version` prints contains it).
CLIS=(
  "claude $CLAUDE_PKG $CLAUDE_VERSION"
  "gemini $GEMINI_PKG $GEMINI_VERSION"
  "codex $CODEX_PKG $CODEX_VERSION"
)

# missing: the "pkg@version" specs of the pinned CLIs that are not there or do not run.
missing() {
  local name pkg version
  for entry in "${CLIS[@]}"; do
    read -r name pkg version <<<"$entry"
    version_ok "$name" "$version" || printf '%s@%s\n' "$pkg" "$version"
  done
}

installed() { [ -z "$(missing)" ]; }

report() {
  local name pkg version
  for entry in "${CLIS[@]}"; do
    read -r name pkg version <<<"$entry"
    say "$name $version: $BIN/$name"
  done
  printf '%s\n' "$CACHE"
}

mkdir -p "$SCRATCH/.codex"
if installed; then
  say "pinned CLIs already in $CACHE"
  report
  exit 0
fi

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  say "WARNING: node/npm not found; the e2e tests will be skipped"
  printf '%s\n' "$CACHE"
  exit 0
fi

mkdir -p "$CACHE"
mapfile -t specs < <(missing)
say "installing ${specs[*]} into $CACHE"
runner=()
command -v timeout >/dev/null 2>&1 && runner=(timeout "$NPM_TIMEOUT")
# npm keeps the packages already recorded in $CACHE/package.json, so only the missing ones download.
if ! ${runner[@]+"${runner[@]}"} npm install --prefix "$CACHE" --save-exact --no-audit --no-fund \
      --no-update-notifier --loglevel=error --fetch-retries=1 \
      "${specs[@]}" >"$CACHE/install.log" 2>&1; then
  say "WARNING: npm install failed (registry unreachable?); the e2e tests will be skipped. Log:"
  tail -n 20 "$CACHE/install.log" >&2
  printf '%s\n' "$CACHE"
  exit 0
fi

# Claude Code's postinstall puts the native binary in place of a stub; an npm that skips install
# scripts leaves the stub, so run that step here when needed.
if ! version_ok claude "$CLAUDE_VERSION" && [ -f "$CACHE/node_modules/$CLAUDE_PKG/install.cjs" ]; then
  (cd "$CACHE/node_modules/$CLAUDE_PKG" && node install.cjs) >>"$CACHE/install.log" 2>&1
fi

if installed; then
  report
else
  version_ok claude "$CLAUDE_VERSION" || say "WARNING: $BIN/claude does not report $CLAUDE_VERSION"
  version_ok gemini "$GEMINI_VERSION" || say "WARNING: $BIN/gemini does not report $GEMINI_VERSION"
  version_ok codex "$CODEX_VERSION" || say "WARNING: $BIN/codex does not report $CODEX_VERSION"
  say "the e2e tests for a CLI that does not run will be skipped; see $CACHE/install.log"
  printf '%s\n' "$CACHE"
fi
exit 0
