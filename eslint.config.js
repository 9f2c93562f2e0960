import prettier from 'eslint-config-prettier'
import pluginVue from 'eslint-plugin-vue'
import tseslint from 'typescript-eslint'
import importCycles from './eslint-rules/import-cycles.js'
import layers from './eslint-rules/layers.js'
import ownFetchState from './eslint-rules/own-fetch-state.js'

/** Syntax banned in every file of src/, specs included (the spec block adds its own to these). */
const SRC_BANS = [
  {
    selector: "CallExpression[callee.name='parseFloat']",
    message:
      'Amounts are bigint: parseFloat loses precision. Use the formatting helpers in src/shared/domain/amount.ts.',
  },
]

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'sandbox/.state/**',
      '**/*.d.ts',
    ],
  },
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] } },
  },
  // Prettier owns formatting (checked by `prettier --check` in `npm run lint`): no style rule may fight it.
  prettier,
  {
    plugins: { chainscope: { rules: { ...layers.rules, ...importCycles.rules, ...ownFetchState.rules } } },
    rules: {
      'chainscope/layers': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
    },
  },
  {
    // Fetched data goes through platform/fetched.ts, a form's outcome through platform/action.ts:
    // no store or component keeps its own error ref or late-answer guard (issue 38).
    files: ['src/renderer/src/**/*.ts', 'src/renderer/src/**/*.vue'],
    ignores: ['src/renderer/src/platform/fetched.ts', 'src/renderer/src/platform/action.ts', '**/*.test.ts'],
    rules: { 'chainscope/no-own-fetch-state': 'error' },
  },
  {
    // A module must not import itself back through others (type-only imports included): see
    // eslint-rules/import-cycles.js for why.
    files: ['src/**/*.ts', 'src/**/*.vue', 'sandbox/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'chainscope/import-cycles': 'error' },
  },
  {
    // Amounts are bigint; Number() on a value that may be an amount loses precision silently.
    files: ['src/**/*.ts', 'src/**/*.vue'],
    rules: { 'no-restricted-syntax': ['error', ...SRC_BANS] },
  },
  {
    // docs/style.md: a call with five arguments cannot be read at the call site (pass one options
    // object), and a file past 400 lines holds more than one idea. Exceptions carry an
    // eslint-disable with the reason beside them, listed in docs/decisions/code-shape-limits.md.
    files: ['src/**/*.ts', 'src/**/*.vue'],
    ignores: ['**/*.test.ts', '**/*.spec.ts'],
    rules: { 'max-params': ['error', 4] },
  },
  {
    files: ['**/*.ts', '**/*.vue', '**/*.js', '**/*.mjs'],
    ignores: ['**/*.test.ts', '**/*.spec.ts'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    // As VS Code does: `{ … } as T` hides a missing or misspelt field; annotate or use `satisfies`.
    // Test fakes build partial objects on purpose, so specs and testing/ helpers are exempt.
    files: ['src/**/*.ts', 'src/**/*.vue'],
    ignores: ['**/*.test.ts', '**/testing/**'],
    rules: {
      '@typescript-eslint/consistent-type-assertions': [
        'error',
        { assertionStyle: 'as', objectLiteralTypeAssertions: 'never' },
      ],
    },
  },
  {
    // docs/style.md rule 9: specs use fake time; a real-clock sleep is slow and flaky.
    files: ['src/**/*.test.ts', 'src/**/*.spec.ts'],
    rules: {
      // A rule set here replaces the main block's, so the test block repeats every ban of it.
      'no-restricted-syntax': [
        'error',
        ...SRC_BANS,
        {
          selector: "NewExpression[callee.name='Promise'] CallExpression[callee.name='setTimeout']",
          message:
            'Unit tests use vi.useFakeTimers() and advanceTimersByTimeAsync, not real-clock sleeps (docs/style.md rule 9).',
        },
      ],
    },
  },
)
