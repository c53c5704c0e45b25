/**
 * The client tools both task-board pages offer the agent (names and codecs from
 * examples/task-board/clientTools.ts, the rest from pageToolDefinitions.ts): `get_local_time`,
 * answered automatically from the browser's clock, and `confirm_delete`, answered by the user on
 * a card. Made here with the library's sources; the Angular page makes the same two from its
 * installed package (examples/angular/src/app/page-tools.ts).
 */
import { clientTool } from "../../src/client/tools/clientTool";
import { waitForResponse } from "../../src/client/tools/waitForResponse";
import { CONFIRM_DELETE_TOOL, GET_LOCAL_TIME_TOOL } from "./pageToolDefinitions";

export { localTime, confirmationText } from "./pageToolDefinitions";

/** Answers at once with the browser's clock: the agent asks for it before it says what is due today. */
export const getLocalTime = clientTool(GET_LOCAL_TIME_TOOL);

/** Waits for the user: the page shows a card, and its buttons answer `{ confirmed }`. */
export const confirmDelete = clientTool({ ...CONFIRM_DELETE_TOOL, execute: waitForResponse });

/** What both pages give their Session's `tools`. */
export const PAGE_TOOLS = [getLocalTime, confirmDelete] as const;
