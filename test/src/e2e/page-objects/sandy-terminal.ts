import type { Locator } from 'playwright-core';
import { PageContext } from './theia-widgets';
import { loseXtermWebglContext, readXtermAppearance, readXtermGeometry, readXtermRenderer } from '../../support/xterm-dom';
import type { XtermAppearance, XtermRenderer } from '../../support/xterm-dom';

export interface TerminalSize {
    rows: number;
    cols: number;
}

/**
 * One sandy terminal tab (`.sandy-terminal-widget`): its tab title, the xterm screen (the DOM
 * renderer keeps the visible rows as text in `.xterm-rows`), typing, and the exit banner.
 */
export class SandyTerminal {
    readonly widget: Locator;

    constructor(protected readonly ctx: PageContext, readonly tab: Locator, readonly widgetId: string) {
        this.widget = ctx.page.locator(`[id="${widgetId}"]`);
    }

    /** The tab's label, e.g. `● sandy: proj` or `sandy: proj (ended)`. */
    async title(): Promise<string> {
        return ((await this.tab.locator('.lm-TabBar-tabLabel').textContent()) ?? '').trim();
    }

    async isCurrent(): Promise<boolean> {
        return /\blm-mod-current\b/.test((await this.tab.getAttribute('class')) ?? '');
    }

    /** Brings the tab to the front (a click on its tab, as a user would). */
    async activate(): Promise<void> {
        if (!await this.isCurrent()) {
            await this.tab.click();
        }
        // (.xterm-screen: drawn by either renderer; the DOM renderer's .xterm-rows is not there under WebGL)
        await this.widget.locator('.xterm-screen').waitFor({ state: 'visible' });
    }

    /** The visible screen, one line per row, trailing blanks trimmed. */
    async text(): Promise<string> {
        const rows = await this.widget.locator('.xterm-rows > div').allTextContents();
        return rows.map(r => r.replace(/\u00a0/g, ' ').trimEnd()).join('\n');
    }

    /** Waits until the screen matches and returns the match. */
    async waitForText(pattern: string | RegExp, timeout?: number): Promise<RegExpExecArray | string> {
        let last = '';
        try {
            return await this.ctx.poll(async () => {
                last = await this.text();
                if (typeof pattern === 'string') {
                    return last.includes(pattern) ? pattern : undefined;
                }
                return pattern.exec(last) ?? undefined;
            }, `the sandy terminal to show ${pattern}`, { timeout });
        } catch (e) {
            throw new Error(`${(e as Error).message}\n--- screen ---\n${last}\n--------------`);
        }
    }

    /** Keyboard focus in xterm (its helper textarea), after bringing the tab to the front. */
    async focus(): Promise<void> {
        await this.activate();
        await this.widget.locator('textarea.xterm-helper-textarea').focus();
    }

    /** Types a line into the session, as a user at the keyboard. */
    async enter(line: string): Promise<void> {
        await this.focus();
        await this.ctx.page.keyboard.type(line);
        await this.ctx.page.keyboard.press('Enter');
    }

    /** The size the xterm shows, read from its DOM (rows drawn, screen width over cell width). */
    async geometry(): Promise<TerminalSize> {
        return this.widget.evaluate(readXtermGeometry);
    }

    /** How xterm draws: the rows' font and the cursor's classes. */
    async appearance(): Promise<XtermAppearance> {
        return this.widget.evaluate(readXtermAppearance);
    }

    /** Which renderer draws the tab (WebGL or the DOM). */
    async renderer(): Promise<XtermRenderer> {
        return this.widget.evaluate(readXtermRenderer);
    }

    /** Loses the WebGL context the tab draws in (a GPU reset); false when it has none. */
    async loseWebglContext(): Promise<boolean> {
        return this.widget.evaluate(loseXtermWebglContext);
    }

    /** Asks the session (`size`) for its PTY size; a fresh marker tells this answer from earlier ones. */
    async reportedSize(): Promise<TerminalSize> {
        const marker = `size-mark-${Date.now().toString(36)}`;
        await this.enter(`echo ${marker}`);
        await this.enter('size');
        const m = await this.waitForText(new RegExp(`^${marker}$[\\s\\S]*?^> size$\\n^(\\d+)\u00d7(\\d+)$`, 'm')) as RegExpExecArray;
        return { rows: Number(m[1]), cols: Number(m[2]) };
    }

    /** The bar above the screen that reports an ended session. */
    get banner(): Locator {
        return this.widget.locator('.sandy-terminal-banner');
    }

    get relaunchButton(): Locator {
        return this.banner.locator('button.sandy-relaunch');
    }
}
