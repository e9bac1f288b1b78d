#!/bin/sh
# hookwrap: generated Cline hook file (@EVENT@).
# `hookwrap sync` rewrites it whole from hookwrap.json beside it: edit hookwrap.toml, or the
# hook scripts in .hookwrap/hooks/, never this file; your own hook files stay yours.
# Cline runs it for every @EVENT@ (it has no matcher: the dispatcher picks the hooks a tool
# selects) and reads one JSON answer on stdout; it lets the tool run when the answer is
# missing, not JSON, or later than 120 s. So this file stops waiting after @WATCHDOG@ s, and then,
# or when python or the dispatcher cannot run, answers itself: @FALLBACK_WORDS@
# Hooks: @HOOKS@
d=$(cd -- "$(dirname -- "$0")/../.." 2>/dev/null && pwd) || d=
fallback=@FALLBACK@
# The answer goes to a file, not a pipe: a process the dispatcher leaves behind cannot hold it.
t=$(mktemp "${TMPDIR:-/tmp}/hookwrap-cline.XXXXXX" 2>/dev/null) || t=/dev/null
exec 3<&0
@PYTHON@ -S "$d/.hookwrap/lib/hookwrap/clis/_cline_hooks.py" "$d" @EVENT@ @REGISTRATIONS@ <&3 >"$t" &
p=$!
( trap 'kill "$s" 2>/dev/null; exit 0' TERM; sleep @WATCHDOG@ & s=$!; wait "$s"; kill -9 "$p" 2>/dev/null ) </dev/null >/dev/null 2>&1 &
w=$!
wait "$p" && out=$(cat "$t") || out=
kill "$w" 2>/dev/null
[ "$t" = /dev/null ] || rm -f "$t"
case $out in "{"*) printf '%s\n' "$out"; exit 0 ;; esac
echo "hookwrap: $0: its hooks gave no answer" >&2
[ -z "$fallback" ] || printf '%s\n' "$fallback"
