/**
 * The settings editor as plain DOM: scope tabs over the model of `common/settings`, one
 * implementation hosted by the Theia widget and the VS Code webview. No framework; every element is
 * built with the DOM helper, so every piece of data reaches the page as text or an attribute value,
 * never as markup.
 *
 * This module is the shell (loading state, tabs, panel, save flow); the parts live beside it: the
 * field rows and their widgets (`field-row`, `field-widgets`, `secret-field`), the banners, the
 * filter, the save bar and focus keeping.
 *
 * The view never holds a secret it was not typed: the snapshot only says "set / not set", and a typed
 * secret leaves through {@link SettingsViewHost.save} as a write-only edit.
 */
import { SETTINGS_SCOPES, SettingsEdits, SettingsProblem, SettingsSaveResult, SettingsScope, SettingsSnapshot } from '../../common/settings/settings-dto';
import type { SettingsEntry, SettingsField } from '../../common/settings/settings-fields';
import type { ScopeFormState } from '../../common/settings/scope-form-state';
import { SerializedSettingsState, SettingsFormState } from '../../common/settings/settings-form-state';
import { DomFactory, domBuilder } from '../dom';
import { brokenRow, FieldRow, renderFieldRow } from './field-row';
import { FieldContext, fieldWidget, FieldWidget } from './field-widgets';
import { scopeBanners, sourceBanners } from './settings-banners';
import { applySettingsFilter, FieldGroupRows } from './settings-filter';
import { captureFocus, restoreFocus } from './settings-focus';
import { BannerSeverity, cssEscape, errorText, idToken, problemBanner, SCOPE_LABELS } from './settings-parts';
import { refreshTabMarkers, scopeForTabKey, scopeTabs } from './settings-tabs';
import { saveOutcome, SettingsToolbar } from './settings-toolbar';

export type { FieldRow } from './field-row';
export type { FieldWidget } from './field-widgets';

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

let instanceCounter = 0;

/**
 * The settings form. Construct with a container and a host, then feed {@link update} with snapshots
 * (`undefined` = still loading). Edits are kept per scope across tab switches and updates.
 */
export class SandySettingsView {
    readonly state = new SettingsFormState();
    protected readonly doc: Document;
    protected readonly h: DomFactory;
    protected readonly fields: FieldContext;
    protected readonly root: HTMLElement;
    protected readonly idPrefix = `sandy-settings-${++instanceCounter}`;
    protected readonly loadingEl: HTMLElement;
    protected readonly bodyEl: HTMLElement;
    protected readonly sourceBannersEl: HTMLElement;
    protected readonly tablistEl: HTMLElement;
    protected readonly toolbar: SettingsToolbar;
    protected readonly filterInput: HTMLInputElement;
    protected readonly statusEl: HTMLElement;
    protected readonly panelEl: HTMLElement;
    protected scopeBannersEl: HTMLElement | undefined;
    protected emptyEl: HTMLElement | undefined;
    protected rows = new Map<string, FieldRow>();
    protected groupEls: FieldGroupRows[] = [];
    protected saving = false;
    protected problem: SettingsProblem | undefined;
    protected disposed = false;

    constructor(readonly container: HTMLElement, protected readonly host: SettingsViewHost, options: SettingsViewOptions = {}) {
        this.doc = container.ownerDocument;
        const h = this.h = domBuilder(this.doc);
        this.fields = {
            h,
            state: this.state,
            afterEdit: key => this.afterEdit(key),
            pickPath: (kind, current) => this.host.pickPath(kind, current),
            isDisposed: () => this.disposed
        };
        if (options.state !== undefined) {
            this.state.restore(options.state);
        }
        this.loadingEl = h('div', { class: 'sandy-settings-loading', role: 'status' });
        this.sourceBannersEl = h('div', { class: 'sandy-settings-banners' });
        this.tablistEl = h('div', { class: 'sandy-settings-tabs', role: 'tablist', 'aria-label': 'Settings scope', on: { keydown: this.onTabKeydown } });
        this.toolbar = new SettingsToolbar(h, `${this.idPrefix}-filter`, this.state.filter, {
            setFilter: filter => this.setFilter(filter),
            save: () => void this.save(),
            revertAll: () => this.revertAll(),
            openFile: file => this.openFile(file)
        });
        this.filterInput = this.toolbar.filterInput;
        this.statusEl = h('div', { class: 'sandy-settings-status', role: 'status', 'aria-live': 'polite' });
        this.panelEl = h('div', { class: 'sandy-settings-panel', role: 'tabpanel', id: `${this.idPrefix}-panel` });
        this.bodyEl = h('div', { class: 'sandy-settings-body' }, this.sourceBannersEl, this.tablistEl, this.toolbar.element, this.statusEl, this.panelEl);
        this.root = h('div', { class: 'sandy-settings', on: { keydown: this.onRootKeydown } }, this.loadingEl, this.bodyEl);
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
        const focus = captureFocus(this.root);
        const snapshot = this.state.snapshot;
        const loading = !snapshot;
        this.root.setAttribute('aria-busy', String(loading && !this.problem));
        this.loadingEl.hidden = !loading;
        this.bodyEl.hidden = loading;
        if (loading) {
            const h = this.h;
            this.loadingEl.classList.toggle('sandy-settings-loading-failed', !!this.problem);
            this.loadingEl.replaceChildren(...(this.problem
                ? [problemBanner(h, this.problem, 'error')]
                : [h('span', { class: 'sandy-settings-spinner' }), h('span', null, 'Loading sandy\'s settings schema…')]));
            return;
        }
        this.sourceBannersEl.replaceChildren(...sourceBanners(this.h, snapshot, this.state.active.form?.problems ?? []));
        this.renderTabs();
        this.renderPanel();
        this.refreshChrome();
        restoreFocus(this.root, focus);
    }

    protected tabId(scope: SettingsScope): string {
        return `${this.idPrefix}-tab-${scope}`;
    }

    protected renderTabs(): void {
        this.tablistEl.replaceChildren(...scopeTabs(this.h, this.state, {
            tabId: scope => this.tabId(scope),
            panelId: this.panelEl.id,
            onSelect: scope => this.selectScope(scope, false)
        }));
        this.panelEl.setAttribute('aria-labelledby', this.tabId(this.state.activeScope));
    }

    protected renderPanel(): void {
        const h = this.h;
        this.panelEl.replaceChildren();
        this.rows = new Map();
        this.groupEls = [];
        const scopeState = this.state.active;
        const form = scopeState.form;
        if (!form) {
            return;
        }
        this.scopeBannersEl = h('div', { class: 'sandy-settings-banners sandy-settings-scope-banners' });
        this.panelEl.append(this.scopeBannersEl);
        this.renderScopeBanners();
        for (const group of form.groups) {
            const headingId = `${this.idPrefix}-${form.scope}-group-${group.tier}`;
            const rows = group.entries.map(entry => {
                const row = this.renderEntry(entry, scopeState);
                this.rows.set(entry.key, row);
                return row;
            });
            const section = h('section', { class: ['sandy-settings-group', `sandy-settings-group-${group.tier}`], 'aria-labelledby': headingId },
                h('h2', { class: 'sandy-settings-group-title', id: headingId }, group.title),
                h('p', { class: 'sandy-settings-group-description' }, group.description),
                rows.map(row => row.element));
            this.panelEl.append(section);
            this.groupEls.push({ element: section, rows });
        }
        this.emptyEl = h('p', { class: 'sandy-settings-empty' }, 'No settings match the filter.');
        this.panelEl.append(this.emptyEl);
        this.applyFilter();
    }

    /** One field, isolated: whatever goes wrong while building it becomes an error row for that key only. */
    protected renderEntry(entry: SettingsEntry, scopeState: ScopeFormState): FieldRow {
        if (entry.kind === 'broken') {
            return brokenRow(this.fields, entry.key, entry.error, entry);
        }
        try {
            return this.renderField(entry, scopeState);
        } catch (e) {
            return brokenRow(this.fields, entry.key, `This setting cannot be shown: ${e instanceof Error ? e.message : String(e)}`, entry);
        }
    }

    protected fieldId(scope: SettingsScope, key: string, suffix = ''): string {
        // Keys are A-Z and _ today; anything else is encoded so ids stay valid and unique.
        return `${this.idPrefix}-${scope}-${idToken(key)}${suffix}`;
    }

    /** Builds one field row. Protected so a host (or a test) can specialise a row or, through renderWidget, a widget. */
    protected renderField(field: SettingsField, scopeState: ScopeFormState): FieldRow {
        const id = this.fieldId(scopeState.scope, field.key);
        return renderFieldRow(this.fields, field, scopeState, id, describedBy => this.renderWidget(field, scopeState, id, describedBy));
    }

    protected renderWidget(field: SettingsField, scopeState: ScopeFormState, id: string, describedBy: string): FieldWidget {
        return fieldWidget(this.fields, field, scopeState, id, describedBy);
    }

    protected renderScopeBanners(): void {
        const snapshot = this.state.snapshot;
        if (!this.scopeBannersEl || !snapshot || !this.state.active.form) {
            return;
        }
        this.scopeBannersEl.replaceChildren(...scopeBanners(this.h, snapshot, this.state.active, {
            addToGitignore: () => this.host.addToGitignore(),
            setStatus: (severity, lines) => this.setStatus(severity, lines)
        }));
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
        this.toolbar.refresh(this.state.active, this.saving);
        refreshTabMarkers(this.tablistEl, this.state);
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
        const move = scopeForTabKey(e.key, this.state.availableScopes(), this.state.activeScope);
        if (!move) {
            return;
        }
        e.preventDefault();
        if (move.next) {
            this.selectScope(move.next, true);
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
        applySettingsFilter(this.groupEls, this.state.filter, this.emptyEl);
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
        const plan = scopeState.toEdits();
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
        const outcome = saveOutcome(plan, result, blockedLines);
        if (result.ok) {
            this.state.scope(plan.scope).commit(plan);
            this.setStatus(outcome.severity, outcome.lines);
            this.render();
        } else {
            this.setStatus(outcome.severity, outcome.lines);
            this.refreshChrome();
        }
        this.notifyState();
    }

    protected setStatus(severity: BannerSeverity, lines: readonly string[]): void {
        this.statusEl.className = `sandy-settings-status sandy-settings-status-${severity}`;
        this.statusEl.replaceChildren(...lines.map(line => this.h('p', null, line)));
    }

    protected notifyState(): void {
        try {
            this.host.onStateChange?.(this.state.serialize());
        } catch {
            // The host's persistence must not break editing.
        }
    }
}
