// ESLint over the whole tree (`npm run lint`); why these tools and rules: docs/contributing.md#lint.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "coverage/**",
      "test-artifacts/**",
      "examples/angular/.angular/**",
    ],
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
          allowDefaultProject: ["jest.*.config.ts", "examples/angular/*.ts", "examples/angular/test/*.ts"],
          defaultProject: "tsconfig.json",
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // The rules that matter most here are in recommendedTypeChecked already: no-floating-promises,
      // no-misused-promises, await-thenable and the no-unsafe-* family. These adjust the rest.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The Angular page is type-checked by its own `ng build` against its own install
    // (examples/angular/node_modules), which the lint step does not have: syntax rules only.
    files: ["examples/angular/src/**/*.ts"],
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
