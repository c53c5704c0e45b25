import * as t from "io-ts";
import { lastValueFrom, toArray } from "rxjs";
import { runAgentInput } from "../../src/protocol/build";
import { stateSpec } from "../../src/protocol/stateSpec";
import { run } from "../../src/server/run";
import type { Agent } from "../../src/server/Agent";

const Board = t.type({ tasks: t.array(t.string) });
const spec = stateSpec(Board, { tasks: [] });

test("editing stateMut never changes the spec's default for later runs", async () => {
  const agent: Agent<t.TypeOf<typeof Board>> = {
    state: spec,
    async run(ctx) {
      ctx.stateMut.tasks.push(`seen ${ctx.stateMut.tasks.length}`);
      ctx.publishState();
      return { type: "success" };
    },
  };
  const snapshots: unknown[] = [];
  for (const runId of ["r1", "r2"]) {
    const events = await lastValueFrom(run(agent, runAgentInput("t", runId)).pipe(toArray()));
    snapshots.push(events.find((event) => event.type === "STATE_SNAPSHOT"));
  }
  expect(spec.defaultValue).toEqual({ tasks: [] });
  expect(snapshots).toEqual([expect.objectContaining({ snapshot: { tasks: ["seen 0"] } }), expect.objectContaining({ snapshot: { tasks: ["seen 0"] } })]);
});
