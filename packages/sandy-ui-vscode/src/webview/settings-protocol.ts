import { z } from 'zod';
import type { ConfigEdit, SettingsSaveResult, SettingsScope, SettingsSnapshot } from '@sandy-ui/core/common';
import {
    arrayField, exactObject, messageSchema, messageSet, MessageOf, optionalField, Protocol, requestSpec, textField, trustedField
} from '@sandy-ui/core/common';

/** Messages of the settings webview (core's SandySettingsView ↔ core's SettingsEditor in the extension host). */

export const MAX_EDITS_PER_FILE = 500;
export const MAX_VALUE_CHARS = 64 * 1024;
const MAX_PATH_CHARS = 4096;

const scope = z.enum(['project', 'global'] as const satisfies readonly SettingsScope[]);
/** A key sandy's loader can read (`^[A-Z_]+$`); an absent / null value removes the key. */
const edit = exactObject({ key: textField(128, /^[A-Z_]+$/), value: optionalField(textField(MAX_VALUE_CHARS)) })
    .transform((e): ConfigEdit => ({ key: e.key, value: e.value }));
const edits = exactObject({ config: arrayField(edit, MAX_EDITS_PER_FILE), secrets: arrayField(edit, MAX_EDITS_PER_FILE) });

export const settingsToHost = messageSet({
    notifications: {
        ready: {},
        /** Unsaved edits exist (the tab title shows it). */
        dirty: { dirty: z.boolean() }
    },
    requests: {
        /** Save one scope (then `--validate-config`, which runs sandy: a generous answer time). */
        save: requestSpec({ scope, edits }, trustedField<SettingsSaveResult>(), 120_000),
        /** Open a scope's raw file: only a path of the snapshot on screen. */
        openFile: requestSpec({ path: textField(MAX_PATH_CHARS) }, z.void()),
        /** A native picker: the user takes as long as they like. */
        pickPath: requestSpec({ kind: z.enum(['folder', 'file']), current: optionalField(textField(MAX_PATH_CHARS)) }, optionalField(z.string()), 0),
        addToGitignore: requestSpec({}, z.void())
    }
});

export const settingsToView = messageSet({
    notifications: {
        /** The host's own snapshot of both scopes (its envelope is checked). */
        snapshot: { snapshot: trustedField<SettingsSnapshot>() },
        problem: { problem: exactObject({ message: z.string(), hint: optionalField(z.string()) }) },
        revealKey: { key: textField(128), scope: optionalField(scope) }
    }
});

export const settingsProtocol: Protocol<typeof settingsToHost, typeof settingsToView> = {
    name: 'sandy settings', toHost: settingsToHost, toView: settingsToView
};

export type SettingsToHost = MessageOf<typeof settingsToHost>;
export type SettingsToWebview = MessageOf<typeof settingsToView>;
export const checkSettingsToHost = messageSchema(settingsToHost);
