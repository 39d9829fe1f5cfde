import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { BaseWidget, codicon, Message, open, OpenerService, Saveable, SaveableSource, StatefulWidget } from '@theia/core/lib/browser';
import { Emitter, ILogger } from '@theia/core';
import URI from '@theia/core/lib/common/uri';
import { FileDialogService } from '@theia/filesystem/lib/browser';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { OutputChannelManager } from '@theia/output/lib/browser/output-channel';
import { SandySettingsView } from '@sandy-ui/core/browser/settings';
import { SettingsEditor, type SettingsScope } from '@sandy-ui/core/common';
import { SandyService } from '@sandy-ui/backend/lib/common';

export const SANDY_SETTINGS_WIDGET_FACTORY_ID = 'sandy-settings';

export interface SandySettingsWidgetOptions {
    /** The project whose `.sandy/` the Project tab edits; undefined: Global only. */
    workspace?: string;
}

/**
 * The settings editor in an editor tab: core's SettingsEditor over core's SandySettingsView. It is a
 * Saveable: the tab shows unsaved edits and Ctrl+S saves the active scope.
 */
@injectable()
export class SandySettingsWidget extends BaseWidget implements SaveableSource, Saveable, StatefulWidget {
    @inject(SandyService) protected readonly service: SandyService;
    @inject(OpenerService) protected readonly openerService: OpenerService;
    @inject(FileDialogService) protected readonly fileDialogs: FileDialogService;
    @inject(FileService) protected readonly fileService: FileService;
    @inject(OutputChannelManager) protected readonly output: OutputChannelManager;
    @inject(ILogger) protected readonly logger: ILogger;

    protected options: SandySettingsWidgetOptions = {};
    protected editor: SettingsEditor;
    protected view: SandySettingsView | undefined;
    protected savedState: unknown;
    protected readonly onDirtyChangedEmitter = new Emitter<void>();
    readonly onDirtyChanged = this.onDirtyChangedEmitter.event;
    protected readonly onContentChangedEmitter = new Emitter<void>();
    readonly onContentChanged = this.onContentChangedEmitter.event;
    readonly autosaveable = false;

    get saveable(): Saveable {
        return this;
    }

    @postConstruct()
    protected init(): void {
        this.addClass('sandy-settings-widget');
        this.title.closable = true;
        this.title.iconClass = codicon('settings-gear');
        this.node.tabIndex = -1;
        this.toDispose.push(this.onDirtyChangedEmitter);
        this.toDispose.push(this.onContentChangedEmitter);
        this.toDispose.push({ dispose: () => this.editor.dispose() });
        this.setOptions(this.options);
    }

    setOptions(options: SandySettingsWidgetOptions): void {
        this.options = options;
        this.id = `${SANDY_SETTINGS_WIDGET_FACTORY_ID}:${options.workspace ?? 'global'}`;
        this.editor?.dispose();
        this.editor = new SettingsEditor({
            workspace: options.workspace,
            service: this.service,
            hostMarksDirty: true,
            view: {
                show: snapshot => {
                    this.ensureView().update(snapshot);
                    this.syncDirty();
                },
                showProblem: problem => this.ensureView().showProblem(problem),
                revealKey: (key, scope) => this.view?.revealKey(key, scope),
                setTitle: (label, caption) => {
                    this.title.label = label;
                    this.title.caption = caption;
                    this.onDirtyChangedEmitter.fire();
                }
            },
            host: {
                openFile: path => this.openRawFile(path),
                pickPath: async ({ kind, title }) => {
                    const picked = await this.fileDialogs.showOpenDialog({ title, canSelectFolders: kind === 'folder', canSelectFiles: kind === 'file' });
                    return (Array.isArray(picked) ? picked[0] : picked)?.path.fsPath();
                },
                appendLog: line => this.output.getChannel('Sandy Settings').appendLine(line),
                warn: text => void this.logger.warn(text)
            }
        });
    }

    protected ensureView(): SandySettingsView {
        if (!this.view) {
            this.view = new SandySettingsView(this.node, {
                save: async (scope, edits) => {
                    const result = await this.editor.save(scope, edits);
                    this.onContentChangedEmitter.fire();
                    return result;
                },
                openFile: path => this.editor.openFile(path),
                pickPath: (kind, current) => this.editor.pickPath(kind, current),
                addToGitignore: () => this.editor.addToGitignore(),
                onStateChange: state => {
                    // Edits survive hiding the tab and a page reload (typed secrets excepted, by design).
                    this.savedState = state;
                    queueMicrotask(() => this.syncDirty());
                }
            }, { state: this.savedState });
            this.view.update(undefined);
        }
        return this.view;
    }

    protected syncDirty(): void {
        this.editor.setDirty(!!this.view?.dirty);
    }

    protected override onAfterAttach(msg: Message): void {
        super.onAfterAttach(msg);
        this.ensureView();
        void this.editor.viewReady();
    }

    protected override onActivateRequest(msg: Message): void {
        super.onActivateRequest(msg);
        this.view?.focus();
    }

    reload(): Promise<void> {
        this.ensureView();
        return this.editor.reload();
    }

    /** Move focus to one key's control (from the approval view's "Open Settings"), after a fresh load. */
    revealKey(key: string, scope?: SettingsScope): void {
        void this.editor.reveal(key, scope);
    }

    protected async openRawFile(filePath: string): Promise<void> {
        const uri = new URI().withScheme('file').withPath(filePath);
        if (!await this.fileService.exists(uri)) {
            await this.fileService.create(uri, '');
        }
        await open(this.openerService, uri);
    }

    get dirty(): boolean {
        return this.editor.dirty;
    }

    async save(): Promise<void> {
        await this.view?.save();
        this.syncDirty();
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
