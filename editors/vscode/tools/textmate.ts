// Loads the dungeon-def TextMate grammar with the engine VS Code uses
// (vscode-textmate + the Oniguruma WebAssembly build), so tests and tools see
// exactly the scopes an editor shows.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';
import { extensionRoot } from './paths';

export const SCOPE_NAME = 'source.dungeon-def';

export function grammarPath(): string {
  return path.join(extensionRoot(), 'syntaxes', 'dungeon-def.tmLanguage.json');
}

export interface Token {
  start: number;
  end: number;
  text: string;
  scopes: string[];
}

export interface TokenizedLine {
  line: string;
  tokens: Token[];
}

let wasmPromise: Promise<void> | undefined;
let grammarPromise: Promise<vsctm.IGrammar> | undefined;

function loadWasm(): Promise<void> {
  wasmPromise ??= (async () => {
    const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(
      wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer,
    );
  })();
  return wasmPromise;
}

/** A registry holding our grammar, with a colour theme when one is given. */
export async function createRegistry(theme?: vsctm.IRawTheme): Promise<vsctm.Registry> {
  await loadWasm();
  return new vsctm.Registry({
    ...(theme !== undefined ? { theme } : {}),
    onigLib: Promise.resolve({
      createOnigScanner: (sources: string[]) => new oniguruma.OnigScanner(sources),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (name: string) => {
      if (name !== SCOPE_NAME) return null;
      const file = grammarPath();
      return vsctm.parseRawGrammar(readFileSync(file, 'utf8'), file);
    },
  });
}

async function load(): Promise<vsctm.IGrammar> {
  const grammar = await (await createRegistry()).loadGrammar(SCOPE_NAME);
  if (grammar === null) throw new Error(`cannot load ${grammarPath()}`);
  return grammar;
}

export function loadGrammar(): Promise<vsctm.IGrammar> {
  grammarPromise ??= load();
  return grammarPromise;
}

/** Splits text into lines as an editor does (\n or \r\n) and tokenizes them in order. */
export function tokenizeText(grammar: vsctm.IGrammar, text: string): TokenizedLine[] {
  let ruleStack = vsctm.INITIAL;
  return text.split(/\r?\n/).map((line) => {
    const result = grammar.tokenizeLine(line, ruleStack);
    ruleStack = result.ruleStack;
    return {
      line,
      tokens: result.tokens
        .map((t) => {
          const end = Math.min(t.endIndex, line.length);
          return {
            start: t.startIndex,
            end,
            text: line.slice(t.startIndex, end),
            scopes: t.scopes,
          };
        })
        .filter((t) => t.end > t.start),
    };
  });
}
