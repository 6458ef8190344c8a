import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  // Generated files are held to their generator instead (`npm run client:check` for the schema).
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'src/client/schema.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.property.name='only']", message: 'focused tests skip the rest' }],
      // Prettier breaks a long chain before a computed member (`request(url)\n  [verb](path)`);
      // the rule's own documentation says to turn it off alongside Prettier.
      'no-unexpected-multiline': 'off',
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['src/web/browser/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/config/**', 'src/cli/**', 'src/main.ts', '**/*.spec.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'read configuration from AppConfig (house rule 8)' }],
    },
  },
);
