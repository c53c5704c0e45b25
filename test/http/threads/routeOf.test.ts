/**
 * The one router (docs/threads.md#routes): the path and the method pick the route, read on raw
 * segments, so a percent-encoded thread id is never mistaken for a route name, and a thread named
 * after a route (`events`, `connect`, `threads`) is still that thread.
 */
import { resourceOf, routeOf } from "../../../src/server/http/routeOf";

const at = (path: string): string => `http://127.0.0.1:8000${path}`;

test.each([
  ["POST", "/agent", { name: "run" }],
  ["POST", "/agent/", { name: "run" }],
  ["POST", "/agent/connect", { name: "connect" }],
  ["POST", "/agent/stop", { name: "stop" }],
  ["POST", "/agent/history", { name: "history" }],
  ["GET", "/agent/capabilities", { name: "capabilities" }],
  ["HEAD", "/agent/capabilities", { name: "capabilities" }],
  ["GET", "/agent/threads", { name: "list" }],
  ["GET", "/agent/threads?limit=5&archived=true", { name: "list" }],
  ["GET", "/agent/threads/events", { name: "events" }],
  ["PATCH", "/agent/threads/t1", { name: "update", threadId: "t1" }],
  ["DELETE", "/agent/threads/t1", { name: "delete", threadId: "t1" }],
  // a thread named after a route is that thread: the method decides, never the id
  ["PATCH", "/agent/threads/events", { name: "update", threadId: "events" }],
  ["DELETE", "/agent/threads/events", { name: "delete", threadId: "events" }],
  ["DELETE", "/agent/threads/connect", { name: "delete", threadId: "connect" }],
  ["PATCH", "/agent/threads/threads", { name: "update", threadId: "threads" }],
  // percent-encoded ids arrive whole and decoded
  ["PATCH", `/agent/threads/${encodeURIComponent("a/b")}`, { name: "update", threadId: "a/b" }],
  ["PATCH", `/agent/threads/${encodeURIComponent("%")}`, { name: "update", threadId: "%" }],
  ["DELETE", `/agent/threads/${encodeURIComponent("ü")}`, { name: "delete", threadId: "ü" }],
  ["DELETE", `/agent/threads/${encodeURIComponent("a/../connect")}`, { name: "delete", threadId: "a/../connect" }],
  // an encoded route name is a thread id, not the route
  ["GET", "/agent/%63apabilities", { name: "run" }],
  ["GET", "/agent/threads/%65vents", undefined],
])("%s %s", (method, path, expected) => {
  const match = routeOf(method, at(path));
  if (expected === undefined) expect(match.kind).toBe("wrong-method");
  else if (expected.name === "run" && method !== "POST") expect(match).toEqual({ kind: "wrong-method", allow: ["POST"] });
  else expect(match).toEqual({ kind: "route", route: expected });
});

test("a method a path does not take gets the methods it does, for the 405's Allow and a preflight", () => {
  expect(routeOf("GET", at("/agent"))).toEqual({ kind: "wrong-method", allow: ["POST"] });
  expect(routeOf("POST", at("/agent/threads"))).toEqual({ kind: "wrong-method", allow: ["GET"] });
  expect(routeOf("GET", at("/agent/threads/t1"))).toEqual({ kind: "wrong-method", allow: ["PATCH", "DELETE"] });
  expect(routeOf("OPTIONS", at("/agent/threads/events"))).toEqual({ kind: "wrong-method", allow: ["GET", "PATCH", "DELETE"] });
  expect(routeOf("OPTIONS", at("/agent/capabilities"))).toEqual({ kind: "wrong-method", allow: ["GET", "HEAD"] });
});

test("a thread segment that is not valid percent-encoding names nothing, and says why", () => {
  expect(resourceOf(at("/agent/threads/%E0%A4%A"))).toEqual({ kind: "invalid", message: expect.stringContaining('"%E0%A4%A"') });
  expect(routeOf("DELETE", at("/agent/threads/%zz")).kind).toBe("invalid");
});
