// ESLint's and typescript-eslint's recommended rules over the tree; the few rules turned off are house style (README "Work on it").
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "docs/api/",
      "test-artifacts/",
      "node_modules/",
      "test/docs/.generated/",
      "test/cli/.generated/",
      "bench/.tmp*/",
      "test/package/consumer/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Unused names starting with "_" are deliberate (a parameter kept for its position, a rest-destructured key).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // The builder's type states and commander's generics use `{}` as "no fields yet".
      "@typescript-eslint/no-empty-object-type": "off",
      // TypeScript itself reports undefined names (and knows the DOM and Node globals per file).
      "no-undef": "off",
    },
  },
  {
    // Type tests declare values only to look at their types.
    files: ["**/*.test-d.ts"],
    rules: { "@typescript-eslint/no-unused-vars": "off" },
  },
);
