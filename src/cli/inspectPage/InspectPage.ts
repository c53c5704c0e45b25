/** The page `agui-rx inspect` serves: a thread picker or a composer beside the inspector, on one Session of the page's. */
import { createElement as h, useEffect, useRef, useState, type ReactElement } from "react";
import { Session } from "../../client/Session";
import { HttpTransport } from "../../client/transports/HttpTransport";
import { HttpThreadsTransport } from "../../client/threads/HttpThreadsTransport";
import { threadList, type ThreadList } from "../../client/threads/threadList";
import { RunController } from "../../client/view/RunController";
import { Inspector } from "../../client/inspector/Inspector";
import { inspectSession } from "../../client/inspector/inspectSession";
import { AgentInspector } from "../../inspector/index";
import type { InspectConfig } from "../InspectConfig";
import { Composer } from "./Composer";
import { probeEndpoint, type EndpointMode } from "./probeEndpoint";
import { ThreadPicker } from "./ThreadPicker";

/** Props of {@link InspectPage}. */
export interface InspectPageProps {
  readonly config: InspectConfig;
  /** Mints the thread id of a composed conversation (`crypto.randomUUID()` by default). */
  readonly newId?: (() => string) | undefined;
}

/**
 * The Session the page shows now, whether it joined its thread (else it is a fresh one for the
 * composer), and the inspector fed from it, attached before the session's first request so that
 * a joined stream's bytes are tapped from its first frame (`inspect` stops the feed).
 */
interface Shown {
  readonly session: Session;
  readonly joined: boolean;
  readonly inspector: Inspector;
  readonly inspect: () => void;
}

/**
 * Probes the endpoint (`GET /agent/capabilities`), then: against a server that keeps threads, joins
 * `config.threadId` at once (else waits for a pick from the thread list or a typed id) through the
 * Session's `connect()`, with the composer sending into the joined thread; against any other
 * endpoint, or when a join is refused as not resumable (no `/connect`), a fresh thread the
 * composer sends runs on. The inspector beside reads that one Session; picking another thread
 * closes the old Session and shows a new one.
 *
 * @example
 * createRoot(root).render(h(InspectPage, { config }));
 */
export function InspectPage({ config, newId = () => crypto.randomUUID() }: InspectPageProps): ReactElement {
  const [transport] = useState(() => new HttpTransport(config.endpoint));
  const [mode, setMode] = useState<EndpointMode | undefined>(undefined);
  const [list, setList] = useState<ThreadList | undefined>(undefined);
  const [shown, setShown] = useState<Shown | undefined>(undefined);
  const current = useRef<Shown | undefined>(undefined);

  /** Shows a new Session on `threadId` (joined, or fresh for the composer), letting the one shown before go. */
  const show = (threadId: string, joined: boolean): void => {
    const before = current.current;
    if (before !== undefined) {
      before.inspect();
      RunController.of(before.session).detach();
      before.session.close();
    }
    const session = new Session(transport, { threadId });
    const inspector = new Inspector({ traceLink: config.traceLink });
    const next = { session, joined, inspector, inspect: inspectSession(session, inspector) };
    current.current = next;
    setShown(next);
    if (joined) RunController.of(next.session).connect();
  };

  useEffect(() => {
    let live = true;
    void probeEndpoint(transport).then((probed) => {
      if (!live) return;
      setMode(probed);
      if (probed.kind === "join") {
        setList(threadList(new HttpThreadsTransport(config.endpoint)));
        if (config.threadId !== undefined) show(config.threadId, true);
      } else show(config.threadId ?? `inspect-${newId()}`, false);
    });
    return () => {
      live = false;
    };
  }, []); // once per page: the transport and the configuration never change

  // A join the server refuses as not resumable (no `/connect`): this endpoint is one to compose for.
  useEffect(() => {
    if (shown === undefined || !shown.joined) return;
    const runs = RunController.of(shown.session);
    return runs.subscribe(() => {
      const code = runs.getSnapshot().error?.code;
      if (code === "not-resumable" || code === "no-connect") {
        setMode({ kind: "compose", why: `joining thread ${shown.session.threadId} was refused: ${runs.getSnapshot().error?.message ?? code}` });
        setList(undefined);
        show(`inspect-${newId()}`, false);
      }
    });
  }, [shown]);

  return h(
    "div",
    { className: "inspect-page" },
    h(
      "header",
      { className: "inspect-header" },
      h("h1", null, "agui-rx inspect"),
      h("code", { "data-testid": "inspect-target" }, config.target),
      h(
        "span",
        { className: "inspect-note", "data-testid": "inspect-mode" },
        mode === undefined ? "probing…" : mode.kind === "join" ? "joins threads" : `sends its own runs: ${mode.why}`,
      ),
    ),
    h(
      "aside",
      { className: "inspect-side", "aria-label": "Thread and composer" },
      list === undefined
        ? null
        : h(ThreadPicker, { list, current: shown?.joined === true ? shown.session.threadId : undefined, onJoin: (id: string) => show(id, true) }),
      shown === undefined ? null : h(Composer, { key: shown.session.threadId, session: shown.session }),
      mode?.kind === "compose" ? h("button", { type: "button", onClick: () => show(`inspect-${newId()}`, false) }, "New thread") : null,
    ),
    h(
      "main",
      { className: "inspect-main" },
      shown === undefined
        ? h("p", { className: "inspect-note" }, mode?.kind === "join" ? "Pick a thread to join." : "Reading the endpoint's capabilities…")
        : h(AgentInspector, { key: shown.session.threadId, inspector: shown.inspector }),
    ),
  );
}
