// The package as npm would publish it: what `npm pack` puts in the tarball, and whether a consumer
// that installs that tarball gets working types under every `moduleResolution` TypeScript users
// have (node10 through typesVersions, node16/nodenext through the exports map, bundler) and working
// modules under require() and import(). See docs/packaging.md.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ROOT, builtFiles, ensureBuilt, pkg } from "./ensureBuilt";

interface PackResult {
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

const npm = (args: readonly string[], cwd = ROOT): string => execFileSync("npm", [...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const packed = (json: string): PackResult => {
  const [result] = JSON.parse(json) as PackResult[]; // test-only: npm's documented --json shape
  if (result === undefined) throw new Error(`expected one npm pack result, got ${json.slice(0, 200)}`);
  return result;
};

/** Each public subpath of the exports map ("./server" …), without the root and package.json. */
const subpaths = Object.keys(pkg.exports).filter((key) => key !== "." && key !== "./package.json");
const typesOf = (key: string): string => {
  const target = pkg.exports[key];
  if (target === undefined || typeof target === "string" || target.types === undefined) throw new Error(`expected a types condition for ${key}`);
  return target.types;
};

beforeAll(ensureBuilt, 300_000);

describe("npm pack", () => {
  let files: string[];
  beforeAll(() => {
    files = packed(npm(["pack", "--dry-run", "--json", "--ignore-scripts"])).files.map((file) => file.path);
  }, 60_000);

  it("ships the MIT LICENSE, the README and package.json", () => {
    expect(files).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json"]));
    const license = readFileSync(path.join(ROOT, "LICENSE"), "utf8");
    expect(license.split("\n")[0]).toBe("MIT License");
    expect(license).toContain("Copyright (c) 2026 the agui-rx authors");
    expect(pkg.license).toBe("MIT");
  });

  it("says where the project lives: repository, homepage and issues, all on its GitHub", () => {
    const { repository, homepage, bugs } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;
    expect({ repository, homepage, bugs }).toEqual({
      repository: { type: "git", url: "git+https://github.com/agui-rx/agui-rx.git" },
      homepage: "https://github.com/agui-rx/agui-rx#readme",
      bugs: { url: "https://github.com/agui-rx/agui-rx/issues" },
    });
  });

  it("ships what the README links to: every relative link names a file in the tarball (docs/ ships with it)", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? "").filter((target) => !/^[a-z][a-z+.-]*:/i.test(target) && !target.startsWith("#"));
    expect(targets.length).toBeGreaterThan(10);
    const missing = [...new Set(targets.map((target) => target.replace(/#.*$/, "")))].filter((file) => !files.includes(path.posix.normalize(file)));
    expect(missing).toEqual([]);
  });

  it("ships every built file package.json names, and no sources or tests", () => {
    for (const file of builtFiles) expect([file, files.includes(file.slice(2))]).toEqual([file, true]);
    expect(files.filter((file) => /^(src|test|examples|e2e|bench)\//.test(file))).toEqual([]);
  });
});

test("typesVersions maps every subpath to the same .d.ts as its exports types condition (node10 resolution)", () => {
  const mapped = pkg.typesVersions?.["*"] ?? {};
  expect(Object.keys(mapped).sort()).toEqual(subpaths.map((key) => key.slice(2)).sort());
  for (const key of subpaths) expect([key, mapped[key.slice(2)]]).toEqual([key, [typesOf(key)]]);
});

describe("a consumer of the packed tarball", () => {
  let app: string;
  beforeAll(() => {
    app = mkdtempSync(path.join(tmpdir(), "agui-rx-consumer-"));
    const { filename } = packed(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", app]));
    const installed = path.join(app, "node_modules", "agui-rx");
    mkdirSync(installed, { recursive: true });
    execFileSync("tar", ["-xzf", path.join(app, filename), "-C", installed, "--strip-components=1"]);
    // The peers and their types, as the consumer's own install would provide them.
    const own = path.join(ROOT, "node_modules");
    for (const name of readdirSync(own)) {
      if (name.startsWith(".")) continue;
      symlinkSync(path.join(own, name), path.join(app, "node_modules", name));
    }
    writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "commonjs" }));
    for (const file of ["consumer.ts", "consumer.cts", "consumer.mts"]) writeFileSync(path.join(app, file), CONSUMER);
  }, 120_000);
  afterAll(() => rmSync(app, { recursive: true, force: true }));

  /** Type-checks `file` with these options; returns the errors ("" when clean). */
  const tsc = (options: Record<string, string | boolean>, file: string): string => {
    // skipLibCheck keeps each run to seconds; the declarations themselves are checked once, below.
    const config = { compilerOptions: { strict: true, noEmit: true, target: "es2022", types: ["node"], skipLibCheck: true, jsx: "react-jsx", ...options }, files: [file] };
    const name = `tsconfig.${String(options.moduleResolution)}.${path.extname(file).slice(1)}.${String(config.compilerOptions.skipLibCheck)}.json`;
    writeFileSync(path.join(app, name), JSON.stringify(config));
    try {
      execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", name, "--pretty", "false"], { cwd: app, encoding: "utf8" });
      return "";
    } catch (error) {
      return String((error as { stdout?: string }).stdout ?? error); // test-only: execFileSync's error carries stdout
    }
  };

  it.each([
    ["node10 (CommonJS, typesVersions)", { module: "commonjs", moduleResolution: "node10" }, "consumer.ts"],
    ["node16, a CommonJS file (exports: require)", { module: "node16", moduleResolution: "node16" }, "consumer.cts"],
    ["node16, an ES module file (exports: import)", { module: "node16", moduleResolution: "node16" }, "consumer.mts"],
    ["bundler", { module: "esnext", moduleResolution: "bundler" }, "consumer.ts"],
  ])("typechecks under %s, every entry typed (each @ts-expect-error is used)", (_label, options, file) => {
    expect(tsc(options, file)).toBe("");
  }, 120_000);

  it("ships declarations that are themselves free of type errors (skipLibCheck off)", () => {
    expect(tsc({ module: "esnext", moduleResolution: "bundler", skipLibCheck: false }, "consumer.ts")).toBe("");
  }, 120_000);

  it("fails under node10 when a subpath is not in typesVersions (the check above is not vacuous)", () => {
    const broken = path.join(app, "node_modules", "agui-rx", "package.json");
    const original = readFileSync(broken, "utf8");
    try {
      const json = JSON.parse(original) as { typesVersions?: unknown };
      delete json.typesVersions;
      writeFileSync(broken, JSON.stringify(json));
      expect(tsc({ module: "commonjs", moduleResolution: "node10" }, "consumer.ts")).toMatch(/Cannot find module 'agui-rx\/server'/);
    } finally {
      writeFileSync(broken, original);
    }
  }, 120_000);

  it("loads every entry from the tarball's files with require() and import()", () => {
    const entries = ["agui-rx", ...subpaths.map((key) => `agui-rx/${key.slice(2)}`)];
    const script = `const names = ${JSON.stringify(entries)};`;
    const required = execFileSync(process.execPath, ["-e", `${script} console.log(names.map((n) => Object.keys(require(n)).length > 0).join())`], { cwd: app, encoding: "utf8" });
    const imported = execFileSync(
      process.execPath,
      ["--input-type=module", "-e", `${script} const all = await Promise.all(names.map((n) => import(n))); console.log(all.map((m) => Object.keys(m).length > 1).join())`],
      { cwd: app, encoding: "utf8" },
    );
    expect(required.trim()).toBe(entries.map(() => "true").join());
    expect(imported.trim()).toBe(entries.map(() => "true").join());
  }, 60_000);
});

/** A consumer touching every entry, with one wrong use per entry that must be a type error. */
const CONSUMER = `
import { ev, decodeEvent, logEvents, type Event } from "agui-rx";
import { run, success, type Agent } from "agui-rx/server";
import { Session, ReplayTransport, ClientError } from "agui-rx/client";
import { serve, type Served } from "agui-rx/node";
import { useSession } from "agui-rx/react";

const started: Event = ev.runStarted("thread", "run");
// @ts-expect-error a thread id is a string
ev.runStarted(1, "run");
const agent: Agent = { async run(ctx) { ctx.say(ctx.threadId); return success(); } };
// @ts-expect-error an agent's run returns a promise of its outcome
const wrong: Agent = { run: () => 42 };
const session = new Session(new ReplayTransport([started]), { threadId: "thread" });
// @ts-expect-error a session needs a threadId
new Session(new ReplayTransport([started]), {});
const isError: boolean = ClientError.isInstance(new Error("x"));
let served: Served | undefined;
// @ts-expect-error serve takes a fetch handler
void serve(42);
const hook: typeof useSession = useSession;
// @ts-expect-error useSession takes a transport
hook(42, { threadId: "t" });
export { agent, wrong, session, isError, served, run, decodeEvent, logEvents };
`;
