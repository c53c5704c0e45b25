import { ClientError } from "../../../src/thread/ClientError";
import { composerState, DEFAULT_PLACEHOLDER, KEYBOARD_HINT, keyboardHint, QUEUEING_KEYBOARD_HINT, statusLine } from "../composerState";

describe("composerState", () => {
  it("sends a non-blank draft when no run is active and nothing waits", () => {
    expect(composerState({ status: "idle", pendingApprovals: 0, draft: "add milk" })).toEqual({
      canSend: true,
      canStop: false,
      offersPolicies: false,
      canSteer: false,
      placeholder: DEFAULT_PLACEHOLDER,
    });
    expect(composerState({ status: "failed", pendingApprovals: 0, draft: "again" }).canSend).toBe(true);
    expect(composerState({ status: "idle", pendingApprovals: 0, draft: "   " }).canSend).toBe(false);
  });

  it("does not send while an approval waits, whatever the run status says", () => {
    for (const status of ["interrupted", "failed", "idle"] as const) {
      const state = composerState({ status, pendingApprovals: 1, draft: "add milk" });
      expect(state.canSend).toBe(false);
      expect(state.placeholder).toContain("approval");
    }
  });

  it("stops, and does not send, while a run is active", () => {
    expect(composerState({ status: "running", pendingApprovals: 0, draft: "add milk" })).toMatchObject({ canSend: false, canStop: true });
  });

  it("points at the card while a client tool call waits for the user's answer", () => {
    expect(composerState({ status: "running", pendingApprovals: 0, draft: "", pendingAnswers: 1 })).toEqual({
      canSend: false,
      canStop: true,
      offersPolicies: false,
      canSteer: false,
      placeholder: "Answer the card above to go on",
    });
  });

  it("on a page that queues, sends while a run is live and offers Steer and Interrupt & send (docs/queue.md#policies)", () => {
    const live = composerState({ status: "running", pendingApprovals: 0, draft: "add milk", queueing: true });
    expect(live).toMatchObject({ canSend: true, canStop: true, offersPolicies: true, canSteer: true });
    expect(live.placeholder).toContain("queue");
    expect(keyboardHint(live)).toBe(QUEUEING_KEYBOARD_HINT);
    // Shown with a blank draft, but not enabled.
    expect(composerState({ status: "running", pendingApprovals: 0, draft: " ", queueing: true })).toMatchObject({
      canSend: false,
      offersPolicies: true,
      canSteer: false,
    });
    // No run live: a plain Send, no policies to choose.
    const idle = composerState({ status: "idle", pendingApprovals: 0, draft: "add milk", queueing: true });
    expect(idle).toMatchObject({ canSend: true, offersPolicies: false, canSteer: false });
    expect(keyboardHint(idle)).toBe(KEYBOARD_HINT);
    // A card waiting for the user's answer holds the draft back, as an approval does.
    expect(composerState({ status: "running", pendingApprovals: 0, pendingAnswers: 1, draft: "add milk", queueing: true })).toMatchObject({
      canSend: false,
      canSteer: false,
    });
    // An approval waiting still holds the draft back.
    expect(composerState({ status: "interrupted", pendingApprovals: 1, draft: "add milk", queueing: true }).canSend).toBe(false);
  });
});

describe("statusLine", () => {
  it("puts a waiting approval before a failed refusal", () => {
    const refusal = new ClientError("config", "the thread has 1 pending interrupt(s) not answered by resume: clear-1");
    expect(statusLine({ status: "failed", pendingApprovals: 1, error: refusal })).toEqual({
      label: "Waiting for your approval",
      tone: "attention",
      detail: refusal.message,
    });
  });

  it("says what each status means", () => {
    expect(statusLine({ status: "running", pendingApprovals: 0, error: undefined })).toMatchObject({ label: "Working…", tone: "busy" });
    expect(statusLine({ status: "idle", pendingApprovals: 0, error: undefined })).toMatchObject({ label: "Ready", tone: "quiet" });
    expect(statusLine({ status: "failed", pendingApprovals: 0, error: new ClientError("transport", "offline") })).toMatchObject({
      label: "The last run failed",
      tone: "error",
      detail: "offline",
    });
    expect(statusLine({ status: "interrupted", pendingApprovals: 0, error: undefined })).toMatchObject({ label: "Ready" });
    expect(statusLine({ status: "running", pendingApprovals: 0, error: undefined, pendingAnswers: 2 })).toMatchObject({
      label: "Waiting for your answer",
      tone: "attention",
    });
  });
});

describe("durable runs in the status line", () => {
  it("says Reconnecting with the attempt while a lost connection is resumed, Stopping after Stop, Stopped after a cancelled end", () => {
    expect(statusLine({ status: "running", pendingApprovals: 0, error: undefined, reconnecting: 2 })).toMatchObject({
      label: "Reconnecting… (attempt 2)",
      tone: "attention",
    });
    expect(statusLine({ status: "running", pendingApprovals: 0, error: undefined, stopping: true }).label).toBe("Stopping…");
    expect(statusLine({ status: "idle", pendingApprovals: 0, error: undefined, end: { kind: "cancelled" } })).toMatchObject({
      label: "Stopped: the run was cancelled",
      tone: "quiet",
    });
    expect(statusLine({ status: "idle", pendingApprovals: 0, error: undefined, end: { kind: "success" } }).label).toBe("Ready");
    expect(composerState({ status: "running", pendingApprovals: 0, draft: "", stopping: true }).canStop).toBe(false);
  });
});
