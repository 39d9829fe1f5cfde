/**
 * One row of the settings form: the key's label and badges, its control, Clear / Revert, the
 * description, the type line, notes and warnings, and the validation error. Also the error row a key
 * gets when it cannot be shown.
 */
import type { SettingsEntry, SettingsField } from '../../common/settings/settings-fields';
import type { ScopeFormState } from '../../common/settings/scope-form-state';
import type { FieldContext, FieldWidget } from './field-widgets';
import { cssToken, SCOPE_LABELS, settingsButton } from './settings-parts';

/** Per rendered field: how to bring it up to date with the model without replacing its control. */
export interface FieldRow {
    readonly element: HTMLElement;
    readonly entry: SettingsEntry;
    refresh(): void;
}

/**
 * Builds the row of `field`; `id` is its control's id, and `widget` makes the control, given the ids
 * of the texts that describe it.
 */
export function renderFieldRow(ctx: FieldContext, field: SettingsField, scopeState: ScopeFormState, id: string,
    widgetFor: (describedBy: string) => FieldWidget): FieldRow {
    const { h } = ctx;
    const scope = scopeState.scope;
    const key = field.key;
    const descriptionId = `${id}-description`;
    const metaId = `${id}-meta`;
    const errorId = `${id}-error`;
    const notesId = `${id}-notes`;
    const widget = widgetFor([descriptionId, metaId, notesId, errorId].join(' '));

    const badges = h('span', { class: 'sandy-settings-badges' });
    const header = h('div', { class: 'sandy-settings-field-header' },
        // A checkbox group is labelled by its fieldset legend, inside the control.
        widget.labelled ? h('label', { class: 'sandy-settings-label', for: id }, key) : h('span', { class: 'sandy-settings-label' }, key),
        badges);

    const clearButton = settingsButton(h, 'Clear', 'sandy-settings-clear', () => {
        scopeState.clear(key);
        ctx.afterEdit(key);
    }, { 'aria-label': `Clear ${key} from ${SCOPE_LABELS[scope]} settings` });
    const revertButton = settingsButton(h, 'Revert', 'sandy-settings-field-revert', () => {
        scopeState.revert(key);
        ctx.afterEdit(key);
    }, { 'aria-label': `Revert changes to ${key}` });
    const control = h('div', { class: 'sandy-settings-control' },
        widget.element, h('span', { class: 'sandy-settings-field-actions' }, clearButton, revertButton));

    const description = h('div', { class: 'sandy-settings-description', id: descriptionId, hidden: !field.description }, field.description ?? '');
    const meta = h('div', { class: 'sandy-settings-meta', id: metaId }, metaText(field));
    const notes = h('ul', { class: 'sandy-settings-notes', id: notesId });
    const error = h('div', { class: 'sandy-settings-error', id: errorId });
    const element = h('div', { class: ['sandy-settings-field', `sandy-settings-widget-${field.widget}`], dataset: { key } },
        header, control, description, meta, notes, error);

    const refresh = (): void => {
        const status = scopeState.status(key);
        element.classList.toggle('sandy-settings-dirty', status.dirty);
        element.classList.toggle('sandy-settings-invalid', !!status.error);
        badges.replaceChildren();
        if (field.widget === 'secret') {
            badges.append(h('span', {
                class: ['sandy-settings-badge', 'sandy-settings-secret-badge', status.secretSet ? 'sandy-settings-badge-set' : 'sandy-settings-badge-unset']
            }, secretBadgeText(status.secretSet, status.pending?.kind)));
        } else if (status.inFile && !status.dirty) {
            badges.append(h('span', { class: 'sandy-settings-badge sandy-settings-badge-set' }, `set in ${SCOPE_LABELS[scope]}`));
        }
        if (status.dirty) {
            badges.append(h('span', { class: 'sandy-settings-badge sandy-settings-badge-modified' }, 'modified'));
        }
        if (status.needsApproval) {
            badges.append(h('span', { class: 'sandy-settings-badge sandy-settings-badge-approval' }, 'needs approval'));
        }
        if (field.lifecycle) {
            badges.append(h('span', { class: ['sandy-settings-badge', `sandy-settings-badge-${field.lifecycle}`] }, field.lifecycle));
        }
        if (field.stability && field.stability !== 'stable' && field.stability !== field.lifecycle) {
            badges.append(h('span', { class: ['sandy-settings-badge', `sandy-settings-badge-${cssToken(field.stability)}`] }, field.stability));
        }
        const noteItems: [string, string][] = [
            ...(field.hint ? [[field.hint, 'sandy-settings-note-hint'] as [string, string]] : []),
            ...field.notes.map(text => [text, 'sandy-settings-note'] as [string, string]),
            ...inheritedNotes(ctx, field, scopeState).map(text => [text, 'sandy-settings-note'] as [string, string]),
            ...status.warnings.map(text => [text, 'sandy-settings-note-warning'] as [string, string])
        ];
        notes.replaceChildren(...noteItems.map(([text, className]) => h('li', { class: className }, text)));
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

/** The row of a key that cannot be shown: its name and why, never fatal to the rest of the form. */
export function brokenRow(ctx: FieldContext, key: string, error: string, entry: SettingsEntry): FieldRow {
    const { h } = ctx;
    const element = h('div', { class: 'sandy-settings-field sandy-settings-field-broken', dataset: { key } },
        h('div', { class: 'sandy-settings-label' }, key),
        h('div', { class: 'sandy-settings-error' }, `${error} Use "Open config" to edit it in the file.`));
    return { element, entry, refresh: () => undefined };
}

/** The other scope's value, for a Project field that is not set here. */
export function inheritedNotes(ctx: FieldContext, field: SettingsField, scopeState: ScopeFormState): string[] {
    if (scopeState.scope !== 'project' || field.readOnly) {
        return [];
    }
    const global = ctx.state.scope('global');
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

/** The type line under a field: type, default, spelling, range, pattern, version, stability, file. */
export function metaText(field: SettingsField): string {
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
