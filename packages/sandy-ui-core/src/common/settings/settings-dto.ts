/**
 * What the settings editor's backend and frontend exchange: a snapshot of both scopes' files (secrets
 * reduced to "set / not set"), the `{key, value}` edits a save sends, and the save's answer.
 *
 * Pure and browser-safe: the Theia widget and the VS Code webview both run it in the frontend.
 */
import type { SandySchema } from '../sandy/contract';
import type { ConfigEdit } from '../config/config-file';

/** Project = `<workspace>/.sandy/{config,.secrets}`; Global = `~/.sandy/{config,.secrets}`. */
export type SettingsScope = 'project' | 'global';

/** Tab order; Project is the default tab when a workspace is open. */
export const SETTINGS_SCOPES: readonly SettingsScope[] = ['project', 'global'];

/** The two files of a scope. sandy loads `.secrets` after `config`, so `.secrets` wins for a key in both. */
export type SettingsFileKind = 'config' | 'secrets';

/**
 * Where the snapshot's schema came from: sandy's own `--print-schema`, the bundled fallback because
 * sandy's answer was unusable (too old, invalid JSON, …), or the bundled fallback because no sandy
 * executable was found.
 */
export type SettingsSchemaSource = 'sandy' | 'fallback' | 'missing';

/** A user-facing failure: what happened, and what to do next. */
export interface SettingsProblem {
    message: string;
    hint?: string;
}

/** A schema key found in the file the form does not write it to. */
export interface SettingsMisplacedKey {
    key: string;
    /**
     * The file it sits in: `secrets` for a non-secret key in `.secrets` (it silently overrides the
     * `config` value the form writes), `config` for a secret in `config` (where it is more likely to
     * be committed, and where a form "Clear" would not reach it).
     */
    file: SettingsFileKind;
    /** 1-based line of the (last) occurrence. */
    line?: number;
}

/**
 * One scope's files as the backend read them. Secret VALUES are never part of it: the frontend
 * learns only which secrets are set, and sends write-only updates.
 */
export interface SettingsScopeData {
    /**
     * Effective values of the NON-secret schema keys set in this scope (`.secrets` over `config`, as
     * sandy loads them), plus env-only keys found in the files. Never a `type: "secret"` key.
     */
    values: Record<string, string>;
    /** `type: "secret"` keys set (non-empty line) in either file of this scope. */
    secretsSet: Record<string, boolean>;
    /** Names of keys in the files that the schema does not know. Names only: they may sit in `.secrets`. */
    unknownKeys: string[];
    /** Schema keys in the other file than the one the form writes (see {@link SettingsMisplacedKey}). */
    misplaced: SettingsMisplacedKey[];
    filePaths: { config: string; secrets: string };
    /** Whether each file exists; absent = unknown. */
    fileExists?: { config: boolean; secrets: boolean };
    /** Files that cannot be read or rewritten (not UTF-8, a NUL byte, permissions). */
    problems?: SettingsProblem[];
}

/** A workspace `.secrets` that git would not ignore (the committed-credentials footgun). */
export interface SettingsGitignoreWarning {
    /** The workspace `.secrets` path. */
    path: string;
    /** The file exists now (otherwise the warning matters once a project secret is saved). */
    exists: boolean;
    /** git already tracks it: `.gitignore` alone does not help, it has to be `git rm --cached`. */
    tracked: boolean;
}

/** Everything the settings editor shows, in one message from the backend. */
export interface SettingsSnapshot {
    /** Always present: sandy's schema, or the bundled fallback (see `schemaSource`). */
    schema: SandySchema;
    schemaSource: SettingsSchemaSource;
    /** Why sandy's own schema is not used (not found, too old, invalid output). */
    sandyProblem?: SettingsProblem;
    /** `project` is absent when no workspace folder is open. */
    scopes: { project?: SettingsScopeData; global: SettingsScopeData };
    /** The workspace the project scope edits; a different one drops the project scope's pending edits. */
    workspace?: string;
    gitignoreWarning?: SettingsGitignoreWarning;
    /**
     * Privileged / passive keys set non-empty in the environment sandy is launched with. sandy skips
     * such keys in every file (CONTRACT §3.1 "Environment wins"), so the form marks them.
     */
    envSet?: string[];
}

/** What the frontend asks the backend to write for one scope. Secrets travel only this way: write-only. */
export interface SettingsEdits {
    config: ConfigEdit[];
    secrets: ConfigEdit[];
}

/** The backend's answer to a save. */
export interface SettingsSaveResult {
    ok: boolean;
    /** `sandy --validate-config` on the saved files, as display lines (see {@link describeValidateResult}). */
    validateVerdict?: string[];
    /** Keys that did not read back as written (another program wrote in between). Names only. */
    mismatches?: string[];
    /** Files whose permissions the save tightened (a `.secrets` readable by others became 0600). */
    modeFixes?: SettingsModeFix[];
    error?: SettingsProblem;
}

/** A file whose mode a save changed: sandy-ui keeps `.secrets` at 0600 (owner read/write only). */
export interface SettingsModeFix {
    path: string;
    /** Permission bits before, e.g. 0o644. */
    from: number;
    to: number;
}
