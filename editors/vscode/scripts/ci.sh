#!/usr/bin/env bash
# Everything the VS Code extension has, in order: install, type check,
# format check (prettier), `npm test` (bundle, unit tests, grammar tests,
# the end-to-end test against the real dgn-lsp) and package the .vsix.
#
#   DGN_LSP=/path/to/dgn-lsp editors/vscode/scripts/ci.sh
#
# DGN_LSP defaults to debug/dgn-lsp in the checkout's Cargo target directory
# (skipped when absent); when it is set the end-to-end test must run (a
# missing binary fails). The corpus tests
# read ../shared/corpus beside the checkout; DGNKIT_REQUIRE_SHARED=1 makes
# its absence a failure instead of a skip.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { echo "== vscode: $*"; }

step "npm ci (node $(node --version), npm $(npm --version 2>/dev/null))"
npm ci --no-audit --no-fund --loglevel=error

step "type check (tsc --noEmit)"
npx --no-install tsc --noEmit -p .

step "format check (prettier; \`npm run format\` fixes it)"
npm run --silent format:check

step "npm test: bundle, unit, grammar and end-to-end tests${DGN_LSP:+ (dgn-lsp: $DGN_LSP)}"
npm test --silent

step "package (vsce)"
version="$(node -p 'require("./package.json").version')"
rm -f ./*.vsix
npx --no-install vsce package --no-dependencies --out "dgnkit-$version.vsix"
# The file names in the .vsix (yauzl comes with vsce; no unzip needed).
listing="$(node -e '
  require("yauzl").open(process.argv[1], { lazyEntries: true }, (err, zip) => {
    if (err) { console.error(err.message); process.exit(1); }
    zip.on("entry", (e) => { console.log(" " + e.fileName); zip.readEntry(); });
    zip.readEntry();
  });' "dgnkit-$version.vsix")"
for f in extension/package.json extension/dist/extension.js extension/syntaxes/dungeon-def.tmLanguage.json \
         extension/language-configuration.json extension/readme.md extension/LICENSE.txt extension/dist/terminateProcess.sh; do
  grep -q " $f\$" <<<"$listing" || { echo "dgnkit-$version.vsix lacks $f" >&2; exit 1; }
done
if grep -qE ' extension/(node_modules|src|test|out)/' <<<"$listing"; then
  echo "dgnkit-$version.vsix ships development files:" >&2
  grep -E ' extension/(node_modules|src|test|out)/' <<<"$listing" >&2
  exit 1
fi
echo "built $(pwd)/dgnkit-$version.vsix ($(wc -c <"dgnkit-$version.vsix") bytes)"
