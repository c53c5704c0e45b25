import { steppedPace } from "../steppedPace";
import { timerPace } from "../counting";

describe("steppedPace", () => {
  it("holds steps until released, lets later ones pass until held again", async () => {
    const steps = steppedPace();
    const signal = new AbortController().signal;
    const order: string[] = [];
    const first = steps.pace(signal).then(() => order.push("first"));
    await steps.waiting();
    order.push("waiting");
    steps.release();
    await first;
    await steps.pace(signal); // released: passes at once
    steps.hold();
    const third = steps.pace(signal).then(() => order.push("third"));
    await steps.waiting();
    order.push("held again");
    steps.release();
    await third;
    expect(order).toEqual(["waiting", "first", "held again", "third"]);
  });

  it("rejects a waiting step with the abort reason when its run is cancelled, and a step of a cancelled run at once", async () => {
    const steps = steppedPace();
    const controller = new AbortController();
    const step = steps.pace(controller.signal);
    await steps.waiting();
    controller.abort(new Error("cancelled"));
    await expect(step).rejects.toThrow("cancelled");
    await expect(steps.pace(controller.signal)).rejects.toThrow("cancelled");
    await expect(timerPace(60_000)(controller.signal)).rejects.toThrow("cancelled");
  });

  it("a timer pace stops waiting when its run is cancelled", async () => {
    const controller = new AbortController();
    const step = timerPace(60_000)(controller.signal);
    controller.abort(new Error("stopped"));
    await expect(step).rejects.toThrow("stopped");
  });
});
