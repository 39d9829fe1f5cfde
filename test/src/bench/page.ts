/**
 * Driving the Sandy IDE in Chromium, and the measuring code that runs inside the page. In-page times
 * come from performance.now(), so Node↔browser round trips never count.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { delay } from './report';

export const CHROMIUM = process.env.BENCH_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking'];
export const VIEWPORT = { width: 1400, height: 900 };

/** The sandy tab in front (Lumino hides the others with lm-mod-hidden). */
export const SANDY_ROWS = '.sandy-terminal-widget:not(.lm-mod-hidden) .xterm-rows';
export const SANDY_TEXTAREA = '.sandy-terminal-widget:not(.lm-mod-hidden) .xterm-helper-textarea';

export interface AppPage {
    context: BrowserContext;
    page: Page;
}

export async function openApp(browser: Browser, url: string): Promise<AppPage> {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 90_000 });
    // The preload spinner goes once the frontend has started and the layout is restored.
    await page.locator('.theia-preload').waitFor({ state: 'detached', timeout: 90_000 });
    await page.waitForSelector('#shell-tab-sandy-view-container', { timeout: 90_000 });
    return { context, page };
}

/**
 * Make the Sandy view visible. Clicking its tab toggles the side panel, so the tab is clicked only when
 * it is not the current one: the default layout shows the view from the start, before its list has a height.
 */
export async function showSandyView(page: Page): Promise<void> {
    const tab = page.locator('#shell-tab-sandy-view-container');
    if (!/\blm-mod-current\b/.test((await tab.getAttribute('class')) ?? '')) {
        await tab.click();
    }
    await page.locator('li.sandy-project-row').first().waitFor({ state: 'visible', timeout: 60_000 });
}

function projectRow(page: Page, name: string) {
    const exact = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    return page.locator('li.sandy-project-row').filter({ has: page.locator('.sandy-project-name', { hasText: exact }) });
}

/** Click the project's row (a single click launches) and wait for the fake's TUI in the new tab. */
export async function launchProject(page: Page, name: string, workspace: string): Promise<void> {
    await showSandyView(page);
    const row = projectRow(page, name);
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await row.click();
    await page.waitForFunction(({ sel, ws }) => {
        const rows = document.querySelector(sel);
        const text = (rows?.textContent ?? '').replace(/\u00a0/g, ' ');
        return text.includes(ws) && text.includes("type 'help'");
    }, { sel: SANDY_ROWS, ws: workspace }, { timeout: 60_000 });
}

export async function sandyScreenText(page: Page): Promise<string> {
    return page.evaluate(sel => (document.querySelector(sel)?.textContent ?? '').replace(/\u00a0/g, ' '), SANDY_ROWS);
}

export async function focusSandyTerminal(page: Page): Promise<void> {
    await page.click('.sandy-terminal-widget:not(.lm-mod-hidden) .xterm-screen');
}

export interface TheiaTerminal {
    tabId: string;
    widgetId: string;
    textarea: string;
}

/** Type a command's label into the command palette (F1) and run the first match. */
export async function runPaletteCommand(page: Page, label: string): Promise<void> {
    await page.keyboard.press('F1');
    await page.waitForSelector('.quick-input-widget', { state: 'visible', timeout: 10_000 });
    await page.keyboard.type(label);
    await delay(400);
    await page.keyboard.press('Enter');
}

/** "Terminal: Create New Terminal" from the command palette (answering the profile pick if asked). */
export async function openTheiaTerminal(page: Page): Promise<TheiaTerminal> {
    const listTabs = () => page.$$eval('[id^="shell-tab-terminal-"]', els => els.map(e => e.id).filter(id => !id.endsWith('-hidden')));
    const before = new Set(await listTabs());
    await runPaletteCommand(page, 'Terminal: Create New Terminal');
    const deadline = Date.now() + 30_000;
    let answeredProfile = false;
    while (Date.now() < deadline) {
        const fresh = (await listTabs()).find(id => !before.has(id));
        if (fresh) {
            const widgetId = fresh.slice('shell-tab-'.length);
            const textarea = `[id="${widgetId}"] .xterm-helper-textarea`;
            await page.waitForSelector(textarea, { state: 'attached', timeout: 30_000 });
            return { tabId: fresh, widgetId, textarea };
        }
        if (!answeredProfile && await page.isVisible('.quick-input-widget')) {
            const placeholder = await page.getAttribute('.quick-input-widget input', 'placeholder').catch(() => null);
            if (placeholder && /profile/i.test(placeholder)) {
                answeredProfile = true;
                await page.keyboard.press('Enter');
            }
        }
        await delay(200);
    }
    throw new Error('Theia terminal did not open from the command palette');
}

export async function focusTheiaTerminal(page: Page, t: TheiaTerminal): Promise<void> {
    await page.click(`[id="${t.widgetId}"] .xterm-screen`);
}

/** Run a command in Theia's terminal and wait until its tab title becomes `title` (set by the command). */
export async function theiaRunUntilTitle(page: Page, t: TheiaTerminal, command: string, title: string, timeoutMs = 30_000): Promise<void> {
    await page.keyboard.type(command);
    await page.keyboard.press('Enter');
    await page.waitForFunction(({ id, text }) => (document.getElementById(id)?.textContent ?? '').includes(text), { id: t.tabId, text: title }, { timeout: timeoutMs });
}

// ---- in-page measurement -------------------------------------------------------------------------

export interface FloodArm {
    /** Completion = this text appears in the element (sandy tab: xterm's DOM rows). */
    rowsSelector?: string;
    /** Completion = the tab with this id shows the text (Theia's terminal: title set by OSC 0 after the output). */
    tabId?: string;
    doneText: string;
    timeoutMs: number;
}

export interface FloodResult {
    ok: boolean;
    ms: number;
    /** Epoch ms of the Enter keydown, to compare with file times. */
    startEpochMs: number;
    reason?: string;
    /** DOM updates of the rows seen during the run (MutationObserver callbacks): about the frames the terminal drew. */
    draws?: number;
}

/** Arm before typing: t0 = the next Enter keydown; done = the first DOM mutation that shows doneText. */
export function armFlood(page: Pick<Page, 'evaluate'>, arm: FloodArm): Promise<void> {
    return page.evaluate((a: FloodArm) => {
        const w = window as unknown as { __benchFlood?: Promise<unknown> };
        w.__benchFlood = new Promise(resolve => {
            let t0 = 0;
            let draws = 0;
            const onKey = (e: KeyboardEvent) => {
                if (e.key === 'Enter' && !t0) {
                    t0 = performance.now();
                }
            };
            window.addEventListener('keydown', onKey, true);
            const target = a.rowsSelector ? document.querySelector(a.rowsSelector) : document.body;
            const probe = () => (a.rowsSelector ? target?.textContent ?? '' : document.getElementById(a.tabId ?? '')?.textContent ?? '').replace(/\u00a0/g, ' ');
            const finish = (ok: boolean, reason?: string) => {
                mo.disconnect();
                clearTimeout(timer);
                window.removeEventListener('keydown', onKey, true);
                resolve({ ok, ms: t0 ? performance.now() - t0 : 0, startEpochMs: performance.timeOrigin + t0, reason, draws });
            };
            const mo = new MutationObserver(() => {
                draws += t0 ? 1 : 0;
                if (t0 && probe().includes(a.doneText)) {
                    finish(true);
                }
            });
            if (!target) {
                resolve({ ok: false, ms: 0, startEpochMs: 0, reason: `no element ${a.rowsSelector}` });
                return;
            }
            mo.observe(target, { childList: true, subtree: true, characterData: true });
            const timer = setTimeout(() => finish(false, `timed out after ${a.timeoutMs} ms`), a.timeoutMs);
        });
    }, arm);
}

export function floodResult(page: Pick<Page, 'evaluate'>): Promise<FloodResult> {
    return page.evaluate(() => (window as unknown as { __benchFlood: Promise<FloodResult> }).__benchFlood);
}

export interface EchoArm {
    textareaSelector: string;
    /** Sandy tab only: the DOM text that proves the echo was drawn. */
    rowsSelector?: string;
    expect?: string;
    timeoutMs: number;
}

export interface EchoResult {
    /** keydown → xterm parsed the echo (its cursor moved: xterm re-positions its helper textarea). */
    parse: number | null;
    /** keydown → end of the first animation frame after that (the frame that paints it). */
    paint: number | null;
    /** keydown → the character is in the xterm DOM rows (DOM renderer only). */
    dom: number | null;
}

/**
 * Arm before one keystroke. Works for both renderers: xterm moves its helper textarea to the cursor
 * whenever parsing moves the cursor, a DOM side effect even when drawing happens on a WebGL canvas.
 */
export function armEcho(page: Page, arm: EchoArm): Promise<void> {
    return page.evaluate((a: EchoArm) => {
        const w = window as unknown as { __benchEcho?: Promise<unknown> };
        w.__benchEcho = new Promise(resolve => {
            const ta = document.querySelector(a.textareaSelector) as HTMLElement | null;
            const rows = a.rowsSelector ? document.querySelector(a.rowsSelector) : null;
            if (!ta) {
                resolve({ parse: null, paint: null, dom: null });
                return;
            }
            const pos = () => `${ta.style.left}|${ta.style.top}`;
            const start = pos();
            let t0 = 0;
            let tParse = 0;
            let tPaint = 0;
            let tDom = 0;
            let done = false;
            const onKey = () => {
                if (!t0) {
                    t0 = performance.now();
                }
            };
            window.addEventListener('keydown', onKey, true);
            const finish = () => {
                if (done) {
                    return;
                }
                done = true;
                mo.disconnect();
                clearTimeout(timer);
                window.removeEventListener('keydown', onKey, true);
                resolve({ parse: tParse ? tParse - t0 : null, paint: tPaint ? tPaint - t0 : null, dom: tDom ? tDom - t0 : null });
            };
            const maybeFinish = () => {
                if (tPaint && (!rows || tDom)) {
                    finish();
                }
            };
            const check = () => {
                if (!t0) {
                    return;
                }
                const now = performance.now();
                if (!tParse && pos() !== start) {
                    tParse = now;
                    requestAnimationFrame(() => setTimeout(() => {
                        tPaint = performance.now();
                        maybeFinish();
                        // The DOM renderer writes the rows in that same frame; do not wait long for text that never comes.
                        setTimeout(finish, 250);
                    }, 0));
                }
                if (rows && !tDom && (rows.textContent ?? '').replace(/\u00a0/g, ' ').includes(a.expect ?? '\u0000')) {
                    tDom = now;
                    maybeFinish();
                }
            };
            const mo = new MutationObserver(check);
            mo.observe(ta, { attributes: true, attributeFilter: ['style'] });
            if (rows) {
                mo.observe(rows, { childList: true, subtree: true, characterData: true });
            }
            const timer = setTimeout(finish, a.timeoutMs);
        });
    }, arm);
}

export function echoResult(page: Page): Promise<EchoResult> {
    return page.evaluate(() => (window as unknown as { __benchEcho: Promise<EchoResult> }).__benchEcho);
}

/** The WebGL implementation Chromium gives the page (with --disable-gpu: SwiftShader, i.e. software). */
export function webglRenderer(page: Page): Promise<string | undefined> {
    return page.evaluate(() => {
        const gl = document.createElement('canvas').getContext('webgl2');
        if (!gl) {
            return 'no WebGL2';
        }
        const info = gl.getExtension('WEBGL_debug_renderer_info');
        return String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    }).catch(() => undefined);
}
