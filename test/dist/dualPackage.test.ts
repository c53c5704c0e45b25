// The dual-package hazard (docs/packaging.md): the ESM and the CJS build are two copies of every
// class, so `instanceof` fails across them; the static `isInstance` of each error class reads a
// `Symbol.for` brand and works across copies.
import { execFileSync } from "node:child_process";
import { ClientError } from "../../src/thread/ClientError";
import { ClientToolError } from "../../src/client/tools/ClientToolError";
import { Diagnostic, ProtocolError } from "../../src/operators/ProtocolError";
import { PatchError } from "../../src/patch/PatchError";
import { StoreError } from "../../src/server/store/StoreError";
import { DecodeError } from "../../src/wire/DecodeError";
import { DecodeWarning, isDecodeWarning } from "../../src/wire/DecodeWarning";
import { ROOT, ensureBuilt } from "./ensureBuilt";

describe("isInstance (in one copy)", () => {
  const protocolError = new ProtocolError("text-message", "R15", {}, "TEXT_MESSAGE_CONTENT for m9, which was never started");
  const cases = [
    ["ClientError", (value: unknown) => ClientError.isInstance(value), new ClientError("http", "POST answered 500", { status: 500 })],
    ["ProtocolError", (value: unknown) => ProtocolError.isInstance(value), protocolError],
    ["DecodeError", (value: unknown) => DecodeError.isInstance(value), new DecodeError("json", "SSE data is not JSON")],
    ["Diagnostic", (value: unknown) => Diagnostic.isInstance(value), new Diagnostic(protocolError)],
    ["StoreError", (value: unknown) => StoreError.isInstance(value), new StoreError("run-active", "expected no live run, but r1 is live")],
    ["ClientToolError", (value: unknown) => ClientToolError.isInstance(value), new ClientToolError('tool "get_time" failed: offline', { code: "execute-failed" })],
    ["PatchError", (value: unknown) => PatchError.isInstance(value), new PatchError(0, { op: "remove", path: "/x" }, "/x", 'no member "x"')],
    ["DecodeWarning", (value: unknown) => isDecodeWarning(value), new DecodeWarning("unknown-property", "event 1 (RUN_STARTED): removed unknown property /x", { eventType: "RUN_STARTED", path: "/x" })],
  ] as const;

  test.each(cases)("%s.isInstance is true for its own instances and false for everything else", (_name, isInstance, instance) => {
    expect(isInstance(instance)).toBe(true);
    for (const [, , other] of cases) if (other !== instance) expect(isInstance(other)).toBe(false);
    for (const value of [new Error("x"), { name: instance.constructor.name }, null, undefined, "ClientError", 42, Object.create(null)]) {
      expect(isInstance(value)).toBe(false);
    }
  });

  test.each(cases)("the %s brand lives on the prototype, not on the instance: equality and JSON are as before", (_name, _isInstance, instance) => {
    expect(Object.getOwnPropertySymbols(instance)).toEqual([]);
  });
});

describe("across the ESM and CJS copies (built package)", () => {
  beforeAll(ensureBuilt, 300_000);

  test("instanceof fails across copies, isInstance works, for each branded class", () => {
    const script = `
      import { createRequire } from "node:module";
      const require = createRequire(${JSON.stringify(`${ROOT}/`)});
      const cjsRoot = require("agui-rx"), cjsClient = require("agui-rx/client"), cjsServer = require("agui-rx/server");
      const esmRoot = await import("agui-rx"), esmClient = await import("agui-rx/client"), esmServer = await import("agui-rx/server");
      const fromCjs = {
        ClientError: new cjsClient.ClientError("http", "boom"),
        ProtocolError: new cjsRoot.ProtocolError("text-message", "R15", {}, "boom"),
        DecodeError: new cjsRoot.DecodeError("json", "boom"),
        Diagnostic: new cjsRoot.Diagnostic(new cjsRoot.ProtocolError("chunk", "C5", {}, "boom")),
        StoreError: new cjsServer.StoreError("run-active", "boom"),
        ClientToolError: new cjsClient.ClientToolError("boom", { code: "execute-failed" }),
        PatchError: new cjsRoot.PatchError(0, { op: "remove", path: "/x" }, "/x", "boom"),
      };
      const esm = { ClientError: esmClient.ClientError, ProtocolError: esmRoot.ProtocolError, DecodeError: esmRoot.DecodeError, Diagnostic: esmRoot.Diagnostic,
        StoreError: esmServer.StoreError, ClientToolError: esmClient.ClientToolError, PatchError: esmRoot.PatchError };
      const result = {};
      for (const [name, value] of Object.entries(fromCjs)) {
        result[name] = { instanceofAcross: value instanceof esm[name], isInstanceAcross: esm[name].isInstance(value), sameClass: esm[name] === value.constructor };
      }
      // The checks that used instanceof before: the in-band guards and ClientError.from's mapping.
      const warning = new cjsRoot.DecodeWarning("unknown-property", "boom", { eventType: "RUN_STARTED", path: "/x" });
      result.guards = {
        isDiagnostic: esmRoot.isDiagnostic(fromCjs.Diagnostic),
        isDecodeWarning: esmRoot.isDecodeWarning(warning),
        fromClientError: esmClient.ClientError.from(fromCjs.ClientError) === fromCjs.ClientError,
        fromDecodeError: esmClient.ClientError.from(fromCjs.DecodeError).kind,
        fromProtocolError: esmClient.ClientError.from(fromCjs.ProtocolError).kind,
        fromPatchError: esmClient.ClientError.from(fromCjs.PatchError).kind,
      };
      console.log(JSON.stringify(result));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
    const across = { instanceofAcross: false, isInstanceAcross: true, sameClass: false };
    expect(JSON.parse(out)).toEqual({
      ClientError: across,
      ProtocolError: across,
      DecodeError: across,
      Diagnostic: across,
      StoreError: across,
      ClientToolError: across,
      PatchError: across,
      guards: { isDiagnostic: true, isDecodeWarning: true, fromClientError: true, fromDecodeError: "json", fromProtocolError: "protocol", fromPatchError: "patch" },
    });
  });
});
