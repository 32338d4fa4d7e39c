// ESLint for the hub's pages (hub/web/static): native ES modules run by the browser as
// they are (no build step), so the recommended rules, the browser's globals and
// sourceType "module". ./scripts/test runs it (`npx eslint hub/web/static`).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/**", ".venv/**"] },
  js.configs.recommended,
  {
    files: ["hub/web/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "all" }],
      "no-undef": "error",
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
