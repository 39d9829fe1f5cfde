import { Container, inject, injectable, interfaces } from '@theia/core/shared/inversify';
import { Emitter } from '@theia/core';
import { dropForbiddenWorkspaceSettings } from '@sandy-ui/core/common';
import {
    FolderPreferenceProvider, FolderPreferenceProviderFactory, FolderPreferenceProviderFolder
} from '@theia/preferences/lib/browser/folder-preference-provider';
import {
    WorkspaceFilePreferenceProvider, WorkspaceFilePreferenceProviderFactory, WorkspaceFilePreferenceProviderOptions
} from '@theia/preferences/lib/browser/workspace-file-preference-provider';
import { SectionPreferenceProviderSection, SectionPreferenceProviderUri } from '@theia/preferences/lib/common/section-preference-provider';

type Prefs = { [key: string]: unknown };

/**
 * What the workspace providers dropped, for the Sandy output (SandyStateService says each once). No
 * dependencies: the providers are created while preferences start, before the output exists.
 */
@injectable()
export class DroppedWorkspaceSettings {
    protected readonly dropped: Array<{ key: string; file: string }> = [];
    protected readonly onDidDropEmitter = new Emitter<{ key: string; file: string }>();
    readonly onDidDrop = this.onDidDropEmitter.event;

    report(keys: readonly string[], file: string): void {
        for (const key of keys) {
            this.dropped.push({ key, file });
            this.onDidDropEmitter.fire({ key, file });
        }
    }

    /** Everything dropped so far (what happened before a listener came). */
    all(): ReadonlyArray<{ key: string; file: string }> {
        return this.dropped;
    }
}

function filtered(prefs: Prefs, uri: { path: { fsPath(): string } } | undefined, report: DroppedWorkspaceSettings): Prefs {
    const { kept, dropped } = dropForbiddenWorkspaceSettings(prefs);
    if (dropped.length) {
        report.report(dropped, uri ? uri.path.fsPath() : 'a workspace settings file');
    }
    return kept;
}

/**
 * Theia keeps every value of a workspace or folder settings file and merges it whatever the schema's
 * scope says (its `isValidInScope` only mutes the change event), and its plugin host reads the
 * providers directly. So the values core forbids a workspace to set are dropped here, where the file is
 * read: nothing downstream — preferences, plugins, MCP, terminals, git — ever sees them.
 */
@injectable()
export class SandyFolderPreferenceProvider extends FolderPreferenceProvider {
    @inject(DroppedWorkspaceSettings) protected readonly droppedSettings: DroppedWorkspaceSettings;

    protected override handlePreferenceChanges(newPrefs: Prefs): void {
        super.handlePreferenceChanges(filtered(newPrefs, this.getUri(), this.droppedSettings));
    }
}

@injectable()
export class SandyWorkspaceFilePreferenceProvider extends WorkspaceFilePreferenceProvider {
    @inject(DroppedWorkspaceSettings) protected readonly droppedSettings: DroppedWorkspaceSettings;

    protected override handlePreferenceChanges(newPrefs: Prefs): void {
        super.handlePreferenceChanges(filtered(newPrefs, this.getUri(), this.droppedSettings));
    }
}

/** Replaces @theia/preferences' folder and workspace-file provider factories with the filtering ones. */
export function rebindWorkspacePreferenceProviders(bind: interfaces.Bind, rebind: interfaces.Rebind): void {
    bind(DroppedWorkspaceSettings).toSelf().inSingletonScope();
    rebind(FolderPreferenceProviderFactory).toFactory(ctx => (uri: unknown, section: unknown, folder: unknown) => {
        const child = new Container({ defaultScope: 'Singleton' });
        child.parent = ctx.container;
        child.bind(SectionPreferenceProviderUri).toConstantValue(uri);
        child.bind(SectionPreferenceProviderSection).toConstantValue(section);
        child.bind(FolderPreferenceProviderFolder).toConstantValue(folder);
        child.bind(SandyFolderPreferenceProvider).toSelf();
        return child.get(SandyFolderPreferenceProvider);
    });
    rebind(WorkspaceFilePreferenceProviderFactory).toFactory(ctx => (options: WorkspaceFilePreferenceProviderOptions) => {
        const child = new Container({ defaultScope: 'Singleton' });
        child.parent = ctx.container;
        child.bind(WorkspaceFilePreferenceProviderOptions).toConstantValue(options);
        child.bind(SandyWorkspaceFilePreferenceProvider).toSelf();
        return child.get(SandyWorkspaceFilePreferenceProvider);
    });
}
