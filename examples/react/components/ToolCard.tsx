/** A tool call as a card: its title, a status chip (running until the result comes), its arguments and result as fields. */
import type { Readable } from "../../shared/readableJson";
import type { ToolCardView } from "../../shared/toolCard";

/**
 * Draws a {@link ToolCardView} (built by examples/shared/toolCard.ts, the same view the Angular page draws).
 *
 * @example
 * <ToolCard view={toolCardView(call, results.get(call.id), { running, stopped: cutOff.toolCallIds.has(call.id) })} />
 */
export function ToolCard({ view }: { readonly view: ToolCardView }) {
  return (
    <div className="tool-card" data-testid="tool-card" data-status={view.status} data-tool={view.name}>
      <div className="tool-head">
        <span className="tool-icon" aria-hidden="true">
          ƒ
        </span>
        <span className="tool-title">{view.title}</span>
        <code className="tool-name">{view.name}</code>
        <span className={`tool-status ${view.status}`} data-testid="tool-status">
          {view.statusLabel}
        </span>
      </div>
      <div className="tool-body">
        <span className="tool-args" data-testid="tool-args">
          <ReadableView value={view.args} empty="no arguments" />
        </span>
        {view.result ? (
          <span className="tool-result" data-testid="tool-result">
            <span className="arrow" aria-label="result">
              →
            </span>
            <ReadableView value={view.result} empty="nothing" />
          </span>
        ) : null}
      </div>
    </div>
  );
}

/**
 * Fields as a definition list, a plain value as text, streaming JSON as it is so far.
 *
 * @example
 * <ReadableView value={readableJson(call.function.arguments)} empty="no arguments" />
 */
export function ReadableView({ value, empty }: { readonly value: Readable; readonly empty: string }) {
  switch (value.kind) {
    case "fields":
      return (
        <dl className="fields">
          {value.fields.map((field) => (
            <div key={field.key}>
              <dt>{field.label}</dt>
              <dd>{field.value}</dd>
            </div>
          ))}
        </dl>
      );
    case "text":
      return <span className="readable-text">{value.text}</span>;
    case "partial":
      return <span className="readable-partial">{value.text}</span>;
    case "empty":
      return <span className="readable-empty">{empty}</span>;
    default:
      return unknownReadable(value);
  }
}

function unknownReadable(value: never): null {
  void value;
  return null;
}
