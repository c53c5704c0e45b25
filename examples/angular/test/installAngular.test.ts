// When the e2e suite installs examples/angular: the hidden lock file npm ci leaves, against the lock file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { angularInstallProblem } from "../installAngular";

const LOCK = {
  name: "example",
  lockfileVersion: 3,
  packages: {
    "": { name: "example" },
    "node_modules/@angular/core": { version: "21.2.26" },
    "node_modules/@esbuild/darwin-arm64": { version: "0.27.0", optional: true },
  },
};

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "agui-rx-angular-install-"));
  writeFileSync(join(root, "package-lock.json"), JSON.stringify(LOCK));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function install(packages: Record<string, { version: string }>, withCli = true): void {
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  writeFileSync(join(root, "node_modules", ".package-lock.json"), JSON.stringify({ name: "example", lockfileVersion: 3, packages }));
  if (withCli) writeFileSync(join(root, "node_modules", ".bin", "ng"), "");
}

describe("angularInstallProblem", () => {
  it("is nothing when every locked package is installed at its version (optional ones may be absent)", () => {
    install({ "node_modules/@angular/core": { version: "21.2.26" } });
    expect(angularInstallProblem(root)).toBeUndefined();
  });

  it("names a missing node_modules, a missing CLI, a missing package and a stale one", () => {
    expect(angularInstallProblem(root)).toBe("examples/angular/node_modules is missing");
    install({ "node_modules/@angular/core": { version: "21.2.26" } }, false);
    expect(angularInstallProblem(root)).toBe("the Angular CLI is not installed in examples/angular");
    install({});
    expect(angularInstallProblem(root)).toBe("node_modules/@angular/core is locked at 21.2.26 but not installed");
    install({ "node_modules/@angular/core": { version: "21.1.0" } });
    expect(angularInstallProblem(root)).toBe("node_modules/@angular/core is installed at 21.1.0, but the lock file says 21.2.26");
  });

  it("refuses a lock file without packages, saying so", () => {
    install({});
    writeFileSync(join(root, "package-lock.json"), JSON.stringify({ lockfileVersion: 1, dependencies: {} }));
    expect(() => angularInstallProblem(root)).toThrow(/expected a lock file with "packages"/);
  });
});
