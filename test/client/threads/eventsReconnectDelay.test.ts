/**
 * The thread events streams wait as the transport's `reconnect.delay` says (docs/client.md#transports):
 * a Session's `followThread` and the list's events come back after the delay the application set,
 * not after the default backoff, over a real loopback server that ends each stream at once.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { filter, firstValueFrom, of, take, toArray } from "rxjs";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { HttpThreadsTransport } from "../../../src/client/threads/HttpThreadsTransport";

let server: Server;
let url: string;
let answered = 0;

beforeEach(async () => {
  answered = 0;
  // Every events request is answered as an SSE stream that ends at once: the client must come back.
  server = createServer((request, response) => {
    answered++;
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(": nothing yet\n\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
});

afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

test("a Session's thread events stream reconnects after the delay the transport's reconnect option gives", async () => {
  const asked: number[] = [];
  const transport = new HttpTransport(url, {
    reconnect: {
      delay: (_error, attempt) => {
        asked.push(attempt);
        return of(0);
      },
    },
  });
  const opened = await firstValueFrom(
    transport.followThread("t1").pipe(
      filter((notice) => notice.type === "opened"),
      take(3),
      toArray(),
    ),
  );
  expect(opened.map((notice) => (notice.type === "opened" ? notice.attempt : undefined))).toEqual([0, 1, 2]);
  expect(asked).toEqual([1, 1]); // a stream the server ended is come back to as a first attempt each time
  expect(answered).toBe(3);
});

test("the thread list's events stream takes a number of ms as its delay too", async () => {
  const transport = new HttpThreadsTransport(url, { reconnect: { delay: 0 } });
  const opened = await firstValueFrom(
    transport.threadEvents().pipe(
      filter((item) => item.type === "opened"),
      take(2),
      toArray(),
    ),
  );
  expect(opened).toHaveLength(2);
  expect(answered).toBe(2);
});
