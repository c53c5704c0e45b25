// The browser entry of the `agui-rx inspect` page (bundled into dist/cli/inspector/inspector.js by
// scripts/inspector/buildInspectorPage.cjs): reads the page's configuration from the CLI's server,
// then renders the page.
import { createElement as h } from "react";
import { createRoot } from "react-dom/client";
import { isLeft } from "../../protocol/either";
import { INSPECT_CONFIG_PATH, InspectConfigCodec } from "../InspectConfig";
import { InspectPage } from "./InspectPage";
import { PAGE_STYLE } from "./pageStyle";

async function start(root: HTMLElement): Promise<void> {
  document.head.append(Object.assign(document.createElement("style"), { textContent: PAGE_STYLE }));
  const response = await fetch(INSPECT_CONFIG_PATH);
  const config = InspectConfigCodec.decode(await response.json());
  if (isLeft(config)) throw new Error(`expected the inspector's configuration at ${INSPECT_CONFIG_PATH}, got something else`);
  createRoot(root).render(h(InspectPage, { config: config.right }));
}

const root = document.getElementById("root");
if (root !== null)
  start(root).catch((error: unknown) => {
    root.textContent = `agui-rx inspect: ${error instanceof Error ? error.message : String(error)}`;
  });
