/**
 * How the `agui-rx inspect` page chooses what to do with an endpoint (docs/observability.md#inspect-cli):
 * `probeEndpoint` with a real `HttpTransport` over loopback against our handler with a store
 * (resumable: join), without one (not resumable: compose), and a plain server without a
 * capabilities route (404: compose, saying so).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { probeEndpoint } from "../../src/cli/inspectPage/probeEndpoint";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import { serve, type Served } from "../../src/node";
import { createHandler, memoryStore, success, type Agent } from "../../src/server";

const agent: Agent = { run: async () => success() };

let withStore: Served;
let withoutStore: Served;
let plain: Server;
let plainUrl: string;
beforeAll(async () => {
  withStore = await serve(createHandler(agent, { store: memoryStore() }));
  withoutStore = await serve(createHandler(agent));
  plain = createServer((req, res) => void res.writeHead(404, { "content-type": "text/plain" }).end("no such route"));
  await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
  plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/agent`; // a TCP listener's address is an AddressInfo
});
afterAll(async () => {
  await withStore.close();
  await withoutStore.close();
  await new Promise((resolve) => plain.close(resolve));
});

test("a handler with a store says resumable: the page joins threads", async () => {
  expect(await probeEndpoint(new HttpTransport(withStore.url))).toEqual({ kind: "join" });
});

test("a handler without a store is not resumable: the page composes, saying why", async () => {
  expect(await probeEndpoint(new HttpTransport(withoutStore.url))).toEqual({
    kind: "compose",
    why: "its capabilities do not say transport.resumable, so there are no threads to join",
  });
});

test("an endpoint without a capabilities route: the page composes, with the answer it got", async () => {
  const mode = await probeEndpoint(new HttpTransport(plainUrl));
  expect(mode.kind).toBe("compose");
  expect(mode.kind === "compose" && mode.why).toMatch(/^its capabilities could not be read \(.*404.*\)$/);
});
