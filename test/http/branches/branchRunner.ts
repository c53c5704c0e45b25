/**
 * Plays a seeded sequence of branch operations (`nextOp`) through a client against a served
 * handler and checks, after each one, everything the model predicts: what the run's agent was
 * given, what the client shows, what `/connect` rebuilds (with and without a limit) and, for a
 * history walk, every page of the selected path.
 */
import { seededRandom } from "../../support/seededRandom";
import { BranchModel, stateOrEmpty, type ExpectedRun, type PlainMessage } from "./branchModel";
import { describeOp, nextOp, type BranchOp } from "./branchOps";
import { connected, walkedHistory, type BranchServer } from "./branchServer";

/** What a client shows of the thread. */
export interface ClientView {
  readonly messages: readonly PlainMessage[];
  readonly state: unknown;
}

/** A client the runner drives. */
export interface BranchClient {
  /** How failures name it. */
  readonly name: string;
  /** Makes `op` (operation `step`) on the thread; resolves the id of the user message it posted, if any. */
  apply(op: BranchOp, step: number): Promise<string | undefined>;
  /** What the client shows now. */
  view(): ClientView;
  /** The client's own further checks against the model (sibling positions, a fresh join, paging). */
  expectMatches?(model: BranchModel, op: BranchOp, step: number): Promise<void>;
  /** Lets go of what the client holds open (a Session following the thread). */
  close?(): void;
}

/** One client on one server; each lane keeps its own model. */
export interface BranchLane {
  readonly server: BranchServer;
  readonly client: BranchClient;
  /** How failures name the lane's server, when several play at once (e.g. its store). */
  readonly label?: string;
}

/** The thread every branch test plays on. */
export const THREAD = "t";

/**
 * Plays `steps` operations drawn from `seed` on every lane (the same operations, drawn from the
 * first lane's model), checks each lane after each operation, then calls `afterStep` with the
 * models (e.g. to compare two stores). A failure names the seed, the client and the operations
 * so far. The clients are closed at the end.
 *
 * @example
 * await playSeed(3, 12, [{ server, client: officialClient(server.url, THREAD) }]);
 */
export async function playSeed(
  seed: number,
  steps: number,
  lanes: readonly BranchLane[],
  afterStep?: (models: readonly BranchModel[]) => Promise<void>,
): Promise<void> {
  const random = seededRandom(seed);
  await play(`seed ${seed}`, steps, (model, step) => nextOp(random, model, step), lanes, afterStep);
}

/**
 * Plays the operations `ops` (drawn from the model: they may name its messages) in order, checked as `playSeed` checks.
 *
 * @example
 * await playOps([() => ({ kind: "send", content: "hi" }), (model) => ({ kind: "regenerate", userId: model.userMessages()[0].id })], lanes);
 */
export async function playOps(ops: readonly ((model: BranchModel, step: number) => BranchOp)[], lanes: readonly BranchLane[]): Promise<void> {
  await play("a fixed sequence", ops.length, (model, step) => ops[step](model, step), lanes);
}

async function play(
  name: string,
  steps: number,
  draw: (model: BranchModel, step: number) => BranchOp,
  lanes: readonly BranchLane[],
  afterStep?: (models: readonly BranchModel[]) => Promise<void>,
): Promise<void> {
  const models = lanes.map(() => new BranchModel());
  const played: string[] = [];
  const failed = (error: unknown, who: string): Error =>
    new Error(`${name}${who}, after: ${played.join("; ")}\n${error instanceof Error ? error.message : String(error)}`, { cause: error });
  try {
    for (let step = 0; step < steps; step++) {
      const op = draw(models[0], step);
      played.push(describeOp(op));
      for (const [k, lane] of lanes.entries()) {
        try {
          await playOne(lane, models[k], op, step);
        } catch (error) {
          throw failed(error, `, ${lane.client.name}${lane.label === undefined ? "" : ` on ${lane.label}`}`);
        }
      }
      try {
        await afterStep?.(models);
      } catch (error) {
        throw failed(error, "");
      }
    }
  } finally {
    for (const lane of lanes) lane.client.close?.();
  }
}

async function playOne(lane: BranchLane, model: BranchModel, op: BranchOp, step: number): Promise<void> {
  const { server, client } = lane;
  const runsBefore = server.runs.length;
  const posted = await client.apply(op, step);
  const expected = predict(model, op, posted);
  expect(server.runs.length).toBe(runsBefore + (expected === undefined ? 0 : 1));
  if (expected !== undefined) {
    const run = server.runs[server.runs.length - 1];
    expect({ messages: run.messages, state: stateOrEmpty(run.state) }).toEqual({ messages: expected.messages, state: expected.state });
  }
  const view = client.view();
  expect({ messages: view.messages, state: stateOrEmpty(view.state) }).toEqual({ messages: model.messages(), state: model.state() });
  await expectWireMatches(server.url, model);
  if (op.kind === "loadOlder") expect(await walkedHistory(server.url, THREAD, op.limit)).toEqual(model.messages());
  await client.expectMatches?.(model, op, step);
}

/** Applies `op` to the model; the run it predicts, if the operation runs the agent. `posted` is the id of the user message the client posted. */
function predict(model: BranchModel, op: BranchOp, posted: string | undefined): ExpectedRun | undefined {
  const id = (): string => {
    if (posted === undefined) throw new Error(`expected the client to name the user message it posted for ${describeOp(op)}`);
    return posted;
  };
  switch (op.kind) {
    case "send":
      return model.send(id(), op.content);
    case "edit":
      return model.edit(op.userId, id(), op.content);
    case "regenerate":
      return model.regenerate(op.userId);
    case "switch":
      model.select(op.messageId, op.index);
      return undefined;
    case "loadOlder":
      return undefined;
  }
}

/** `/connect` rebuilds the model's path, groups and state; with a limit of 2, the last two messages and still every group. */
async function expectWireMatches(url: string, model: BranchModel): Promise<void> {
  const whole = await connected(url, THREAD);
  expect({ messages: whole.messages, groups: whole.groups ?? [], state: stateOrEmpty(whole.state) }).toEqual({
    messages: model.messages(),
    groups: model.groups(),
    state: model.state(),
  });
  const window = await connected(url, THREAD, 2);
  expect({ messages: window.messages, groups: window.groups ?? [], hasOlder: window.hasOlder }).toEqual({
    messages: model.messages().slice(-2),
    groups: model.groups(),
    hasOlder: model.messages().length > 2,
  });
}
