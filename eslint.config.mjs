// The linter: typescript-eslint's type-aware recommended rules, React's hooks rules (the React Compiler
// checks among them) and Next's rules, over the whole tree. `npm run lint` runs it with no warnings
// allowed; `npm test` runs it first. A rule turned off or relaxed says why beside it.
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const reactRooms = ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"];

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".next/",
      "data/",
      "lib/db/generated/",
      "test-results/",
      "playwright-report/",
      "e2e/artifacts/",
      "bench/out/",
      "next-env.d.ts",
      "**/*.mjs",
      "**/*.js",
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // An async function that does not await still turns a throw into a rejected promise; interface
      // methods (stores, buses, model clients) are async for their callers' sake, whatever their body does.
      "@typescript-eslint/require-await": "off",
      // `_name` marks a binding kept for its position (a callback's signature, a destructured rest), the
      // convention TypeScript's own noUnusedParameters follows.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
    },
  },
  // React's and Next's rules where React and Next live: lib/ is plain TypeScript, where a parameter called
  // `use` is not React's hook.
  { files: reactRooms, ...reactHooks.configs.flat["recommended-latest"] },
  { files: reactRooms, ...nextPlugin.configs["core-web-vitals"] },
);
