/**
 * The secret field. The view never holds a secret it was not typed: the snapshot only says "set /
 * not set", so the box shows only what the user typed in this view, and a typed value leaves as a
 * write-only edit on save. Removing a stored secret is the explicit Clear, not an emptied box.
 */
import type { SettingsField } from '../../common/settings/settings-fields';
import type { ScopeFormState } from '../../common/settings/scope-form-state';
import type { FieldContext, FieldWidget } from './field-widgets';
import { setInvalid, settingsButton } from './settings-parts';

export function secretWidget(ctx: FieldContext, field: SettingsField, scopeState: ScopeFormState, id: string, describedBy: string): FieldWidget {
    const { h } = ctx;
    const key = field.key;
    const input = h('input', {
        class: 'sandy-settings-input sandy-settings-secret', type: 'password', id, spellcheck: 'false',
        // Keep password managers from filling in (and saving) the user's credentials here.
        autocomplete: 'new-password',
        'aria-describedby': describedBy, readonly: field.readOnly,
        on: {
            input: () => {
                if (field.readOnly) {
                    return;
                }
                // Emptying the box takes back a typed value; removing the stored secret is the explicit Clear.
                if (input.value === '') {
                    scopeState.revert(key);
                } else {
                    scopeState.set(key, input.value);
                }
                ctx.afterEdit(key);
            }
        }
    });
    const reveal = settingsButton(h, 'Show', 'sandy-settings-reveal', () => {
        const shown = input.type === 'text';
        input.type = shown ? 'password' : 'text';
        reveal.textContent = shown ? 'Show' : 'Hide';
        reveal.setAttribute('aria-pressed', String(!shown));
    }, { 'aria-label': `Show the value typed for ${key}`, 'aria-pressed': 'false', 'aria-controls': id });
    return {
        element: h('span', { class: 'sandy-settings-input-row' }, input, reveal),
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
