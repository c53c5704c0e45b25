/** Mounts the AI chat page on the page's own origin: the agent is `POST /agent`. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import "../../shared/chat.css";
import "../../shared/markdown.css";
import "./aiChat.css";
import { ChatApp } from "./ChatApp";

const root = document.getElementById("root");
if (!root) throw new Error("expected a #root element in index.html");
createRoot(root).render(
  <StrictMode>
    <ChatApp transport={new HttpTransport(new URL("/agent", location.href).href)} threadId={`chat-${Date.now()}`} />
  </StrictMode>,
);
