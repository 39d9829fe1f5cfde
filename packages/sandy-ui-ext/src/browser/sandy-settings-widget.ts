import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { BaseWidget, codicon, Message, open, OpenerService, Saveable, SaveableSource, StatefulWidget } from '@theia/core/lib/browser';
import { Emitter } from '@theia/core';
import URI from '@theia/core/lib/common/uri';
import { FileDialogService } from '@theia/filesystem/lib/browser';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { OutputChannelManager } from '@theia/output/lib/browser/output-channel';
import { SandySettingsView } from '@sandy-ui/core/browser/settings';
import type { SettingsEdits, SettingsSaveResult, SettingsScope } from '@sandy-ui/core/common';
import { workspaceLabel } from '@sandy-ui/core/common';
import { settingsSaveLogLines } from '@sandy-ui/core/common';
import { SandyService } from '@sandy-ui/backend/lib/common';

export const SANDY_SETTINGS_WIDGET_FACTORY_ID = 'sandy-settings';

export interface SandySettingsWidgetOptions {
    /** The project whose `.sandy/` the Project tab edits; undefined: Global only. */
    workspace?: string;
}

/**
 * The schema-driven settings editor in an editor tab, hosting core's SandySettingsView. It is a
 * Saveable: the tab shows unsaved edits and Ctrl+S saves the active scope.
 */
@injectable()
export class SandySettingsWidget extends BaseWidget implements SaveableSource, Saveable, StatefulWidget {
    @inject(SandyService) protected readonly service: SandyService;
    @inject(OpenerService) protected readonly openerService: OpenerService;
    @inject(FileDialogService) protected readonly fileDialogs: FileDialogService;
    @inject(FileService) protected readonly fileService: FileService;
    @inject(OutputChannelManager) protected readonly output: OutputChannelManager;

    protected options: SandySettingsWidgetOptions = {};
    protected view: SandySettingsView | undefined;
    protected savedState: unknown;
    protected readonly onDirtyChangedEmitter = new Emitter<void>();
    readonly onDirtyChanged = this.onDirtyChangedEmitter.event;
    protected readonly onContentChangedEmitter = new Emitter<void>();
    readonly onContentChanged = this.onContentChangedEmitter.event;
    readonly autosaveable = false;
    protected wasDirty = false;

    get saveable(): Saveable {
        return this;
    }

    setOptions(options: SandySettingsWidgetOptions): void {
        this.options = options;
        this.id = `${SANDY_SETTINGS_WIDGET_FACTORY_ID}:${options.workspace ?? 'global'}`;
        this.title.label = options.workspace ? `Sandy Settings: ${workspaceLabel(options.workspace)}` : 'Sandy Settings';
        this.title.caption = options.workspace ? `sandy settings — ${options.workspace}` : 'sandy settings (global)';
    }

    @postConstruct()
    protected init(): void {
        this.addClass('sandy-settings-widget');
        this.title.closable = true;
        this.title.iconClass = codicon('settings-gear');
        this.node.tabIndex = -1;
        this.toDispose.push(this.onDirtyChangedEmitter);
        this.toDispose.push(this.onContentChangedEmitter);
    }

    protected ensureView(): SandySettingsView {
        if (!this.view) {
            this.view = new SandySettingsView(this.node, {
                save: (scope, edits) => this.saveScope(scope, edits),
                openFile: path => this.openRawFile(path),
                pickPath: async kind => {
                    const picked = await this.fileDialogs.showOpenDialog({
                        title: kind === 'folder' ? 'Choose a folder' : 'Choose a file',
                        canSelectFolders: kind === 'folder',
                        canSelectFiles: kind === 'file'
                    });
                    const uri = Array.isArray(picked) ? picked[0] : picked;
                    return uri?.path.fsPath();
                },
                addToGitignore: async () => {
                    if (this.options.workspace) {
                        await this.service.addSecretsToGitignore(this.options.workspace);
                        await this.reload();
                    }
                },
                onStateChange: state => {
                    // Edits survive hiding the tab and a page reload (typed secrets excepted, by design).
                    this.savedState = state;
                    this.fireDirtyIfChanged();
                }
            }, { state: this.savedState });
            this.view.update(undefined);
        }
        return this.view;
    }

    protected override onAfterAttach(msg: Message): void {
        super.onAfterAttach(msg);
        this.ensureView();
        void this.reload();
    }

    protected override onActivateRequest(msg: Message): void {
        super.onActivateRequest(msg);
        this.view?.focus();
    }

    async reload(): Promise<void> {
        const view = this.ensureView();
        try {
            view.update(await this.service.getSettings(this.options.workspace));
        } catch (e) {
            view.showProblem({ message: `Could not read the sandy settings: ${e instanceof Error ? e.message : String(e)}`, hint: 'Check the backend log, then reopen the settings.' });
        }
        this.fireDirtyIfChanged();
    }

    /** Move focus to one key's control (from the approval view's "Open Settings"). */
    revealKey(key: string, scope?: SettingsScope): void {
        this.view?.revealKey(key, scope);
    }

    protected async saveScope(scope: SettingsScope, edits: SettingsEdits): Promise<SettingsSaveResult> {
        const result = await this.service.saveSettings(scope, this.options.workspace, edits);
        const channel = this.output.getChannel('Sandy Settings');
        for (const line of settingsSaveLogLines(scope, result)) {
            channel.appendLine(line);
        }
        if (result.ok) {
            setTimeout(() => void this.reload(), 0);
        }
        this.onContentChangedEmitter.fire();
        return result;
    }

    protected async openRawFile(filePath: string): Promise<void> {
        const uri = new URI().withScheme('file').withPath(filePath);
        if (!await this.fileService.exists(uri)) {
            await this.fileService.create(uri, '');
        }
        await open(this.openerService, uri);
    }

    protected fireDirtyIfChanged(): void {
        const dirty = this.dirty;
        if (dirty !== this.wasDirty) {
            this.wasDirty = dirty;
            this.onDirtyChangedEmitter.fire();
        }
    }

    get dirty(): boolean {
        return !!this.view?.dirty;
    }

    async save(): Promise<void> {
        await this.view?.save();
        this.fireDirtyIfChanged();
    }

    storeState(): object {
        return { options: this.options, state: this.view?.serialize() ?? this.savedState };
    }

    restoreState(oldState: { options?: SandySettingsWidgetOptions; state?: unknown }): void {
        if (oldState?.options) {
            this.setOptions(oldState.options);
        }
        this.savedState = oldState?.state;
    }
}
