import * as fs from 'fs';
import * as path from 'path';
import { Browser, BrowserContext, chromium } from 'playwright-core';
import { RESULTS_DIR, SandyIde } from './harness';
import { SandyApp } from './page-objects/sandy-app';

/** Debian's chromium (playwright-core brings no browser of its own). */
export const CHROMIUM = process.env.SANDY_E2E_CHROMIUM || '/usr/bin/chromium';

/**
 * One headless chromium for a suite; every test window is a fresh browser context (its own
 * localStorage, so no Theia layout carries over between tests unless a test reloads its page).
 */
export class E2eBrowser {
    protected readonly contexts: BrowserContext[] = [];

    protected constructor(readonly browser: Browser) { }

    static async launch(): Promise<E2eBrowser> {
        if (!fs.existsSync(CHROMIUM)) {
            throw new Error(`No chromium at ${CHROMIUM}: install Debian's chromium package or set SANDY_E2E_CHROMIUM.`);
        }
        const browser = await chromium.launch({
            executablePath: CHROMIUM,
            args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking']
        });
        return new E2eBrowser(browser);
    }

    /** A new window (fresh context) with the IDE loaded; the clipboard is open to the IDE's origin. */
    async openApp(ide: SandyIde, viewport = { width: 1280, height: 800 }): Promise<SandyApp> {
        const context = await this.browser.newContext({ viewport });
        this.contexts.push(context);
        // Single actions (a click, a read) fail fast; waiting for the product is poll()'s job.
        context.setDefaultTimeout(15_000);
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ide.origin });
        const page = await context.newPage();
        return SandyApp.load(page, ide.url, () => ide.deathNotice());
    }

    /** Screenshots of every open window into test/results/ (called for a failed test). */
    async screenshotAll(name: string): Promise<string[]> {
        fs.mkdirSync(RESULTS_DIR, { recursive: true });
        const slug = name.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 100);
        const files: string[] = [];
        let i = 0;
        for (const context of this.contexts) {
            for (const page of context.pages()) {
                const file = path.join(RESULTS_DIR, `${slug}-${++i}.png`);
                try {
                    await page.screenshot({ path: file, timeout: 10_000 });
                    files.push(file);
                } catch {
                    // A crashed or closing page: the other screenshots still help.
                }
            }
        }
        return files;
    }

    /** Closes the windows a test opened (their sessions live on in the backend, as in the product). */
    async closeContexts(): Promise<void> {
        const contexts = this.contexts.splice(0);
        await Promise.all(contexts.map(c => c.close().catch(() => undefined)));
    }

    async close(): Promise<void> {
        await this.closeContexts();
        await this.browser.close();
    }
}
