import type { SettingsEdits, SettingsProblem, SettingsSaveResult, SettingsScope, SettingsSnapshot } from '@sandy-ui/core/common';
import { arrayOf, bool, Check, messageOf, object, oneOf, optional, requestId, str } from './messages';

/** Messages of the settings webview (core's SandySettingsView ↔ SandyServiceCore settings IO). */

export const MAX_EDITS_PER_FILE = 500;
export const MAX_VALUE_CHARS = 64 * 1024;

export type SettingsToHost =
    | { type: 'ready' }
    | { type: 'save'; requestId: number; scope: SettingsScope; edits: SettingsEdits }
    /** Open a scope's raw file: only a path of the snapshot on screen. */
    | { type: 'openFile'; path: string }
    | { type: 'pickPath'; requestId: number; kind: 'folder' | 'file'; current?: string }
    | { type: 'addToGitignore'; requestId: number }
    /** Unsaved edits exist (the tab title shows it). */
    | { type: 'dirty'; dirty: boolean };

export type SettingsToWebview =
    | { type: 'snapshot'; snapshot: SettingsSnapshot }
    | { type: 'problem'; problem: SettingsProblem }
    | { type: 'saved'; requestId: number; result: SettingsSaveResult }
    | { type: 'picked'; requestId: number; path?: string }
    | { type: 'done'; requestId: number }
    | { type: 'revealKey'; key: string; scope?: SettingsScope };

/** A key sandy's loader can read (`^[A-Z_]+$`); undefined / null value = remove the key. */
const edit = object({ key: str(128, /^[A-Z_]+$/), value: optional(str(MAX_VALUE_CHARS)) });
const edits = object({ config: arrayOf(edit, MAX_EDITS_PER_FILE), secrets: arrayOf(edit, MAX_EDITS_PER_FILE) });

export const checkSettingsToHost: Check<SettingsToHost> = messageOf<SettingsToHost>({
    ready: {},
    save: { requestId, scope: oneOf<SettingsScope>('project', 'global'), edits },
    openFile: { path: str(4096) },
    pickPath: { requestId, kind: oneOf('folder', 'file'), current: optional(str(4096)) },
    addToGitignore: { requestId },
    dirty: { dirty: bool }
});
