/**
 * The filter box's effect: rows whose key, type, description or stability do not contain every
 * term are hidden, then groups left without a visible row, and "No settings match" shows when
 * nothing is left.
 */
import type { FieldRow } from './field-row';

/** A rendered tier section and its rows. */
export interface FieldGroupRows {
    readonly element: HTMLElement;
    readonly rows: readonly FieldRow[];
}

/** The lower-cased terms of a filter text (split on whitespace). */
export function filterTerms(filter: string): string[] {
    return filter.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Shows only the rows matching `filter`; `emptyEl` is shown when groups exist but none matches. */
export function applySettingsFilter(groups: readonly FieldGroupRows[], filter: string, emptyEl: HTMLElement | undefined): void {
    const terms = filterTerms(filter);
    let anyVisible = false;
    for (const group of groups) {
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
    if (emptyEl) {
        emptyEl.hidden = anyVisible || groups.length === 0;
    }
}
