import type { Locator, Page } from 'playwright-core';
import { PollOptions } from '../../support/poll';
import { SandyApprovalView } from './sandy-approval';
import { SandySettingsEditor } from './sandy-settings';
import { SandyTerminal } from './sandy-terminal';
import {
    clickContextMenuItem, contextFor, PageContext, TheiaCommandPalette, TheiaNotifications, TheiaStatusBar
} from './theia-widgets';

const SANDY_VIEW_TAB = '#shell-tab-sandy-view-container';
const TERMINAL_TABS = '#theia-main-content-panel .lm-TabBar-tab[id^="shell-tab-sandy-terminal:"]';

/** A literal string inside a RegExp. */
export function escapeRegExp(s: string): string {
    return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The Sandy IDE in one browser page, as the user sees it: the Sandy view with its Projects list,
 * sandy terminal tabs, notifications, the status bar and the command palette
 * (after @theia/playwright's TheiaApp).
 */
export class SandyApp implements PageContext {
    protected readonly ctx: PageContext;

    constructor(readonly page: Page, protected readonly abort: () => string | undefined = () => undefined) {
        this.ctx = contextFor(page, abort);
    }

    /** Opens the IDE at `url` and waits until the shell is up. */
    static async load(page: Page, url: string, abort?: () => string | undefined): Promise<SandyApp> {
        const app = new SandyApp(page, abort);
        await page.goto(url);
        await app.waitForShell();
        return app;
    }

    poll<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, message: string, options?: PollOptions): Promise<T> {
        return this.ctx.poll(probe, message, options);
    }

    async waitForShell(): Promise<void> {
        // The preload spinner goes once the frontend has started and the layout is restored.
        await this.page.locator('.theia-preload').waitFor({ state: 'detached', timeout: 60_000 });
        await this.page.locator(SANDY_VIEW_TAB).waitFor({ state: 'visible', timeout: 30_000 });
    }

    /** Reloads the page (a browser refresh) and waits for the shell again. */
    async reload(): Promise<void> {
        await this.page.reload();
        await this.waitForShell();
    }

    /**
     * The Projects list of the Sandy view (opened if needed). Only a tab that is not the side panel's
     * current one is clicked: a click on the current tab collapses the panel, and at window start the
     * view is current (the default layout shows it) before its list has a height, so "not visible yet"
     * is no reason to click.
     */
    async openSandyView(): Promise<Locator> {
        const projects = this.page.locator('#sandy-projects');
        const tab = this.page.locator(SANDY_VIEW_TAB);
        if (!await projects.isVisible() && !/\blm-mod-current\b/.test((await tab.getAttribute('class')) ?? '')) {
            await tab.click();
        }
        await projects.waitFor({ state: 'visible' });
        return projects;
    }

    /** The row of a project in the Projects list, by its display name. */
    projectRow(name: string): Locator {
        return this.page.locator('#sandy-projects li.sandy-project-row').filter({
            has: this.page.locator('.sandy-project-name').getByText(name, { exact: true })
        });
    }

    /** Clicks the project (launches sandy, or shows the running session) and returns its terminal tab. */
    async launch(name: string): Promise<SandyTerminal> {
        await this.clickProject(name);
        const terminal = await this.terminal(name);
        await terminal.widget.locator('.xterm-screen').waitFor({ state: 'visible' });
        return terminal;
    }

    /**
     * Clicks the project row and returns at once: pre-flight may answer with an approval view
     * instead of a terminal tab.
     */
    async clickProject(name: string): Promise<void> {
        await this.openSandyView();
        const row = this.projectRow(name);
        await row.waitFor({ state: 'visible' });
        await row.click();
    }

    /** The sandy terminal tabs of a project that exist right now (no waiting). */
    terminalTabs(name: string): Locator {
        // `● ` marks unread notifications, ` (ended)` an ended session.
        const label = new RegExp(`^(● )?sandy: ${escapeRegExp(name)}( \\(ended\\))?$`);
        return this.page.locator(TERMINAL_TABS).filter({ has: this.page.locator('.lm-TabBar-tabLabel').getByText(label) });
    }

    /** The pre-flight approval tab of a workspace (canonical path). */
    approval(workspace: string): SandyApprovalView {
        return new SandyApprovalView(this.ctx, workspace);
    }

    /** The settings editor tab of a workspace (undefined: Global only). */
    settings(workspace: string | undefined): SandySettingsEditor {
        return new SandySettingsEditor(this.ctx, workspace);
    }

    /** Runs a context-menu item (e.g. Stop, Reattach) on a project row. */
    async projectMenu(name: string, label: string): Promise<void> {
        await this.openSandyView();
        await clickContextMenuItem(this.ctx, this.projectRow(name), label);
    }

    /**
     * Stop from the project's context menu, then wait until its row no longer shows it running: only
     * then does a click launch again (until the IDE has seen the session end, a click shows its tab).
     */
    async stopProject(name: string): Promise<void> {
        await this.projectMenu(name, 'Stop');
        await this.poll(async () => await this.projectRow(name).getAttribute('data-state', { timeout: 1000 }).catch(() => undefined) !== 'running',
            `the ${name} row to stop showing the project as running`);
    }

    /** The sandy terminal tab of a project (waits for it to exist, e.g. while a reload restores it). */
    async terminal(name: string, timeout?: number): Promise<SandyTerminal> {
        const tab = this.terminalTabs(name).first();
        const tabId = await this.poll(() => tab.getAttribute('id', { timeout: 500 }).catch(() => undefined), `a sandy terminal tab for ${name}`, { timeout });
        return new SandyTerminal(this.ctx, tab, tabId.replace(/^shell-tab-/, ''));
    }

    /** Focuses some other main-area tab (the Welcome page), so the sandy tab is neither visible nor focused. */
    async focusWelcomeTab(): Promise<void> {
        const welcome = this.page.locator('#theia-main-content-panel .lm-TabBar-tab[id="shell-tab-getting.started.widget"]');
        if (!await welcome.isVisible()) {
            // The Welcome page opens by itself only in an empty workbench (workbench.startupEditor).
            await this.commandPalette().run('Welcome');
            await welcome.waitFor({ state: 'visible' });
        }
        await welcome.click();
        await this.poll(async () => /\blm-mod-current\b/.test((await welcome.getAttribute('class')) ?? ''), 'the Welcome tab to be current');
    }

    /**
     * The keyboard goes to the Projects view: a sandy tab in the main area stays in view but is no
     * longer what the user is looking at, so its notifications are toasted (none while it has the focus).
     */
    async lookAway(): Promise<void> {
        const projects = await this.openSandyView();
        // The view itself, not a row (a row's click would launch or show its project).
        await projects.focus();
        await this.poll(async () => await this.page.evaluate(() => !document.activeElement?.closest('.sandy-terminal-widget')), 'the focus to leave the sandy tab');
    }

    notifications(): TheiaNotifications {
        return new TheiaNotifications(this.ctx);
    }

    statusBar(): TheiaStatusBar {
        return new TheiaStatusBar(this.ctx);
    }

    commandPalette(): TheiaCommandPalette {
        return new TheiaCommandPalette(this.ctx);
    }
}
