/** Helpers for tests that talk to a handler over real loopback HTTP. */
import { request as httpRequest, type IncomingMessage } from "node:http";
import type { Event } from "../../src/protocol/events";

/** The events of an SSE body, each frame's `data:` parsed as JSON (the framing this library writes). */
export function parseSseBody(text: string): Event[] {
  return text
    .split("\n\n")
    .filter((frame) => frame.length > 0)
    .map((frame) => {
      if (!frame.startsWith("data: ")) throw new Error(`expected a "data: " frame, got ${JSON.stringify(frame.slice(0, 40))}`);
      return JSON.parse(frame.slice("data: ".length)) as Event; // test-only: frames come from our encoder
    });
}

/** A minimal valid RunAgentInput body. */
export const validBody = JSON.stringify({ threadId: "t1", runId: "r1", messages: [{ id: "u1", role: "user", content: "hi" }] });

/** Sends a POST with `node:http`, resolves with the response once its headers arrive (the body unread, paused). */
export function openPost(url: string, body: string, headers: Record<string, string> = {}): Promise<{ response: IncomingMessage; destroy: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...headers } }, (response) => {
      response.pause();
      resolve({ response, destroy: () => req.destroy() });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Rejects after `ms` unless `promise` settles first: a guard against a hang, not a synchronisation. */
export function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`expected ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

/** Reads a body (or a reader already taken from one) to its end, returning its text. */
export async function readAll(source: ReadableStream<Uint8Array> | ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const reader = "getReader" in source ? source.getReader() : source;
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}
