/**
 * Which value of a host-controlled setting counts — one rule for the Theia IDE and the VS Code plugin.
 *
 * A host-controlled setting chooses a program the IDE runs on the host (`sandy.path`) or widens the
 * host environment sandy is given (`sandy.passEnvironment`). A workspace's `.vscode/settings.json`
 * or `.theia/settings.json` is written by whoever wrote the repository, and during a session by the
 * agent through its read-write workspace, so for these settings only the user's own settings and the
 * default count: a workspace or folder value is ignored, not merely outranked, whatever the host's
 * own merging or trust would do with it.
 */
import { SANDY_PREFERENCE_PROPERTIES } from './ide-preferences';
import type { SandyConfiguration } from '../service/service-protocol';
import { DEFAULT_IDE_KEYS } from '../terminal/ide-keys';
import { isFontFamilyList } from '../terminal/terminal-appearance';

type Properties = typeof SANDY_PREFERENCE_PROPERTIES;

/** The output channel (log) where both hosts say what they ignored. */
export const SANDY_LOG_CHANNEL = 'Sandy';

/** The settings whose schema says `scope: 'application'` (user settings only). */
export type HostControlledSetting = {
    [K in keyof Properties]: Properties[K] extends { scope: 'application' } ? K : never
}[keyof Properties];

/** Every host-controlled setting: a new setting joins by declaring `scope: 'application'` in ide-preferences.ts. */
export const HOST_CONTROLLED_SETTINGS: readonly HostControlledSetting[] = Object.entries(SANDY_PREFERENCE_PROPERTIES)
    .filter(([, property]) => 'scope' in property && property.scope === 'application')
    .map(([key]) => key as HostControlledSetting);

export function isHostControlledSetting(key: string): key is HostControlledSetting {
    return (HOST_CONTROLLED_SETTINGS as readonly string[]).includes(key);
}

/**
 * A setting's value in each scope, with the names both hosts' `inspect()` use (VS Code's
 * `WorkspaceConfiguration.inspect`, Theia's `PreferenceService.inspect`).
 */
export interface SettingInspection<T = unknown> {
    defaultValue?: T;
    globalValue?: T;
    workspaceValue?: T;
    workspaceFolderValue?: T;
}

/** The rule: the user's value, else the default. Workspace and folder values never count. */
export function hostSettingValue<T>(inspection: SettingInspection<T> | undefined): T | undefined {
    return inspection?.globalValue ?? inspection?.defaultValue;
}

export type IgnoredScope = 'workspace' | 'folder';

/** A workspace or folder value of a host-controlled setting that the rule threw away. */
export interface IgnoredHostSetting {
    key: HostControlledSetting;
    scope: IgnoredScope;
}

/** sandy's configuration from the host's settings, and what a workspace tried to set. */
export interface HostSandyConfiguration {
    config: SandyConfiguration;
    ignored: IgnoredHostSetting[];
}

/**
 * Reads sandy's configuration through the rule, with the types checked (a user's settings file
 * may hold anything): `inspect` is the host's inspect() for one setting.
 */
export function readHostSandyConfiguration(inspect: (key: HostControlledSetting) => SettingInspection | undefined): HostSandyConfiguration {
    const ignored: IgnoredHostSetting[] = [];
    const read = (key: HostControlledSetting): unknown => {
        const inspection = inspect(key);
        if (inspection?.workspaceValue !== undefined) {
            ignored.push({ key, scope: 'workspace' });
        }
        if (inspection?.workspaceFolderValue !== undefined) {
            ignored.push({ key, scope: 'folder' });
        }
        return hostSettingValue(inspection);
    };
    const sandyPath = read('sandy.path');
    const passEnv = read('sandy.passEnvironment');
    const sessionMode = read('sandy.sessionMode');
    const stopOnQuit = read('sandy.stopSessionsOnQuit');
    const hours = read('sandy.longRunningHours');
    const notifications = read('sandy.notifications');
    const doNotDisturb = read('sandy.doNotDisturb');
    const systemNotifications = read('sandy.systemNotifications');
    const historyMb = read('sandy.historyMegabytes');
    const ideKeys = read('sandy.terminal.ideKeys');
    return {
        config: {
            sandyPath: typeof sandyPath === 'string' && sandyPath.trim() ? sandyPath : undefined,
            passEnv: Array.isArray(passEnv) ? passEnv.filter((name): name is string => typeof name === 'string') : [],
            sessionMode: sessionMode === 'foreground' ? 'foreground' : 'daemon',
            stopSessionsOnQuit: stopOnQuit === true,
            longRunningHours: typeof hours === 'number' && Number.isFinite(hours) && hours >= 0 ? hours : 24,
            notifications: notifications !== false,
            doNotDisturb: doNotDisturb === true,
            systemNotifications: systemNotifications !== false,
            historyMegabytes: typeof historyMb === 'number' && Number.isFinite(historyMb) && historyMb >= 0 ? Math.min(10_000, historyMb) : 50,
            ideKeys: Array.isArray(ideKeys) ? ideKeys.filter((k): k is string => typeof k === 'string').slice(0, 64) : [...DEFAULT_IDE_KEYS]
        },
        ignored
    };
}

const WHY_IGNORED: Record<HostControlledSetting, string> = {
    'sandy.path': 'a workspace cannot choose the program the IDE runs',
    'sandy.passEnvironment': 'a workspace cannot widen the environment sandy gets',
    'sandy.sessionMode': 'a workspace cannot choose how sessions run, or whether they outlive the IDE',
    'sandy.stopSessionsOnQuit': 'a workspace cannot decide which sessions end when the IDE quits',
    'sandy.longRunningHours': 'a workspace cannot silence the long-running session reminder',
    'sandy.notifications': 'a workspace cannot silence its agent\'s requests for you',
    'sandy.doNotDisturb': 'a workspace cannot silence its agent\'s requests for you',
    'sandy.systemNotifications': 'a workspace cannot choose what its agent puts on your desktop',
    'sandy.historyMegabytes': 'a workspace cannot decide how much of your sessions is kept on this computer',
    'sandy.terminal.ideKeys': 'a workspace cannot take the IDE\'s keys from you or hand them to its agent'
};

/** Whether a session's request for the user becomes a notification now (the user's settings as the window sent them). */
export function notificationsAllowed(config: Pick<SandyConfiguration, 'notifications' | 'doNotDisturb'> | undefined): boolean {
    return config?.notifications !== false && config?.doNotDisturb !== true;
}

/**
 * Whether a notification that becomes a toast is also a system notification (the host shows one only
 * while its window does not have the focus): `sandy.systemNotifications`, within {@link notificationsAllowed}.
 */
export function systemNotificationsAllowed(config: Pick<SandyConfiguration, 'notifications' | 'doNotDisturb' | 'systemNotifications'> | undefined): boolean {
    return notificationsAllowed(config) && config?.systemNotifications !== false;
}

/** The one line a host logs for an ignored workspace value (`file` as the user would open it). */
export function ignoredHostSettingMessage(key: string, file: string): string {
    const why = isHostControlledSetting(key) ? WHY_IGNORED[key]
        : isFontFamilySetting(key) ? 'a workspace\'s font family must be a list of font names (anything else would be CSS in the IDE\'s page)'
            : 'a workspace cannot choose a program the host runs, or what it trusts';
    return `sandy: ignored "${key}" in ${file}: ${why}. Set it in your user settings if you mean it.`;
}

/**
 * The host-controlled settings a settings file's text names (JSON with comments). Only for the
 * notice, never for a value: a key in a comment is named too, which merely says "ignored" once more.
 */
export function hostSettingsNamedIn(text: string): HostControlledSetting[] {
    return HOST_CONTROLLED_SETTINGS.filter(key => new RegExp(`"${key.replace(/\./g, '\\.')}"\\s*:`).test(text));
}

/** Says each ignored (setting, file) once for the life of a window. */
export class IgnoredHostSettingNotices {
    protected readonly said = new Set<string>();

    constructor(protected readonly say: (line: string) => void) { }

    /** True if this call said it (the first time for this setting and file). */
    note(key: string, file: string): boolean {
        const id = `${key}\0${file}`;
        if (this.said.has(id)) {
            return false;
        }
        this.said.add(id);
        this.say(ignoredHostSettingMessage(key, file));
        return true;
    }
}

/**
 * Settings of the IDE around sandy that choose a program the host runs, or what it trusts, and that a
 * workspace therefore may not set (the agent writes `.theia/settings.json` in its read-write
 * workspace; sandy keeps only `.vscode/` read-only): MCP servers Theia starts by itself, the shell and
 * profiles of the next terminal, the git executable, workspace trust itself — plus every setting of
 * ours that is host-controlled. Checked by the Theia host's workspace and folder preference providers,
 * which drop such values before Theia (or its plugin host) ever sees them.
 */
export const WORKSPACE_FORBIDDEN_SETTINGS: readonly RegExp[] = [
    /^ai-features\.mcp\./,
    /^terminal\.integrated\.(shell|shellArgs|profiles|defaultProfile|automationProfile|automationShell|env)(\.|$)/,
    /^terminal\.external\./,
    /^git\.path$/,
    /^security\.workspace\.trust\./
];

/**
 * Font-family settings (`editor.fontFamily`, `terminal.integrated.fontFamily`, …): the IDE's own editor and
 * terminal write the value into CSS (xterm into a <style> element's text), so a workspace's value counts only
 * when it is a list of font names — `mono; } * { … }` would be CSS of the repository's choosing in the page.
 */
export function isFontFamilySetting(key: string): boolean {
    return /(^|\.)[A-Za-z]*[fF]ontFamily$/.test(key);
}

/** Whether a workspace or folder settings file may set `key` (a language override `[lang]` is checked per key). */
export function workspaceMaySet(key: string): boolean {
    return !isHostControlledSetting(key) && !WORKSPACE_FORBIDDEN_SETTINGS.some(re => re.test(key));
}

/** Whether a workspace's `value` of a setting it may set counts: a font family only as a family list ({@link isFontFamilySetting}). */
export function workspaceValueAllowed(key: string, value: unknown): boolean {
    return !isFontFamilySetting(key) || (typeof value === 'string' && (value.trim() === '' || isFontFamilyList(value)));
}

/** How deep a workspace settings object is walked; anything deeper is dropped whole (no setting nests so far). */
export const MAX_WORKSPACE_SETTINGS_DEPTH = 16;

function isPlainObject(value: unknown): value is Record<string, unknown> {
    return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A workspace settings object without what {@link workspaceMaySet} and {@link workspaceValueAllowed} forbid,
 * with the dotted names of what was dropped. Every path is checked, however it is written: a setting may be
 * nested (`"git": { "path": … }` is `git.path` to a plugin host, which walks into objects), flat, partly both,
 * or inside a `[language]` override.
 */
export function dropForbiddenWorkspaceSettings<T>(prefs: Readonly<Record<string, T>>): { kept: Record<string, T>; dropped: string[] } {
    return dropForbiddenUnder(prefs, '', 0);
}

function dropForbiddenUnder<T>(prefs: Readonly<Record<string, T>>, prefix: string, depth: number): { kept: Record<string, T>; dropped: string[] } {
    const kept: Record<string, T> = {};
    const dropped: string[] = [];
    for (const [key, value] of Object.entries(prefs)) {
        if (!prefix && /^\[.*\]$/.test(key) && isPlainObject(value)) {
            const inner = dropForbiddenUnder(value, '', depth + 1);
            dropped.push(...inner.dropped.map(k => `${key}.${k}`));
            kept[key] = inner.kept as unknown as T;
            continue;
        }
        const path = prefix ? `${prefix}.${key}` : key;
        if (!workspaceMaySet(path) || !workspaceValueAllowed(path, value) || (isPlainObject(value) && depth >= MAX_WORKSPACE_SETTINGS_DEPTH)) {
            dropped.push(path);
        } else if (isPlainObject(value)) {
            const inner = dropForbiddenUnder(value, path, depth + 1);
            dropped.push(...inner.dropped);
            kept[key] = inner.kept as unknown as T;
        } else {
            kept[key] = value;
        }
    }
    return { kept, dropped };
}
