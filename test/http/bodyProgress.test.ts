/** An event stream tells its own progress (docs/observability.md#overhead): each chunk its reader takes, and its end, once. */
import { NEVER, of } from "rxjs";
import { ev } from "../../src/protocol/build";
import { bodyProgressOf } from "../../src/server/http/BodyProgress";
import { toEventStream } from "../../src/server/http/toEventStream";

interface Heard {
  bytes: number;
  chunks: number;
  ends: number;
}

function follow(body: ReadableStream<Uint8Array>): Heard {
  const heard: Heard = { bytes: 0, chunks: 0, ends: 0 };
  const progress = bodyProgressOf(body);
  if (progress === undefined) throw new Error("expected an event stream to report its progress");
  progress.follow({
    bytes: (count) => {
      heard.bytes += count;
      heard.chunks++;
    },
    end: () => heard.ends++,
  });
  return heard;
}

test("a body read to its end: its followers hear every byte the reader got, then the end once; one that comes later hears the end at once", async () => {
  const events = [ev.runStarted("t1", "r1"), ev.textMessageStart("m1"), ev.textMessageContent("m1", "hi"), ev.textMessageEnd("m1"), ev.runFinished("t1", "r1")];
  const body = toEventStream(of(...events));
  const heard = follow(body);
  const reader = body.getReader();
  let read = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) read += chunk.value.byteLength;
  expect(read).toBeGreaterThan(0);
  expect(heard).toEqual({ bytes: read, chunks: heard.chunks, ends: 1 });
  expect(heard.chunks).toBeGreaterThan(0);
  const late = follow(body);
  expect(late).toEqual({ bytes: 0, chunks: 0, ends: 1 });
});

test("a body cancelled by its reader before the source ended: the end is heard once, no bytes after it", async () => {
  const body = toEventStream(NEVER);
  const heard = follow(body);
  await body.cancel(new Error("the client left"));
  expect(heard).toEqual({ bytes: 0, chunks: 0, ends: 1 });
});

test("a stream that is not an event stream reports nothing (the request span reads through it instead)", () => {
  expect(bodyProgressOf(new Response("{}").body!)).toBeUndefined();
});
