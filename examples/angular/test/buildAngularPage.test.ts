// What the built Angular page bundles of the library, read from its source maps: the packed package, never ../../src.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundledLibrary } from "../buildAngularPage";

let dist: string;
beforeEach(() => {
  dist = mkdtempSync(join(tmpdir(), "agui-rx-angular-dist-"));
});
afterEach(() => rmSync(dist, { recursive: true, force: true }));

const map = (file: string, sources: readonly string[]) => writeFileSync(join(dist, file), JSON.stringify({ version: 3, sources, mappings: "" }));

describe("bundledLibrary", () => {
  it("sorts the scripts' sources into the installed package's files and the repository's src/ files", () => {
    map("main-A.js.map", [
      "node_modules/agui-rx/dist/esm/angular.mjs",
      "src/app/app.component.ts",
      "../shared/approvals.ts",
      "node_modules/@angular/core/fesm2022/core.mjs",
    ]);
    map("chunk-B.js.map", ["../../src/client/Session.ts", "node_modules/agui-rx/dist/esm/client.mjs"]);
    writeFileSync(join(dist, "styles-C.css.map"), JSON.stringify({ version: 3, sources: ["../../src/ignored.css"] }));
    const found = bundledLibrary(dist);
    expect([...found.fromPackage].sort()).toEqual(["node_modules/agui-rx/dist/esm/angular.mjs", "node_modules/agui-rx/dist/esm/client.mjs"]);
    expect(found.fromSources).toEqual(["../../src/client/Session.ts"]);
  });

  it("finds nothing in a page without source maps", () => {
    writeFileSync(join(dist, "main.js"), "");
    expect(bundledLibrary(dist)).toEqual({ fromPackage: [], fromSources: [] });
  });
});
