// One SSE body that exercises every framing rule, and what it must decode to (written by hand).

/** Frames with multi-byte UTF-8, LF / CRLF / CR line ends, comments, id/event/retry fields, multi-line data; the last frame ends with its blank line (without one it would be lost). */
export const SSE_BODY =
  "\uFEFF: a comment opens the stream, after a byte-order mark\n" +
  'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m°","delta":"18°C"}\n\n' +
  'event: update\r\nid: 42\r\ndata: {"type":"TEXT_MESSAGE_CONTENT",\r\ndata: "messageId":"m","delta":"한국어"}\r\n\r\n' +
  'retry: 1000\rdata:{"type":"CUSTOM","name":"emoji","value":"😀👍🏽"}\r\r' +
  ":keepalive\n\n\n\n" +
  'data:  {"type":"RUN_ERROR","message":"two spaces after the colon"}\n\n' +
  'unknown: field\ndata\ndata: {"type":"STEP_STARTED","stepName":"x"}\n\n' +
  'data: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n';

/** The frames of SSE_BODY. */
export const SSE_BODY_FRAMES = [
  { data: '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m°","delta":"18°C"}' },
  { event: "update", id: "42", data: '{"type":"TEXT_MESSAGE_CONTENT",\n"messageId":"m","delta":"한국어"}' },
  { data: '{"type":"CUSTOM","name":"emoji","value":"😀👍🏽"}' },
  { data: ' {"type":"RUN_ERROR","message":"two spaces after the colon"}' },
  { data: '\n{"type":"STEP_STARTED","stepName":"x"}' },
  { data: '{"type":"RUN_FINISHED","threadId":"t","runId":"r"}' },
];

/** The events of SSE_BODY. */
export const SSE_BODY_EVENTS = [
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m°", delta: "18°C" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "한국어" },
  { type: "CUSTOM", name: "emoji", value: "😀👍🏽" },
  { type: "RUN_ERROR", message: "two spaces after the colon" },
  { type: "STEP_STARTED", stepName: "x" },
  { type: "RUN_FINISHED", threadId: "t", runId: "r" },
];
