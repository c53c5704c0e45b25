/**
 * The task-board page in React: chat with streaming assistant text, tool calls as cards, the board
 * drawn from the shared state, subagent messages grouped under the subagent's name, the approval
 * prompt for "clear", and a stop button that aborts the run. The library comes from ../../src.
 */
import { memo, StrictMode, useState, type FormEvent } from "react";
import { createRoot } from "react-dom/client";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import type { Message, ToolMessage } from "../../src/protocol/messages";
import type { Subagent } from "../../src/client/Update";
import { useAgentState, useInterrupts, useMessages, useRun, useSession, useSubagents } from "../../src/react";
import { boardSpec, type Board } from "../task-board/board";
import { groupMessages, toolResults, type Block } from "../shared/groupMessages";

function App() {
  const session = useSession<Board>(new HttpTransport(new URL("/agent", location.href).href), {
    threadId: `board-${Date.now()}`,
    state: boardSpec,
  });
  const messages = useMessages(session);
  const board = useAgentState(session);
  const interrupts = useInterrupts(session);
  const subagents = useSubagents(session);
  const { status, error, send, resume, stop } = useRun(session);
  const [draft, setDraft] = useState("");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.trim()) return;
    send(draft);
    setDraft("");
  };
  const blocks = groupMessages(messages);
  const results = toolResults(messages);
  const pending = status === "interrupted" ? interrupts : [];

  return (
    <main className="page">
      <section className="chat">
        <h1>Task board <small>React</small></h1>
        <div className="messages" data-testid="messages">
          {blocks.map((block) => (
            <BlockView key={block.key} block={block} results={results} subagents={subagents} />
          ))}
        </div>
        {pending.map((interrupt) => (
          <div className="interrupt" data-testid="interrupt" key={interrupt.id}>
            <p>{interrupt.message ?? interrupt.reason}</p>
            <button data-testid="approve" onClick={() => resume([{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }])}>
              Approve
            </button>
            <button data-testid="reject" onClick={() => resume([{ interruptId: interrupt.id, status: "cancelled" }])}>
              Reject
            </button>
          </div>
        ))}
        <form className="composer" onSubmit={submit}>
          <input data-testid="chat-input" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder='Try "add buy milk; add call mom"' />
          <button data-testid="send" type="submit" disabled={status === "running"}>Send</button>
          <button data-testid="stop" type="button" onClick={stop} disabled={status !== "running"}>Stop</button>
        </form>
        <p className="status" data-testid="status" data-status={status}>
          {status}
          {error ? <span className="error" data-testid="error">: {error.message}</span> : null}
        </p>
      </section>
      <aside className="board" data-testid="board">
        <h2>Board</h2>
        {board && board.tasks.length > 0 ? (
          <ol>
            {board.tasks.map((task) => (
              <li key={task.id} data-testid="task" className={task.done ? "done" : ""}>{task.title}</li>
            ))}
          </ol>
        ) : (
          <p className="empty" data-testid="board-empty">No tasks.</p>
        )}
      </aside>
    </main>
  );
}

const BlockView = memo(function BlockView(props: { block: Block; results: ReadonlyMap<string, ToolMessage>; subagents: readonly Subagent[] }) {
  const { block, results, subagents } = props;
  if (block.kind === "message") return <MessageView message={block.message} results={results} />;
  const subagent = subagents.find((s) => s.id === block.subagentRunId);
  return (
    <div className="subagent" data-testid="subagent-group" data-name={subagent?.name ?? ""}>
      <h3>
        {subagent?.name ?? block.subagentRunId} <span className="badge">{subagent?.status.kind ?? "running"}</span>
      </h3>
      {block.messages.map((message) => (
        <MessageView key={message.id} message={message} results={results} />
      ))}
    </div>
  );
});

/** One message; memoized, so a message that did not change (same object) is not drawn again. */
const MessageView = memo(function MessageView({ message, results }: { message: Message; results: ReadonlyMap<string, ToolMessage> }) {
  if (message.role === "tool" || message.role === "reasoning" || message.role === "activity") return null;
  const text = typeof message.content === "string" ? message.content : "";
  const toolCalls = message.role === "assistant" ? (message.toolCalls ?? []) : [];
  return (
    <div className={`message ${message.role}`} data-testid="message" data-role={message.role}>
      {text ? <p>{text}</p> : null}
      {toolCalls.map((call) => {
        const result = results.get(call.id);
        return (
          <div className="tool-card" data-testid="tool-card" key={call.id}>
            <strong>{call.function.name}</strong>
            <code>{call.function.arguments}</code>
            {result ? <div className="tool-result">{typeof result.content === "string" ? result.content : "…"}</div> : <div className="tool-result pending">running…</div>}
          </div>
        );
      })}
    </div>
  );
});

const root = document.getElementById("root");
if (!root) throw new Error("expected a #root element in index.html");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
