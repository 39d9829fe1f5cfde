/**
 * The settings editor as plain DOM: scope tabs over the model of `common/settings-form`, one
 * implementation hosted by the Theia widget and the VS Code webview. No framework; every piece of
 * data reaches the page through `textContent` or attribute values, never as markup.
 *
 * The view never holds a secret it was not typed: the snapshot only says "set / not set", and a typed
 * secret leaves through {@link SettingsViewHost.save} as a write-only edit.
 */
import { SETTINGS_SCOPES, SettingsEdits, SettingsProblem, SettingsSaveResult, SettingsScope, SettingsSnapshot } from '../../common/settings/settings-dto';
import type { SettingsEntry, SettingsField } from '../../common/settings/settings-fields';
import { parseAgentCombo, toggleAgent } from '../../common/settings/agent-combo';
import type { ScopeFormState, SettingsEditPlan } from '../../common/settings/scope-form-state';
import { SerializedSettingsState, SettingsFormState } from '../../common/settings/settings-form-state';
import { describeModeFix } from '../../common/settings/settings-results';

/** Where the view's side effects go; the Theia widget and the VS Code webview each implement it. */
export interface SettingsViewHost {
    /** Writes one scope's edits (atomically), then runs `--validate-config` on the saved files. */
    save(scope: SettingsScope, edits: SettingsEdits): Promise<SettingsSaveResult>;
    /** Opens a raw config or `.secrets` file in the host's editor (creating it if needed). */
    openFile(path: string): void | Promise<void>;
    /** A native folder / file picker; undefined when cancelled. */
    pickPath(kind: 'folder' | 'file', current?: string): Promise<string | undefined>;
    /** Adds the workspace `.sandy/.secrets` to the workspace `.gitignore`, then sends a new snapshot. */
    addToGitignore(): Promise<void>;
    /** Called whenever edits, the tab or the filter change, with state to hand back to the constructor. */
    onStateChange?(state: SerializedSettingsState): void;
}

/** Construction options of {@link SandySettingsView}. */
export interface SettingsViewOptions {
    /** State from {@link SettingsViewHost.onStateChange} of an earlier instance. */
    state?: unknown;
}

const SCOPE_LABELS: Readonly<Record<SettingsScope, string>> = { project: 'Project', global: 'Global' };

/** Per rendered field: how to bring it up to date with the model without replacing its control. */
interface FieldRow {
    readonly element: HTMLElement;
    readonly entry: SettingsEntry;
    refresh(): void;
}

let instanceCounter = 0;

/**
 * The settings form. Construct with a container and a host, then feed {@link update} with snapshots
 * (`undefined` = still loading). Edits are kept per scope across tab switches and updates.
 */
export class SandySettingsView {
    readonly state = new SettingsFormState();
    protected readonly doc: Document;
    protected readonly root: HTMLElement;
    protected readonly idPrefix = `sandy-settings-${++instanceCounter}`;
    protected readonly loadingEl: HTMLElement;
    protected readonly bodyEl: HTMLElement;
    protected readonly sourceBannersEl: HTMLElement;
    protected readonly tablistEl: HTMLElement;
    protected readonly filterInput: HTMLInputElement;
    protected readonly saveButton: HTMLButtonElement;
    protected readonly revertButton: HTMLButtonElement;
    protected readonly openConfigButton: HTMLButtonElement;
    protected readonly openSecretsButton: HTMLButtonElement;
    protected readonly statusEl: HTMLElement;
    protected readonly panelEl: HTMLElement;
    protected scopeBannersEl: HTMLElement | undefined;
    protected emptyEl: HTMLElement | undefined;
    protected rows = new Map<string, FieldRow>();
    protected groupEls: { element: HTMLElement; rows: FieldRow[] }[] = [];
    protected saving = false;
    protected problem: SettingsProblem | undefined;
    protected disposed = false;

    constructor(readonly container: HTMLElement, protected readonly host: SettingsViewHost, options: SettingsViewOptions = {}) {
        this.doc = container.ownerDocument;
        if (options.state !== undefined) {
            this.state.restore(options.state);
        }
        this.root = this.el('div', 'sandy-settings');
        this.root.addEventListener('keydown', this.onRootKeydown);

        this.loadingEl = this.el('div', 'sandy-settings-loading');
        this.loadingEl.setAttribute('role', 'status');

        this.bodyEl = this.el('div', 'sandy-settings-body');
        this.sourceBannersEl = this.el('div', 'sandy-settings-banners');
        this.tablistEl = this.el('div', 'sandy-settings-tabs');
        this.tablistEl.setAttribute('role', 'tablist');
        this.tablistEl.setAttribute('aria-label', 'Settings scope');
        this.tablistEl.addEventListener('keydown', this.onTabKeydown);

        const toolbar = this.el('div', 'sandy-settings-toolbar');
        const filterId = `${this.idPrefix}-filter`;
        const filterLabel = this.el('label', 'sandy-settings-filter-label', 'Filter');
        filterLabel.htmlFor = filterId;
        this.filterInput = this.el('input', 'sandy-settings-filter');
        this.filterInput.type = 'search';
        this.filterInput.id = filterId;
        this.filterInput.placeholder = 'Filter settings by name or description';
        this.filterInput.value = this.state.filter;
        this.filterInput.addEventListener('input', () => this.setFilter(this.filterInput.value));
        this.filterInput.addEventListener('keydown', e => {
            if (e.key === 'Escape' && this.filterInput.value) {
                e.preventDefault();
                this.filterInput.value = '';
                this.setFilter('');
            }
        });
        this.saveButton = this.button('Save', 'sandy-settings-save sandy-settings-primary', () => void this.save());
        this.revertButton = this.button('Revert', 'sandy-settings-revert', () => this.revertAll());
        this.openConfigButton = this.button('Open config', 'sandy-settings-open-config', () => this.openFile('config'));
        this.openSecretsButton = this.button('Open .secrets', 'sandy-settings-open-secrets', () => this.openFile('secrets'));
        toolbar.append(filterLabel, this.filterInput, this.saveButton, this.revertButton, this.openConfigButton, this.openSecretsButton);

        this.statusEl = this.el('div', 'sandy-settings-status');
        this.statusEl.setAttribute('role', 'status');
        this.statusEl.setAttribute('aria-live', 'polite');

        this.panelEl = this.el('div', 'sandy-settings-panel');
        this.panelEl.setAttribute('role', 'tabpanel');
        this.panelEl.id = `${this.idPrefix}-panel`;

        this.bodyEl.append(this.sourceBannersEl, this.tablistEl, toolbar, this.statusEl, this.panelEl);
        this.root.append(this.loadingEl, this.bodyEl);
        container.appendChild(this.root);
        this.render();
    }

    /** Shows `snapshot` (keeping edits, the tab, the filter and keyboard focus); `undefined` shows the loading state. */
    update(snapshot: SettingsSnapshot | undefined): void {
        if (this.disposed) {
            return;
        }
        if (snapshot) {
            this.problem = undefined;
            this.state.update(snapshot);
        }
        this.render();
    }

    /** Shows why no snapshot can be loaded (instead of the loading spinner). */
    showProblem(problem: SettingsProblem | undefined): void {
        this.problem = problem;
        this.render();
    }

    /** Any scope has unsaved edits (for a host's "dirty" marker; read it in onStateChange). */
    get dirty(): boolean {
        return SETTINGS_SCOPES.some(scope => this.state.scope(scope).dirty);
    }

    /** Serializable state to hand back to a later instance (typed secrets are not part of it). */
    serialize(): SerializedSettingsState {
        return this.state.serialize();
    }

    /** Moves keyboard focus into the view: the active tab, or the filter while loading. */
    focus(): void {
        const tab = this.tablistEl.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
        (tab ?? this.filterInput).focus();
    }

    /** Moves focus to one key's control and highlights it (the approval view's "Open Settings"). */
    revealKey(key: string, scope?: SettingsScope): void {
        if (scope && scope !== this.state.activeScope && this.state.availableScopes().includes(scope)) {
            this.selectScope(scope, false);
        }
        const row = this.root.querySelector<HTMLElement>(`[data-key="${cssEscape(key)}"]`);
        if (row) {
            row.scrollIntoView({ block: 'center' });
            row.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
            row.classList.add('sandy-settings-highlight');
            setTimeout(() => row.classList.remove('sandy-settings-highlight'), 2000);
        }
    }

    dispose(): void {
        this.disposed = true;
        this.root.remove();
    }

    // ------------------------------------------------------------------------------------------
    // Rendering

    protected render(): void {
        const focus = this.captureFocus();
        const snapshot = this.state.snapshot;
        const loading = !snapshot;
        this.root.setAttribute('aria-busy', String(loading && !this.problem));
        this.loadingEl.hidden = !loading;
        this.bodyEl.hidden = loading;
        if (loading) {
            this.loadingEl.replaceChildren();
            if (this.problem) {
                this.loadingEl.classList.add('sandy-settings-loading-failed');
                this.loadingEl.append(this.problemBanner(this.problem, 'error'));
            } else {
                this.loadingEl.classList.remove('sandy-settings-loading-failed');
                this.loadingEl.append(this.el('span', 'sandy-settings-spinner'), this.el('span', undefined, 'Loading sandy\'s settings schema…'));
            }
            return;
        }
        this.renderSourceBanners(snapshot);
        this.renderTabs();
        this.renderPanel();
        this.refreshChrome();
        this.restoreFocus(focus);
    }

    protected renderSourceBanners(snapshot: SettingsSnapshot): void {
        this.sourceBannersEl.replaceChildren();
        const version = safe(() => snapshot.schema.sandy.version, '');
        const bundled = `the schema bundled with sandy-ui${version ? ` (sandy ${version})` : ''}`;
        if (snapshot.schemaSource === 'missing') {
            this.sourceBannersEl.append(this.banner('warning', [
                `sandy was not found, so these settings come from ${bundled}; your sandy may differ.`,
                ...problemLines(snapshot.sandyProblem)
            ]));
        } else if (snapshot.schemaSource === 'fallback') {
            this.sourceBannersEl.append(this.banner('warning', [
                `sandy's own schema could not be used, so these settings come from ${bundled}.`,
                ...problemLines(snapshot.sandyProblem)
            ]));
        } else if (snapshot.sandyProblem) {
            this.sourceBannersEl.append(this.problemBanner(snapshot.sandyProblem, 'warning'));
        }
        const fieldSet = this.state.active.form;
        for (const problem of fieldSet?.problems ?? []) {
            this.sourceBannersEl.append(this.problemBanner(problem, 'warning'));
        }
    }

    protected tabId(scope: SettingsScope): string {
        return `${this.idPrefix}-tab-${scope}`;
    }

    protected renderTabs(): void {
        this.tablistEl.replaceChildren();
        const available = this.state.availableScopes();
        for (const scope of SETTINGS_SCOPES) {
            const tab = this.el('button', 'sandy-settings-tab');
            tab.type = 'button';
            tab.id = this.tabId(scope);
            tab.dataset.scope = scope;
            tab.setAttribute('role', 'tab');
            tab.setAttribute('aria-controls', this.panelEl.id);
            const selected = scope === this.state.activeScope;
            tab.setAttribute('aria-selected', String(selected));
            tab.tabIndex = selected ? 0 : -1;
            tab.append(this.el('span', 'sandy-settings-tab-label', SCOPE_LABELS[scope]));
            const dirty = this.el('span', 'sandy-settings-tab-dirty');
            dirty.append(this.el('span', undefined, ' ●'));
            dirty.lastElementChild!.setAttribute('aria-hidden', 'true');
            dirty.append(this.el('span', 'sandy-settings-sr-only', ' (unsaved changes)'));
            tab.append(dirty);
            if (!available.includes(scope)) {
                tab.setAttribute('aria-disabled', 'true');
                tab.title = 'Open a folder to edit its project settings.';
            } else {
                const data = this.state.scope(scope).form?.data;
                tab.title = data ? [data.filePaths.config, data.filePaths.secrets].filter(Boolean).join('\n') : '';
            }
            tab.addEventListener('click', () => this.selectScope(scope, false));
            this.tablistEl.append(tab);
        }
        this.panelEl.setAttribute('aria-labelledby', this.tabId(this.state.activeScope));
    }

    protected renderPanel(): void {
        this.panelEl.replaceChildren();
        this.rows = new Map();
        this.groupEls = [];
        const scopeState = this.state.active;
        const form = scopeState.form;
        if (!form) {
            return;
        }
        this.scopeBannersEl = this.el('div', 'sandy-settings-banners sandy-settings-scope-banners');
        this.panelEl.append(this.scopeBannersEl);
        this.renderScopeBanners();
        for (const group of form.groups) {
            const section = this.el('section', `sandy-settings-group sandy-settings-group-${group.tier}`);
            const headingId = `${this.idPrefix}-${form.scope}-group-${group.tier}`;
            section.setAttribute('aria-labelledby', headingId);
            const heading = this.el('h2', 'sandy-settings-group-title', group.title);
            heading.id = headingId;
            section.append(heading, this.el('p', 'sandy-settings-group-description', group.description));
            const rows: FieldRow[] = [];
            for (const entry of group.entries) {
                const row = this.renderEntry(entry, scopeState);
                rows.push(row);
                this.rows.set(entry.key, row);
                section.append(row.element);
            }
            this.panelEl.append(section);
            this.groupEls.push({ element: section, rows });
        }
        this.emptyEl = this.el('p', 'sandy-settings-empty', 'No settings match the filter.');
        this.panelEl.append(this.emptyEl);
        this.applyFilter();
    }

    /** One field, isolated: whatever goes wrong while building it becomes an error row for that key only. */
    protected renderEntry(entry: SettingsEntry, scopeState: ScopeFormState): FieldRow {
        if (entry.kind === 'broken') {
            return this.brokenRow(entry.key, entry.error, entry);
        }
        try {
            return this.renderField(entry, scopeState);
        } catch (e) {
            return this.brokenRow(entry.key, `This setting cannot be shown: ${e instanceof Error ? e.message : String(e)}`, entry);
        }
    }

    protected brokenRow(key: string, error: string, entry: SettingsEntry): FieldRow {
        const element = this.el('div', 'sandy-settings-field sandy-settings-field-broken');
        element.dataset.key = key;
        element.append(
            this.el('div', 'sandy-settings-label', key),
            this.el('div', 'sandy-settings-error', `${error} Use "Open config" to edit it in the file.`)
        );
        return { element, entry, refresh: () => undefined };
    }

    protected fieldId(scope: SettingsScope, key: string, suffix = ''): string {
        // Keys are A-Z and _ today; anything else is encoded so ids stay valid and unique.
        const safeKey = key.replace(/[^A-Za-z0-9_]/g, c => `-${c.charCodeAt(0).toString(16)}-`);
        return `${this.idPrefix}-${scope}-${safeKey}${suffix}`;
    }

    /** Builds one field row. Protected so a host (or a test) can specialise a widget. */
    protected renderField(field: SettingsField, scopeState: ScopeFormState): FieldRow {
        const scope = scopeState.scope;
        const key = field.key;
        const id = this.fieldId(scope, key);
        const element = this.el('div', `sandy-settings-field sandy-settings-widget-${field.widget}`);
        element.dataset.key = key;

        const header = this.el('div', 'sandy-settings-field-header');
        const badges = this.el('span', 'sandy-settings-badges');
        const descriptionId = `${id}-description`;
        const metaId = `${id}-meta`;
        const errorId = `${id}-error`;
        const notesId = `${id}-notes`;
        const describedBy = [descriptionId, metaId, notesId, errorId].join(' ');

        const control = this.el('div', 'sandy-settings-control');
        const widget = this.renderWidget(field, scopeState, id, describedBy);
        if (widget.labelled) {
            const label = this.el('label', 'sandy-settings-label', key);
            label.htmlFor = id;
            header.append(label, badges);
        } else {
            // A checkbox group is labelled by its fieldset legend, inside the control.
            header.append(this.el('span', 'sandy-settings-label', key), badges);
        }
        control.append(widget.element);

        const actions = this.el('span', 'sandy-settings-field-actions');
        const clearButton = this.button('Clear', 'sandy-settings-clear', () => {
            scopeState.clear(key);
            this.afterEdit(key);
        });
        clearButton.setAttribute('aria-label', `Clear ${key} from ${SCOPE_LABELS[scope]} settings`);
        const revertButton = this.button('Revert', 'sandy-settings-field-revert', () => {
            scopeState.revert(key);
            this.afterEdit(key);
        });
        revertButton.setAttribute('aria-label', `Revert changes to ${key}`);
        actions.append(clearButton, revertButton);
        control.append(actions);

        const description = this.el('div', 'sandy-settings-description', field.description ?? '');
        description.id = descriptionId;
        description.hidden = !field.description;
        const meta = this.el('div', 'sandy-settings-meta', metaText(field));
        meta.id = metaId;
        const notes = this.el('ul', 'sandy-settings-notes');
        notes.id = notesId;
        const error = this.el('div', 'sandy-settings-error');
        error.id = errorId;
        element.append(header, control, description, meta, notes, error);

        const refresh = (): void => {
            const status = scopeState.status(key);
            element.classList.toggle('sandy-settings-dirty', status.dirty);
            element.classList.toggle('sandy-settings-invalid', !!status.error);
            badges.replaceChildren();
            if (field.widget === 'secret') {
                const badge = this.el('span', `sandy-settings-badge sandy-settings-secret-badge ${status.secretSet ? 'sandy-settings-badge-set' : 'sandy-settings-badge-unset'}`,
                    secretBadgeText(status.secretSet, status.pending?.kind));
                badges.append(badge);
            } else if (status.inFile && !status.dirty) {
                badges.append(this.el('span', 'sandy-settings-badge sandy-settings-badge-set', `set in ${SCOPE_LABELS[scope]}`));
            }
            if (status.dirty) {
                badges.append(this.el('span', 'sandy-settings-badge sandy-settings-badge-modified', 'modified'));
            }
            if (status.needsApproval) {
                badges.append(this.el('span', 'sandy-settings-badge sandy-settings-badge-approval', 'needs approval'));
            }
            if (field.stability && field.stability !== 'stable') {
                badges.append(this.el('span', `sandy-settings-badge sandy-settings-badge-${cssToken(field.stability)}`, field.stability));
            }
            notes.replaceChildren();
            const noteItems: [string, string][] = [
                ...(field.hint ? [[field.hint, 'sandy-settings-note-hint'] as [string, string]] : []),
                ...field.notes.map(text => [text, 'sandy-settings-note'] as [string, string]),
                ...this.inheritedNotes(field, scopeState).map(text => [text, 'sandy-settings-note'] as [string, string]),
                ...status.warnings.map(text => [text, 'sandy-settings-note-warning'] as [string, string])
            ];
            for (const [text, className] of noteItems) {
                notes.append(this.el('li', className, text));
            }
            notes.hidden = noteItems.length === 0;
            error.textContent = status.error ?? '';
            error.hidden = !status.error;
            widget.refresh(status.error);
            const canClear = field.widget === 'secret' ? status.secretSet : status.value !== undefined;
            clearButton.disabled = !canClear || (field.readOnly && !status.inFile && status.pending?.kind !== 'clear');
            clearButton.hidden = field.readOnly && !status.inFile;
            revertButton.disabled = !status.dirty;
        };
        refresh();
        return { element, entry: field, refresh };
    }

    /** The other scope's value, for a Project field that is not set here. */
    protected inheritedNotes(field: SettingsField, scopeState: ScopeFormState): string[] {
        if (scopeState.scope !== 'project' || field.readOnly) {
            return [];
        }
        const global = this.state.scope('global');
        if (!global.form) {
            return [];
        }
        if (field.widget === 'secret') {
            return scopeState.secretSet(field.key) ? [] : [global.secretSet(field.key) ? 'Global: ✓ set (used unless set here).' : 'Global: not set.'];
        }
        if (scopeState.value(field.key) !== undefined) {
            return [];
        }
        const inherited = global.value(field.key);
        return inherited !== undefined ? [`Global: ${inherited} (used unless set here).`] : [];
    }

    protected renderWidget(field: SettingsField, scopeState: ScopeFormState, id: string, describedBy: string):
        { element: HTMLElement; labelled: boolean; refresh(error: string | undefined): void } {
        switch (field.widget) {
            case 'select':
                return this.selectWidget(field, scopeState, id, describedBy);
            case 'toggle':
                return this.toggleWidget(field, scopeState, id, describedBy);
            case 'secret':
                return this.secretWidget(field, scopeState, id, describedBy);
            case 'agents':
                return this.agentsWidget(field, scopeState, id, describedBy);
            case 'number':
            case 'path':
            case 'text':
            default:
                return this.textWidget(field, scopeState, id, describedBy);
        }
    }

    protected placeholderFor(field: SettingsField, scopeState: ScopeFormState): string {
        if (field.readOnly) {
            return 'Not set in this file';
        }
        if (scopeState.scope === 'project') {
            const inherited = this.state.scope('global').value(field.key);
            if (inherited !== undefined) {
                return `Not set here (Global: ${inherited})`;
            }
        }
        return field.default !== undefined ? `Not set (default: ${field.default})` : 'Not set';
    }

    protected textWidget(field: SettingsField, scopeState: ScopeFormState, id: string, describedBy: string):
        { element: HTMLElement; labelled: boolean; refresh(error: string | undefined): void } {
        const key = field.key;
        const wrapper = this.el('span', 'sandy-settings-input-row');
        const input = this.el('input', 'sandy-settings-input');
        input.type = 'text';
        input.id = id;
        input.spellcheck = false;
        input.autocomplete = 'off';
        input.setAttribute('aria-describedby', describedBy);
        input.readOnly = field.readOnly;
        if (field.readOnly) {
            input.setAttribute('aria-readonly', 'true');
        }
        const stepBy = (delta: number): void => {
            const current = Number(scopeState.value(key) ?? field.default ?? '0');
            let next = (Number.isFinite(current) ? Math.trunc(current) : 0) + delta;
            if (field.min !== undefined) {
                next = Math.max(field.min, next);
            }
            if (field.max !== undefined) {
                next = Math.min(field.max, next);
            }
            input.value = String(next);
            scopeState.set(key, input.value);
            this.afterEdit(key);
        };
        if (field.widget === 'number') {
            // A text input with spinbutton semantics rather than type=number: the browser would show ''
            // for a file value like "2.5" and hide it from validation.
            input.setAttribute('role', 'spinbutton');
            input.inputMode = 'numeric';
            if (field.min !== undefined) {
                input.setAttribute('aria-valuemin', String(field.min));
            }
            if (field.max !== undefined) {
                input.setAttribute('aria-valuemax', String(field.max));
            }
            input.addEventListener('keydown', e => {
                if (field.readOnly || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) {
                    return;
                }
                e.preventDefault();
                stepBy(e.key === 'ArrowUp' ? 1 : -1);
            });
        }
        input.addEventListener('input', () => {
            if (field.readOnly) {
                return;
            }
            // An emptied field means "not set in this scope"; a deliberately empty value is not something
            // the form offers (sandy treats `KEY=""` like an unset key for nearly every setting).
            if (input.value === '') {
                scopeState.clear(key);
            } else {
                scopeState.set(key, input.value);
            }
            this.afterEdit(key);
        });
        wrapper.append(input);
        if (field.widget === 'number' && !field.readOnly) {
            const down = this.button('−', 'sandy-settings-step', () => stepBy(-1));
            down.setAttribute('aria-label', `Decrease ${key}`);
            down.tabIndex = -1;
            const up = this.button('+', 'sandy-settings-step', () => stepBy(1));
            up.setAttribute('aria-label', `Increase ${key}`);
            up.tabIndex = -1;
            wrapper.append(down, up);
        }
        if (field.widget === 'path' && !field.readOnly) {
            const browse = this.button('Browse…', 'sandy-settings-browse', async () => {
                const picked = await this.host.pickPath(field.pathKind ?? 'folder', scopeState.value(key));
                if (picked !== undefined && !this.disposed) {
                    scopeState.set(key, picked);
                    this.afterEdit(key);
                }
            });
            browse.setAttribute('aria-label', `Browse for ${key}`);
            wrapper.append(browse);
        }
        return {
            element: wrapper,
            labelled: true,
            refresh: error => {
                const value = scopeState.value(key) ?? '';
                if (input.value !== value) {
                    input.value = value;
                }
                input.placeholder = this.placeholderFor(field, scopeState);
                setInvalid(input, error);
                if (field.widget === 'number') {
                    if (/^-?[0-9]+$/.test(value)) {
                        input.setAttribute('aria-valuenow', value);
                    } else {
                        input.removeAttribute('aria-valuenow');
                    }
                }
            }
        };
    }

    protected selectWidget(field: SettingsField, scopeState: ScopeFormState, id: string, describedBy: string):
        { element: HTMLElement; labelled: boolean; refresh(error: string | undefined): void } {
        const key = field.key;
        const select = this.el('select', 'sandy-settings-select');
        select.id = id;
        select.setAttribute('aria-describedby', describedBy);
        select.disabled = field.readOnly;
        select.addEventListener('change', () => {
            if (select.value === '') {
                scopeState.clear(key);
            } else {
                scopeState.set(key, select.value);
            }
            this.afterEdit(key);
        });
        return {
            element: select,
            labelled: true,
            refresh: error => {
                const value = scopeState.value(key);
                const options: HTMLOptionElement[] = [];
                const unset = this.el('option', undefined, this.placeholderFor(field, scopeState));
                unset.value = '';
                options.push(unset);
                for (const choice of field.choices ?? []) {
                    const option = this.el('option', undefined, choice);
                    option.value = choice;
                    options.push(option);
                }
                if (value !== undefined && !(field.choices ?? []).includes(value)) {
                    // Show what the file says, even when sandy would refuse it.
                    const option = this.el('option', undefined, `${value} (not a valid choice)`);
                    option.value = value;
                    options.push(option);
                }
                select.replaceChildren(...options);
                select.value = value ?? '';
                setInvalid(select, error);
            }
        };
    }

    protected toggleWidget(field: SettingsField, scopeState: ScopeFormState, id: string, describedBy: string):
        { element: HTMLElement; labelled: boolean; refresh(error: string | undefined): void } {
        const key = field.key;
        const { on, off } = field.boolValues ?? { on: '1', off: '0' };
        const wrapper = this.el('span', 'sandy-settings-toggle-row');
        const input = this.el('input', 'sandy-settings-toggle');
        input.type = 'checkbox';
        input.id = id;
        input.setAttribute('role', 'switch');
        input.setAttribute('aria-describedby', describedBy);
        input.disabled = field.readOnly;
        const stateText = this.el('span', 'sandy-settings-toggle-state');
        stateText.setAttribute('aria-hidden', 'true');
        input.addEventListener('change', () => {
            scopeState.set(key, input.checked ? on : off);
            this.afterEdit(key);
        });
        wrapper.append(input, stateText);
        return {
            element: wrapper,
            labelled: true,
            refresh: error => {
                const value = scopeState.value(key);
                const effective = value ?? this.inheritedValue(field, scopeState) ?? field.default;
                input.checked = effective === on;
                const spelled = effective === on ? `On (${on})` : `Off (${off})`;
                stateText.textContent = value !== undefined
                    ? (value === on || value === off ? spelled : `"${value}"`)
                    : `${spelled}${effective === undefined ? ', not set' : ', not set here'}`;
                setInvalid(input, error);
            }
        };
    }

    protected inheritedValue(field: SettingsField, scopeState: ScopeFormState): string | undefined {
        return scopeState.scope === 'project' ? this.state.scope('global').value(field.key) : undefined;
    }

    protected secretWidget(field: SettingsField, scopeState: ScopeFormState, id: string, describedBy: string):
        { element: HTMLElement; labelled: boolean; refresh(error: string | undefined): void } {
        const key = field.key;
        const wrapper = this.el('span', 'sandy-settings-input-row');
        const input = this.el('input', 'sandy-settings-input sandy-settings-secret');
        input.type = 'password';
        input.id = id;
        input.spellcheck = false;
        // Keep password managers from filling in (and saving) the user's credentials here.
        input.autocomplete = 'new-password';
        input.setAttribute('aria-describedby', describedBy);
        input.readOnly = field.readOnly;
        const reveal = this.button('Show', 'sandy-settings-reveal', () => {
            const shown = input.type === 'text';
            input.type = shown ? 'password' : 'text';
            reveal.textContent = shown ? 'Show' : 'Hide';
            reveal.setAttribute('aria-pressed', String(!shown));
        });
        reveal.setAttribute('aria-label', `Show the value typed for ${key}`);
        reveal.setAttribute('aria-pressed', 'false');
        reveal.setAttribute('aria-controls', id);
        input.addEventListener('input', () => {
            if (field.readOnly) {
                return;
            }
            // Emptying the box takes back a typed value; removing the stored secret is the explicit Clear.
            if (input.value === '') {
                scopeState.revert(key);
            } else {
                scopeState.set(key, input.value);
            }
            this.afterEdit(key);
        });
        wrapper.append(input, reveal);
        return {
            element: wrapper,
            labelled: true,
            refresh: error => {
                const pending = scopeState.pending(key);
                // Only ever a value the user typed in this view; the snapshot has none.
                const typed = pending?.kind === 'set' ? pending.value : '';
                if (input.value !== typed) {
                    input.value = typed;
                }
                input.placeholder = pending?.kind === 'clear'
                    ? 'Will be removed on save'
                    : scopeState.isInFile(key) ? 'Set — type a new value to replace it' : 'Not set — type a value to set it';
                setInvalid(input, error);
            }
        };
    }

    protected agentsWidget(field: SettingsField, scopeState: ScopeFormState, id: string, describedBy: string):
        { element: HTMLElement; labelled: boolean; refresh(error: string | undefined): void } {
        const key = field.key;
        const fieldset = this.el('fieldset', 'sandy-settings-agents');
        fieldset.id = id;
        fieldset.setAttribute('aria-describedby', describedBy);
        fieldset.disabled = field.readOnly;
        fieldset.append(this.el('legend', 'sandy-settings-sr-only', key));
        const boxes: { agent: string; input: HTMLInputElement }[] = [];
        (field.agents ?? []).forEach(agent => {
            const boxId = `${id}-agent-${agent.replace(/[^A-Za-z0-9_]/g, c => `-${c.charCodeAt(0).toString(16)}-`)}`;
            const input = this.el('input', 'sandy-settings-agent');
            input.type = 'checkbox';
            input.id = boxId;
            input.value = agent;
            const label = this.el('label', 'sandy-settings-agent-label');
            label.htmlFor = boxId;
            // The key is part of every checkbox's name, so a screen reader user jumping between
            // controls always hears which setting it belongs to.
            label.append(this.el('span', 'sandy-settings-sr-only', `${key} `), this.el('span', undefined, agent));
            input.addEventListener('change', () => {
                const next = toggleAgent(scopeState.value(key) ?? this.inheritedValue(field, scopeState) ?? field.default, agent, input.checked);
                if (next === '') {
                    scopeState.clear(key);
                } else {
                    scopeState.set(key, next);
                }
                this.afterEdit(key);
            });
            const item = this.el('span', 'sandy-settings-agent-item');
            item.append(input, label);
            fieldset.append(item);
            boxes.push({ agent, input });
        });
        const valueText = this.el('span', 'sandy-settings-agents-value');
        fieldset.append(valueText);
        return {
            element: fieldset,
            labelled: false,
            refresh: error => {
                const value = scopeState.value(key);
                const effective = value ?? this.inheritedValue(field, scopeState) ?? field.default ?? '';
                const selected = parseAgentCombo(effective);
                for (const box of boxes) {
                    box.input.checked = selected.includes(box.agent);
                    setInvalid(box.input, error);
                }
                valueText.textContent = value === undefined
                    ? `Not set here${effective ? ` (${effective})` : ''}`
                    : value === 'all' ? 'all = claude, gemini, codex, opencode' : `Order: ${selected.join(', ')}`;
            }
        };
    }

    protected renderScopeBanners(): void {
        const el = this.scopeBannersEl;
        const snapshot = this.state.snapshot;
        const scopeState = this.state.active;
        const form = scopeState.form;
        if (!el || !snapshot || !form) {
            return;
        }
        el.replaceChildren();
        if (scopeState.scope === 'project') {
            const keys = scopeState.approvalKeys();
            el.append(this.banner('info', [
                'Privileged settings saved here (and values that weaken isolation) are not applied until you approve them when sandy next launches in this workspace.',
                ...(keys.length ? [`Needing approval: ${keys.join(', ')}.`] : [])
            ], 'sandy-settings-banner-approval'));
            const warning = snapshot.gitignoreWarning;
            const projectHasSecrets = form.fields.size > 0 && [...form.fields.values()]
                .some(f => f.file === 'secrets' && scopeState.secretSet(f.key));
            if (warning && (warning.exists || projectHasSecrets)) {
                const lines = warning.tracked
                    ? [`${warning.path} is tracked by git, so the secrets in it are committed.`,
                        'Stop tracking it (git rm --cached .sandy/.secrets) and add it to .gitignore.']
                    : [`${warning.path} is not ignored by git, so a commit could include your API keys and tokens.`];
                const banner = this.banner('warning', lines, 'sandy-settings-banner-gitignore');
                const action = this.button('Add to .gitignore', 'sandy-settings-gitignore', async () => {
                    action.disabled = true;
                    try {
                        await this.host.addToGitignore();
                        this.setStatus('info', ['Added .sandy/.secrets to .gitignore.']);
                    } catch (e) {
                        action.disabled = false;
                        this.setStatus('error', [`Could not update .gitignore: ${errorText(e)}`, 'Add the line .sandy/.secrets to .gitignore yourself.']);
                    }
                });
                banner.append(action);
                el.append(banner);
            }
        }
        for (const problem of form.data.problems ?? []) {
            el.append(this.problemBanner(problem, 'error'));
        }
        const stray = form.unknownKeys.filter(u => !u.forwarded).map(u => u.key);
        const forwarded = form.unknownKeys.filter(u => u.forwarded).map(u => u.key);
        if (stray.length) {
            el.append(this.banner('warning', [
                `Not known to this sandy, so ignored: ${stray.join(', ')}.`,
                'They may be typos or belong to a newer sandy. Use "Open config" or "Open .secrets" to fix them.'
            ], 'sandy-settings-banner-unknown'));
        }
        if (forwarded.length) {
            el.append(this.banner('info', [`Forwarded into the container by SANDY_EXTRA_ENV: ${forwarded.join(', ')}.`], 'sandy-settings-banner-forwarded'));
        }
    }

    protected banner(severity: 'info' | 'warning' | 'error', lines: readonly string[], extraClass?: string): HTMLElement {
        const banner = this.el('div', `sandy-settings-banner sandy-settings-banner-${severity}${extraClass ? ` ${extraClass}` : ''}`);
        for (const line of lines) {
            banner.append(this.el('p', undefined, line));
        }
        return banner;
    }

    protected problemBanner(problem: SettingsProblem, severity: 'warning' | 'error'): HTMLElement {
        return this.banner(severity, problemLines(problem));
    }

    // ------------------------------------------------------------------------------------------
    // Interaction

    /** After the model changed for one key: refresh that row and everything that summarises edits. */
    protected afterEdit(key: string): void {
        this.rows.get(key)?.refresh();
        this.refreshChrome();
        this.renderScopeBanners();
        this.notifyState();
    }

    protected refreshChrome(): void {
        const scopeState = this.state.active;
        const plan = scopeState.form ? scopeState.toEdits() : undefined;
        this.saveButton.disabled = this.saving || !plan || plan.keys.length === 0;
        this.saveButton.textContent = this.saving ? 'Saving…' : 'Save';
        this.revertButton.disabled = !scopeState.dirty;
        const data = scopeState.form?.data;
        this.openConfigButton.disabled = !data?.filePaths.config;
        this.openConfigButton.title = data?.filePaths.config ?? '';
        this.openConfigButton.setAttribute('aria-label', `Open the ${SCOPE_LABELS[scopeState.scope]} config file in the editor`);
        this.openSecretsButton.disabled = !data?.filePaths.secrets;
        this.openSecretsButton.title = data?.filePaths.secrets ?? '';
        this.openSecretsButton.setAttribute('aria-label', `Open the ${SCOPE_LABELS[scopeState.scope]} .secrets file in the editor`);
        for (const tab of Array.from(this.tablistEl.querySelectorAll<HTMLElement>('[role="tab"]'))) {
            const scope = tab.dataset.scope as SettingsScope;
            const dirty = this.state.scope(scope).dirty;
            tab.classList.toggle('sandy-settings-tab-has-changes', dirty);
            const marker = tab.querySelector<HTMLElement>('.sandy-settings-tab-dirty');
            if (marker) {
                marker.hidden = !dirty;
            }
        }
    }

    protected selectScope(scope: SettingsScope, focusTab: boolean): void {
        if (!this.state.availableScopes().includes(scope)) {
            return;
        }
        if (scope !== this.state.activeScope) {
            this.state.activeScope = scope;
            this.render();
            this.notifyState();
        }
        if (focusTab) {
            this.tablistEl.querySelector<HTMLElement>(`#${this.tabId(scope)}`)?.focus();
        }
    }

    protected readonly onTabKeydown = (e: KeyboardEvent): void => {
        const available = this.state.availableScopes();
        const index = available.indexOf(this.state.activeScope);
        let next: SettingsScope | undefined;
        switch (e.key) {
            case 'ArrowRight':
            case 'ArrowDown':
                next = available[(index + 1) % available.length];
                break;
            case 'ArrowLeft':
            case 'ArrowUp':
                next = available[(index - 1 + available.length) % available.length];
                break;
            case 'Home':
                next = available[0];
                break;
            case 'End':
                next = available[available.length - 1];
                break;
            default:
                return;
        }
        e.preventDefault();
        if (next) {
            this.selectScope(next, true);
        }
    };

    protected readonly onRootKeydown = (e: KeyboardEvent): void => {
        if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 's') {
            e.preventDefault();
            void this.save();
        }
    };

    protected setFilter(filter: string): void {
        this.state.filter = filter;
        this.applyFilter();
        this.notifyState();
    }

    protected applyFilter(): void {
        const terms = this.state.filter.toLowerCase().split(/\s+/).filter(Boolean);
        let anyVisible = false;
        for (const group of this.groupEls) {
            let groupVisible = false;
            for (const row of group.rows) {
                const haystack = row.entry.kind === 'field' ? row.entry.search : row.entry.key.toLowerCase();
                const visible = terms.every(t => haystack.includes(t));
                row.element.hidden = !visible;
                groupVisible ||= visible;
            }
            group.element.hidden = !groupVisible;
            anyVisible ||= groupVisible;
        }
        if (this.emptyEl) {
            this.emptyEl.hidden = anyVisible || this.groupEls.length === 0;
        }
    }

    protected revertAll(): void {
        this.state.active.revertAll();
        this.setStatus('info', [`Discarded the unsaved ${SCOPE_LABELS[this.state.activeScope]} changes.`]);
        this.renderPanel();
        this.refreshChrome();
        this.notifyState();
    }

    protected openFile(file: 'config' | 'secrets'): void {
        const path = this.state.active.form?.data.filePaths[file];
        if (!path) {
            return;
        }
        Promise.resolve()
            .then(() => this.host.openFile(path))
            .catch(e => this.setStatus('error', [`Could not open ${path}: ${errorText(e)}`]));
    }

    /** Saves the active scope's valid changes; fields with errors stay pending and are listed. */
    async save(): Promise<void> {
        const scopeState = this.state.active;
        if (this.saving || !scopeState.form) {
            return;
        }
        const plan: SettingsEditPlan = scopeState.toEdits();
        const blockedLines = plan.blocked.map(b => `${b.key} was not saved: ${b.message}`);
        if (!plan.keys.length) {
            if (blockedLines.length) {
                this.setStatus('error', blockedLines);
            }
            return;
        }
        this.saving = true;
        this.setStatus('info', ['Saving…']);
        this.refreshChrome();
        let result: SettingsSaveResult;
        try {
            result = await this.host.save(plan.scope, plan.edits);
        } catch (e) {
            result = { ok: false, error: { message: errorText(e) } };
        } finally {
            this.saving = false;
        }
        if (this.disposed) {
            return;
        }
        if (result.ok) {
            this.state.scope(plan.scope).commit(plan);
            const lines = [
                `Saved ${plan.keys.length} setting${plan.keys.length === 1 ? '' : 's'} to ${SCOPE_LABELS[plan.scope]}.`,
                ...(result.modeFixes ?? []).map(describeModeFix),
                ...(result.validateVerdict ?? []),
                ...(result.mismatches?.length
                    ? [`Did not read back as written (another program may have changed the file): ${result.mismatches.join(', ')}. Check the file with "Open config".`]
                    : []),
                ...blockedLines
            ];
            this.setStatus(result.mismatches?.length || blockedLines.length ? 'warning' : 'info', lines);
            this.render();
        } else {
            this.setStatus('error', [
                ...problemLines(result.error ?? { message: 'The settings were not saved.', hint: 'Try again, or edit the file with "Open config".' }),
                ...blockedLines
            ]);
            this.refreshChrome();
        }
        this.notifyState();
    }

    protected setStatus(severity: 'info' | 'warning' | 'error', lines: readonly string[]): void {
        this.statusEl.replaceChildren();
        this.statusEl.className = `sandy-settings-status sandy-settings-status-${severity}`;
        for (const line of lines) {
            this.statusEl.append(this.el('p', undefined, line));
        }
    }

    protected notifyState(): void {
        try {
            this.host.onStateChange?.(this.state.serialize());
        } catch {
            // The host's persistence must not break editing.
        }
    }

    // ------------------------------------------------------------------------------------------
    // Focus across re-renders

    protected captureFocus(): { id: string; start: number | null; end: number | null } | undefined {
        const active = this.doc.activeElement as HTMLElement | null;
        if (!active || !active.id || !this.root.contains(active)) {
            return undefined;
        }
        const input = active as HTMLInputElement;
        let start: number | null = null;
        let end: number | null = null;
        try {
            start = input.selectionStart ?? null;
            end = input.selectionEnd ?? null;
        } catch {
            // selection* throws on checkboxes and other non-text inputs.
        }
        return { id: active.id, start, end };
    }

    protected restoreFocus(focus: { id: string; start: number | null; end: number | null } | undefined): void {
        if (!focus) {
            return;
        }
        const target = Array.from(this.root.querySelectorAll<HTMLElement>('[id]')).find(e => e.id === focus.id);
        if (!target || target === this.doc.activeElement) {
            return;
        }
        target.focus();
        if (focus.start !== null && 'setSelectionRange' in target) {
            try {
                (target as HTMLInputElement).setSelectionRange(focus.start, focus.end ?? focus.start);
            } catch {
                // Not a text control after all.
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // DOM helpers (text only through textContent)

    protected el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
        const element = this.doc.createElement(tag);
        if (className) {
            element.className = className;
        }
        if (text !== undefined) {
            element.textContent = text;
        }
        return element;
    }

    protected button(text: string, className: string, onClick: () => void | Promise<void>): HTMLButtonElement {
        const button = this.el('button', `sandy-settings-button ${className}`, text);
        button.type = 'button';
        button.addEventListener('click', () => void onClick());
        return button;
    }
}

function setInvalid(element: HTMLElement, error: string | undefined): void {
    if (error) {
        element.setAttribute('aria-invalid', 'true');
    } else {
        element.removeAttribute('aria-invalid');
    }
}

function metaText(field: SettingsField): string {
    const parts: string[] = [`Type: ${field.type || 'none'}`];
    if (field.default !== undefined) {
        parts.push(`Default: ${field.default}`);
    }
    if (field.boolValues) {
        parts.push(`Written as ${field.boolValues.on} / ${field.boolValues.off}`);
    }
    if (field.min !== undefined || field.max !== undefined) {
        parts.push(`Range: ${field.min ?? '…'} – ${field.max ?? '…'}`);
    }
    if (field.pattern !== undefined) {
        parts.push(`Pattern: ${field.pattern}`);
    }
    if (field.since) {
        parts.push(`Since sandy ${field.since}`);
    }
    parts.push(`Stability: ${field.stability || 'unknown'}`);
    parts.push(field.file === 'secrets' ? 'Stored in .secrets' : 'Stored in config');
    return parts.join(' · ');
}

function secretBadgeText(set: boolean, pending: 'set' | 'clear' | undefined): string {
    if (pending === 'set') {
        return '✓ set on save';
    }
    if (pending === 'clear') {
        return 'cleared on save';
    }
    return set ? '✓ set' : 'not set';
}

function problemLines(problem: SettingsProblem | undefined): string[] {
    if (!problem) {
        return [];
    }
    return problem.hint ? [problem.message, problem.hint] : [problem.message];
}

function errorText(e: unknown): string {
    if (e && typeof e === 'object' && 'message' in e && typeof (e as { message: unknown }).message === 'string') {
        const hint = (e as { hint?: unknown }).hint;
        return typeof hint === 'string' && hint ? `${(e as Error).message} ${hint}` : (e as Error).message;
    }
    return String(e);
}

function cssToken(text: string): string {
    return text.toLowerCase().replace(/[^a-z0-9-]/g, '-');
}

function safe<T>(read: () => T, fallback: T): T {
    try {
        return read() ?? fallback;
    } catch {
        return fallback;
    }
}

/** CSS.escape where it exists (browsers); schema key names need nothing more than this fallback. */
function cssEscape(value: string): string {
    const css = (globalThis as { CSS?: { escape?(v: string): string } }).CSS;
    return css?.escape ? css.escape(value) : value.replace(/[^A-Za-z0-9_-]/g, c => `\\${c}`);
}
