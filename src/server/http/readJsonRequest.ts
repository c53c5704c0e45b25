/** The refusals every JSON `POST` of the handler shares, in request order (415, 413, 408, 400): one line per status. */
import * as E from "../../protocol/either";
import type * as t from "io-ts";
import { excerpt } from "../../protocol/describeFailure";
import { findTooDeep, type TooDeep } from "../../protocol/jsonDepth";
import { describeInvalidInput } from "./describeInvalidInput";
import { errorResponse } from "./errorResponse";
import { isJsonMediaType } from "./isJsonMediaType";
import { readBody, type BodyRead } from "./readBody";

/**
 * How much body a request may send, and how long it may take.
 *
 * @example
 * const limits: BodyLimits = { maxBodyBytes: 1024 * 1024, bodyTimeoutMs: 10_000, maxJsonDepth: 64 };
 */
export interface BodyLimits {
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly maxJsonDepth: number;
}

/**
 * Reads a JSON body and decodes it with `codec`, or answers why not: 415 for a body that is not
 * JSON, 413 past `maxBodyBytes` (checked on `Content-Length` and again while reading), 408 when
 * the body takes longer than `bodyTimeoutMs`, 400 for invalid JSON, JSON nested deeper than
 * `maxJsonDepth`, or a value the codec refuses (naming the member's JSON Pointer; `what` names
 * the expected value in the message). `headers` go on every refusal.
 *
 * @example
 * const read = await readJsonRequest(request, RunAgentInput, "RunAgentInput", limits, extra);
 * if (read instanceof Response) return read;
 */
export async function readJsonRequest<A>(
  request: Request,
  codec: t.Decoder<unknown, A>,
  what: string,
  limits: BodyLimits,
  headers: Readonly<Record<string, string>>,
): Promise<A | Response> {
  const { maxBodyBytes, bodyTimeoutMs, maxJsonDepth } = limits;
  const contentType = request.headers.get("content-type");
  if (!isJsonMediaType(contentType)) {
    return errorResponse(415, { error: "unsupported-media-type", message: `expected Content-Type application/json, got ${contentType ?? "none"}` }, headers);
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBodyBytes) return tooLarge(maxBodyBytes, `${declared} bytes declared`, headers);

  const read = await readWithin(request, maxBodyBytes, bodyTimeoutMs);
  if (read.kind === "too-large") return tooLarge(maxBodyBytes, "more arrived", headers);
  if (read.kind === "timeout") {
    return errorResponse(
      408,
      { error: "body-timeout", message: `expected the whole body within ${bodyTimeoutMs} ms (bodyTimeoutMs), but it was still arriving` },
      { ...headers, Connection: "close" }, // the rest of the upload is not read: the connection cannot carry another request
    );
  }

  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(read.bytes));
  } catch (error) {
    const why = read.bytes.byteLength === 0 ? "the body is empty" : error instanceof Error ? error.message : excerpt(error);
    return errorResponse(400, { error: "invalid-json", message: `expected a JSON ${what} body: ${why}` }, headers);
  }
  const tooDeep = depthProblem(json, maxJsonDepth);
  if (tooDeep === "unwalkable") {
    const message = `expected JSON nested at most ${maxJsonDepth} levels deep (maxJsonDepth), but the body nests deeper than this runtime can check; lower maxJsonDepth`;
    return errorResponse(400, { error: "json-too-deep", message }, headers);
  }
  if (tooDeep !== undefined) {
    const shown =
      tooDeep.path === "" ? "the body itself" : tooDeep.path.length > 120 ? `the value at ${tooDeep.path.slice(0, 120)}…` : `the value at ${tooDeep.path}`;
    const message = `expected JSON nested at most ${maxJsonDepth} levels deep (maxJsonDepth), but ${shown} is nested deeper`;
    return errorResponse(400, { error: "json-too-deep", message, path: tooDeep.path }, headers);
  }
  const decoded = codec.decode(json);
  if (E.isLeft(decoded)) {
    const { path, message } = describeInvalidInput(decoded.left, what);
    return errorResponse(400, { error: "invalid-input", message, path }, headers);
  }
  return decoded.right;
}

/**
 * `findTooDeep`, or `"unwalkable"` when the walk itself overflows the call stack: that happens only
 * with a `maxJsonDepth` set beyond what the runtime's stack allows, on a body deeper than that.
 */
function depthProblem(json: unknown, limit: number): TooDeep | "unwalkable" | undefined {
  try {
    return findTooDeep(json, limit);
  } catch {
    return "unwalkable";
  }
}

/** `readBody` with a deadline `timeoutMs` from now; the timer is cleared as soon as the body is read. */
async function readWithin(request: Request, limit: number, timeoutMs: number): Promise<BodyRead> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    return await readBody(request, limit, deadline.signal);
  } finally {
    clearTimeout(timer);
  }
}

function tooLarge(limit: number, what: string, headers: Readonly<Record<string, string>>): Response {
  return errorResponse(413, { error: "body-too-large", message: `expected a body of at most ${limit} bytes, but ${what}` }, headers);
}
