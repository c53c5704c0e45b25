/** `POST {url}/threads/{threadId}/path` (docs/threads.md#the-tree): show another sibling of a thread, for every tab and instance. */
import { BranchSelection } from "../../thread/branchSelection";
import { admit } from "./admit";
import { errorResponse } from "./errorResponse";
import type { HandlerContext } from "./HandlerContext";
import { jsonResponse } from "./jsonResponse";
import { readJsonRequest } from "./readJsonRequest";
import { unknownThread } from "./serveThread";
import { storeForRoute } from "./storeForRoute";
import { storeFailure } from "./streamResponse";

/**
 * `POST {url}/threads/{threadId}/path` with a `BranchSelection` body (`{ messageId, index }`): 404
 * without a store; the body's refusals (415, 413, 408, 400); `identify`, `authorize` (`select`,
 * with the message and index); then `store.selectBranch` as the caller: 200 `{ result }`
 * (`switched` or `unchanged`), 404 `not-found` for a thread the caller does not have or a
 * message not on its selected path, 422 `invalid-input` for an index its group has no sibling
 * at, 409 `run-active` while a run of the thread is live (a switch waits for it to end).
 *
 * @example
 * if (route.name === "select") return serveSelectBranch(request, context, route.threadId);
 */
export async function serveSelectBranch(request: Request, context: HandlerContext, threadId: string): Promise<Response> {
  const { headers } = context;
  const store = storeForRoute(context, "POST {url}/threads/{threadId}/path", { identify: false });
  if (store instanceof Response) return store;
  const selection = await readJsonRequest(request, BranchSelection, "BranchSelection", context.limits, headers);
  if (selection instanceof Response) return selection;
  const { messageId, index } = selection;
  const caller = await admit(context, request, { action: "select", threadId, messageId, index });
  if (caller instanceof Response) return caller;
  try {
    const answer = await store.selectBranch(threadId, messageId, index, caller.scope);
    switch (answer) {
      case "switched":
      case "unchanged":
        return jsonResponse(200, { result: answer }, headers);
      case "unknown":
        return unknownThread(threadId, headers);
      case "unknown-message":
        return errorResponse(
          404,
          {
            error: "not-found",
            message: `expected message ${JSON.stringify(messageId)} on the selected path of thread ${JSON.stringify(threadId)}, but it is not there`,
          },
          headers,
        );
      case "no-such-sibling":
        return errorResponse(
          422,
          {
            error: "invalid-input",
            message: `expected the index of a sibling of message ${JSON.stringify(messageId)}'s group, but it has none at ${index}`,
            path: "/index",
          },
          headers,
        );
      case "run-active":
        return errorResponse(
          409,
          {
            error: "run-active",
            message: `expected no live run on thread ${JSON.stringify(threadId)} to switch its branch, but a run is live: switch once it ends`,
          },
          headers,
        );
      case "queue-pending":
        return errorResponse(
          409,
          {
            error: "queue-pending",
            message: `expected no waiting messages on thread ${JSON.stringify(threadId)} to switch its branch, but some wait to run on this branch: switch once they ran or were cancelled`,
          },
          headers,
        );
      default: {
        const unexpected: never = answer;
        return unexpected;
      }
    }
  } catch (error) {
    return storeFailure(error, headers);
  }
}
