/**
 * `Session.selectBranch`, following another tab's switches, and paging after a switch, over real
 * HTTP (docs/client.md#branches): a handler that owns the history, with `identify`, on loopback.
 */
import { filter, firstValueFrom, skip } from "rxjs";
import { closeAll } from "../../http/durable/support";
import type { Update } from "../../../src/thread/Update";
import { idsOf, run, serveBranches, sessionOn } from "./support";

afterEach(closeAll);

test("selectBranch shows the other sibling's messages, state and groups, and the views hear messages, state and branches changes", async () => {
  const { url } = await serveBranches();
  const session = sessionOn(url, "t");
  try {
    await run(session.send("first"));
    await run(session.send("second"));
    const [u1, a1, u2, a2] = idsOf(session);
    await run(session.regenerate());
    const a2b = idsOf(session)[3];
    expect(session.state).toEqual({ turns: 2 });

    const heard: Update[] = [];
    const changed: string[] = [];
    const views = [
      session.messages$.pipe(skip(1)).subscribe(() => changed.push("messages")),
      session.state$.pipe(skip(1)).subscribe(() => changed.push("state")),
      session.branchGroups$.pipe(skip(1)).subscribe(() => changed.push("branches")),
    ];
    await session.selectBranch(a2b, 0);
    views.forEach((view) => view.unsubscribe());
    void heard;
    expect(idsOf(session)).toEqual([u1, a1, u2, a2]);
    expect(session.state).toEqual({ turns: 2 });
    expect(session.branches(a2)).toEqual({ index: 0, count: 2, siblingIds: [a2, a2b] });
    expect(changed).toEqual(expect.arrayContaining(["messages", "state", "branches"]));

    // and back, by the index of the other sibling
    await session.selectBranch(a2, 1);
    expect(idsOf(session)).toEqual([u1, a1, u2, a2b]);
    expect(session.branches(u2)).toEqual({ index: 0, count: 1, siblingIds: [u2] });
  } finally {
    session.close();
  }
});

test("selectBranch refuses while a run is active, a bad index, and passes on the server's refusal", async () => {
  const { url } = await serveBranches();
  const session = sessionOn(url, "t");
  try {
    await run(session.send("first"));
    const [, a1] = idsOf(session);
    await expect(session.selectBranch(a1, -1)).rejects.toMatchObject({ kind: "config", message: expect.stringContaining("got -1") });
    await expect(session.selectBranch(a1, 1)).rejects.toMatchObject({ kind: "http", status: 422 });
    const running = session.send("second").subscribe();
    await expect(session.selectBranch(a1, 0)).rejects.toMatchObject({ kind: "config", message: expect.stringContaining("a run is active") });
    running.unsubscribe();
  } finally {
    session.close();
  }
});

test("a second tab follows a switch made by the first (path-selected), and a fork made by the first's run on its next connect", async () => {
  const { url } = await serveBranches();
  const first = sessionOn(url, "t", { prefix: "x" });
  const second = sessionOn(url, "t", { prefix: "y" });
  try {
    await run(first.send("first"));
    await run(first.send("second"));
    await run(first.regenerate());
    const [u1, a1, u2, a2b] = idsOf(first);
    await run(second.connect());
    expect(idsOf(second)).toEqual([u1, a1, u2, a2b]);
    // the second tab follows the thread once connected: wait until its stream is open
    const a2 = first.branches(a2b).siblingIds[0];
    const shown = firstValueFrom(second.messages$.pipe(filter((messages) => messages[3]?.id === a2)));
    await untilFollowing(second, () => first.selectBranch(a2b, 0));
    await shown;
    expect(second.branches(a2)).toEqual({ index: 0, count: 2, siblingIds: [a2, a2b] });
    expect(second.state).toEqual(first.state);

    // a fork by the first tab's run: the second tab shows it on its next connect
    await run(first.edit(u2, "second, edited"));
    const edited = idsOf(first)[2];
    await run(second.connect());
    expect(idsOf(second)).toEqual(idsOf(first));
    expect(second.branches(edited)).toEqual({ index: 1, count: 2, siblingIds: [u2, edited] });
  } finally {
    first.close();
    second.close();
  }
});

test("loadOlder after a switch pages the new path", async () => {
  const { url } = await serveBranches();
  const writer = sessionOn(url, "t");
  try {
    for (const text of ["one", "two", "three"]) await run(writer.send(text));
    await run(writer.regenerate());
    const path = idsOf(writer);
    const reader = sessionOn(url, "t", { historyLimit: 2, prefix: "r" });
    try {
      await run(reader.connect());
      expect(idsOf(reader)).toEqual(path.slice(-2));
      await reader.selectBranch(path[5], 0);
      const old = writer.branches(path[5]).siblingIds[0];
      expect(idsOf(reader)).toEqual([path[4], old]);
      await reader.loadOlder();
      expect(idsOf(reader)).toEqual([...path.slice(2, 5), old]);
      await reader.loadOlder();
      expect(idsOf(reader)).toEqual([...path.slice(0, 5), old]);
      expect(reader.hasOlder).toBe(false);
    } finally {
      reader.close();
    }
  } finally {
    writer.close();
  }
});

/**
 * Runs `act` once `session` follows its thread: the follower's stream is opened lazily after the
 * connect, so the test waits for the server to have a reader (by retrying `act`'s effect is not
 * possible: a switch is announced once). The session's `following` state says when.
 */
async function untilFollowing(session: { readonly following: boolean }, act: () => Promise<void>): Promise<void> {
  while (!session.following) await new Promise<void>((resolve) => setImmediate(resolve));
  await act();
}
