/**
 * The whole model behind the settings view: both scopes' edit state, the active tab and the filter,
 * fed with snapshots and serialised for the host while the view is hidden.
 */
import { SETTINGS_SCOPES, SettingsScope, SettingsScopeData, SettingsSnapshot } from './settings-dto';
import { buildSettingsFields, SettingsFieldSet } from './settings-fields';
import { buildSettingsForm, extraEnvNames } from './scope-form';
import { PendingEdit, ScopeFormState } from './scope-form-state';

/** What survives hiding (or reloading) the view. */
export interface SerializedSettingsState {
    readonly version: 1;
    readonly activeScope: SettingsScope;
    readonly filter?: string;
    /** The workspace the project edits belong to. */
    readonly workspace?: string;
    readonly edits: Partial<Record<SettingsScope, Record<string, PendingEdit>>>;
}

/** Both scopes' edit state, the active tab and the filter: the whole model behind the settings view. */
export class SettingsFormState {
    protected readonly scopes: Record<SettingsScope, ScopeFormState> = {
        project: new ScopeFormState('project'),
        global: new ScopeFormState('global')
    };
    protected snapshotValue: SettingsSnapshot | undefined;
    protected workspace: string | undefined;
    protected fieldSet: SettingsFieldSet | undefined;
    activeScope: SettingsScope = 'project';
    filter = '';

    get snapshot(): SettingsSnapshot | undefined {
        return this.snapshotValue;
    }

    scope(scope: SettingsScope): ScopeFormState {
        return this.scopes[scope];
    }

    get active(): ScopeFormState {
        return this.scopes[this.activeScope];
    }

    /** Scopes that can be edited now (no project without a workspace). */
    availableScopes(): SettingsScope[] {
        return SETTINGS_SCOPES.filter(s => this.scopes[s].form !== undefined);
    }

    /**
     * Takes a new snapshot; keeps pending edits of both scopes, except project edits made for another
     * workspace. Never throws: a malformed snapshot yields empty scopes and broken fields, not an exception.
     */
    update(snapshot: SettingsSnapshot): void {
        if (this.snapshotValue?.schema !== snapshot.schema || !this.fieldSet) {
            this.fieldSet = buildSettingsFields(snapshot.schema);
        }
        this.snapshotValue = snapshot;
        if (snapshot.workspace !== undefined && this.workspace !== undefined && snapshot.workspace !== this.workspace) {
            this.scopes.project.revertAll();
        }
        if (snapshot.workspace !== undefined) {
            this.workspace = snapshot.workspace;
        }
        const scopes = (snapshot.scopes ?? {}) as Partial<SettingsSnapshot['scopes']>;
        const names = [
            ...extraEnvNames(scopes.global?.values?.SANDY_EXTRA_ENV),
            ...extraEnvNames(scopes.project?.values?.SANDY_EXTRA_ENV)
        ];
        const envSet = Array.isArray(snapshot.envSet) ? snapshot.envSet : [];
        for (const scope of SETTINGS_SCOPES) {
            const data = scopes[scope];
            this.scopes[scope].setForm(data || scope === 'global'
                ? buildSettingsForm(snapshot.schema, data as SettingsScopeData, { scope, envSet, extraEnvNames: names, fieldSet: this.fieldSet })
                : undefined);
        }
        if (!this.scopes[this.activeScope].form) {
            this.activeScope = 'global';
        }
    }

    /**
     * Plain data for the host to keep while the view is hidden. Typed secret values are left out
     * unless `includeSecrets` (only for storage that never reaches disk: a Theia widget's
     * `storeState` and a webview's `setState` both can).
     */
    serialize(options: { includeSecrets?: boolean } = {}): SerializedSettingsState {
        const edits: Partial<Record<SettingsScope, Record<string, PendingEdit>>> = {};
        for (const scope of SETTINGS_SCOPES) {
            const pending = this.scopes[scope].serializePending(!!options.includeSecrets);
            if (Object.keys(pending).length) {
                edits[scope] = pending;
            }
        }
        return { version: 1, activeScope: this.activeScope, filter: this.filter || undefined, workspace: this.workspace, edits };
    }

    /** Restores {@link serialize}d state; tolerates anything (it comes back from host storage). */
    restore(state: unknown): void {
        const s = state as Partial<SerializedSettingsState> | null | undefined;
        if (!s || typeof s !== 'object' || s.version !== 1) {
            return;
        }
        if (s.activeScope === 'project' || s.activeScope === 'global') {
            this.activeScope = s.activeScope;
        }
        this.filter = typeof s.filter === 'string' ? s.filter : '';
        if (typeof s.workspace === 'string') {
            if (this.workspace !== undefined && this.workspace !== s.workspace) {
                // Saved for another workspace: its project edits do not belong here.
                this.loadScope('global', s.edits?.global);
                return;
            }
            this.workspace = s.workspace;
        }
        this.loadScope('project', s.edits?.project);
        this.loadScope('global', s.edits?.global);
        if (this.snapshotValue && !this.scopes[this.activeScope].form) {
            this.activeScope = 'global';
        }
    }

    protected loadScope(scope: SettingsScope, edits: unknown): void {
        this.scopes[scope].loadPending(edits && typeof edits === 'object' ? edits as Record<string, unknown> : {});
    }
}
