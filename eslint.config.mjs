// ESLint over the whole tree (`npm run lint`); why these tools and rules: docs/contributing.md#lint.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["**/node_modules/**", "**/dist/**", "coverage/**", "test-artifacts/**", "examples/angular/.angular/**"],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  js.configs.recommended,
  {
    files: ["**/*.{ts,tsx,mts,cts}"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // One TypeScript language service for the whole tree: each file is checked under the
        // nearest tsconfig.json that includes it (root, examples/react, examples/ai-chat/page, e2e).
        projectService: {
          // Files no tsconfig includes: the jest configs beside this one and the Angular example's
          // Node-side helpers (its own tsconfig covers only the browser app).
          allowDefaultProject: ["examples/angular/*.ts", "examples/angular/test/*.ts"],
          defaultProject: "tsconfig.json",
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // The rules that matter most here are in recommendedTypeChecked already: no-floating-promises,
      // no-misused-promises, await-thenable and the no-unsafe-* family. These adjust the rest;
      // each adjustment is explained in docs/contributing.md#lint.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      // A `let` that a callback reads before its one assignment (a subscription a synchronous source
      // may end while `subscribe` is still running) stays a `let`: `const` would throw there.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // `async` without `await` is kept on purpose: it turns a synchronous throw into a rejection.
      "@typescript-eslint/require-await": "off",
      // `interface X extends t.TypeOf<typeof X> {}` names an io-ts codec's type (docs/contributing.md#lint).
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
      // A rejection passes on what it was given (an abort signal's reason, a caught value) unchanged.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
      // Two module-private control-flow signals, thrown and caught inside their own module, never
      // escaping it: they carry no stack because they are not errors (src/patch).
      "@typescript-eslint/only-throw-error": [
        "error",
        {
          allow: [
            { from: "file", name: "Failure", path: "src/patch/apply.ts" },
            { from: "file", name: "GiveUp", path: "src/patch/diff.ts" },
          ],
        },
      ],
    },
  },
  {
    // Jest types its asymmetric matchers (`expect.any`, `expect.stringContaining`, …) as `any`, so
    // every expected object that holds one would be an "unsafe assignment"; in tests only.
    files: ["**/*.test.{ts,tsx}"],
    rules: { "@typescript-eslint/no-unsafe-assignment": "off" },
  },
  {
    // The Angular page is type-checked by its own `ng build` against its own install
    // (examples/angular/node_modules), and the Angular suite by its own TypeScript against
    // test/angular/node_modules (its global setup); the lint step has neither: syntax rules only.
    files: ["examples/angular/src/**/*.ts", "test/angular/**/*.ts"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { parserOptions: { projectService: false, project: null } },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
  },
);
