#!/usr/bin/env bash
# Headless editor tests: neovim's built-in LSP client and Emacs's Eglot,
# each with the dgnkit configuration from this folder, drive the real dgn-lsp
# over editors/test/dungeon.def (diagnostics, an edit, hover, definition).
#
#   DGN_LSP=/path/to/dgn-lsp editors/test-editors.sh
#
# Without DGN_LSP it builds dgn-lsp (cargo build -p dgnkit-lsp) and uses the
# binary where cargo put it. Installs nothing. Each editor, Neovim (Debian:
# neovim, 0.7 or later) and Emacs (Debian: emacs-nox elpa-eglot), is run when
# present and skipped with a message otherwise, unless DGNKIT_REQUIRE_NEOVIM=1
# or DGNKIT_REQUIRE_EMACS=1 (CI) makes its absence a failure.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
if [ -z "${DGN_LSP:-}" ]; then
  DGN_LSP="$("$repo/scripts/cargo-bins" --manifest-path "$repo/Cargo.toml" -p dgnkit-lsp --bin dgn-lsp --quiet | cut -f2)"
fi
export DGN_LSP

if [ ! -x "$DGN_LSP" ]; then
  echo "dgn-lsp not found at $DGN_LSP: build it with cargo build -p dgnkit-lsp, or set DGN_LSP" >&2
  exit 1
fi

passed=0
failed=0
tally() { # tally LOGFILE: add its "NAME: N passed, N failed" line to the totals
  local line
  line="$(grep -E '^[a-z]+: [0-9]+ passed, [0-9]+ failed$' "$1" | tail -1)"
  if [ -z "$line" ]; then
    failed=$((failed + 1))
    return
  fi
  passed=$((passed + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")))
  failed=$((failed + $(sed -E 's/.*passed, ([0-9]+) failed/\1/' <<<"$line")))
}

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

if command -v nvim >/dev/null 2>&1; then
  echo "== neovim $(nvim --version | head -1)"
  timeout 180 nvim --headless --clean -c "luafile $here/neovim/test/lsp_test.lua" >"$log" 2>&1
  status=$?
  cat "$log"
  tally "$log"
  [ $status -eq 0 ] || { echo "neovim test exited with status $status"; grep -q ' passed, 0 failed$' "$log" && failed=$((failed + 1)); }
elif [ "${DGNKIT_REQUIRE_NEOVIM:-}" = 1 ]; then
  echo "neovim is not installed (Debian: apt-get install -y neovim)" >&2
  failed=$((failed + 1))
else
  echo "skipping neovim: it is not installed (Debian: apt-get install -y neovim, then run editors/test-editors.sh again)"
fi

if command -v emacs >/dev/null 2>&1 && emacs --batch -q --no-site-file \
     --eval '(progn (require (quote package)) (package-initialize) (require (quote eglot)))' >/dev/null 2>&1; then
  echo "== $(emacs --version | head -1), eglot"
  timeout 180 emacs --batch -q --no-site-file -l "$here/emacs/test/lsp-test.el" >"$log" 2>&1
  status=$?
  grep -v -E '^\[(eglot|jsonrpc)\]|^$' "$log"
  tally "$log"
  [ $status -eq 0 ] || { echo "emacs test exited with status $status"; grep -q ' passed, 0 failed$' "$log" && failed=$((failed + 1)); }
elif [ "${DGNKIT_REQUIRE_EMACS:-}" = 1 ]; then
  echo "emacs with eglot is not installed (Debian: apt-get install -y emacs-nox elpa-eglot)" >&2
  failed=$((failed + 1))
else
  echo "skipping emacs: emacs with eglot is not installed (Debian: apt-get install -y emacs-nox elpa-eglot, then run editors/test-editors.sh again)"
fi

echo "editors: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
