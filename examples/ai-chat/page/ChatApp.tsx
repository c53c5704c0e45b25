/**
 * The AI chat page: one Session over the chat agent, through `agui-rx/react`. The conversation
 * (with the model's reasoning and tool cards), the `get_local_time` card while the model waits
 * for the user's answer (`useClientTool`), and the composer. The Session runs the client tool
 * loop: once the card is answered it sends the answer in the follow-up run by itself. The
 * conversation and the composer are the task board's React components (examples/react/components),
 * given the chat's welcome and hints. On load (a reload too) the page joins its thread (`connect()`):
 * the server keeps it (startChatServer's store), so the conversation survives a reload. Stop
 * cancels the answer on the server; the cut-off answer is marked "Stopped" and the status says so.
 */
import { useEffect, useMemo } from "react";
import type { Transport } from "../../../src/client/transports/Transport";
import { useClientTool, useMessages, useRun, useRunningToolCalls, useSession } from "../../../src/react";
import { Composer } from "../../react/components/Composer";
import { MessageList, type Welcome } from "../../react/components/MessageList";
import { ThemeToggle } from "../../react/components/ThemeToggle";
import { getLocalTime } from "../localTime";
import { ShareTimeCard } from "./ShareTimeCard";

/** What the page offers the model to call in the browser. */
const PAGE_TOOLS = [getLocalTime] as const;

/** What an empty conversation offers. */
const CHAT_WELCOME: Welcome = {
  title: "Ask the model",
  text: "It looks up the weather on the server, and asks your browser for the time (you decide whether to share it).",
  suggestions: ["What's the weather in Seoul?", "What time is it?", "Hello!"],
};

/** The chat's hint for an empty composer. */
const PLACEHOLDER = 'Ask something, e.g. "what\'s the weather in Seoul?"';

/** The chat has no subagents: every message is a top-level block. */
const NO_SUBAGENTS = [] as const;

/** The page's inputs: where the agent is and which thread to talk on. */
export interface ChatAppProps {
  readonly transport: Transport;
  readonly threadId: string;
}

/**
 * The whole page over one Session.
 *
 * @example
 * createRoot(root).render(<ChatApp transport={new HttpTransport("/agent")} threadId="chat-1" />);
 */
export function ChatApp({ transport, threadId }: ChatAppProps) {
  const session = useSession(transport, { threadId, tools: PAGE_TOOLS });
  const messages = useMessages(session);
  const run = useRun(session);
  const cards = useClientTool(session, getLocalTime, (call) => <ShareTimeCard call={call} />);
  const runningCalls = useRunningToolCalls(session);
  const waiting = useMemo(() => new Set(runningCalls.map((call) => call.toolCallId)), [runningCalls]);
  const running = run.status === "running";
  const { connect } = run;
  useEffect(() => connect(), [connect]);

  return (
    <div className="app ai-chat">
      <header className="topbar">
        <div className="logo" aria-hidden="true">
          ✦
        </div>
        <h1>AI chat</h1>
        <span className="framework">React · AI SDK</span>
        <span className="spacer" />
        <ThemeToggle />
        <span className="thread" title="thread id">
          {threadId}
        </span>
      </header>
      <main className="layout">
        <section className="chat" aria-label="Chat">
          <MessageList
            messages={messages}
            subagents={NO_SUBAGENTS}
            running={running}
            cutOff={run.cutOff}
            waiting={waiting}
            onSuggestion={running ? undefined : run.send}
            welcome={CHAT_WELCOME}
            typing={running && waiting.size === 0}
            workingLabel="The model is working"
          />
          <footer className="dock">
            {cards}
            <Composer
              status={run.status}
              pendingApprovals={0}
              pendingAnswers={cards.length}
              error={run.error}
              end={run.end}
              stopping={run.stopping}
              reconnecting={run.reconnecting}
              placeholder={PLACEHOLDER}
              onSend={run.send}
              onStop={run.stop}
            />
          </footer>
        </section>
      </main>
    </div>
  );
}
