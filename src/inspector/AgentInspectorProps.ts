/** What `<AgentInspector>` is given (docs/observability.md#inspector). */
import type { Inspector } from "../client/inspector/Inspector";
import type { WireSource } from "../client/inspector/SessionWire";

/**
 * The props of `AgentInspector`: the page's own `session` (what its transport receives is read:
 * `wireOf`, no second connection), or an `inspector` model fed elsewhere (the `agui-rx inspect` page); with both, the
 * session feeds that model. `traceLink` is the trace link template (`{traceId}` is replaced);
 * `maxEvents` caps the kept events of a model the component makes itself (default 5,000);
 * `title` heads the panel (default "Agent inspector"); `className` and `style` go on its root.
 *
 * @example
 * createElement(AgentInspector, { session, traceLink: "https://tracing.example/trace/{traceId}" });
 */
export interface AgentInspectorProps {
  readonly session?: WireSource | undefined;
  readonly inspector?: Inspector | undefined;
  readonly traceLink?: string | undefined;
  readonly maxEvents?: number | undefined;
  readonly title?: string | undefined;
  readonly className?: string | undefined;
  readonly style?: Readonly<Record<string, string | number>> | undefined;
}
