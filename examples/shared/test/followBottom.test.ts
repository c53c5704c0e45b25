/** @jest-environment jsdom */
// jsdom has no layout, so the pane's sizes come from a small model: content height, window height,
// and a scrollTop clamped the way a browser clamps it. User scrolling is a scrollTop change plus
// the scroll event (and, for the wheel, the wheel event first), as in a browser.
import { FollowBottom, isAtBottom } from "../followBottom";

function pane(contentHeight: number, clientHeight = 400) {
  const element = document.createElement("div");
  document.body.append(element);
  let height = contentHeight;
  let top = 0;
  Object.defineProperty(element, "scrollHeight", { get: () => height });
  Object.defineProperty(element, "clientHeight", { get: () => clientHeight });
  Object.defineProperty(element, "scrollTop", {
    get: () => top,
    set: (value: number) => (top = Math.max(0, Math.min(value, height - clientHeight))),
  });
  const pinnedChanges: boolean[] = [];
  return {
    element,
    pinnedChanges,
    /** New content arrives: the pane grows and its DOM changes (what the observer sees). */
    grow(by: number) {
      height += by;
      element.append(document.createElement("p"));
    },
    userScrollsTo(value: number) {
      element.scrollTop = value;
      element.dispatchEvent(new Event("scroll"));
    },
    wheel(deltaY: number) {
      element.dispatchEvent(new WheelEvent("wheel", { deltaY }));
    },
    get top() {
      return top;
    },
  };
}

/** MutationObserver callbacks run as microtasks: let them. */
const observed = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe("isAtBottom", () => {
  it("counts the last 24 px as the bottom", () => {
    expect(isAtBottom({ scrollTop: 600, scrollHeight: 1000, clientHeight: 400 })).toBe(true);
    expect(isAtBottom({ scrollTop: 576, scrollHeight: 1000, clientHeight: 400 })).toBe(true);
    expect(isAtBottom({ scrollTop: 575, scrollHeight: 1000, clientHeight: 400 })).toBe(false);
    expect(isAtBottom({ scrollTop: 0, scrollHeight: 300, clientHeight: 400 })).toBe(true);
  });
});

describe("FollowBottom", () => {
  it("starts at the bottom and follows new content there", async () => {
    const p = pane(1000);
    const follow = new FollowBottom(p.element, (pinned) => p.pinnedChanges.push(pinned));
    expect(p.top).toBe(600);
    p.grow(500);
    await observed();
    expect(p.top).toBe(1100);
    expect(follow.pinned).toBe(true);
    expect(p.pinnedChanges).toEqual([]);
    follow.dispose();
  });

  it("lets go at a wheel turn upwards, before the scroll it causes, and stays put as content grows", async () => {
    const p = pane(1000);
    const follow = new FollowBottom(p.element, (pinned) => p.pinnedChanges.push(pinned));
    p.wheel(-120);
    p.grow(300); // a streamed delta between the wheel event and its scroll
    await observed();
    expect(p.top).toBe(600);
    p.userScrollsTo(480);
    p.grow(300);
    await observed();
    expect(p.top).toBe(480);
    expect(follow.pinned).toBe(false);
    expect(p.pinnedChanges).toEqual([false]);
    follow.dispose();
  });

  it("follows again once the user scrolls back to the bottom (or near it)", async () => {
    const p = pane(1000);
    const follow = new FollowBottom(p.element, (pinned) => p.pinnedChanges.push(pinned));
    p.userScrollsTo(100);
    expect(follow.pinned).toBe(false);
    p.userScrollsTo(590); // 10 px short of the end: close enough
    expect(follow.pinned).toBe(true);
    p.grow(200);
    await observed();
    expect(p.top).toBe(800);
    expect(p.pinnedChanges).toEqual([false, true]);
    follow.dispose();
  });

  it("jumps to the latest and follows from there", async () => {
    const p = pane(1000);
    const follow = new FollowBottom(p.element, (pinned) => p.pinnedChanges.push(pinned));
    p.userScrollsTo(0);
    p.grow(400);
    await observed();
    expect(p.top).toBe(0);
    follow.scrollToBottom();
    expect(p.top).toBe(1000);
    expect(follow.pinned).toBe(true);
    follow.dispose();
  });

  it("keeps following when a wheel turn cannot scroll (short content)", async () => {
    const p = pane(200);
    const follow = new FollowBottom(p.element);
    p.wheel(-120);
    expect(follow.pinned).toBe(true);
    p.grow(600);
    await observed();
    expect(p.top).toBe(400);
    follow.dispose();
  });

  it("lets go at PageUp, and does nothing after dispose", async () => {
    const p = pane(1000);
    const follow = new FollowBottom(p.element);
    p.element.dispatchEvent(new KeyboardEvent("keydown", { key: "PageUp" }));
    expect(follow.pinned).toBe(false);
    follow.scrollToBottom();
    follow.dispose();
    p.grow(500);
    await observed();
    expect(p.top).toBe(600);
  });
});
