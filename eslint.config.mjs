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
                patterns: [...hostImports, { group: ['**/node/*', '**/browser/*', '@sandy-ui/*'], message: 'src/common depends on nothing else in the package.' }]
            }],
            'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'process']
        }
    },
    {
        files: ['packages/sandy-ui-core/src/browser/**/*.ts'],
        rules: {
            'no-restricted-imports': ['error', {
                paths: nodeBuiltins.map(name => ({ name, message: 'src/browser runs in a browser or webview: no Node APIs.' })),
                patterns: [...hostImports, { group: ['**/node/*', '@sandy-ui/*'], message: 'src/browser cannot use src/node.' }]
            }]
        }
    },
    {
        // Hosts use core through its exports map only (./common, ./node, ./browser/<feature>), never by deep path.
        files: ['packages/sandy-ui-backend/src/**/*.ts', 'packages/sandy-ui-ext/src/**/*.ts', 'packages/sandy-ui-vscode/src/**/*.ts', 'test/src/**/*.ts'],
        rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@sandy-ui/core/lib/*', '@sandy-ui/core/src/*'], message: 'Import @sandy-ui/core/common, /node or /browser/<feature> (the package exports map), not a deep path.' }] }] }
    },
    {
        // The Theia frontend runs in the browser: never core's node layer, the backend's node code or Node APIs.
        files: ['packages/sandy-ui-ext/src/browser/**/*.ts'],
        ignores: ['packages/sandy-ui-ext/src/browser/**/*.spec.ts'],
        rules: {
            'no-restricted-imports': ['error', {
                paths: nodeBuiltins.map(name => ({ name, message: 'The Theia frontend runs in a browser: no Node APIs.' })),
                patterns: [
                    { group: ['@sandy-ui/core/node', '@sandy-ui/backend/lib/node/*', '@sandy-ui/core/lib/*', '@theia/*/lib/node/*', '@theia/*/lib/electron-main/*'], message: 'The Theia frontend never imports a node layer (core/node, backend/node).' },
                    { group: ['vscode', 'node-pty'], message: 'The Theia frontend is not the VS Code plugin.' }
                ]
            }]
        }
    },
    {
        // The plugin's webviews run in a sandboxed page: no VS Code API, no node, no core node layer.
        files: ['packages/sandy-ui-vscode/src/webview/**/*.ts'],
        ignores: ['packages/sandy-ui-vscode/src/webview/**/*.spec.ts'],
        rules: {
            'no-restricted-imports': ['error', {
                paths: nodeBuiltins.map(name => ({ name, message: 'A webview is a browser page: no Node APIs.' })),
                patterns: [
                    { group: ['vscode', 'node-pty', '@theia/*'], message: 'A webview talks to the extension host by messages only.' },
                    { group: ['@sandy-ui/core/node', '@sandy-ui/core/lib/*', '../../*', '../*', '!../*-protocol'], message: 'A webview imports core/common, core/browser/<feature> and its own protocol files only.' }
                ]
            }]
        }
    },
    {
        // The backend's common layer is shared with the frontend.
        files: ['packages/sandy-ui-backend/src/common/**/*.ts'],
        rules: {
            'no-restricted-imports': ['error', {
                paths: nodeBuiltins.map(name => ({ name, message: 'backend/common is imported by the browser: no Node APIs.' })),
                patterns: [{ group: ['@sandy-ui/core/node', '../node/*', 'node-pty'], message: 'backend/common is imported by the browser: no node layer.' }]
            }]
        }
    },
    {
        // Agent and workspace text flows into every view: no markup sinks, anywhere a host or core builds DOM.
        files: ['packages/sandy-ui-core/src/browser/**/*.ts', 'packages/sandy-ui-ext/src/browser/**/*.ts', 'packages/sandy-ui-ext/src/browser/**/*.tsx', 'packages/sandy-ui-vscode/src/webview/**/*.ts'],
        ignores: ['**/*.spec.ts'],
        rules: {
            'no-restricted-properties': ['error',
                { property: 'innerHTML', message: 'Build DOM with core/browser/dom.ts (text only as text nodes).' },
                { property: 'outerHTML', message: 'Build DOM with core/browser/dom.ts (text only as text nodes).' },
                { property: 'insertAdjacentHTML', message: 'Build DOM with core/browser/dom.ts (text only as text nodes).' }
            ],
            'no-restricted-syntax': ['error', { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'No markup from strings in the Sandy views.' }]
        }
    },
    {
        // CLI entry points print to the terminal by design.
        files: ['packages/sandy-ui-core/src/node/cli*.ts', 'test/src/fake-sandy/**/*.ts', 'test/src/bench/**/*.ts', 'scripts/**/*.ts'],
        rules: { 'no-console': 'off' }
    }
);
