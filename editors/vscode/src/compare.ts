// "Compare with the last committed version": the server's
// dgnkit.compareWithHead command (`dgn diff` of the file at git's HEAD
// against the buffer) and what the extension shows of its answer. Kept free
// of the `vscode` module so it can be tested with plain Node.

/** The command dgn-lsp runs (`workspace/executeCommand`, also its code action's). */
export const SERVER_COMMAND = 'dgnkit.compareWithHead';
/** The palette command: the same for the active editor. */
export const COMMAND = 'dgnkit.compareWithLastCommitted';
/** The scheme of the read-only documents that show a comparison. */
export const SCHEME = 'dgnkit-diff';

export type Comparison = { ok: true; table: string } | { ok: false; message: string };

/** The table of the server's answer (`{"table": ..., "diff": ...}`), or why there is none. */
export function readComparison(result: unknown): Comparison {
  if (typeof result === 'object' && result !== null && 'table' in result) {
    const table = (result as { table: unknown }).table;
    if (typeof table === 'string') return { ok: true, table };
  }
  return {
    ok: false,
    message: `dgn-lsp answered ${SERVER_COMMAND} without a table (${JSON.stringify(result) ?? 'nothing'}); is dgn-lsp older than the extension?`,
  };
}

/** The file name of a document URI (`file:///x/dat/dungeon.def` → `dungeon.def`). */
export function fileNameOfUri(uri: string): string {
  const path = uri.replace(/[?#].*$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || uri;
  } catch {
    return last || uri;
  }
}

/** The path of the document that shows the comparison of `fileName`: its tab title. */
export function comparisonPath(fileName: string): string {
  return `/${fileName.replace(/[/\\]/g, '_')} since HEAD.txt`;
}
