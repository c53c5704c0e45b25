/**
 * The published declarations (dist/types, from rollup.config.mjs's rollup-plugin-dts build): no
 * `@internal` declaration is in them (`stripInternal`), no entry's types point at a type that no
 * entry exports (rollup-plugin-dts warns "still references private shared type exports"; that was
 * `ClientState`), and the build says nothing else. The types build runs here on its own, in
 * memory, through rollup's API, so what it warns is seen even when CI built `dist` earlier.
 */
import { execFileSync } from "node:child_process";
import { ROOT } from "./ensureBuilt";

/** The dts build of rollup.config.mjs, run without writing: its warnings and each generated file's code. */
interface TypesBuild {
  readonly warnings: readonly string[];
  readonly files: Readonly<Record<string, string>>;
}

const script = `
  import { rollup } from "rollup";
  const { default: configs } = await import(${JSON.stringify(`${ROOT}/rollup.config.mjs`)});
  const config = configs.find((candidate) => [candidate.output].flat().some((output) => output.dir === "dist/types"));
  const warnings = [];
  const bundle = await rollup({ ...config, onwarn: (warning) => warnings.push(warning.message) });
  const { output } = await bundle.generate([config.output].flat()[0]);
  const files = Object.fromEntries(output.filter((item) => item.type === "chunk").map((chunk) => [chunk.fileName, chunk.code]));
  console.log(JSON.stringify({ warnings, files }));`;

let build: TypesBuild;

beforeAll(() => {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  build = JSON.parse(out) as TypesBuild;
}, 300_000);

test("the types build warns about nothing (no private type reached from an entry)", () => {
  expect(build.warnings).toEqual([]);
});

test("every entry's declaration file is built", () => {
  for (const entry of ["index", "server", "client", "node", "react", "inspector", "angular", "ai", "redis"]) expect(Object.keys(build.files)).toContain(`${entry}.d.ts`);
});

test("no @internal declaration is published, and ClientState is in no published type", () => {
  const offending = Object.entries(build.files).flatMap(([file, code]) =>
    code
      .split("\n")
      .map((line, index) => ({ file, line: index + 1, text: line.trim() }))
      .filter(({ text }) => text.includes("@internal") || /\bClientState\b/.test(text.replace(/`[^`]*`/g, ""))),
  );
  expect(offending).toEqual([]);
});

test("applyEvents is published with its one public signature", () => {
  const client = build.files["client.d.ts"] ?? "";
  expect(client.match(/declare function applyEvents\b[^;]*;/g)).toEqual([
    "declare function applyEvents(): OperatorFunction<Event | InBandReport, Update<unknown>>;",
  ]);
});
