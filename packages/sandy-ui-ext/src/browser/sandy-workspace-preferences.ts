import { Container, injectable, interfaces } from '@theia/core/shared/inversify';
import { dropForbiddenWorkspaceSettings } from '@sandy-ui/core/lib/common/host-settings';
import {
    FolderPreferenceProvider, FolderPreferenceProviderFactory, FolderPreferenceProviderFolder
} from '@theia/preferences/lib/browser/folder-preference-provider';
import {
    WorkspaceFilePreferenceProvider, WorkspaceFilePreferenceProviderFactory, WorkspaceFilePreferenceProviderOptions
} from '@theia/preferences/lib/browser/workspace-file-preference-provider';
import { SectionPreferenceProviderSection, SectionPreferenceProviderUri } from '@theia/preferences/lib/common/section-preference-provider';

type Prefs = { [key: string]: unknown };

/**
 * Theia keeps every value of a workspace or folder settings file and merges it whatever the schema's
 * scope says (its `isValidInScope` only mutes the change event), and its plugin host reads the
 * providers directly. So the values core forbids a workspace to set are dropped here, where the file is
 * read: nothing downstream — preferences, plugins, MCP, terminals, git — ever sees them.
 */
@injectable()
export class SandyFolderPreferenceProvider extends FolderPreferenceProvider {
    protected override handlePreferenceChanges(newPrefs: Prefs): void {
        super.handlePreferenceChanges(dropForbiddenWorkspaceSettings(newPrefs).kept);
    }
}

@injectable()
export class SandyWorkspaceFilePreferenceProvider extends WorkspaceFilePreferenceProvider {
    protected override handlePreferenceChanges(newPrefs: Prefs): void {
        super.handlePreferenceChanges(dropForbiddenWorkspaceSettings(newPrefs).kept);
    }
}

/** Replaces @theia/preferences' folder and workspace-file provider factories with the filtering ones. */
export function rebindWorkspacePreferenceProviders(rebind: interfaces.Rebind): void {
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
