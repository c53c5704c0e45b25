/**
 * What an editor shows for a piece of code: TypeScript's language service (the engine behind
 * VS Code's hovers and squiggles) over one in-memory file, with the project's compiler options.
 */
import * as path from "node:path";
import * as ts from "typescript";

/** The hover text of an identifier and the errors of a probe file, as an editor gets them. */
export interface Probe {
  /**
   * The quick info at the `nth` (0-based) occurrence of `marker` in the probe text, `at`
   * characters into it (to land on the identifier), printed untruncated: an editor cuts a hover at
   * 500 characters, and the cut-off text is what this measures.
   */
  readonly hover: (marker: string, options?: { readonly at?: number; readonly nth?: number }) => string;
  /** Every semantic error of the probe, each flattened with its related information, in order. */
  readonly errors: () => readonly ProbeError[];
}

/** One error: the line of the probe it is on, and its text with the chain and related notes. */
export interface ProbeError {
  readonly line: string;
  readonly text: string;
}

/** Large enough that no hover is cut (the default is 500 characters). */
const UNTRUNCATED = 10_000_000;

/**
 * A language service over `text` saved (in memory) as `fileName`, resolving imports from there
 * with the compiler options of the tsconfig.json at `tsconfigPath` (plus `overrides`).
 *
 * @example
 * const probe = openProbe("/repo/test/types/probe.ts", "/repo/tsconfig.json", `import type { Event } from "../../src"; declare const e: Event;`);
 * probe.hover("e:"); // "const e: Event"
 */
export function openProbe(fileName: string, tsconfigPath: string, text: string, overrides: ts.CompilerOptions = {}): Probe {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfigPath, overrides, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(`expected a readable ${tsconfigPath}, but: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
    },
  });
  if (parsed === undefined) throw new Error(`expected a tsconfig at ${tsconfigPath}`);
  const options = parsed.options;
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [fileName],
    getScriptVersion: () => "1",
    getScriptSnapshot: (name) => {
      const content = name === fileName ? text : ts.sys.readFile(name);
      return content === undefined ? undefined : ts.ScriptSnapshot.fromString(content);
    },
    getCurrentDirectory: () => path.dirname(tsconfigPath),
    getCompilationSettings: () => options,
    getDefaultLibFileName: (settings) => ts.getDefaultLibFilePath(settings),
    fileExists: (name) => name === fileName || ts.sys.fileExists(name),
    readFile: (name) => (name === fileName ? text : ts.sys.readFile(name)),
    // eslint-disable-next-line @typescript-eslint/unbound-method -- ts.sys's functions are closures over the host, not methods that read `this`
    readDirectory: ts.sys.readDirectory,
    // eslint-disable-next-line @typescript-eslint/unbound-method -- ts.sys's functions are closures over the host, not methods that read `this`
    directoryExists: ts.sys.directoryExists,
    // eslint-disable-next-line @typescript-eslint/unbound-method -- ts.sys's functions are closures over the host, not methods that read `this`
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const lines = text.split("\n");

  const hover: Probe["hover"] = (marker, { at = 0, nth = 0 } = {}) => {
    let position = -1;
    for (let i = 0; i <= nth; i++) {
      position = text.indexOf(marker, position + 1);
      if (position < 0) throw new Error(`expected occurrence ${nth} of ${JSON.stringify(marker)} in the probe`);
    }
    const info = service.getQuickInfoAtPosition(fileName, position + at, UNTRUNCATED);
    if (info === undefined) throw new Error(`expected quick info at ${JSON.stringify(marker)}`);
    return ts.displayPartsToString(info.displayParts);
  };

  const errors: Probe["errors"] = () =>
    service.getSemanticDiagnostics(fileName).map((diagnostic) => {
      const line = diagnostic.start === undefined ? "" : lines[text.slice(0, diagnostic.start).split("\n").length - 1];
      const related = (diagnostic.relatedInformation ?? []).map((info) => `\n  (related) ${ts.flattenDiagnosticMessageText(info.messageText, "\n")}`);
      return { line: line.trim(), text: ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n") + related.join("") };
    });

  return { hover, errors };
}
