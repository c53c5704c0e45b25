/** How the inspector page works with an endpoint: joining its threads, or sending runs of its own. */
import type { AgentCapabilities } from "../../protocol/capabilities";

/**
 * What the page does with the endpoint: `join` a server that keeps threads (its capabilities say
 * `transport.resumable`: `/connect` joins a thread, and the thread list may exist), else
 * `compose`: send runs from the page's own composer, `why` saying what the probe found.
 *
 * @example
 * const mode: EndpointMode = { kind: "compose", why: "GET /agent/capabilities answered 404" };
 */
export type EndpointMode = { readonly kind: "join" } | { readonly kind: "compose"; readonly why: string };

/** What can read an endpoint's capabilities (an `HttpTransport`). */
export interface CapabilitiesSource {
  capabilities(signal?: AbortSignal): Promise<AgentCapabilities>;
}

/**
 * Asks the endpoint's capabilities once and decides the {@link EndpointMode}: never rejects; an
 * endpoint without a capabilities route, or one that fails to answer, is `compose` with the reason.
 *
 * @example
 * const mode = await probeEndpoint(new HttpTransport("/agent"));
 */
export async function probeEndpoint(source: CapabilitiesSource): Promise<EndpointMode> {
  try {
    const capabilities = await source.capabilities();
    return capabilities.transport?.resumable === true
      ? { kind: "join" }
      : { kind: "compose", why: "its capabilities do not say transport.resumable, so there are no threads to join" };
  } catch (error) {
    return { kind: "compose", why: `its capabilities could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
}
