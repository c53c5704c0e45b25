import { pageThread, type ThreadStorage } from "../pageThread";
import { ownerOf } from "../threadOwner";

function memory(): ThreadStorage & { readonly items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

describe("pageThread", () => {
  it("makes a token and a thread it owns on the first load, and gives the same ones back on a reload", async () => {
    const storage = memory();
    let n = 0;
    const first = await pageThread(storage, () => `id-${++n}`);
    expect(first.token).toBe("id-1");
    expect(first.threadId).toBe(`${await ownerOf("id-1")}.board-id-2`);
    expect(await pageThread(storage, () => "never used")).toEqual(first);
  });

  it("replaces a stored thread the stored token does not own", async () => {
    const storage = memory();
    storage.setItem("task-board:token", "mine");
    storage.setItem("task-board:thread", "0123456789abcdef.board-someone-else");
    const page = await pageThread(storage, () => "fresh");
    expect(page.threadId).toBe(`${await ownerOf("mine")}.board-fresh`);
  });
});
