/**
 * The task-board page in React: a chat (message pane, approval cards, composer) beside the board,
 * which the agent edits through the shared state. The parts are components so later pages can add
 * to them: MessageList (and MessageView, ToolCard) for the conversation, Approvals for interrupts,
 * ConfirmDelete for the `confirm_delete` client tool's cards, Composer for input, BoardPanel for
 * the state. The session offers the page's client tools (examples/shared/pageTools.ts). Questions
 * can be edited and answers regenerated or copied, with ‹ 2 / 3 › arrows through their versions
 * (TurnBar, docs/threads.md#edit-and-regenerate); the board follows the version shown. While the
 * agent works the composer stays open: Send queues, Steer hands the message to the live answer,
 * Interrupt & send stops it and runs the message; the waiting messages are listed above the
 * composer, each with a Cancel (WaitingMessages, docs/queue.md#in-the-client).
 */
import { useEffect, useMemo } from "react";
import { callsOf } from "../../src/client/tools/RunningToolCalls";
import { useAgentState, useClientTool, useInterrupts, useMessages, useRun, useRunningToolCalls, useSession, useSubagents } from "../../src/react";
import type { Transport } from "../../src/client/transports/Transport";
import { boardSpec, type Board } from "../task-board/board";
import { confirmDelete, PAGE_TOOLS } from "../shared/pageTools";
import { Approvals } from "./components/Approvals";
import { BoardPanel } from "./components/BoardPanel";
import { Composer } from "./components/Composer";
import { ConfirmDelete } from "./components/ConfirmDelete";
import { MessageList } from "./components/MessageList";
import { ThemeToggle } from "./components/ThemeToggle";
import type { TurnHandlers } from "./components/TurnBar";
import { WaitingMessages } from "./components/WaitingMessages";
import { sendPolicy, type ComposerPolicy } from "../shared/queuedMessages";

/** The page's inputs: where the agent is and which thread to talk on. */
export interface AppProps {
  readonly transport: Transport;
  readonly threadId: string;
}

/**
 * The whole page over one Session, joined to its thread on load (`connect()`).
 *
 * @example
 * createRoot(root).render(<App transport={new HttpTransport("/agent")} threadId="board-1" />);
 */
export function App({ transport, threadId }: AppProps) {
  const session = useSession<Board>(transport, { threadId, state: boardSpec, tools: PAGE_TOOLS });
  const messages = useMessages(session);
  const board = useAgentState(session);
  const interrupts = useInterrupts(session);
  const subagents = useSubagents(session);
  const run = useRun(session);
  // Every pending confirm_delete call of the turn gets its card; get_local_time answers by itself.
  const confirmations = useClientTool(session, confirmDelete, (call) => <ConfirmDelete call={call} />);
  const runningCalls = useRunningToolCalls(session);
  const waiting = useMemo(() => new Set(callsOf(runningCalls, confirmDelete).map((call) => call.toolCallId)), [runningCalls]);
  const running = run.status === "running";
  // On load (a reload too): join the thread, its history and the live rest of a run in progress.
  const { connect } = run;
  useEffect(() => connect(), [connect]);
  // Pending interrupts come from the session, not from the run status: a refused send after an
  // interrupt leaves the status `failed` while the approval still waits (issue 15).
  const queued = run.queued;
  const canStart = !running && interrupts.length === 0 && queued.length === 0;
  const { edit, regenerate, send } = run;
  // Versions switch, and edits start, only between runs with nothing waiting: a waiting message keeps its branch (docs/queue.md#policies).
  const versionsLocked = running || queued.length > 0;
  const turns = useMemo<TurnHandlers>(
    () => ({ session, disabled: versionsLocked, onEdit: (messageId, text) => edit(messageId, text), onRegenerate: (questionId) => regenerate(questionId) }),
    [session, versionsLocked, edit, regenerate],
  );
  // The page queues: a message sent while the agent works waits its turn unless Steer or Interrupt & send says otherwise.
  const sendWith = useMemo(
    () => (text: string, policy: ComposerPolicy) => send(text, { whileRunning: sendPolicy(policy, versionsLocked) }),
    [send, versionsLocked],
  );

  return (
    <div className="app">
      <header className="topbar">
        <div className="logo" aria-hidden="true">
          ✓
        </div>
        <h1>Task board</h1>
        <span className="framework">React</span>
        <span className="spacer" />
        <ThemeToggle />
        <span className="thread" data-testid="thread" title="thread id">
          {threadId}
        </span>
      </header>
      <main className="layout">
        <section className="chat" aria-label="Chat">
          <MessageList
            messages={messages}
            subagents={subagents}
            running={running}
            cutOff={run.cutOff}
            waiting={waiting}
            onSuggestion={canStart ? run.send : undefined}
            turns={turns}
          />
          <footer className="dock">
            {confirmations}
            <Approvals pending={interrupts} onAnswer={run.resume} disabled={running} />
            <WaitingMessages queued={queued} onCancel={run.cancelQueued} />
            <Composer
              status={run.status}
              pendingApprovals={interrupts.length}
              pendingAnswers={confirmations.length}
              error={run.error}
              end={run.end}
              stopping={run.stopping}
              reconnecting={run.reconnecting}
              onSend={run.send}
              onSendWith={sendWith}
              onStop={run.stop}
            />
          </footer>
        </section>
        <BoardPanel board={board} />
      </main>
    </div>
  );
}
