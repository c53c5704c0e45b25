/** `new HttpTransport(url)` checks its URL at construction (docs/client.md#transports): in Node a relative one is refused, naming it; in a page it resolves against `location`. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { firstValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import { encodeSse } from "../../../src/wire/encodeSse";
import { ClientError } from "../../../src/thread/ClientError";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { HttpThreadsTransport } from "../../../src/client/threads/HttpThreadsTransport";

function thrownBy(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  return undefined;
}

test("in Node a relative URL fails at construction with a config error naming it and asking for an absolute URL", () => {
  expect(globalThis.location).toBeUndefined();
  for (const make of [() => new HttpTransport("/agent"), () => new HttpThreadsTransport("/agent")]) {
    const error = thrownBy(make);
    expect(ClientError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: "config", code: "invalid-url" });
    expect((error as Error).message).toMatch(/expected an absolute URL, but got "\/agent"/);
    expect((error as Error).message).toContain("http://localhost:8000/agent");
  }
  expect(thrownBy(() => new HttpTransport("http://127.0.0.1:1/agent"))).toBeUndefined();
});

test("in a page (location defined) a relative URL resolves against it and runs over loopback HTTP", async () => {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? "");
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.end(encodeSse(ev.runStarted("t", "r1")) + encodeSse(ev.runFinished("t", "r1")));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo; // listen(0, host) gives an AddressInfo
  Object.defineProperty(globalThis, "location", { value: { href: `http://127.0.0.1:${port}/app/page.html` }, configurable: true });
  try {
    // a browser's fetch resolves a relative URL against the page; Node's does not, so this one does what a browser's would
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the transport calls fetch with a URL string
    const pageFetch: typeof fetch = (input, init) => fetch(new URL(String(input), globalThis.location.href), init);
    const transport = new HttpTransport("/agent", { fetch: pageFetch });
    const events = await firstValueFrom(transport.run(runAgentInput("t", "r1")).pipe(toArray()));
    expect(events.map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
    expect(paths).toEqual(["/agent"]);
  } finally {
    Reflect.deleteProperty(globalThis, "location");
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
