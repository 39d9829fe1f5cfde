import type { Locator, Page } from 'playwright-core';
import { poll, PollOptions } from '../../support/poll';
import { ToastLog, ToastSelectors } from '../../support/toast-log';

export { ToastLog };

/** What every page object needs: the page and a poll that gives up when the backend died. */
export interface PageContext {
    readonly page: Page;
    poll<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, message: string, options?: PollOptions): Promise<T>;
}

export function contextFor(page: Page, abort: () => string | undefined): PageContext {
    return {
        page,
        poll: (probe, message, options) => poll(probe, { ...options, message, abort })
    };
}

/** Theia's toasts (`.theia-notification-list-item`), found by their message text. */
export class TheiaNotifications {
    constructor(protected readonly ctx: PageContext) { }

    protected get items(): Locator {
        return this.ctx.page.locator('.theia-notification-list-item');
    }

    /** Every notification message currently shown. */
    async messages(): Promise<string[]> {
        return this.items.locator('.theia-notification-message').allTextContents();
    }

    /** Waits for a notification whose message contains `text` and returns it. */
    async waitFor(text: string): Promise<Locator> {
        const item = this.items.filter({ has: this.ctx.page.locator('.theia-notification-message', { hasText: text }) }).first();
        try {
            await this.ctx.poll(() => item.isVisible(), `a notification containing "${text}"`);
        } catch (e) {
            throw new Error(`${(e as Error).message}; shown: ${JSON.stringify(await this.messages())}`);
        }
        return item;
    }

    /** Clears a toast (its × button), as a user dismisses it, and waits until it is gone. */
    async clear(item: Locator): Promise<void> {
        await item.hover();
        await item.locator('.theia-notification-actions li.codicon-close').click();
        await this.ctx.poll(async () => !await item.isVisible(), 'the cleared notification to go');
    }

    /** The action button (e.g. "Show") of a notification. */
    action(item: Locator, label: string): Locator {
        return item.locator(`button[data-action="${label}"]`);
    }
}

/**
 * Theia's toasts for {@link ToastLog} (`ToastLog.install(page, THEIA_TOASTS)`): every toast a window
 * showed, across reloads. Theia merges a message equal to one still on screen into it, so a test
 * clears a toast ({@link TheiaNotifications.clear}) before it watches for that message to come again.
 */
export const THEIA_TOASTS: ToastSelectors = {
    // The toasts only: the (closed) notification center renders every notification too.
    toast: '.theia-notification-toasts .theia-notification-list-item',
    message: '.theia-notification-message'
};

/** Theia's status bar, read as text. */
export class TheiaStatusBar {
    constructor(protected readonly ctx: PageContext) { }

    /** The items' texts, one per line (the items' text runs together in textContent). */
    async text(): Promise<string> {
        return (await this.ctx.page.locator('#theia-statusBar .element').allTextContents()).map(t => t.trim()).join('\n');
    }

    /** The `N sandy session(s)` item; 0 when it is absent (no live session). */
    async sessionCount(): Promise<number> {
        const m = /(\d+) sandy sessions?/.exec(await this.text());
        return m ? Number(m[1]) : 0;
    }

    /**
     * The focused sandy tab's item: `pid N · agent · elapsed` for a foreground session, `daemon ·
     * agent · elapsed` for a daemon session (whose only pid of ours is an attach client's).
     */
    async activeSession(): Promise<string | undefined> {
        const m = /^(?:pid \d+|daemon) · .*$/m.exec(await this.text());
        return m ? m[0] : undefined;
    }

    /** The `pid N · agent · elapsed` item of the focused sandy tab. */
    async activePid(): Promise<number | undefined> {
        const m = /\bpid (\d+)/.exec(await this.text());
        return m ? Number(m[1]) : undefined;
    }
}

/** F1 / Ctrl+Shift+P, as a user runs a command. */
export class TheiaCommandPalette {
    constructor(protected readonly ctx: PageContext) { }

    async run(label: string): Promise<void> {
        const page = this.ctx.page;
        await page.keyboard.press('F1');
        const input = page.locator('.quick-input-widget .quick-input-box input');
        await input.waitFor({ state: 'visible' });
        // The palette is quick-open in command mode: keep the `>` that F1 put there.
        await input.fill(`>${label}`);
        // Enter runs the focused row: wait until the filter has put our command there.
        const focused = page.locator('.quick-input-widget .monaco-list-row.focused');
        await this.ctx.poll(async () => (await focused.getAttribute('aria-label', { timeout: 500 }))?.startsWith(label),
            `"${label}" to be the focused command in the palette`);
        await page.keyboard.press('Enter');
        await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    }

    /**
     * Runs a command that asks with a quick pick of its own (whose placeholder starts with `placeholder`)
     * and takes the row `label` there, as a user types and presses Enter.
     */
    async runAndPick(command: string, placeholder: string, label: string): Promise<void> {
        const page = this.ctx.page;
        await page.keyboard.press('F1');
        const input = page.locator('.quick-input-widget .quick-input-box input');
        await input.waitFor({ state: 'visible' });
        await input.fill(`>${command}`);
        const focused = page.locator('.quick-input-widget .monaco-list-row.focused');
        await this.ctx.poll(async () => (await focused.getAttribute('aria-label', { timeout: 500 }))?.startsWith(command), `"${command}" to be the focused command`);
        await page.keyboard.press('Enter');
        await this.ctx.poll(async () => (await input.getAttribute('placeholder', { timeout: 500 }))?.startsWith(placeholder), `the pick "${placeholder}…"`);
        await input.fill(label);
        await this.ctx.poll(async () => (await focused.getAttribute('aria-label', { timeout: 500 }))?.startsWith(label), `"${label}" to be the focused row`);
        await page.keyboard.press('Enter');
    }
}

/**
 * An output channel's text (e.g. "Sandy"), opened as a user would: F1 → Output: Show Output Channel…
 * → the channel. The command opens a second quick pick, the channels, so each pick is Enter on the
 * focused row (the palette's own run() would wait for the quick input to close).
 */
export async function outputChannelText(ctx: PageContext, channel: string): Promise<string> {
    const page = ctx.page;
    const input = page.locator('.quick-input-widget .quick-input-box input');
    const focused = page.locator('.quick-input-widget .monaco-list-row.focused');
    const pick = async (text: string, row: (label: string) => boolean): Promise<void> => {
        await input.fill(text);
        await ctx.poll(async () => row((await focused.getAttribute('aria-label', { timeout: 500 }))?.trim() ?? ''), `"${text}" to be the focused row`);
        await page.keyboard.press('Enter');
    };
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible' });
    await pick('>Output: Show Output Channel...', label => label.startsWith('Output: Show Output Channel...'));
    await ctx.poll(async () => await input.inputValue() === '', 'the channel picker');
    await pick(channel, label => label === channel);
    const lines = page.locator('#outputView .view-lines');
    await lines.waitFor({ state: 'visible' });
    return ctx.poll(async () => (await lines.textContent())?.replace(/\u00a0/g, ' ') || undefined, `the ${channel} output to show`);
}

/** Right click → an item of Theia's (Lumino) context menu, by label. */
export async function clickContextMenuItem(ctx: PageContext, target: Locator, label: string): Promise<void> {
    await target.click({ button: 'right' });
    const item = ctx.page.locator('.lm-Menu .lm-Menu-item:not(.lm-mod-disabled)').filter({
        has: ctx.page.locator('.lm-Menu-itemLabel').getByText(label, { exact: true })
    });
    await item.first().waitFor({ state: 'visible' });
    await item.first().click();
}
