/**
 * Keyboard focus across re-renders: a new snapshot rebuilds the panel, and the control the user was
 * in (found again by its id) gets focus and its caret back.
 */

export interface CapturedFocus {
    readonly id: string;
    readonly start: number | null;
    readonly end: number | null;
}

/** The focused element inside `root`, if it has an id, with its text selection. */
export function captureFocus(root: HTMLElement): CapturedFocus | undefined {
    const active = root.ownerDocument.activeElement as HTMLElement | null;
    if (!active || !active.id || !root.contains(active)) {
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

/** Focuses the element with the captured id again (if it still exists and lost focus). */
export function restoreFocus(root: HTMLElement, focus: CapturedFocus | undefined): void {
    if (!focus) {
        return;
    }
    const target = Array.from(root.querySelectorAll<HTMLElement>('[id]')).find(e => e.id === focus.id);
    if (!target || target === root.ownerDocument.activeElement) {
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
