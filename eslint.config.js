// ESLint: typescript-eslint's recommended rules, React's hook rules for ui/, and the house limits that
// replace a cap on file length: short functions and a bounded complexity, split by meaning.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["node_modules/", ".cache/", ".tools/", ".bench/", "dist/", "bench/results/", "test/fixtures/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, Bun: "readonly" } },
    rules: {
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
      // "modified": a switch counts once, as a dispatch table reads.
      complexity: ["error", { max: 20, variant: "modified" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["ui/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    // The two rules of hooks; the React Compiler's rules (refs, immutability…) assume the compiler, which ink does not use.
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  // Tests: a describe block is a list of cases, not a function to split; parsed JSON output is read as `any`.
  {
    files: ["test/**/*.{ts,tsx}", "bench/**/*.ts"],
    rules: {
      "max-lines-per-function": "off",
      complexity: "off",
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
);
