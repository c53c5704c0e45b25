/**
 * The AI chat page: one Session over the chat agent, through `agui-rx/react`. The conversation
 * (with the model's reasoning and tool cards), the `get_local_time` card while the model waits
 * for the user's answer (`useClientTool`), and the composer. The Session runs the client tool
 * loop: once the card is answered it sends the answer in the follow-up run by itself.
 */
import { useMemo } from "react";
import type { Transport } from "../../../src/client/transports/Transport";
import { useClientTool, useMessages, useRun, useRunningToolCalls, useSession } from "../../../src/react";
import { getLocalTime } from "../localTime";
import { ChatComposer } from "./ChatComposer";
import { Conversation } from "./Conversation";
import { ShareTimeCard } from "./ShareTimeCard";

/** What the page offers the model to call in the browser. */
const PAGE_TOOLS = [getLocalTime] as const;

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

  return (
    <div className="app ai-chat">
      <header className="topbar">
        <div className="logo" aria-hidden="true">✦</div>
        <h1>AI chat</h1>
        <span className="framework">React · AI SDK</span>
        <span className="spacer" />
        <span className="thread" title="thread id">{threadId}</span>
      </header>
      <main className="layout">
        <section className="chat" aria-label="Chat">
          <Conversation messages={messages} running={running} cutOff={run.cutOff} waiting={waiting} onSuggestion={running ? undefined : run.send} />
          <footer className="dock">
            {cards}
            <ChatComposer status={run.status} pendingAnswers={cards.length} error={run.error} onSend={run.send} onStop={run.stop} />
          </footer>
        </section>
      </main>
    </div>
  );
}
