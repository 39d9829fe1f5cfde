import * as vscode from 'vscode';
import { plainMessageText } from '@sandy-ui/core/common';

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
