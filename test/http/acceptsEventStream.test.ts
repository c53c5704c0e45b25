import { acceptsEventStream } from "../../src/server/http/acceptsEventStream";
import { isJsonMediaType } from "../../src/server/http/isJsonMediaType";

describe("acceptsEventStream", () => {
  it.each<[string | null, boolean]>([
    [null, true],
    ["", true],
    ["text/event-stream", true],
    ["*/*", true],
    ["text/*", true],
    ["TEXT/EVENT-STREAM; charset=utf-8", true],
    ["application/vnd.ag-ui.event+proto", false],
    ["application/json", false],
    ["application/vnd.ag-ui.event+proto, text/event-stream;q=0.5", true],
    ["text/event-stream;q=0", false],
    ["*/*, text/event-stream;q=0", false], // the most specific range decides
    ["text/event-stream;q=0, */*", false],
    ["text/*;q=0, text/event-stream", true],
    ["text/event-stream;q=oops", false],
  ])("%j → %s", (accept, expected) => {
    expect(acceptsEventStream(accept)).toBe(expected);
  });
});

describe("isJsonMediaType", () => {
  it.each<[string | null, boolean]>([
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ["Application/JSON", true],
    ["application/merge-patch+json", true],
    [null, false],
    ["text/plain", false],
    ["application/x-www-form-urlencoded", false],
    ["multipart/form-data; boundary=x", false],
  ])("%j → %s", (contentType, expected) => {
    expect(isJsonMediaType(contentType)).toBe(expected);
  });
});
