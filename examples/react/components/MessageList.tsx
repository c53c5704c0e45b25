/** The scrolling message pane: the conversation's blocks, a typing indicator, and "jump to latest" once the user scrolled up. */
import { Fragment, useMemo, useState } from "react";
import type { Subagent } from "../../../src/thread/Update";
import type { Message } from "../../../src/protocol/messages";
import type { CutOff } from "../../../src/react";
import { sentQuestion } from "../../shared/followBottom";
import { groupMessages, toolResults } from "../../shared/groupMessages";
import { SUGGESTIONS } from "../../shared/suggestions";
import { turnControls } from "../../shared/turnControls";
import { useFollowBottom } from "../useFollowBottom";
import { EditQuestion } from "./EditQuestion";
import { BlockView } from "./MessageView";
import { TurnBar, type TurnHandlers } from "./TurnBar";

/** What an empty conversation shows: a heading, a line on what the agent does, and commands to send. */
export interface Welcome {
  readonly title: string;
  readonly text: string;
  readonly suggestions: readonly string[];
}

/** The task board's welcome, the list's default. */
export const BOARD_WELCOME: Welcome = {
  title: "What should go on the board?",
  text: "The agent adds, completes and clears tasks, and asks a researcher for notes.",
  suggestions: SUGGESTIONS,
};

/** What the list draws. */
export interface MessageListProps {
  readonly messages: readonly Message[];
  readonly subagents: readonly Subagent[];
  readonly running: boolean;
  readonly cutOff: CutOff;
  /** Client tool calls waiting for the user's answer on a card: their tool cards say so. */
  readonly waiting: ReadonlySet<string>;
  /** Sends one of the example commands of the empty conversation; absent while a send would not be taken. */
  readonly onSuggestion: ((text: string) => void) | undefined;
  /** What the empty conversation shows (default: the task board's). */
  readonly welcome?: Welcome;
  /** Whether the typing indicator shows (default: while `running`). */
  readonly typing?: boolean;
  /** The typing indicator's accessible name. */
  readonly workingLabel?: string;
  /** Edit, Copy, Regenerate and the version arrows under questions and answers (docs/threads.md#edit-and-regenerate); none without. */
  readonly turns?: TurnHandlers;
}

/**
 * The conversation, top to bottom, in a pane that follows new content while the reader is at the
 * bottom and stays put once they scroll up (see FollowBottom in examples/shared). The task board
 * and the AI chat page both draw their conversation with it.
 *
 * @example
 * <MessageList messages={messages} subagents={subagents} running={status === "running"} cutOff={cutOff} waiting={new Set()} onSuggestion={send} />
 */
export function MessageList({
  messages,
  subagents,
  running,
  cutOff,
  waiting,
  onSuggestion,
  welcome = BOARD_WELCOME,
  typing = running,
  workingLabel = "The agent is working",
  turns,
}: MessageListProps) {
  // A message the user sends takes the pane to the bottom, even from higher up.
  const { ref, pinned, jump } = useFollowBottom<HTMLDivElement>(sentQuestion(messages));
  const blocks = useMemo(() => groupMessages(messages), [messages]);
  const results = useMemo(() => toolResults(messages), [messages]);
  const controls = useMemo(() => turnControls(messages), [messages]);
  // One question is edited at a time; the editor closes on Save (the edit runs) or Cancel.
  const [editing, setEditing] = useState<string | undefined>(undefined);
  return (
    <div className="pane-wrap">
      {/* A log: new messages are announced politely; busy while a reply streams, so a reader hears the finished reply, not every delta. */}
      <div className="pane" ref={ref} data-testid="messages" data-pinned={pinned} tabIndex={0} role="log" aria-label="Messages" aria-busy={running}>
        <div className="thread-list">
          {blocks.length === 0 ? (
            <div className="welcome" data-testid="welcome">
              <h2>{welcome.title}</h2>
              <p>{welcome.text}</p>
              <div className="suggestions">
                {welcome.suggestions.map((text) => (
                  <button key={text} className="suggestion" type="button" disabled={!onSuggestion} onClick={() => onSuggestion?.(text)}>
                    {text}
                  </button>
                ))}
              </div>
            </div>
          ) : (
            blocks.map((block) => {
              const view = (
                <BlockView key={block.key} block={block} results={results} subagents={subagents} running={running} cutOff={cutOff} waiting={waiting} />
              );
              if (turns === undefined) return view;
              const own = block.kind === "message" ? controls.get(block.message.id) : undefined;
              if (own?.kind === "question" && editing === own.messageId) {
                const edited = (text: string) => {
                  setEditing(undefined);
                  turns.onEdit(own.messageId, text);
                };
                return <EditQuestion key={block.key} text={own.text} disabled={turns.disabled} onSave={edited} onCancel={() => setEditing(undefined)} />;
              }
              // Always a fragment (with or without a bar), so a message that gains or loses its bar is not drawn anew.
              return (
                <Fragment key={block.key}>
                  {view}
                  {own === undefined ? null : <TurnBar controls={own} handlers={turns} onStartEdit={setEditing} />}
                </Fragment>
              );
            })
          )}
          {typing ? (
            <div className="typing" data-testid="typing" role="status" aria-label={workingLabel}>
              <span aria-hidden="true" />
              <span aria-hidden="true" />
              <span aria-hidden="true" />
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
