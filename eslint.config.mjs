// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['fs', 'fs/*', 'path', 'os', 'child_process', 'crypto', 'net', 'http', 'https', 'stream', 'util', 'events', 'tty', 'worker_threads']
    .flatMap(m => [m, `node:${m}`]);
const hostImports = [
    { group: ['@theia/*'], message: 'sandy-ui-core is host-neutral: no Theia imports (see HOUSE_STYLE: one implementation, thin host adapters).' },
    { group: ['vscode'], message: 'sandy-ui-core is host-neutral: no VS Code imports.' },
    { group: ['node-pty'], message: 'sandy-ui-core never hosts a PTY; the backend / plugin does.' }
];

export default tseslint.config(
    { ignores: ['**/lib/**', '**/node_modules/**', 'browser-app/**', 'electron-app/**', 'test/fixtures/**', '**/*.d.ts', '**/*.js', '**/*.mjs', '**/*.cjs'] },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
        rules: {
            '@typescript-eslint/no-explicit-any': 'off',
            '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
            '@typescript-eslint/no-unused-expressions': 'off',
            '@typescript-eslint/no-namespace': 'off',
            'no-control-regex': 'off',
            'no-console': 'error'
        }
    },
    {
        files: ['packages/sandy-ui-core/src/**/*.ts'],
        rules: { 'no-restricted-imports': ['error', { patterns: hostImports }] }
    },
    {
        files: ['packages/sandy-ui-core/src/common/**/*.ts'],
        rules: {
            'no-restricted-imports': ['error', {
                paths: nodeBuiltins.map(name => ({ name, message: 'src/common is pure and browser-safe: Node APIs belong in src/node.' })),
                patterns: [...hostImports, { group: ['../node/*', '../browser/*'], message: 'src/common depends on nothing else in the package.' }]
            }],
            'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'process']
        }
    },
    {
        files: ['packages/sandy-ui-core/src/browser/**/*.ts'],
        rules: {
            'no-restricted-imports': ['error', {
                paths: nodeBuiltins.map(name => ({ name, message: 'src/browser runs in a browser or webview: no Node APIs.' })),
                patterns: [...hostImports, { group: ['../node/*'], message: 'src/browser cannot use src/node.' }]
            }]
        }
    },
    {
        // CLI entry points print to the terminal by design.
        files: ['packages/sandy-ui-core/src/node/cli*.ts', 'test/src/fake-sandy/**/*.ts', 'test/src/bench/**/*.ts', 'scripts/**/*.ts'],
        rules: { 'no-console': 'off' }
    }
);
