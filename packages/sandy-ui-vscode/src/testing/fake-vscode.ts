/**
 * A stand-in for the `vscode` module, for unit specs of host adapters that need only a little of
 * the API (webview panels, messages, env, commands). Importing this file first makes
 * `require('vscode')` resolve to {@link fakeVscode}; each spec resets it with {@link resetFakeVscode}.
 * It records what the adapter asked the editor to do, so a spec asserts on exactly that.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
import Module = require('module');

type Listener<T> = (value: T) => void;

export class FakeEventEmitter<T> {
    protected listeners: Array<Listener<T>> = [];
    readonly event = (listener: Listener<T>): { dispose(): void } => {
        this.listeners.push(listener);
        return { dispose: () => { this.listeners = this.listeners.filter(l => l !== listener); } };
    };
    fire(value: T): void {
        for (const l of [...this.listeners]) {
            l(value);
        }
    }
    dispose(): void {
        this.listeners = [];
    }
}

export class FakeUri {
    constructor(readonly scheme: string, readonly path: string, readonly raw: string) { }
    static parse(value: string): FakeUri {
        const colon = value.indexOf(':');
        return new FakeUri(value.slice(0, colon), value.slice(colon + 1), value);
    }
    static file(path: string): FakeUri {
        return new FakeUri('file', path, `file://${path}`);
    }
    static joinPath(base: FakeUri, ...parts: string[]): FakeUri {
        return new FakeUri(base.scheme, [base.path, ...parts].join('/'), [base.raw, ...parts].join('/'));
    }
    get fsPath(): string {
        return this.path;
    }
    toString(): string {
        return this.raw;
    }
}

/** One `createWebviewPanel` result: the adapter's messages to the page, and a way to send it messages from the page. */
export class FakeWebviewPanel {
    title: string;
    active = true;
    iconPath: unknown;
    readonly posted: unknown[] = [];
    readonly fromPage = new FakeEventEmitter<unknown>();
    readonly viewState = new FakeEventEmitter<void>();
    readonly disposed = new FakeEventEmitter<void>();
    readonly webview = {
        html: '',
        cspSource: 'vscode-resource:',
        asWebviewUri: (uri: FakeUri) => uri,
        onDidReceiveMessage: this.fromPage.event,
        postMessage: async (message: unknown) => {
            this.posted.push(message);
            return true;
        }
    };
    readonly onDidChangeViewState = this.viewState.event;
    readonly onDidDispose = this.disposed.event;

    constructor(title: string) {
        this.title = title;
    }

    reveal(): void {
        this.active = true;
    }

    dispose(): void {
        this.disposed.fire();
    }
}

export interface FakeVscodeRecord {
    panels: FakeWebviewPanel[];
    infos: Array<{ message: string; items: string[] }>;
    warnings: string[];
    errors: string[];
    external: string[];
    commands: Array<{ id: string; args: unknown[] }>;
    clipboard: string[];
    /** What the next showInformationMessage resolves to (e.g. 'Show'). */
    infoAnswer: string | undefined;
    settings: Record<string, unknown>;
    /** `vscode.workspace.onDidChangeConfiguration` listeners ({@link changeSettings} calls them). */
    configurationListeners: Array<(e: { affectsConfiguration(section: string): boolean }) => void>;
    /** `vscode.window.onDidChangeActiveColorTheme` listeners ({@link changeColorTheme} calls them). */
    colorThemeListeners: Array<() => void>;
    /** `vscode.window.state.focused`: whether the window has the user's focus. */
    windowFocused: boolean;
    /** `vscode.env.uiKind` (1 Desktop, 2 Web) and `appName`. */
    uiKind: number;
    appName: string;
}

export const recorded: FakeVscodeRecord = {
    panels: [], infos: [], warnings: [], errors: [], external: [], commands: [], clipboard: [], infoAnswer: undefined, settings: {}, windowFocused: true,
    configurationListeners: [], colorThemeListeners: [], uiKind: 1, appName: 'Visual Studio Code'
};

/** The user's settings change as VS Code reports it: the new values, then the event. */
export function changeSettings(values: Record<string, unknown>): void {
    Object.assign(recorded.settings, values);
    const keys = Object.keys(values);
    const event = { affectsConfiguration: (section: string) => keys.some(k => k === section || k.startsWith(`${section}.`)) };
    [...recorded.configurationListeners].forEach(listener => listener(event));
}

/** The user picked another colour theme. */
export function changeColorTheme(): void {
    [...recorded.colorThemeListeners].forEach(listener => listener());
}

export function resetFakeVscode(): void {
    Object.assign(recorded, { panels: [], infos: [], warnings: [], errors: [], external: [], commands: [], clipboard: [], infoAnswer: undefined, settings: {}, windowFocused: true,
        configurationListeners: [], colorThemeListeners: [], uiKind: 1, appName: 'Visual Studio Code' });
}

const noDispose = { dispose: () => undefined };

export const fakeVscode = {
    ViewColumn: { Active: -1, One: 1 },
    UIKind: { Desktop: 1, Web: 2 },
    Uri: FakeUri,
    EventEmitter: FakeEventEmitter,
    window: {
        createWebviewPanel: (_type: string, title: string) => {
            const panel = new FakeWebviewPanel(title);
            recorded.panels.push(panel);
            return panel;
        },
        showInformationMessage: async (message: string, ...items: string[]) => {
            recorded.infos.push({ message, items });
            return recorded.infoAnswer;
        },
        showWarningMessage: async (message: string) => {
            recorded.warnings.push(message);
            return undefined;
        },
        showErrorMessage: async (message: string) => {
            recorded.errors.push(message);
            return undefined;
        },
        onDidChangeActiveColorTheme: (listener: () => void) => {
            recorded.colorThemeListeners.push(listener);
            return { dispose: () => recorded.colorThemeListeners.splice(recorded.colorThemeListeners.indexOf(listener) >>> 0, 1) };
        },
        onDidChangeWindowState: () => noDispose,
        get state() {
            return { focused: recorded.windowFocused };
        },
        createOutputChannel: () => ({ info: () => undefined, warn: () => undefined, error: () => undefined, appendLine: () => undefined, dispose: () => undefined })
    },
    workspace: {
        onDidChangeConfiguration: (listener: (e: { affectsConfiguration(section: string): boolean }) => void) => {
            recorded.configurationListeners.push(listener);
            return { dispose: () => recorded.configurationListeners.splice(recorded.configurationListeners.indexOf(listener) >>> 0, 1) };
        },
        getConfiguration: () => ({
            get: (key: string) => recorded.settings[key],
            inspect: (key: string) => key in recorded.settings ? { key, globalValue: recorded.settings[key] } : undefined
        })
    },
    env: {
        get appName() {
            return recorded.appName;
        },
        get uiKind() {
            return recorded.uiKind;
        },
        openExternal: async (uri: FakeUri) => {
            recorded.external.push(uri.toString());
            return true;
        },
        clipboard: {
            writeText: async (text: string) => {
                recorded.clipboard.push(text);
            }
        }
    },
    commands: {
        executeCommand: async (id: string, ...args: unknown[]) => {
            recorded.commands.push({ id, args });
            return undefined;
        }
    }
};

// `require('vscode')` anywhere below this point gets the fake.
const resolver = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
const original = resolver._resolveFilename;
const FAKE_ID = '\0fake-vscode';
resolver._resolveFilename = function (request: string, ...rest: unknown[]): string {
    return request === 'vscode' ? FAKE_ID : original.call(this, request, ...rest);
};
require.cache[FAKE_ID] = { id: FAKE_ID, filename: FAKE_ID, loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
