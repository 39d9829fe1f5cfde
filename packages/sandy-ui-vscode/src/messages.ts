import * as vscode from 'vscode';
import { plainDetailText, plainMessageText } from '@sandy-ui/core/common';
import type { HostUi, PickItem } from '@sandy-ui/core/common';

/**
 * Every message the plugin shows goes through these: VS Code turns `[label](command:…)` in a message
 * into a link, and project names, paths and sandy's output come from the workspace. Core's
 * neutraliser keeps them text (the agent's own notifications are neutralised the same way upstream).
 */
function plain(text: string): string {
    return plainMessageText(text, 'linked-text');
}

export function showInfo<T extends string>(text: string, ...items: T[]): Thenable<T | undefined>;
export function showInfo<T extends string>(text: string, options: vscode.MessageOptions, ...items: T[]): Thenable<T | undefined>;
export function showInfo(text: string, ...rest: unknown[]): Thenable<unknown> {
    return (vscode.window.showInformationMessage as (m: string, ...r: unknown[]) => Thenable<unknown>)(plain(text), ...rest);
}

export function showWarning<T extends string>(text: string, ...items: T[]): Thenable<T | undefined>;
export function showWarning<T extends string>(text: string, options: vscode.MessageOptions, ...items: T[]): Thenable<T | undefined>;
export function showWarning(text: string, ...rest: unknown[]): Thenable<unknown> {
    return (vscode.window.showWarningMessage as (m: string, ...r: unknown[]) => Thenable<unknown>)(plain(text), ...rest);
}

export function showError<T extends string>(text: string, ...items: T[]): Thenable<T | undefined>;
export function showError<T extends string>(text: string, options: vscode.MessageOptions, ...items: T[]): Thenable<T | undefined>;
export function showError(text: string, ...rest: unknown[]): Thenable<unknown> {
    return (vscode.window.showErrorMessage as (m: string, ...r: unknown[]) => Thenable<unknown>)(plain(text), ...rest);
}

/** Core's {@link HostUi} port in VS Code: messages through the wrappers above (text, never links). */
export const vscodeHostUi: HostUi = {
    info: (message, ...actions) => Promise.resolve(showInfo(message, ...actions)),
    warn: (message, ...actions) => Promise.resolve(showWarning(message, ...actions)),
    error: (message, ...actions) => Promise.resolve(showError(message, ...actions)),
    // A modal message is VS Code's confirmation; its title would only repeat the question.
    // VS Code shows a modal's detail as plain text with its line breaks (a plan's table), below the message.
    confirm: async ({ message, detail, ok }) => await showWarning(message, { modal: true, ...(detail ? { detail: plainDetailText(detail) } : {}) }, ok) === ok,
    pick: async <T>(items: PickItem<T>[], placeHolder: string) =>
        (await vscode.window.showQuickPick(items.map(i => ({ label: i.label, description: i.description, detail: i.detail, value: i.value })), { placeHolder }))?.value,
    pickMany: async <T>(items: Array<PickItem<T> & { picked?: boolean }>, placeHolder: string) =>
        (await vscode.window.showQuickPick(items.map(i => ({ label: i.label, description: i.description, detail: i.detail, value: i.value, picked: !!i.picked })),
            { placeHolder, canPickMany: true }))?.map(r => r.value),
    writeClipboard: text => Promise.resolve(vscode.env.clipboard.writeText(text)),
    pickFolder: async ({ title, openLabel }) => (await vscode.window.showOpenDialog({
        title, openLabel, canSelectFolders: true, canSelectFiles: false, canSelectMany: false, defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri
    }))?.[0]?.fsPath,
    openFolderInNewWindow: async folder => {
        await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(folder), { forceNewWindow: true });
    },
    input: ({ title, placeholder, validate }) => Promise.resolve(vscode.window.showInputBox({
        title: plain(title), placeHolder: plain(placeholder), ignoreFocusOut: true, validateInput: value => validate?.(value) ?? null
    })),
    withProgress: (title, task) => Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: plain(title) }, task))
};
