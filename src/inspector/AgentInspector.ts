/** The inspector panel (docs/observability.md#inspector): a thread's stream as it happens, beside the chat, from the page's own Session. */
import { createElement as h, Fragment, useEffect, useMemo, useState, useSyncExternalStore, type ReactElement, type ReactNode } from "react";
import { Inspector } from "../client/inspector/Inspector";
import type { InspectedEvent } from "../client/inspector/InspectedEvent";
import type { InspectorFinding } from "../client/inspector/InspectorFinding";
import type { InspectorSnapshot } from "../client/inspector/InspectorSnapshot";
import { groupEvents, isInspectorGroup, type InspectorGroup } from "../client/inspector/groupEvents";
import { inspectSession } from "../client/inspector/inspectSession";
import { messageTree, type MessageNode } from "../client/inspector/messageTree";
import { stateDiffOf } from "../client/inspector/stateDiffOf";
import type { AgentInspectorProps } from "./AgentInspectorProps";
import { STYLES } from "./inspectorStyles";

/** The filter's value that shows every type. */
const ALL = "";

/**
 * A panel showing a thread's stream as it happens: the events grouped by run, step, message and
 * tool call, each with its time and size (filterable by type, or to those with findings); the
 * findings of the decoder, normalizer, verifier and reducer marked at the event where they
 * happened; the selected event's JSON, raw SSE frame, and the state before and after it with the
 * diff; the thread's message tree; the run's trace id, linked through `traceLink`. It reads the
 * page's own Session (`session.wire$`, no second connection) or a model fed elsewhere
 * (`inspector`). Plain DOM (headings, lists, buttons, a select), styled inline; no dependency but React.
 *
 * @example
 * createElement(AgentInspector, { session, traceLink: "https://tracing.example/trace/{traceId}" });
 */
export function AgentInspector(props: AgentInspectorProps): ReactElement {
  const { session, traceLink, maxEvents } = props;
  const [own] = useState(() => props.inspector ?? new Inspector({ traceLink, maxEvents }));
  const inspector = props.inspector ?? own;
  useEffect(() => (session === undefined ? undefined : inspectSession(session, inspector)), [session, inspector]);
  const subscribe = useMemo(() => framed(inspector.subscribe), [inspector]);
  const snapshot = useSyncExternalStore(subscribe, inspector.getSnapshot, inspector.getSnapshot);
  const [type, setType] = useState(ALL);
  const [onlyFindings, setOnlyFindings] = useState(false);
  const [selected, setSelected] = useState<number | undefined>(undefined);

  const types = useMemo(() => [...new Set(snapshot.events.map((event) => event.type ?? "(not an event)"))].sort(), [snapshot.events]);
  const shown = useMemo(
    () => snapshot.events.filter((event) => (type === ALL || (event.type ?? "(not an event)") === type) && (!onlyFindings || event.findings.length > 0)),
    [snapshot.events, type, onlyFindings],
  );
  const groups = useMemo(() => groupEvents(shown), [shown]);
  const chosen = selected === undefined ? undefined : snapshot.events.find((event) => event.seq === selected);
  const link =
    snapshot.traceLink ??
    (snapshot.traceId !== undefined && traceLink !== undefined ? traceLink.split("{traceId}").join(encodeURIComponent(snapshot.traceId)) : undefined);

  return h(
    "section",
    { className: cls("agui-inspector", props.className), style: { ...STYLES.root, ...props.style }, "aria-label": props.title ?? "Agent inspector" },
    h("h2", { style: STYLES.title }, props.title ?? "Agent inspector"),
    summary(snapshot, link),
    h(
      "div",
      { style: STYLES.controls, role: "group", "aria-label": "Filter events" },
      h(
        "label",
        null,
        "Type ",
        h(
          "select",
          { value: type, onChange: (change: { target: { value: string } }) => setType(change.target.value) },
          h("option", { value: ALL }, "all types"),
          types.map((name) => h("option", { key: name, value: name }, name)),
        ),
      ),
      h("label", null, h("input", { type: "checkbox", checked: onlyFindings, onChange: () => setOnlyFindings(!onlyFindings) }), " only events with findings"),
      h("button", { type: "button", onClick: () => (inspector.clear(), setSelected(undefined)) }, "Clear"),
    ),
    streamProblems(snapshot),
    h(
      "div",
      { style: STYLES.panes },
      h(
        "section",
        { "aria-labelledby": "agui-inspector-events", style: STYLES.pane },
        h("h3", { id: "agui-inspector-events", style: STYLES.heading }, `Events (${shown.length})`),
        groups.length === 0
          ? h("p", null, "No events yet.")
          : h(
              "ul",
              { style: STYLES.list },
              groups.map((group) => groupItem(group, selected, setSelected)),
            ),
      ),
      h(
        "section",
        { "aria-labelledby": "agui-inspector-detail", style: STYLES.pane },
        h("h3", { id: "agui-inspector-detail", style: STYLES.heading }, "Selected event"),
        chosen === undefined ? h("p", null, "Select an event to see its JSON, raw frame and state.") : detail(chosen),
      ),
      h(
        "section",
        { "aria-labelledby": "agui-inspector-messages", style: STYLES.pane },
        h("h3", { id: "agui-inspector-messages", style: STYLES.heading }, `Messages (${snapshot.messages.length})`),
        snapshot.messages.length === 0 ? h("p", null, "No messages yet.") : h("ul", { style: STYLES.list }, messageTree(snapshot.messages).map(messageItem)),
      ),
    ),
  );
}

/** The counts and the trace id. */
function summary(snapshot: InspectorSnapshot, link: string | undefined): ReactElement {
  const { events, dropped, errors, warnings, traceId } = snapshot;
  return h(
    "p",
    { style: STYLES.summary, "aria-live": "polite" },
    `${events.length} events`,
    dropped > 0 ? ` (${dropped} older dropped)` : "",
    ` · ${errors} ${errors === 1 ? "error" : "errors"} · ${warnings} ${warnings === 1 ? "warning" : "warnings"}`,
    traceId === undefined
      ? null
      : h(Fragment, null, " · trace ", link === undefined ? h("code", null, traceId) : h("a", { href: link, target: "_blank", rel: "noreferrer" }, traceId)),
  );
}

/** Findings about whole streams (a transport failure, a run left open). */
function streamProblems(snapshot: InspectorSnapshot): ReactElement | null {
  if (snapshot.streamFindings.length === 0) return null;
  return h(
    "section",
    { "aria-labelledby": "agui-inspector-streams" },
    h("h3", { id: "agui-inspector-streams", style: STYLES.heading }, "Stream findings"),
    h(
      "ul",
      { style: STYLES.list },
      snapshot.streamFindings.map(({ stream, at, finding }, index) =>
        h("li", { key: index, style: STYLES.finding }, `stream ${stream} at ${clock(at)}: `, findingText(finding)),
      ),
    ),
  );
}

function groupItem(group: InspectorGroup, selected: number | undefined, select: (seq: number) => void): ReactElement {
  const label =
    group.kind === "run"
      ? group.id === ""
        ? "before any run"
        : `run ${group.id}`
      : group.kind === "toolCall"
        ? `tool call ${group.id}`
        : `${group.kind} ${group.id}`;
  const problems = countFindings(group);
  return h(
    "li",
    { key: `${group.kind}:${group.stream}:${group.id}:${firstSeq(group)}` },
    h(
      "details",
      { open: true },
      h(
        "summary",
        { style: problems > 0 ? STYLES.flagged : undefined },
        label,
        problems > 0 ? ` (${problems} ${problems === 1 ? "finding" : "findings"})` : "",
      ),
      h(
        "ul",
        { style: STYLES.nested },
        group.items.map((item) => (isInspectorGroup(item) ? groupItem(item, selected, select) : eventItem(item, selected, select))),
      ),
    ),
  );
}

function eventItem(event: InspectedEvent, selected: number | undefined, select: (seq: number) => void): ReactElement {
  const flagged = event.findings.length > 0;
  return h(
    "li",
    { key: event.seq },
    h(
      "button",
      {
        type: "button",
        "aria-pressed": selected === event.seq,
        onClick: () => select(event.seq),
        style: { ...STYLES.event, ...(flagged ? STYLES.flagged : undefined), ...(selected === event.seq ? STYLES.selected : undefined) },
      },
      `#${event.index} ${event.type ?? "(not an event)"}`,
      h("span", { style: STYLES.meta }, ` ${clock(event.at)} · ${event.bytes} B`),
    ),
    flagged
      ? h(
          "ul",
          { style: STYLES.nested, "aria-label": `Findings of event ${event.index}` },
          event.findings.map((finding, index) => h("li", { key: index, style: STYLES.finding }, findingText(finding))),
        )
      : null,
  );
}

function detail(event: InspectedEvent): ReactElement {
  return h(
    Fragment,
    null,
    h(
      "dl",
      { style: STYLES.facts },
      fact("Type", event.type ?? "(not an event)"),
      fact("Received", `${clock(event.at)} (stream ${event.stream}, frame ${event.index})`),
      fact("Size", `${event.bytes} bytes`),
      event.scope.runId === undefined ? null : fact("Run", event.scope.runId),
      event.scope.stepName === undefined ? null : fact("Step", event.scope.stepName),
      event.scope.messageId === undefined ? null : fact("Message", event.scope.messageId),
      event.scope.toolCallId === undefined ? null : fact("Tool call", event.scope.toolCallId),
    ),
    event.findings.length === 0
      ? null
      : h(
          Fragment,
          null,
          h("h4", { style: STYLES.heading }, "Findings"),
          h(
            "ul",
            { style: STYLES.list },
            event.findings.map((finding, index) => h("li", { key: index, style: STYLES.finding }, findingText(finding))),
          ),
        ),
    event.event === undefined ? null : block("Event", JSON.stringify(event.event, null, 2)),
    block(event.rawSource === "received" ? "Raw SSE frame" : "SSE frame (encoded; the transport gave an event)", event.raw),
    event.state === undefined
      ? null
      : h(
          Fragment,
          null,
          block("State before", JSON.stringify(event.state.before, null, 2)),
          block("State after", JSON.stringify(event.state.after, null, 2)),
          block("Diff (JSON Patch)", JSON.stringify(stateDiffOf(event.state), null, 2)),
        ),
  );
}

function messageItem(node: MessageNode): ReactElement {
  const { message } = node;
  const text = typeof message.content === "string" ? message.content : message.content === undefined ? "" : JSON.stringify(message.content);
  const calls = message.role === "assistant" ? (message.toolCalls ?? []).map((call) => `${call.function.name}(${call.function.arguments})`) : [];
  return h(
    "li",
    { key: message.id },
    h("strong", null, message.role),
    ` ${message.id}`,
    text === "" ? null : h("div", { style: STYLES.text }, text.length > 500 ? `${text.slice(0, 500)}…` : text),
    calls.length === 0 ? null : h("div", { style: STYLES.meta }, `calls ${calls.join(", ")}`),
    node.children.length === 0 ? null : h("ul", { style: STYLES.nested }, node.children.map(messageItem)),
  );
}

function findingText(finding: InspectorFinding): ReactNode {
  return h(Fragment, null, h("strong", null, `${finding.severity} ${finding.rule}`), ` (${finding.stage}): ${finding.message}`);
}

function fact(name: string, value: string): ReactElement {
  return h(Fragment, { key: name }, h("dt", { style: STYLES.term }, name), h("dd", { style: STYLES.value }, value));
}

function block(name: string, text: string): ReactElement {
  return h(Fragment, null, h("h4", { style: STYLES.heading }, name), h("pre", { style: STYLES.pre, tabIndex: 0 }, text));
}

function countFindings(group: InspectorGroup): number {
  let count = 0;
  for (const item of group.items) count += isInspectorGroup(item) ? countFindings(item) : item.findings.length;
  return count;
}

function firstSeq(group: InspectorGroup): number {
  const first = group.items[0];
  return first === undefined ? -1 : isInspectorGroup(first) ? firstSeq(first) : first.seq;
}

/** `HH:MM:SS.mmm` (UTC) of a time in ms. */
function clock(at: number): string {
  return Number.isFinite(at) ? new Date(at).toISOString().slice(11, 23) : String(at);
}

function cls(base: string, extra: string | undefined): string {
  return extra === undefined ? base : `${base} ${extra}`;
}

/**
 * `subscribe` with its notifications coalesced to one per animation frame where there is one, so
 * that a fast stream redraws the panel at most once a frame; at once elsewhere (tests, Node).
 */
function framed(subscribe: (listener: () => void) => () => void): (listener: () => void) => () => void {
  return (listener) => {
    const raf = globalThis.requestAnimationFrame as ((callback: () => void) => number) | undefined;
    if (raf === undefined) return subscribe(listener);
    let pending: number | undefined;
    const unsubscribe = subscribe(() => {
      pending ??= raf(() => {
        pending = undefined;
        listener();
      });
    });
    return () => {
      if (pending !== undefined) globalThis.cancelAnimationFrame(pending);
      unsubscribe();
    };
  };
}
