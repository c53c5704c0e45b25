/** What `agui-rx inspect` tells its page (`GET /inspect.json`): where the proxied endpoint is, and what the command line asked for. */
import * as t from "io-ts";

/**
 * The page's configuration as it crosses from the CLI's server to the page: `endpoint` the proxied
 * endpoint's path on the page's own origin, `target` the inspected URL (shown, never fetched by
 * the page), `threadId` the thread `--thread` named, `traceLink` the `--trace-link` template
 * (`{traceId}` in it is replaced by a run's trace id).
 */
export const InspectConfigCodec = t.intersection([t.type({ endpoint: t.string, target: t.string }), t.partial({ threadId: t.string, traceLink: t.string })]);

/**
 * @example
 * const config: InspectConfig = { endpoint: "/agent", target: "http://127.0.0.1:8000/agent", threadId: "board-1" };
 */
export type InspectConfig = t.TypeOf<typeof InspectConfigCodec>;

/** The path the page reads its {@link InspectConfig} from. */
export const INSPECT_CONFIG_PATH = "/inspect.json";

/** The path the inspected endpoint is proxied under (its sub-routes below it: `/agent/connect`, …). */
export const INSPECT_AGENT_PATH = "/agent";

/** The page's script, built from src/cli/inspectPage by scripts/buildInspectorPage.cjs. */
export const INSPECT_SCRIPT = "inspector.js";
