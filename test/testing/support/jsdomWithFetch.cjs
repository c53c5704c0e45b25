// jest's jsdom environment with Node's fetch family (Request, Response, streams, TextDecoder,
// AbortController): jsdom lacks all but AbortController, and a component test over `inProcessEndpoint` needs
// the same ones the handler uses (the signal the transport aborts and the request the handler
// reads then come from one implementation; docs/testing.md#an-in-process-endpoint).
const { TestEnvironment } = require("jest-environment-jsdom");

const FROM_NODE = [
  "fetch",
  "Request",
  "Response",
  "Headers",
  "FormData",
  "Blob",
  "ReadableStream",
  "WritableStream",
  "TransformStream",
  "TextDecoder",
  "TextEncoder",
  "AbortController",
  "AbortSignal",
  "DOMException",
  "structuredClone",
  "setImmediate",
];

class JsdomWithFetch extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of FROM_NODE) this.global[name] = globalThis[name];
  }
}

module.exports = JsdomWithFetch;
