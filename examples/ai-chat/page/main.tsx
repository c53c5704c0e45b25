/**
 * Mounts the AI chat page on the page's own origin: the agent is `POST /agent`. The tab keeps its
 * thread id in its session storage, so a reload joins the same conversation (ChatApp connects on
 * mount) while another tab starts its own.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import "../../shared/chat.css";
import "../../shared/markdown.css";
import "./aiChat.css";
import { ChatApp } from "./ChatApp";

const THREAD_KEY = "ai-chat:thread";
const threadId = sessionStorage.getItem(THREAD_KEY) ?? `chat-${crypto.randomUUID()}`;
sessionStorage.setItem(THREAD_KEY, threadId);

const root = document.getElementById("root");
if (!root) throw new Error("expected a #root element in index.html");
createRoot(root).render(
  <StrictMode>
    <ChatApp transport={new HttpTransport(new URL("/agent", location.href).href)} threadId={threadId} />
  </StrictMode>,
);
