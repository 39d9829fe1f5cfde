import type { Locator, Page } from 'playwright-core';
import { poll, PollOptions } from '../../support/poll';

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

    /** The action button (e.g. "Show") of a notification. */
    action(item: Locator, label: string): Locator {
        return item.locator(`button[data-action="${label}"]`);
    }
}

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
