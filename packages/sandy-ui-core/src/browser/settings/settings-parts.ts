/**
 * Small pieces every part of the settings view shares: scope names, the button, banners, and the
 * text helpers for problems and thrown errors. Everything is built with the DOM helper (text only).
 */
import type { SettingsProblem, SettingsScope } from '../../common/settings/settings-dto';
import { DomFactory, DomProps, setAttr } from '../dom';

export const SCOPE_LABELS: Readonly<Record<SettingsScope, string>> = { project: 'Project', global: 'Global' };

export type BannerSeverity = 'info' | 'warning' | 'error';

/** A settings button: `type="button"`, the shared class, and a click handler (a returned promise is not awaited). */
export function settingsButton(h: DomFactory, text: string, className: string, onClick: () => void | Promise<void>, attrs: DomProps = {}): HTMLButtonElement {
    return h('button', { ...attrs, class: `sandy-settings-button ${className}`, type: 'button', on: { click: () => void onClick() } }, text);
}

/** A box of paragraphs above the form or the panel. */
export function banner(h: DomFactory, severity: BannerSeverity, lines: readonly string[], extraClass?: string): HTMLElement {
    return h('div', { class: ['sandy-settings-banner', `sandy-settings-banner-${severity}`, extraClass] }, lines.map(line => h('p', null, line)));
}

export function problemBanner(h: DomFactory, problem: SettingsProblem, severity: 'warning' | 'error'): HTMLElement {
    return banner(h, severity, problemLines(problem));
}

/** A problem's message, then its hint (what to do next) when it has one. */
export function problemLines(problem: SettingsProblem | undefined): string[] {
    if (!problem) {
        return [];
    }
    return problem.hint ? [problem.message, problem.hint] : [problem.message];
}

/** A thrown value as one line, with the hint an `ApplicationError`-like error carries. */
export function errorText(e: unknown): string {
    if (e && typeof e === 'object' && 'message' in e && typeof (e as { message: unknown }).message === 'string') {
        const hint = (e as { hint?: unknown }).hint;
        return typeof hint === 'string' && hint ? `${(e as Error).message} ${hint}` : (e as Error).message;
    }
    return String(e);
}

export function setInvalid(element: HTMLElement, error: string | undefined): void {
    setAttr(element, 'aria-invalid', error ? 'true' : undefined);
}

/** Text made safe to use in a class name. */
export function cssToken(text: string): string {
    return text.toLowerCase().replace(/[^a-z0-9-]/g, '-');
}

/** A key (or any text) encoded into id-safe characters, so ids stay valid and unique. */
export function idToken(text: string): string {
    return text.replace(/[^A-Za-z0-9_]/g, c => `-${c.charCodeAt(0).toString(16)}-`);
}

export function safe<T>(read: () => T, fallback: T): T {
    try {
        return read() ?? fallback;
    } catch {
        return fallback;
    }
}

/** CSS.escape where it exists (browsers); schema key names need nothing more than this fallback. */
export function cssEscape(value: string): string {
    const css = (globalThis as { CSS?: { escape?(v: string): string } }).CSS;
    return css?.escape ? css.escape(value) : value.replace(/[^A-Za-z0-9_-]/g, c => `\\${c}`);
}
