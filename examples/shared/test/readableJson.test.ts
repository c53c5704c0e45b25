import { readableJson, readableValue, toolTitle } from "../readableJson";

describe("readableJson", () => {
  it("reads an object as labelled fields, in key order", () => {
    expect(readableJson('{"title":"buy milk","dueDate":"2026-01-02","done":false,"tags":["home","shop"],"n":3}')).toEqual({
      kind: "fields",
      fields: [
        { key: "title", label: "title", value: "buy milk" },
        { key: "dueDate", label: "due date", value: "2026-01-02" },
        { key: "done", label: "done", value: "no" },
        { key: "tags", label: "tags", value: "home, shop" },
        { key: "n", label: "n", value: "3" },
      ],
    });
  });

  it("shows nested values as compact JSON and cuts long ones", () => {
    const readable = readableJson(JSON.stringify({ where: { lat: 1, lon: 2 }, note: "x".repeat(400), none: null, empty: [] }));
    expect(readable.kind).toBe("fields");
    if (readable.kind !== "fields") return;
    expect(readable.fields.map((f) => f.value)).toEqual(['{"lat":1,"lon":2}', `${"x".repeat(159)}…`, "—", "none"]);
  });

  it("says partial for arguments still streaming, empty for nothing, text for a plain value", () => {
    expect(readableJson('{"title":"bu')).toEqual({ kind: "partial", text: '{"title":"bu' });
    expect(readableJson("")).toEqual({ kind: "empty" });
    expect(readableJson("{}")).toEqual({ kind: "empty" });
    expect(readableJson("null")).toEqual({ kind: "empty" });
    expect(readableJson('"done"')).toEqual({ kind: "text", text: "done" });
    expect(readableJson("[1,2]")).toEqual({ kind: "text", text: "1, 2" });
    expect(readableValue(true)).toEqual({ kind: "text", text: "yes" });
  });

  it("puts line breaks of a value on one line", () => {
    expect(readableJson('{"note":"a\\n  b"}')).toEqual({ kind: "fields", fields: [{ key: "note", label: "note", value: "a b" }] });
  });
});

describe("toolTitle", () => {
  it("turns snake, kebab and camel case into a sentence-case title", () => {
    expect(toolTitle("add_task")).toBe("Add task");
    expect(toolTitle("searchWeb")).toBe("Search web");
    expect(toolTitle("get-weather")).toBe("Get weather");
  });
});
