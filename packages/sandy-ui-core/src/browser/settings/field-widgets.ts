/**
 * The controls of the settings form, one renderer per widget kind: text (also number and path),
 * select, toggle and the agent checkboxes; the secret field has its own module. Each returns its
 * element and a `refresh` that brings it up to date with the model without replacing the control
 * (so focus and the caret survive an edit).
 */
import type { SettingsField } from '../../common/settings/settings-fields';
import { parseAgentCombo, toggleAgent } from '../../common/settings/agent-combo';
import type { ScopeFormState } from '../../common/settings/scope-form-state';
import type { SettingsFormState } from '../../common/settings/settings-form-state';
import type { DomFactory } from '../dom';
import { idToken, setInvalid, settingsButton } from './settings-parts';
import { secretWidget } from './secret-field';

/** What a field's controls need from the view. */
export interface FieldContext {
    readonly h: DomFactory;
    /** Both scopes (a Project field shows what Global sets). */
    readonly state: SettingsFormState;
    /** After the model changed for one key: refresh that row and everything that summarises edits. */
    afterEdit(key: string): void;
    /** The host's native folder / file picker. */
    pickPath(kind: 'folder' | 'file', current?: string): Promise<string | undefined>;
    /** The view was disposed (an answer that arrives later is dropped). */
    isDisposed(): boolean;
}

/** One field's control. */
export interface FieldWidget {
    readonly element: HTMLElement;
    /** Labelled by a `<label for>`; false for a checkbox group (its legend labels it). */
    readonly labelled: boolean;
    refresh(error: string | undefined): void;
}

/** The control for `field`'s widget kind; `id` is the control's id, `describedBy` its description ids. */
export function fieldWidget(ctx: FieldContext, field: SettingsField, scopeState: ScopeFormState, id: string, describedBy: string): FieldWidget {
    switch (field.widget) {
        case 'select':
            return selectWidget(ctx, field, scopeState, id, describedBy);
        case 'toggle':
            return toggleWidget(ctx, field, scopeState, id, describedBy);
        case 'secret':
            return secretWidget(ctx, field, scopeState, id, describedBy);
        case 'agents':
            return agentsWidget(ctx, field, scopeState, id, describedBy);
        case 'number':
        case 'path':
        case 'text':
        default:
            return textWidget(ctx, field, scopeState, id, describedBy);
    }
}

/** What an empty control says: not set, with the Global value or the default it falls back to. */
export function placeholderFor(ctx: FieldContext, field: SettingsField, scopeState: ScopeFormState): string {
    if (field.readOnly) {
        return 'Not set in this file';
    }
    if (scopeState.scope === 'project') {
        const inherited = ctx.state.scope('global').value(field.key);
        if (inherited !== undefined) {
            return `Not set here (Global: ${inherited})`;
        }
    }
    return field.default !== undefined ? `Not set (default: ${field.default})` : 'Not set';
}

/** The Global value a Project field falls back to. */
export function inheritedValue(ctx: FieldContext, field: SettingsField, scopeState: ScopeFormState): string | undefined {
    return scopeState.scope === 'project' ? ctx.state.scope('global').value(field.key) : undefined;
}

function textWidget(ctx: FieldContext, field: SettingsField, scopeState: ScopeFormState, id: string, describedBy: string): FieldWidget {
    const { h } = ctx;
    const key = field.key;
    const number = field.widget === 'number';
    const input = h('input', {
        class: 'sandy-settings-input', type: 'text', id, spellcheck: 'false', autocomplete: 'off', 'aria-describedby': describedBy,
        readonly: field.readOnly, 'aria-readonly': field.readOnly ? 'true' : undefined,
        // A text input with spinbutton semantics rather than type=number: the browser would show ''
        // for a file value like "2.5" and hide it from validation.
        role: number ? 'spinbutton' : undefined, inputmode: number ? 'numeric' : undefined,
        'aria-valuemin': number ? field.min : undefined, 'aria-valuemax': number ? field.max : undefined
    });
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
        ctx.afterEdit(key);
    };
    if (number) {
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
        ctx.afterEdit(key);
    });
    const wrapper = h('span', { class: 'sandy-settings-input-row' }, input);
    if (number && !field.readOnly) {
        wrapper.append(
            settingsButton(h, '−', 'sandy-settings-step', () => stepBy(-1), { 'aria-label': `Decrease ${key}`, tabindex: -1 }),
            settingsButton(h, '+', 'sandy-settings-step', () => stepBy(1), { 'aria-label': `Increase ${key}`, tabindex: -1 })
        );
    }
    if (field.widget === 'path' && !field.readOnly) {
        wrapper.append(settingsButton(h, 'Browse…', 'sandy-settings-browse', async () => {
            const picked = await ctx.pickPath(field.pathKind ?? 'folder', scopeState.value(key));
            if (picked !== undefined && !ctx.isDisposed()) {
                scopeState.set(key, picked);
                ctx.afterEdit(key);
            }
        }, { 'aria-label': `Browse for ${key}` }));
    }
    return {
        element: wrapper,
        labelled: true,
        refresh: error => {
            const value = scopeState.value(key) ?? '';
            if (input.value !== value) {
                input.value = value;
            }
            input.placeholder = placeholderFor(ctx, field, scopeState);
            setInvalid(input, error);
            if (number) {
                if (/^-?[0-9]+$/.test(value)) {
                    input.setAttribute('aria-valuenow', value);
                } else {
                    input.removeAttribute('aria-valuenow');
                }
            }
        }
    };
}

function selectWidget(ctx: FieldContext, field: SettingsField, scopeState: ScopeFormState, id: string, describedBy: string): FieldWidget {
    const { h } = ctx;
    const key = field.key;
    const select = h('select', {
        class: 'sandy-settings-select', id, 'aria-describedby': describedBy, disabled: field.readOnly,
        on: {
            change: () => {
                if (select.value === '') {
                    scopeState.clear(key);
                } else {
                    scopeState.set(key, select.value);
                }
                ctx.afterEdit(key);
            }
        }
    });
    return {
        element: select,
        labelled: true,
        refresh: error => {
            const value = scopeState.value(key);
            const choices = field.choices ?? [];
            const options = [
                h('option', { value: '' }, placeholderFor(ctx, field, scopeState)),
                ...choices.map(choice => h('option', { value: choice }, choice)),
                // Show what the file says, even when sandy would refuse it.
                ...(value !== undefined && !choices.includes(value) ? [h('option', { value }, `${value} (not a valid choice)`)] : [])
            ];
            select.replaceChildren(...options);
            select.value = value ?? '';
            setInvalid(select, error);
        }
    };
}

function toggleWidget(ctx: FieldContext, field: SettingsField, scopeState: ScopeFormState, id: string, describedBy: string): FieldWidget {
    const { h } = ctx;
    const key = field.key;
    const { on, off } = field.boolValues ?? { on: '1', off: '0' };
    const input = h('input', {
        class: 'sandy-settings-toggle', type: 'checkbox', id, role: 'switch', 'aria-describedby': describedBy, disabled: field.readOnly,
        on: {
            change: () => {
                scopeState.set(key, input.checked ? on : off);
                ctx.afterEdit(key);
            }
        }
    });
    const stateText = h('span', { class: 'sandy-settings-toggle-state', 'aria-hidden': 'true' });
    return {
        element: h('span', { class: 'sandy-settings-toggle-row' }, input, stateText),
        labelled: true,
        refresh: error => {
            const value = scopeState.value(key);
            const effective = value ?? inheritedValue(ctx, field, scopeState) ?? field.default;
            input.checked = effective === on;
            const spelled = effective === on ? `On (${on})` : `Off (${off})`;
            stateText.textContent = value !== undefined
                ? (value === on || value === off ? spelled : `"${value}"`)
                : `${spelled}${effective === undefined ? ', not set' : ', not set here'}`;
            setInvalid(input, error);
        }
    };
}

function agentsWidget(ctx: FieldContext, field: SettingsField, scopeState: ScopeFormState, id: string, describedBy: string): FieldWidget {
    const { h } = ctx;
    const key = field.key;
    const boxes: { agent: string; input: HTMLInputElement }[] = [];
    const items = (field.agents ?? []).map(agent => {
        const boxId = `${id}-agent-${idToken(agent)}`;
        const input = h('input', {
            class: 'sandy-settings-agent', type: 'checkbox', id: boxId, value: agent,
            on: {
                change: () => {
                    const next = toggleAgent(scopeState.value(key) ?? inheritedValue(ctx, field, scopeState) ?? field.default, agent, input.checked);
                    if (next === '') {
                        scopeState.clear(key);
                    } else {
                        scopeState.set(key, next);
                    }
                    ctx.afterEdit(key);
                }
            }
        });
        boxes.push({ agent, input });
        // The key is part of every checkbox's name, so a screen reader user jumping between
        // controls always hears which setting it belongs to.
        const label = h('label', { class: 'sandy-settings-agent-label', for: boxId }, h('span', { class: 'sandy-settings-sr-only' }, `${key} `), h('span', null, agent));
        return h('span', { class: 'sandy-settings-agent-item' }, input, label);
    });
    const valueText = h('span', { class: 'sandy-settings-agents-value' });
    const fieldset = h('fieldset', { class: 'sandy-settings-agents', id, 'aria-describedby': describedBy, disabled: field.readOnly },
        h('legend', { class: 'sandy-settings-sr-only' }, key), items, valueText);
    return {
        element: fieldset,
        labelled: false,
        refresh: error => {
            const value = scopeState.value(key);
            const effective = value ?? inheritedValue(ctx, field, scopeState) ?? field.default ?? '';
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
