/**
 * Where a Session's trace context goes (docs/observability.md#client): same-origin requests carry
 * it, another origin only when `propagateCrossOrigin` names it, and with no page (Node) the
 * transport's own endpoint always; a server with `cors` answers the preflight allowing
 * `traceparent` and `tracestate`. Over real loopback HTTP; a page's origin is `location`, given here
 * as a browser has it (the Chromium test, e2e/clientTelemetry.e2e.test.ts, sends the real preflight).
 */
import { lastValueFrom, toArray } from "rxjs";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { clientTelemetry } from "../../../src/client/telemetry/clientTelemetry";
import { traceTarget } from "../../../src/client/telemetry/traceTarget";
import type { Agent } from "../../../src/server/Agent";
import type { Served } from "../../../src/node/serve";
import { counter } from "../../client/support";
import { registerSdk, serveNoting, traceparentOf } from "./support";

describe("traceTarget", () => {
  const page = () => "https://app.example";
  test("the page's own origin, relative URLs included; not another origin, port or scheme", () => {
    const mayCarry = traceTarget([], page);
    expect(["/agent", "https://app.example/agent/connect", "https://app.example:443/x"].map(mayCarry)).toEqual([true, true, true]);
    expect(["https://agent.example/agent", "https://app.example:8443/agent", "http://app.example/agent"].map(mayCarry)).toEqual([false, false, false]);
  });
  test("another origin when named: a string by origin, a RegExp against the whole URL (a global one tested from the start each time)", () => {
    const mayCarry = traceTarget(["https://agent.example/ignored-path", /^https:\/\/[a-z]+\.agents\.example\/agent/g, "not a url"], page);
    expect(mayCarry("https://agent.example/agent")).toBe(true);
    expect(mayCarry("https://eu.agents.example/agent")).toBe(true);
    expect(mayCarry("https://eu.agents.example/agent")).toBe(true);
    expect(mayCarry("https://eu.agents.example/other")).toBe(false);
    expect(mayCarry("https://agent.example.evil/agent")).toBe(false);
  });
  test("no page (Node): every URL, since the transport only requests the endpoint it was given and nothing preflights", () => {
    expect(traceTarget([], () => undefined)("http://127.0.0.1:9/agent")).toBe(true);
  });
  test("an opaque page origin (a file: page) matches no URL but the named ones", () => {
    const mayCarry = traceTarget(["http://127.0.0.1:9"], () => "null");
    expect([mayCarry("http://127.0.0.1:9/agent"), mayCarry("http://127.0.0.1:10/agent"), mayCarry("/agent")]).toEqual([true, false, false]);
  });
});

describe("over loopback", () => {
  const greeter: Agent = { run: async (ctx) => void ctx.say("Hello.") };
  let sdk: ReturnType<typeof registerSdk> | undefined;
  let served: Served | undefined;
  const location = Object.getOwnPropertyDescriptor(globalThis, "location");
  afterEach(async () => {
    sdk?.unregister();
    await served?.close();
    if (location === undefined) Reflect.deleteProperty(globalThis, "location");
    else Object.defineProperty(globalThis, "location", location);
  });
  /** The page the Session runs in, as `location` says in a browser. */
  const onPage = (origin: string) => Object.defineProperty(globalThis, "location", { value: { origin }, configurable: true });

  async function run(options: Parameters<typeof clientTelemetry>[0]) {
    sdk = registerSdk();
    const started = await serveNoting(greeter);
    served = started.served;
    const session = new Session(new HttpTransport(started.url), { threadId: "t1", newId: counter("c"), telemetry: clientTelemetry(options) });
    await lastValueFrom(session.send("hi").pipe(toArray()));
    const [span] = sdk.exporter.getFinishedSpans();
    return { seen: started.seen, span, origin: new URL(started.url).origin };
  }

  test("a page on another origin: the span is recorded, but the request carries no traceparent", async () => {
    onPage("http://localhost:1");
    const { seen, span } = await run({});
    expect(span?.name).toBe("invoke_agent");
    expect(seen.map((request) => request.traceparent)).toEqual([null]);
  });

  test("a page on another origin that names the server's: the request carries the run's traceparent", async () => {
    onPage("http://localhost:1");
    const served = await run({ propagateCrossOrigin: [/^http:\/\/127\.0\.0\.1:\d+\/agent/] });
    expect(served.seen.map((request) => request.traceparent)).toEqual([traceparentOf(served.span)]);
  });

  test("no page (Node): the request to the transport's endpoint carries it", async () => {
    Reflect.deleteProperty(globalThis, "location");
    const { seen, span } = await run({});
    expect(seen.map((request) => request.traceparent)).toEqual([traceparentOf(span)]);
  });
});

describe("a server with cors", () => {
  let served: Served | undefined;
  afterEach(async () => served?.close());

  test("answers a preflight asking for traceparent and tracestate by allowing them; without cors an OPTIONS is refused", async () => {
    const started = await serveNoting({ run: async (ctx) => void ctx.say("Hello.") }, { cors: { origin: "https://app.example" } });
    served = started.served;
    const answer = await fetch(started.url, {
      method: "OPTIONS",
      headers: {
        Origin: "https://app.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, traceparent, tracestate",
      },
    });
    expect(answer.status).toBe(204);
    const allowed = (answer.headers.get("access-control-allow-headers") ?? "").split(/,\s*/).map((name) => name.toLowerCase());
    expect(allowed).toEqual(expect.arrayContaining(["content-type", "traceparent", "tracestate"]));
    expect(answer.headers.get("access-control-allow-origin")).toBe("https://app.example");
    await served.close();

    const plain = await serveNoting({ run: async (ctx) => void ctx.say("Hello.") });
    served = plain.served;
    const refused = await fetch(plain.url, { method: "OPTIONS", headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" } });
    expect(refused.headers.get("access-control-allow-headers")).toBeNull();
  });
});
