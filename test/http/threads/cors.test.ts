/**
 * `cors` over loopback (docs/threads.md#routes): preflights of every route answered, PATCH and
 * DELETE included, for the methods the path takes; the CORS headers on every answer (a page, an
 * error, an event stream), the response headers a page must read exposed; an origin not allowed
 * gets no CORS header; without `cors` an OPTIONS is a 405 as before.
 */
import { closeAll, inputFor, serveStored } from "../durable/support";
import { as, call, converse, identifyByHeader, replier, threadUrl } from "./support";

afterEach(closeAll);

const APP = "https://app.example";

function preflight(url: string, method: string, origin = APP): Promise<Response> {
  return fetch(url, {
    method: "OPTIONS",
    headers: { Origin: origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": "content-type, authorization, x-user" },
  });
}

test("preflights of PATCH and DELETE on a thread, and of the other routes, are answered for the methods each path takes", async () => {
  const { url } = await serveStored(replier, { identify: identifyByHeader, cors: { origin: [APP], credentials: true, allowHeaders: ["X-User"], maxAge: 60 } });
  for (const [path, method, methods] of [
    [threadUrl(url, "t1"), "PATCH", "PATCH, DELETE"],
    [threadUrl(url, "t1"), "DELETE", "PATCH, DELETE"],
    [threadUrl(url, "events"), "DELETE", "GET, PATCH, DELETE"],
    [`${url}/threads`, "GET", "GET"],
    [url, "POST", "POST"],
    [`${url}/connect`, "POST", "POST"],
    [`${url}/history`, "POST", "POST"],
  ] as const) {
    const answer = await preflight(path, method);
    expect([path, method, answer.status]).toEqual([path, method, 204]);
    expect(Object.fromEntries([...answer.headers].filter(([name]) => name.startsWith("access-control-") || name === "vary"))).toEqual({
      "access-control-allow-origin": APP,
      "access-control-allow-credentials": "true",
      "access-control-allow-methods": methods,
      "access-control-allow-headers": "Content-Type, Accept, Authorization, Last-Event-ID, traceparent, tracestate, X-User",
      "access-control-max-age": "60",
      vary: "Origin",
    });
  }
  const stranger = await preflight(threadUrl(url, "t1"), "DELETE", "https://evil.example");
  expect(stranger.status).toBe(204);
  expect([...stranger.headers].filter(([name]) => name.startsWith("access-control-"))).toEqual([]);
});

test("every answer carries the CORS headers and exposes the headers a page reads: a page, an error, an event stream", async () => {
  const { url } = await serveStored(replier, { identify: identifyByHeader, cors: { origin: APP, credentials: true } });
  await converse(url, "alice", "t1", 1);
  const fromApp = { Origin: APP };
  const answers = [
    await call("GET", `${url}/threads`, undefined, { ...as("alice"), ...fromApp }),
    await call("GET", `${url}/threads`, undefined, fromApp), // 401
    await call("DELETE", threadUrl(url, "nope"), undefined, { ...as("alice"), ...fromApp }), // 404
    await call("POST", `${url}/connect`, { threadId: "t1", limit: 1 }, { ...as("alice"), ...fromApp }), // SSE
    await call("POST", url, inputFor("t2", "r1"), { ...as("alice"), ...fromApp }), // a run
  ];
  expect(answers.map((answer) => answer.status)).toEqual([200, 401, 404, 200, 200]);
  for (const answer of answers) {
    const headers = Object.fromEntries(answer.headers);
    expect(headers).toMatchObject({
      "access-control-allow-origin": APP,
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": "AGUI-Connect-Mode, AGUI-Resumable, AGUI-History-Older, AGUI-History-Oldest, AGUI-Heartbeat, Retry-After",
      vary: "Origin",
    });
  }
  expect(answers[4].text).toContain("RUN_FINISHED"); // the stream went through whole
});

test("origin '*' without credentials answers '*'; without cors an OPTIONS is 405 with the path's methods", async () => {
  const open = await serveStored(replier, { cors: { origin: "*" } });
  const answer = await call("POST", open.url, inputFor("t1", "r1"), { Origin: "https://anywhere.example" });
  expect(Object.fromEntries(answer.headers)["access-control-allow-origin"]).toBe("*");
  expect((await preflight(threadUrl(open.url, "t1"), "PATCH", "https://anywhere.example")).headers.get("access-control-allow-origin")).toBe("*");
  const closed = await serveStored(replier);
  const refused = await preflight(threadUrl(closed.url, "t1"), "DELETE");
  expect([refused.status, refused.headers.get("allow"), refused.headers.get("access-control-allow-origin")]).toEqual([405, "PATCH, DELETE", null]);
});
