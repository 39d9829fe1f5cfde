/**
 * How the sandy tab (and the history viewer) draws its text and cursor: the host's own terminal settings, read
 * the same way in the Theia IDE and the VS Code plugin (both name them `terminal.integrated.*` with the same
 * meanings), so a sandy tab looks like the user's other terminals and follows them when they change.
 *
 * A workspace may set the cursor and the font family, as it may for the host's terminal, but not the font
 * size or line height (they decide the agent's rows and columns), and every value is checked here (a
 * settings file may hold anything, and the agent can write the workspace's): a value of the wrong type, out
 * of range, or a font family that is more than a family list counts as unset, never as a crash, a one-cell
 * terminal or CSS in the page.
 */
import type { SettingInspection } from '../host/host-settings';
import { GPU_ACCELERATION_VALUES, GpuAcceleration } from './terminal-renderer';

export type TerminalCursorStyle = 'block' | 'underline' | 'bar';

export interface TerminalAppearance {
    /**
     * Whether the cursor blinks. Off unless the user turns it on, as in both hosts' terminals: a blinking
     * cursor keeps the page repainting while nothing else happens (measured in `npm run bench`, `cpu.page_idle`).
     */
    cursorBlink: boolean;
    cursorStyle: TerminalCursorStyle;
    /** Pixels; undefined = the view's default. */
    fontSize?: number;
    /** A CSS font-family list; undefined = the view's default (the host's editor font where it has one). */
    fontFamily?: string;
    /** A multiple of the font size. */
    lineHeight?: number;
    /** Whether the view draws with WebGL (terminal-renderer.ts). */
    gpuAcceleration: GpuAcceleration;
}

/** The settings read, in both hosts. */
export const TERMINAL_APPEARANCE_SETTINGS = [
    'terminal.integrated.cursorBlinking',
    'terminal.integrated.cursorStyle',
    'terminal.integrated.fontSize',
    'terminal.integrated.fontFamily',
    'terminal.integrated.lineHeight',
    'terminal.integrated.gpuAcceleration'
] as const;

export type TerminalAppearanceSetting = typeof TERMINAL_APPEARANCE_SETTINGS[number];

export const DEFAULT_TERMINAL_APPEARANCE: TerminalAppearance = { cursorBlink: false, cursorStyle: 'block', gpuAcceleration: 'auto' };

/** Bounds of what is drawn: the host's own schema minimums, and maximums no one needs to exceed. */
export const TERMINAL_FONT_SIZE_RANGE = { min: 6, max: 100 } as const;
export const TERMINAL_LINE_HEIGHT_RANGE = { min: 1, max: 3 } as const;
const MAX_FONT_FAMILY_CHARS = 300;

function inRange(range: { min: number; max: number }): (value: unknown) => number | undefined {
    return value => typeof value === 'number' && Number.isFinite(value) && value >= range.min && value <= range.max ? value : undefined;
}

/** One family: a name in quotes (nothing inside that could end the string or the rule), or bare words. */
const FONT_FAMILY_ITEM = /^(?:"[^"'\\;{}<>\u0000-\u001f\u007f]*"|'[^"'\\;{}<>\u0000-\u001f\u007f]*'|[\p{L}\p{N} _-]+)$/u;

/**
 * Whether `value` is a CSS font-family list and nothing more. xterm's DOM renderer writes the family
 * into the text of a <style> element, so anything else (`monospace; } * { background: url(…) }`) would
 * be CSS rules of the workspace's choosing in the IDE's page: a request to any server, selectors that read the page.
 */
export function isFontFamilyList(value: string): boolean {
    if (value.length > MAX_FONT_FAMILY_CHARS) {
        return false;
    }
    const items = value.split(',').map(item => item.trim());
    return items.length > 0 && items.every(item => item.length > 0 && FONT_FAMILY_ITEM.test(item));
}

/** The size a terminal view draws with when the host names none. */
export const DEFAULT_TERMINAL_FONT_SIZE = 13;

/** The family a terminal view draws with when the host names none (or none that is only a family list). */
export const DEFAULT_TERMINAL_FONT_FAMILY = 'Menlo, Monaco, "DejaVu Sans Mono", "Courier New", monospace';

/**
 * The first of `candidates` that is a font-family list, else {@link DEFAULT_TERMINAL_FONT_FAMILY}: what every
 * xterm of ours is given (xterm's DOM renderer writes the family into a <style> element's text, and a host's
 * fallback such as VS Code's editor font is a workspace's to set).
 */
export function terminalFontFamily(...candidates: Array<string | undefined>): string {
    return candidates.find((f): f is string => f !== undefined && isFontFamilyList(f)) ?? DEFAULT_TERMINAL_FONT_FAMILY;
}

/** What xterm is given to draw text with: size and line height in its units, a checked family list. */
export interface TerminalFont {
    fontSize: number;
    fontFamily: string;
    lineHeight: number;
}

/**
 * The font of every xterm of ours (the sandy tab and the history viewer, in both hosts): the user's terminal
 * settings where they name one, else the view's own defaults (`defaults.fontFamily`: a host's fallback such as
 * VS Code's editor font, which a workspace can set, so it is checked like the rest).
 */
export function terminalFont(appearance: Pick<TerminalAppearance, 'fontSize' | 'fontFamily' | 'lineHeight'>, defaults: { fontSize?: number; fontFamily?: string } = {}): TerminalFont {
    return {
        // A view's default size is a host's choice; bounded all the same (it decides the agent's rows too).
        fontSize: appearance.fontSize ?? inRange(TERMINAL_FONT_SIZE_RANGE)(defaults.fontSize) ?? DEFAULT_TERMINAL_FONT_SIZE,
        fontFamily: terminalFontFamily(appearance.fontFamily, defaults.fontFamily),
        lineHeight: appearance.lineHeight ?? 1
    };
}

const CHECKS = {
    'terminal.integrated.cursorBlinking': (v: unknown) => typeof v === 'boolean' ? v : undefined,
    // Both hosts say `line` for what xterm calls a bar.
    'terminal.integrated.cursorStyle': (v: unknown): TerminalCursorStyle | undefined => v === 'block' || v === 'underline' ? v : v === 'line' || v === 'bar' ? 'bar' : undefined,
    'terminal.integrated.fontSize': inRange(TERMINAL_FONT_SIZE_RANGE),
    'terminal.integrated.fontFamily': (v: unknown) => typeof v === 'string' && isFontFamilyList(v) ? v.trim() : undefined,
    'terminal.integrated.lineHeight': inRange(TERMINAL_LINE_HEIGHT_RANGE),
    'terminal.integrated.gpuAcceleration': (v: unknown): GpuAcceleration | undefined => GPU_ACCELERATION_VALUES.find(g => g === v)
} satisfies Record<TerminalAppearanceSetting, (value: unknown) => unknown>;

/**
 * Settings that decide how many rows and columns the agent gets: a workspace value of these does not count
 * (a font 100 px high in a repository's settings would leave the agent two rows in every sandy tab of the
 * window); only the user's and the host's default do, as for sandy's host-controlled settings. The renderer
 * is the user's too: it is about their machine's GPU, not the repository (one that forced WebGL onto a
 * software rasterizer would slow every sandy tab of the window).
 */
const USER_ONLY: readonly TerminalAppearanceSetting[] = ['terminal.integrated.fontSize', 'terminal.integrated.lineHeight', 'terminal.integrated.gpuAcceleration'];

/**
 * The appearance from the host's settings: `inspect` gives a setting's value in each scope (both hosts'
 * `inspect()`). The most specific scope whose value passes its check counts (folder, workspace, user,
 * default), so a workspace's invalid value falls back to the user's, not to nothing; for the font size and
 * line height only the user's and the default count.
 */
export function terminalAppearance(inspect: (key: TerminalAppearanceSetting) => SettingInspection | undefined): TerminalAppearance {
    const value = <K extends TerminalAppearanceSetting>(key: K): ReturnType<typeof CHECKS[K]> | undefined => {
        const i = inspect(key);
        const scopes = USER_ONLY.includes(key) ? [i?.globalValue, i?.defaultValue]
            : [i?.workspaceFolderValue, i?.workspaceValue, i?.globalValue, i?.defaultValue];
        for (const candidate of scopes) {
            const checked = CHECKS[key](candidate) as ReturnType<typeof CHECKS[K]> | undefined;
            if (checked !== undefined) {
                return checked;
            }
        }
        return undefined;
    };
    const appearance: TerminalAppearance = {
        cursorBlink: value('terminal.integrated.cursorBlinking') ?? DEFAULT_TERMINAL_APPEARANCE.cursorBlink,
        cursorStyle: value('terminal.integrated.cursorStyle') ?? DEFAULT_TERMINAL_APPEARANCE.cursorStyle,
        gpuAcceleration: value('terminal.integrated.gpuAcceleration') ?? DEFAULT_TERMINAL_APPEARANCE.gpuAcceleration
    };
    const fontSize = value('terminal.integrated.fontSize');
    const fontFamily = value('terminal.integrated.fontFamily');
    const lineHeight = value('terminal.integrated.lineHeight');
    if (fontSize !== undefined) {
        appearance.fontSize = fontSize;
    }
    if (fontFamily !== undefined) {
        appearance.fontFamily = fontFamily;
    }
    if (lineHeight !== undefined) {
        appearance.lineHeight = lineHeight;
    }
    return appearance;
}

/** Whether a change of settings changes the appearance (hosts send or apply it only then). */
export function sameTerminalAppearance(a: TerminalAppearance, b: TerminalAppearance): boolean {
    return a.cursorBlink === b.cursorBlink && a.cursorStyle === b.cursorStyle && a.fontSize === b.fontSize
        && a.fontFamily === b.fontFamily && a.lineHeight === b.lineHeight && a.gpuAcceleration === b.gpuAcceleration;
}
