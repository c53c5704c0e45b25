/**
 * `agui-rx inspect` as a user runs it: the built bin (`node dist/cli/agui-rx.cjs`, built by `npm run
 * build`, which also bundles the page into dist/cli/inspector/) in a child process against our own
 * handler: it prints the page's address, serves the built page and proxies the endpoint, and a
 * SIGINT stops it with exit code 0.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { serve, type Served } from "../../src/node";
import { createHandler, memoryStore, success, type Agent } from "../../src/server";
import { ROOT, ensureBuilt, pkg } from "../dist/ensureBuilt";

const agent: Agent = { run: async () => success() };

let served: Served;
beforeAll(async () => {
  ensureBuilt();
  served = await serve(createHandler(agent, { store: memoryStore() }));
}, 300_000);
afterAll(async () => {
  await served.close();
});

test("prints the page's address, serves the built page and the proxied endpoint, and stops on SIGINT with exit 0", async () => {
  const file = pkg.bin?.["agui-rx"];
  if (file === undefined) throw new Error('expected package.json to have bin["agui-rx"]');
  const child = spawn(process.execPath, [path.join(ROOT, file), "inspect", served.url, "--thread", "board-1"], { cwd: ROOT });
  let out = "";
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code));
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const match = /^open (\S+)$/m.exec(out);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    void exited.then(() => reject(new Error(`expected the page's address, but the bin exited: ${out}`)));
  });
  expect(out).toBe(`agui-rx inspect: ${served.url}\nopen ${url}\n`);
  expect(await (await fetch(url)).text()).toContain('<script src="/inspector.js"></script>');
  const script = await fetch(new URL("/inspector.js", url));
  expect(script.status).toBe(200);
  expect((await script.text()).length).toBeGreaterThan(100_000); // React and the library, bundled
  expect(await (await fetch(new URL("/inspect.json", url))).json()).toEqual({ endpoint: "/agent", target: new URL(served.url).href, threadId: "board-1" });
  const capabilities = (await (await fetch(new URL("/agent/capabilities", url))).json()) as { transport?: { resumable?: boolean } };
  expect(capabilities.transport?.resumable).toBe(true);
  child.kill("SIGINT");
  expect(await exited).toBe(0);
}, 60_000);
