/** The scrolling message pane of the AI chat: user and assistant messages, the model's reasoning, tool cards, a typing indicator. */
import { memo, useMemo } from "react";
import type { Message, ToolMessage } from "../../../src/protocol/messages";
import type { CutOff } from "../../../src/react";
import { ToolCard } from "../../react/components/ToolCard";
import { useFollowBottom } from "../../react/useFollowBottom";
import { toolResults } from "../../shared/groupMessages";
import { messageText } from "../../shared/messageText";
import { toolCardView } from "../../shared/toolCard";

/** What an empty conversation offers to send. */
export const CHAT_SUGGESTIONS: readonly string[] = ["What's the weather in Seoul?", "What time is it?", "Hello!"];

/** What the pane draws. */
export interface ConversationProps {
  readonly messages: readonly Message[];
  readonly running: boolean;
  readonly cutOff: CutOff;
  /** Client tool calls waiting for the user's answer on a card. */
  readonly waiting: ReadonlySet<string>;
  /** Sends a suggestion; absent while a send would not be taken. */
  readonly onSuggestion: ((text: string) => void) | undefined;
}

/**
 * The conversation, top to bottom, following new content while the reader is at the bottom
 * (examples/shared/followBottom.ts). Tool results show on their call's card, not as messages.
 *
 * @example
 * <Conversation messages={messages} running={status === "running"} cutOff={cutOff} waiting={new Set()} onSuggestion={send} />
 */
export function Conversation({ messages, running, cutOff, waiting, onSuggestion }: ConversationProps) {
  const { ref, pinned, jump } = useFollowBottom<HTMLDivElement>();
  const results = useMemo(() => toolResults(messages), [messages]);
  return (
    <div className="pane-wrap">
      <div className="pane" ref={ref} data-testid="messages" data-pinned={pinned} tabIndex={0} aria-label="Messages">
        <div className="thread-list">
          {messages.length === 0 ? (
            <div className="welcome" data-testid="welcome">
              <h2>Ask the model</h2>
              <p>It looks up the weather on the server, and asks your browser for the time (you decide whether to share it).</p>
              <div className="suggestions">
                {CHAT_SUGGESTIONS.map((text) => (
                  <button key={text} className="suggestion" type="button" disabled={!onSuggestion} onClick={() => onSuggestion?.(text)}>
                    {text}
                  </button>
                ))}
              </div>
            </div>
          ) : (
            messages.map((message) => <MessageRow key={message.id} message={message} results={results} running={running} cutOff={cutOff} waiting={waiting} />)
          )}
          {running && waiting.size === 0 ? (
            <div className="typing" data-testid="typing" aria-label="The model is working">
              <span />
              <span />
              <span />
            </div>
          ) : null}
        </div>
      </div>
      {pinned ? null : (
        <button className="jump" type="button" data-testid="jump-to-latest" onClick={jump}>
          ↓ Jump to latest
        </button>
      )}
    </div>
  );
}

interface RowProps {
  readonly message: Message;
  readonly results: ReadonlyMap<string, ToolMessage>;
  readonly running: boolean;
  readonly cutOff: CutOff;
  readonly waiting: ReadonlySet<string>;
}

/** One message; memoized, so only the streaming row (or a row whose tool card changed) redraws. */
const MessageRow = memo(function MessageRow({ message, results, running, cutOff, waiting }: RowProps) {
  if (message.role === "reasoning") {
    return (
      <div className="reasoning" data-testid="reasoning">
        <span className="reasoning-label">Thinking</span>
        <p>{message.content}</p>
      </div>
    );
  }
  if (message.role !== "user" && message.role !== "assistant") return null;
  const text = messageText(message);
  const toolCalls = message.role === "assistant" ? (message.toolCalls ?? []) : [];
  const stopped = cutOff.messageIds.has(message.id);
  const classes = ["message", message.role, text === "" && toolCalls.length > 0 ? "tools-only" : "", stopped ? "cut-off" : ""].filter(Boolean).join(" ");
  return (
    <div className={classes} data-testid="message" data-role={message.role}>
      {text ? <p>{text}</p> : null}
      {toolCalls.map((call) => (
        <ToolCard key={call.id} view={toolCardView(call, results.get(call.id), { running, stopped: cutOff.toolCallIds.has(call.id), waiting: waiting.has(call.id) })} />
      ))}
      {stopped ? (
        <span className="stopped-marker" data-testid="stopped-marker">
          Stopped
        </span>
      ) : null}
    </div>
  );
});
