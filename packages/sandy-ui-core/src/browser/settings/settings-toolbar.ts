/**
 * The save bar: the filter box, Save and Revert (enabled by the active scope's pending edits), the
 * Open config / Open .secrets buttons, and what the status area says after a save.
 */
import type { SettingsSaveResult } from '../../common/settings/settings-dto';
import type { ScopeFormState, SettingsEditPlan } from '../../common/settings/scope-form-state';
import { describeModeFix } from '../../common/settings/settings-results';
import type { DomFactory } from '../dom';
import { BannerSeverity, problemLines, SCOPE_LABELS, settingsButton } from './settings-parts';

/** What the toolbar's controls do. */
export interface SettingsToolbarActions {
    setFilter(filter: string): void;
    save(): void;
    revertAll(): void;
    openFile(file: 'config' | 'secrets'): void;
}

export class SettingsToolbar {
    readonly element: HTMLElement;
    readonly filterInput: HTMLInputElement;
    readonly saveButton: HTMLButtonElement;
    readonly revertButton: HTMLButtonElement;
    readonly openConfigButton: HTMLButtonElement;
    readonly openSecretsButton: HTMLButtonElement;

    constructor(h: DomFactory, filterId: string, filter: string, actions: SettingsToolbarActions) {
        const filterInput: HTMLInputElement = h('input', {
            class: 'sandy-settings-filter', type: 'search', id: filterId, placeholder: 'Filter settings by name or description',
            on: {
                input: () => actions.setFilter(filterInput.value),
                keydown: e => {
                    if (e.key === 'Escape' && filterInput.value) {
                        e.preventDefault();
                        filterInput.value = '';
                        actions.setFilter('');
                    }
                }
            }
        });
        filterInput.value = filter;
        this.filterInput = filterInput;
        this.saveButton = settingsButton(h, 'Save', 'sandy-settings-save sandy-settings-primary', () => actions.save());
        this.revertButton = settingsButton(h, 'Revert', 'sandy-settings-revert', () => actions.revertAll());
        this.openConfigButton = settingsButton(h, 'Open config', 'sandy-settings-open-config', () => actions.openFile('config'));
        this.openSecretsButton = settingsButton(h, 'Open .secrets', 'sandy-settings-open-secrets', () => actions.openFile('secrets'));
        this.element = h('div', { class: 'sandy-settings-toolbar' },
            h('label', { class: 'sandy-settings-filter-label', for: filterId }, 'Filter'),
            filterInput, this.saveButton, this.revertButton, this.openConfigButton, this.openSecretsButton);
    }

    /** Save is enabled when the active scope has edits that can be saved, Revert when it has any. */
    refresh(scopeState: ScopeFormState, saving: boolean): void {
        const plan = scopeState.form ? scopeState.toEdits() : undefined;
        this.saveButton.disabled = saving || !plan || plan.keys.length === 0;
        this.saveButton.textContent = saving ? 'Saving…' : 'Save';
        this.revertButton.disabled = !scopeState.dirty;
        const data = scopeState.form?.data;
        const scope = SCOPE_LABELS[scopeState.scope];
        this.openConfigButton.disabled = !data?.filePaths.config;
        this.openConfigButton.title = data?.filePaths.config ?? '';
        this.openConfigButton.setAttribute('aria-label', `Open the ${scope} config file in the editor`);
        this.openSecretsButton.disabled = !data?.filePaths.secrets;
        this.openSecretsButton.title = data?.filePaths.secrets ?? '';
        this.openSecretsButton.setAttribute('aria-label', `Open the ${scope} .secrets file in the editor`);
    }
}

/** What the status area says after a save of `plan`; `blockedLines` are the keys it held back. */
export function saveOutcome(plan: SettingsEditPlan, result: SettingsSaveResult, blockedLines: readonly string[]): { severity: BannerSeverity; lines: string[] } {
    if (!result.ok) {
        return {
            severity: 'error',
            lines: [
                ...problemLines(result.error ?? { message: 'The settings were not saved.', hint: 'Try again, or edit the file with "Open config".' }),
                ...blockedLines
            ]
        };
    }
    const lines = [
        `Saved ${plan.keys.length} setting${plan.keys.length === 1 ? '' : 's'} to ${SCOPE_LABELS[plan.scope]}.`,
        ...(result.modeFixes ?? []).map(describeModeFix),
        ...(result.validateVerdict ?? []),
        ...(result.mismatches?.length
            ? [`Did not read back as written (another program may have changed the file): ${result.mismatches.join(', ')}. Check the file with "Open config".`]
            : []),
        ...blockedLines
    ];
    return { severity: result.mismatches?.length || blockedLines.length ? 'warning' : 'info', lines };
}
