// ESLint over the TypeScript tree: typescript-eslint's strict, type-checked rules, with the exceptions
// below, each with its reason. Formatting is Prettier's (.prettierrc.json), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The rules about values typed `any`. */
const UNSAFE_ANY_RULES = ['no-unsafe-member-access', 'no-unsafe-call', 'no-unsafe-assignment', 'no-unsafe-argument', 'no-unsafe-return'].map(
  (rule) => `@typescript-eslint/${rule}`,
);

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-artifacts/', 'src/replica/data/samples/', 'test/fixtures/', 'src/playground/web/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // TypeScript itself checks every name; the .mjs scripts run on Node's globals.
      'no-undef': 'off',
      // With noUncheckedIndexedAccess, `!` marks an index the line before has bounded.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Handlers and repositories are async by contract: a throw becomes a rejection either way.
      '@typescript-eslint/require-await': 'off',
      // Numbers in messages and log lines are what templates are for.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNullish: true }],
      // `() => void work()` and `(x) => list.push(x)` read plainly; the rule would make each a block.
      '@typescript-eslint/no-confusing-void-expression': 'off',
      // Values from outside are checked and converted against what their types promise: PostgreSQL's
      // int8 and numeric arrive as text, API and Discord payloads drift, custom IDs are typed by anyone.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/no-unnecessary-type-conversion': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      // `void promise` marks work left running on purpose, whether the promise is a call or a name.
      '@typescript-eslint/no-meaningless-void-operator': 'off',
      // Discord's payloads carry plain numbers where discord-api-types declares enums.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      '@typescript-eslint/no-unsafe-enum-assignment': 'off',
      // An abort rejects with the signal's own reason, whatever the caller put there.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  // Anyone can send any custom ID: a handler reads a number from one through the codec (src/render/custom-id.ts
  // `wholeArg`, `pageArg`; src/render/paginate.ts `pageFromArgs`), which checks and clamps it, never by converting it itself.
  {
    files: ['commands/**', 'src/discord/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "CallExpression[callee.name=/^(Number|parseInt|parseFloat)$/] Identifier[name='args']",
          "CallExpression[callee.object.name='Number'][callee.property.name=/^parse/] Identifier[name='args']",
          "UnaryExpression[operator='+'] Identifier[name='args']",
        ].map((selector) => ({ selector, message: "Read a number from a custom ID's args with wholeArg, pageArg or pageFromArgs." })),
      ],
    },
  },
  // Untyped values by nature: @napi-rs/canvas types its 2D context with the DOM's canvas types, which a
  // Node build does not load; tests read raw JSON payloads and the browser's DOM.
  { files: ['src/charts/**', 'test/**'], rules: Object.fromEntries(UNSAFE_ANY_RULES.map((rule) => [rule, 'off'])) },
  { files: ['**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
);
