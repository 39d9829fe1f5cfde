import type { SettingsEdits, SettingsProblem, SettingsSaveResult, SettingsScope, SettingsSnapshot } from '../settings/settings-dto';
import { settingsSaveLogLines } from '../settings/settings-results';
import { problemText, SandyService, toProblem } from '../service/service-protocol';
import {
    pickPathTitle, SETTINGS_LOAD_HINT, SETTINGS_NO_PROJECT, SETTINGS_SAVE_FAILED_HINT, settingsEditorCaption, settingsEditorTitle,
    settingsLoadFailedText
} from './labels';

/**
 * The settings editor's behaviour, once for every host: the Theia widget and the VS Code panel
 * each keep only their tab, the view (core's SandySettingsView, in the widget or in a webview) and
 * these ports. Loads both scopes of a (canonical) workspace, saves one scope at a time, refuses a
 * Project save without a project, adds `.sandy/.secrets` to `.gitignore`, reveals a key, and keeps
 * the tab's title in step with unsaved edits.
 */

/** What the editor shows (the SandySettingsView and its tab). */
export interface SettingsEditorView {
    show(snapshot: SettingsSnapshot): void;
    showProblem(problem: SettingsProblem): void;
    revealKey(key: string, scope?: SettingsScope): void;
    /** The tab's title and tooltip; `dirty`: unsaved edits exist (a host whose tabs mark it gets a plain title). */
    setTitle(title: string, caption: string, dirty: boolean): void;
}

/** The host's editor, pickers and logs. */
export interface SettingsEditorHost {
    /** Open a settings file in the host's editor, creating it (empty) if it does not exist. */
    openFile(path: string): Promise<void>;
    pickPath(options: { kind: 'folder' | 'file'; title: string; current?: string }): Promise<string | undefined>;
    /** The "Sandy Settings" output: what each save wrote and what `--validate-config` said. */
    appendLog(line: string): void;
    /** A refused request (a developer's log, never a toast). */
    warn(text: string): void;
}

export type SettingsEditorService = Pick<SandyService, 'canonicalWorkspace' | 'getSettings' | 'saveSettings' | 'addSecretsToGitignore'>;

export interface SettingsEditorOptions {
    /** The project the Project tab edits, as the user named it; undefined: Global only. */
    workspace?: string;
    service: SettingsEditorService;
    view: SettingsEditorView;
    host: SettingsEditorHost;
    /** The host's tabs show unsaved edits themselves (Theia's Saveable): the title carries no `● `. */
    hostMarksDirty?: boolean;
}

export class SettingsEditor {
    protected readonly requested: string | undefined;
    /** The workspace as sandy sees it, once canonicalised (undefined before, and for Global only). */
    protected canonical: string | undefined;
    protected snapshot: SettingsSnapshot | undefined;
    protected pendingReveal: { key: string; scope?: SettingsScope } | undefined;
    protected ready = false;
    protected loads = 0;
    protected dirtyState = false;
    protected disposed = false;

    constructor(protected readonly options: SettingsEditorOptions) {
        this.requested = options.workspace;
        this.updateTitle();
    }

    /** The workspace the Project tab edits (canonical once loaded). */
    get workspace(): string | undefined {
        return this.canonical ?? this.requested;
    }

    get dirty(): boolean {
        return this.dirtyState;
    }

    /** The view is on screen and listening: load. */
    async viewReady(): Promise<void> {
        this.ready = true;
        await this.reload();
    }

    /**
     * Load both scopes and show them; a failure is shown in the view with what to do. A workspace is
     * canonicalised first (never `$HOME` or `/`): saves then go to the folder sandy would use.
     * The latest load wins when several overlap.
     */
    async reload(): Promise<void> {
        if (this.disposed) {
            return;
        }
        const load = ++this.loads;
        try {
            if (this.requested && !this.canonical) {
                this.canonical = await this.options.service.canonicalWorkspace(this.requested);
                this.updateTitle();
            }
            const snapshot = await this.options.service.getSettings(this.canonical);
            if (load !== this.loads || this.disposed) {
                return;
            }
            this.snapshot = snapshot;
            this.options.view.show(snapshot);
            const reveal = this.pendingReveal;
            this.pendingReveal = undefined;
            if (reveal) {
                this.options.view.revealKey(reveal.key, reveal.scope);
            }
        } catch (e) {
            if (load !== this.loads || this.disposed) {
                return;
            }
            this.options.view.showProblem({ message: settingsLoadFailedText(problemText(toProblem(e, SETTINGS_LOAD_HINT))) });
        }
    }

    /** Bring one key's control into view (the approval view's "Open Settings"): after a fresh load. */
    async reveal(key: string, scope?: SettingsScope): Promise<void> {
        this.pendingReveal = { key, scope };
        if (this.ready) {
            await this.reload();
        }
    }

    /** Save one scope's edits; the log says what was written, and a successful save reloads. */
    async save(scope: SettingsScope, edits: SettingsEdits): Promise<SettingsSaveResult> {
        if (scope === 'project' && !this.canonical) {
            return { ok: false, error: { ...SETTINGS_NO_PROJECT } };
        }
        let result: SettingsSaveResult;
        try {
            result = await this.options.service.saveSettings(scope, this.canonical, edits);
        } catch (e) {
            const problem = toProblem(e, SETTINGS_SAVE_FAILED_HINT);
            result = { ok: false, error: { message: problem.message, hint: problem.hint } };
        }
        for (const line of settingsSaveLogLines(scope, result)) {
            this.options.host.appendLog(line);
        }
        if (result.ok) {
            // After the answer: the view commits its edits, then sees the files as saved.
            setTimeout(() => void this.reload(), 0);
        }
        return result;
    }

    /** Open a raw settings file: only one of the files on screen, never a path a page chose. */
    async openFile(path: string): Promise<void> {
        const scopes = this.snapshot?.scopes;
        const files = [scopes?.project, scopes?.global].flatMap(s => s ? [s.filePaths.config, s.filePaths.secrets] : []);
        if (!files.includes(path)) {
            this.options.host.warn('sandy settings: refused to open a file that is not one of this editor\'s settings files');
            return;
        }
        await this.options.host.openFile(path);
    }

    pickPath(kind: 'folder' | 'file', current?: string): Promise<string | undefined> {
        return this.options.host.pickPath({ kind, title: pickPathTitle(kind), current });
    }

    /** Add `.sandy/.secrets` to the project's `.gitignore`, then reload; a failure says what to do. */
    async addToGitignore(): Promise<void> {
        const workspace = this.canonical;
        if (!workspace) {
            throw new Error(problemText({ code: 'no-project', ...SETTINGS_NO_PROJECT }));
        }
        try {
            await this.options.service.addSecretsToGitignore(workspace);
        } catch (e) {
            throw new Error(problemText(toProblem(e)));
        } finally {
            await this.reload();
        }
    }

    /** The view has (or no longer has) unsaved edits. */
    setDirty(dirty: boolean): void {
        if (dirty !== this.dirtyState) {
            this.dirtyState = dirty;
            this.updateTitle();
        }
    }

    dispose(): void {
        this.disposed = true;
    }

    protected updateTitle(): void {
        const workspace = this.workspace;
        this.options.view.setTitle(
            settingsEditorTitle(workspace, this.dirtyState && !this.options.hostMarksDirty),
            settingsEditorCaption(workspace),
            this.dirtyState
        );
    }
}
