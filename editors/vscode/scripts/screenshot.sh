#!/usr/bin/env bash
# Regenerates the documentation images from real renderings:
#  - docs/images/highlighting.png: the grammar's highlighting of NetHack
#    3.4.3's dungeon.def, painted by vscode-textmate with VS Code's Dark+
#    colours;
#  - docs/images/lsp-neovim.png (when DGN_LSP names dgn-lsp): Neovim with
#    editors/neovim/dgnkit.lua and the real dgn-lsp on the same file with one
#    bones marker reused, showing the warning and a hover; the terminal is
#    tmux, captured with its colours.
# Both pages are photographed by headless Chromium. Needs chromium (and for
# the second image neovim and tmux), ../shared/corpus beside the checkout, and
# a built out/ (node scripts/build.mjs --tests).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(cd ../.. && pwd)"
src="$repo/../shared/corpus/Vanilla-NetHack__NetHack-3.4.3/dungeon.def"
images="$repo/docs/images"
[ -f "$src" ] || { echo "missing $src" >&2; exit 2; }
command -v chromium >/dev/null || { echo "chromium is not installed (apt-get install -y chromium)" >&2; exit 2; }
tmp="$(mktemp -d)"
session="dgnkit-shot-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$tmp"' EXIT
mkdir -p "$images"

shoot() { # shoot HTML PNG
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
    --disable-sync --no-first-run --user-data-dir="$tmp/profile" --hide-scrollbars \
    --screenshot="$2" --window-size=1000,700 "file://$1" 2>/dev/null
  echo "wrote $2"
}

node out/tools/renderHighlighting.js "$src" "$tmp/highlighting.html" --lines 17-31,50-65 --title 'dungeon.def — NetHack 3.4.3'
shoot "$tmp/highlighting.html" "$images/highlighting.png"

if [ -z "${DGN_LSP:-}" ]; then
  echo "DGN_LSP is not set: skipping the Neovim + dgn-lsp image"
  exit 0
fi
command -v nvim >/dev/null && command -v tmux >/dev/null || { echo "the LSP image needs neovim and tmux" >&2; exit 2; }
mkdir -p "$tmp/shot"
# The file as shipped, but the Oracle takes the Rogue level's bones marker.
sed 's/^LEVEL:\t\t"oracle" "O"/LEVEL:\t\t"oracle" "R"/' "$src" >"$tmp/shot/dungeon.def"
tmux -f /dev/null new-session -d -s "$session" -x 112 -y 34 \
  -e "DGN_LSP=$DGN_LSP" -e "DGNKIT_SHOT_FILE=$tmp/shot/dungeon.def" \
  -e 'DGNKIT_SHOT_HOVER_LINE=^LEVEL:%s*"oracle"' -e 'DGNKIT_SHOT_HOVER_AT=oracle' \
  "nvim --clean -c 'luafile $repo/editors/neovim/test/screenshot.lua'"
sleep "${DGNKIT_SHOT_WAIT:-5}"
tmux capture-pane -e -p -t "$session" >"$tmp/screen.ans"
node out/tools/ansiToHtml.js "$tmp/screen.ans" "$tmp/lsp.html" --title 'Neovim + dgn-lsp — dungeon.def (NetHack 3.4.3 with the Oracle on the Rogue level'"'"'s bones marker)'
shoot "$tmp/lsp.html" "$images/lsp-neovim.png"
