/**
 * The scope tabs (Project, Global): a WAI-ARIA tablist with roving tabindex, arrow / Home / End
 * navigation, and a dirty marker per tab.
 */
import { SETTINGS_SCOPES, SettingsScope } from '../../common/settings/settings-dto';
import type { SettingsFormState } from '../../common/settings/settings-form-state';
import type { DomFactory } from '../dom';
import { SCOPE_LABELS } from './settings-parts';

/** How the tabs are wired into the view. */
export interface ScopeTabsOptions {
    tabId(scope: SettingsScope): string;
    /** The id of the tab panel every tab controls. */
    readonly panelId: string;
    onSelect(scope: SettingsScope): void;
}

/** One tab per scope; a scope without a form (Project without a workspace) is shown disabled. */
export function scopeTabs(h: DomFactory, state: SettingsFormState, options: ScopeTabsOptions): HTMLElement[] {
    const available = state.availableScopes();
    return SETTINGS_SCOPES.map(scope => {
        const selected = scope === state.activeScope;
        let title: string;
        if (!available.includes(scope)) {
            title = 'Open a folder to edit its project settings.';
        } else {
            const data = state.scope(scope).form?.data;
            title = data ? [data.filePaths.config, data.filePaths.secrets].filter(Boolean).join('\n') : '';
        }
        const dirty = h('span', { class: 'sandy-settings-tab-dirty' },
            h('span', { 'aria-hidden': 'true' }, ' ●'),
            h('span', { class: 'sandy-settings-sr-only' }, ' (unsaved changes)'));
        return h('button', {
            class: 'sandy-settings-tab', type: 'button', id: options.tabId(scope), dataset: { scope }, role: 'tab',
            'aria-controls': options.panelId, 'aria-selected': String(selected), tabindex: selected ? 0 : -1,
            'aria-disabled': available.includes(scope) ? undefined : 'true', title,
            on: { click: () => options.onSelect(scope) }
        }, h('span', { class: 'sandy-settings-tab-label' }, SCOPE_LABELS[scope]), dirty);
    });
}

/** Marks the tabs whose scope has unsaved edits. */
export function refreshTabMarkers(tablist: HTMLElement, state: SettingsFormState): void {
    for (const tab of Array.from(tablist.querySelectorAll<HTMLElement>('[role="tab"]'))) {
        const scope = tab.dataset.scope as SettingsScope;
        const dirty = state.scope(scope).dirty;
        tab.classList.toggle('sandy-settings-tab-has-changes', dirty);
        const marker = tab.querySelector<HTMLElement>('.sandy-settings-tab-dirty');
        if (marker) {
            marker.hidden = !dirty;
        }
    }
}

/**
 * The tab a key moves to from `active` among `available`; undefined when the key is not a tab
 * navigation key (the event is then left alone).
 */
export function scopeForTabKey(key: string, available: readonly SettingsScope[], active: SettingsScope): { next: SettingsScope | undefined } | undefined {
    const index = available.indexOf(active);
    switch (key) {
        case 'ArrowRight':
        case 'ArrowDown':
            return { next: available[(index + 1) % available.length] };
        case 'ArrowLeft':
        case 'ArrowUp':
            return { next: available[(index - 1 + available.length) % available.length] };
        case 'Home':
            return { next: available[0] };
        case 'End':
            return { next: available[available.length - 1] };
        default:
            return undefined;
    }
}
