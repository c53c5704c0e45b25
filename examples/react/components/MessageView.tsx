/** One block of the conversation: a message (text, tool cards, the "stopped" marker, or the model's reasoning) or a subagent's group. */
import { memo, useEffect, useState } from "react";
import type { Subagent } from "../../../src/thread/Update";
import type { Message, ToolMessage } from "../../../src/protocol/messages";
import type { CutOff } from "../../../src/react";
import { subagentHeading, type Block } from "../../shared/groupMessages";
import { messageText } from "../../shared/messageText";
import { copyText, type CopyResult } from "../../shared/markdown/copyCode";
import { speakerLabel } from "../../shared/speakerLabel";
import { toolCardView } from "../../shared/toolCard";
import { Markdown } from "./Markdown";
import { ToolCard } from "./ToolCard";

/** What every row needs besides its message. */
interface RowContext {
  readonly results: ReadonlyMap<string, ToolMessage>;
  readonly running: boolean;
  readonly cutOff: CutOff;
  /** Client tool calls waiting for the user's answer on a card. */
  readonly waiting: ReadonlySet<string>;
}

/**
 * A top-level message, or a subagent's messages under the subagent's name and status.
 *
 * @example
 * blocks.map((block) => <BlockView key={block.key} block={block} results={results} subagents={subagents} running={running} cutOff={cutOff} waiting={waiting} />);
 */
export function BlockView({ block, subagents, ...row }: RowContext & { readonly block: Block; readonly subagents: readonly Subagent[] }) {
  if (block.kind === "message") return <MessageView message={block.message} {...row} />;
  const heading = subagentHeading(
    subagents.find((s) => s.id === block.subagentRunId),
    row.running,
    block.subagentRunId,
    block.messages.some((message) => row.cutOff.messageIds.has(message.id)),
  );
  return (
    <div className="subagent" data-testid="subagent-group" data-name={heading.name}>
      <header>
        <h3>{heading.name}</h3>
        <span className={`badge ${heading.badge}`} data-testid="subagent-status">
          {heading.badge}
        </span>
        {heading.description ? <span className="description">{heading.description}</span> : null}
      </header>
      {block.messages.map((message) => (
        <MessageView key={message.id} message={message} {...row} />
      ))}
    </div>
  );
}

/**
 * One message. Memoized: a row is drawn again only when its message (same object until it
 * changes), one of its tool results, its cut-off mark, whether a call waits for the user, or (for
 * a message with tool calls) the run status changed, so a long conversation redraws only the row
 * that is streaming. A reasoning message is a quiet "Thinking" aside that folds away (Reasoning).
 * An assistant's text is markdown (Markdown); a user's text shows as typed. Either has a Copy.
 */
const MessageView = memo(function MessageView({ message, results, running, cutOff, waiting }: RowContext & { readonly message: Message }) {
  if (message.role === "reasoning") return <Reasoning text={message.content} />;
  if (message.role !== "user" && message.role !== "assistant") return null; // tool results show on their call's card
  const text = messageText(message);
  const toolCalls = message.role === "assistant" ? (message.toolCalls ?? []) : [];
  const stopped = cutOff.messageIds.has(message.id);
  const classes = ["message", message.role, text === "" && toolCalls.length > 0 ? "tools-only" : "", stopped ? "cut-off" : ""].filter(Boolean).join(" ");
  return (
    <div className={classes} data-testid="message" data-role={message.role} role="article" aria-label={speakerLabel(message.role)}>
      {text === "" ? null : message.role === "assistant" ? <Markdown text={text} /> : <p>{text}</p>}
      {text === "" ? null : <CopyMessage text={text} />}
      {toolCalls.map((call) => (
        <ToolCard
          key={call.id}
          view={toolCardView(call, results.get(call.id), { running, stopped: cutOff.toolCallIds.has(call.id), waiting: waiting.has(call.id) })}
        />
      ))}
      {stopped ? (
        <span className="stopped-marker" data-testid="stopped-marker">
          Stopped
        </span>
      ) : null}
    </div>
  );
}, sameRow);

/**
 * The model's reasoning under a "Thinking" summary that opens and closes it (a `<details>`: a
 * button to the keyboard and to screen readers, Enter or Space toggles it). Open at first; what
 * the reader chose stays while the reasoning streams on.
 */
function Reasoning({ text }: { readonly text: string }) {
  const [open, setOpen] = useState(true);
  return (
    <details className="reasoning" data-testid="reasoning" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="reasoning-label" data-testid="reasoning-toggle">
        Thinking
      </summary>
      <p>{text}</p>
    </details>
  );
}

/**
 * Copies the message's text (its markdown source, for an answer); says "Copied" until the text
 * changes. Its label is drawn by the stylesheet (markdown.css) and named by `aria-label`, so the
 * message's own text (`textContent`) stays the message's.
 */
function CopyMessage({ text }: { readonly text: string }) {
  const [copied, setCopied] = useState<CopyResult | undefined>(undefined);
  useEffect(() => setCopied(undefined), [text]);
  return (
    <button
      type="button"
      className="copy-message"
      data-testid="copy-message"
      data-copied={copied ?? ""}
      aria-label={copied === "copied" ? "Message copied" : "Copy message"}
      title="Copy message"
      onClick={() => void copyText(text).then(setCopied)}
    />
  );
}

function sameRow(before: RowContext & { readonly message: Message }, after: RowContext & { readonly message: Message }): boolean {
  if (before.message !== after.message) return false;
  const id = after.message.id;
  if (before.cutOff.messageIds.has(id) !== after.cutOff.messageIds.has(id)) return false;
  const calls = after.message.role === "assistant" ? (after.message.toolCalls ?? []) : [];
  if (calls.length === 0) return true;
  if (before.running !== after.running) return false;
  return calls.every(
    (call) =>
      before.results.get(call.id) === after.results.get(call.id) &&
      before.cutOff.toolCallIds.has(call.id) === after.cutOff.toolCallIds.has(call.id) &&
      before.waiting.has(call.id) === after.waiting.has(call.id),
  );
}
