/**
 * The page's client tools, made with the installed agui-rx (the packed library) from the
 * definitions both pages share (examples/shared/pageToolDefinitions.ts): `get_local_time`,
 * answered from the browser's clock, and `confirm_delete`, answered on a card.
 */
import { clientTool, waitForResponse } from "agui-rx/client";
import { CONFIRM_DELETE_TOOL, GET_LOCAL_TIME_TOOL } from "../../../shared/pageToolDefinitions";

/** Answers at once with the browser's clock. */
export const getLocalTime = clientTool(GET_LOCAL_TIME_TOOL);

/** Waits for the user: `app-confirm-delete` answers `{ confirmed }`. */
export const confirmDelete = clientTool({ ...CONFIRM_DELETE_TOOL, execute: waitForResponse });

/** What the page's Session offers the agent. */
export const PAGE_TOOLS = [getLocalTime, confirmDelete] as const;
