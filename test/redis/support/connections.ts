/**
 * The Redis connections of one instance, for the multi-instance tests (the board turns they run
 * are in test/support/boardTurns.ts).
 */
import type { TestClient } from "./clients";

/**
 * The connections the Redis server has open whose names belong to one instance: its command
 * client (named `clientName`) and the two the store opens (`agui-rx:<store>:reader`, `…:signals`).
 *
 * @example
 * expect(await connectionsOf(admin, "A", a.store)).toEqual(["A", "agui-rx:k3x9:reader", "agui-rx:k3x9:signals"]);
 */
export async function connectionsOf(admin: TestClient, clientName: string, store: string): Promise<string[]> {
  const list: unknown = await admin.sendCommand(["CLIENT", "LIST"]);
  if (typeof list !== "string") throw new Error(`expected CLIENT LIST to answer a string, but got ${typeof list}`);
  const names = list
    .split("\n")
    .map((line) => /(?:^| )name=(\S*)/.exec(line)?.[1] ?? "")
    .filter((name) => name === clientName || name.startsWith(`agui-rx:${store}:`));
  return names.sort();
}
