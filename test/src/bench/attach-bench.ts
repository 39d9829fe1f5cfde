/**
 * Attach latency: how long until a daemon session's screen is back in a tab.
 *
 * - attach.latency.reattach: the sandy tab is closed (the session runs on), the after-close
 *   notification's Reattach is clicked; from the click to the first DOM mutation of the new tab's
 *   .xterm-rows that shows the agent's screen (a line the fake printed just before the close).
 * - attach.latency.reload: the page is reloaded with the sandy tab in front; from the navigation
 *   start (performance.timeOrigin of the new document) to the same.
 * - attach.latency.backend: in Node, core's PtySupervisor hosting a daemon session (scripted PTYs):
 *   supervisor.attach() until its replay is ready, with a full screen and 1000 lines of scrollback.
 */
import type { Page } from 'playwright-core';
import type { SessionInfo } from '@sandy-ui/core/common';
import { HostedSession, PtyLike, PtySupervisor } from '@sandy-ui/core/node';
import { SANDY_ROWS, focusSandyTerminal } from './page';
import { Report, delay, log, median, round, stats } from './report';

const SANDY_TAB = '#theia-main-content-panel .lm-TabBar-tab[id^="shell-tab-sandy-terminal:"]';
/** Theia's toast after a sandy tab on a live session closed (labels.ts detachedText). */
const DETACHED_TOAST_TEXT = 'keeps running in the background';
const RELOAD_KEY = '__benchReloadMarker';

/** Milestones of one (re)attach, ms from its start (the click, or the navigation start). */
export interface AttachTiming {
    ok: boolean;
    reason?: string;
    /** A sandy terminal widget is in the DOM. */
    widgetMs?: number;
    /** It is shown (not hidden by Lumino, laid out). */
    visibleMs?: number;
    /** Its .xterm-rows show any text. */
    rowsTextMs?: number;
    /** A row shows the marker line: the agent's screen is back. */
    markerMs?: number;
    /** Reload only: the preload spinner went (the shell is up). */
    shellMs?: number;
    /** Reload only: DOMContentLoaded of the new document. */
    domContentLoadedMs?: number;
}

/**
 * Installed in the page: from `start` on, watch the whole document for a sandy terminal widget whose
 * rows show a row equal to `marker` (a line the agent printed). Elements present at arming time are
 * ignored (a closed tab's widget is gone; a reload starts with none). Resolves the milestones.
 */
function watchScreen(marker: string, timeoutMs: number, startAtClick: boolean): Promise<AttachTiming> {
    const t: AttachTiming = { ok: false };
    const old = new Set(Array.from(document.querySelectorAll('.sandy-terminal-widget')));
    let t0 = startAtClick ? 0 : -1;
    let hadPreload = false;
    return new Promise(resolve => {
        let done = false;
        const rel = (now: number) => Math.round((now - Math.max(0, t0)) * 100) / 100;
        const onClick = () => {
            if (t0 === 0) {
                t0 = performance.now();
            }
        };
        const finish = (ok: boolean, reason?: string) => {
            if (done) {
                return;
            }
            done = true;
            mo.disconnect();
            clearTimeout(timer);
            window.removeEventListener('click', onClick, true);
            resolve({ ...t, ok, reason });
        };
        const check = () => {
            if (t0 === 0) {
                return;
            }
            const now = performance.now();
            if (!startAtClick && t.shellMs === undefined) {
                const preload = document.querySelector('.theia-preload');
                hadPreload ||= !!preload;
                if (hadPreload && !preload) {
                    t.shellMs = rel(now);
                }
            }
            const widgets = Array.from(document.querySelectorAll('.sandy-terminal-widget')).filter(w => !old.has(w));
            if (!widgets.length) {
                return;
            }
            t.widgetMs ??= rel(now);
            for (const w of widgets) {
                if (t.visibleMs === undefined && !w.classList.contains('lm-mod-hidden') && (w as HTMLElement).offsetParent !== null) {
                    t.visibleMs = rel(now);
                }
                const rows = w.querySelector('.xterm-rows');
                if (!rows) {
                    continue;
                }
                const text = (rows.textContent ?? '').replace(/\u00a0/g, ' ');
                if (text.trim() && t.rowsTextMs === undefined) {
                    t.rowsTextMs = rel(now);
                }
                if (text.includes(marker) && Array.from(rows.children).some(r => (r.textContent ?? '').replace(/\u00a0/g, ' ').trim() === marker)) {
                    t.markerMs = rel(now);
                    finish(true);
                    return;
                }
            }
        };
        if (startAtClick) {
            window.addEventListener('click', onClick, true);
        }
        const mo = new MutationObserver(check);
        // Class changes too: Lumino shows a restored tab by dropping lm-mod-hidden.
        mo.observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['class'] });
        const timer = setTimeout(() => finish(false, `timed out after ${timeoutMs} ms (${JSON.stringify(t)})`), timeoutMs);
        if (!startAtClick) {
            document.addEventListener('DOMContentLoaded', () => t.domContentLoadedMs = Math.round(performance.now() * 100) / 100, { once: true });
        }
    });
}

/** Print a line of its own in the sandy tab and wait until the tab shows it as a row. */
async function printMarker(page: Page, marker: string): Promise<void> {
    await focusSandyTerminal(page);
    await page.keyboard.type(`echo ${marker}`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(({ sel, m }) => Array.from(document.querySelector(sel)?.children ?? [])
        .some(r => (r.textContent ?? '').replace(/\u00a0/g, ' ').trim() === m), { sel: SANDY_ROWS, m: marker }, { timeout: 30_000 });
    // Let the backend's screen take it in too (it parses asynchronously).
    await delay(300);
}

function latencyMetric(report: Report, id: string, description: string, runs: AttachTiming[], failures: string[], details: Record<string, unknown>): void {
    const ms = runs.map(r => r.markerMs!);
    const milestone = (k: keyof AttachTiming) => runs.map(r => r[k]).filter((v): v is number => typeof v === 'number');
    const milestones: Record<string, unknown> = {};
    for (const k of ['domContentLoadedMs', 'shellMs', 'widgetMs', 'visibleMs', 'rowsTextMs'] as const) {
        const v = milestone(k);
        if (v.length) {
            milestones[k] = { samples: v, p50: round(median(v), 1) };
        }
    }
    report.add({
        id, description, unit: 'ms',
        value: ms.length ? round(median(ms), 1) : null, samples: ms.map(v => round(v, 1)), stats: stats(ms, 1),
        ...(ms.length ? {} : { notMeasured: `no run completed: ${JSON.stringify(failures)}` }),
        details: { ...details, failures, milestones }
    });
}

/** attach.latency.reattach: close the sandy tab, click the toast's Reattach, time until the screen is back. */
export async function benchReattach(report: Report, page: Page, samples: number): Promise<void> {
    const runs: AttachTiming[] = [];
    const failures: string[] = [];
    for (let i = -1; i < samples; i++) {
        const marker = `reattach-mark-${i + 1}`;
        await printMarker(page, marker);
        await page.locator(SANDY_TAB).first().locator('.lm-TabBar-tabCloseIcon').click();
        await page.waitForFunction(() => !document.querySelector('.sandy-terminal-widget'), undefined, { timeout: 30_000 });
        const toast = page.locator('.theia-notification-list-item').filter({ has: page.locator('.theia-notification-message', { hasText: DETACHED_TOAST_TEXT }) }).first();
        const button = toast.locator('button[data-action="Reattach"]');
        await button.waitFor({ state: 'visible', timeout: 30_000 });
        // Armed before the click; the result is read after it (as armFlood / floodResult).
        await page.evaluate(`window.__benchAttach = (${watchScreen.toString()})(${JSON.stringify(marker)}, 30000, true); undefined`);
        await button.click();
        const r = await page.evaluate(() => (window as unknown as { __benchAttach: Promise<AttachTiming> }).__benchAttach);
        log(`  reattach ${i < 0 ? 'warm-up' : `${i + 1}/${samples}`}: ${r.ok ? `${r.markerMs} ms (widget ${r.widgetMs}, visible ${r.visibleMs}, first rows ${r.rowsTextMs})` : r.reason}`);
        if (!r.ok) {
            failures.push(r.reason ?? 'failed');
            // Get a tab back for the next sample (or the later sections).
            await page.waitForSelector(SANDY_ROWS, { timeout: 30_000 }).catch(() => undefined);
        } else if (i >= 0) {
            runs.push(r);
        }
        await delay(500);
    }
    latencyMetric(report, 'attach.latency.reattach',
        'Reattach a daemon session in the same page: its sandy tab is closed (the session runs on), then the after-close notification\'s Reattach is clicked; from the click (in-page performance.now(), a window capture listener) to the first DOM mutation of the new tab\'s .xterm-rows that shows a line the agent printed just before the close (the backend\'s replay of the screen).',
        runs, failures, {
            method: 'MutationObserver on the document; milestones: widgetMs = a new .sandy-terminal-widget exists, visibleMs = it is shown, rowsTextMs = its rows show any text, value = a row equals the marker line',
            screen: 'the fake sandy in the alternate screen after the throughput runs (when they ran), one `echo reattach-mark-N` line at the bottom'
        });
}

/** Page script (document start): when Node left a marker in localStorage, watch for it from the navigation start. */
function reloadInitScript(timeoutMs: number): string {
    return `(() => {
        const marker = localStorage.getItem(${JSON.stringify(RELOAD_KEY)});
        if (marker) {
            window.__benchReload = (${watchScreen.toString()})(marker, ${timeoutMs}, false);
        }
    })();`;
}

/** attach.latency.reload: reload the page with the sandy tab in front, time until the screen is back. */
export async function benchReload(report: Report, page: Page, samples: number): Promise<void> {
    await page.addInitScript({ content: reloadInitScript(90_000) });
    const runs: AttachTiming[] = [];
    const failures: string[] = [];
    try {
        for (let i = -1; i < samples; i++) {
            const marker = `reload-mark-${i + 1}`;
            await printMarker(page, marker);
            await page.evaluate(({ key, m }) => localStorage.setItem(key, m), { key: RELOAD_KEY, m: marker });
            await page.reload({ waitUntil: 'commit', timeout: 90_000 });
            const r = await page.waitForFunction(() => (window as unknown as { __benchReload?: Promise<unknown> }).__benchReload, undefined, { timeout: 90_000 })
                .then(() => page.evaluate(() => (window as unknown as { __benchReload: Promise<AttachTiming> }).__benchReload));
            await page.evaluate(key => localStorage.removeItem(key), RELOAD_KEY);
            log(`  reload ${i < 0 ? 'warm-up' : `${i + 1}/${samples}`}: ${r.ok ? `${r.markerMs} ms (DOMContentLoaded ${r.domContentLoadedMs}, shell ${r.shellMs}, widget ${r.widgetMs}, visible ${r.visibleMs}, first rows ${r.rowsTextMs})` : r.reason}`);
            if (!r.ok) {
                failures.push(r.reason ?? 'failed');
            } else if (i >= 0) {
                runs.push(r);
            }
            await page.locator('.theia-preload').waitFor({ state: 'detached', timeout: 60_000 }).catch(() => undefined);
            await page.waitForSelector(SANDY_ROWS, { timeout: 30_000 });
            await delay(1000);
        }
    } finally {
        await page.evaluate(key => localStorage.removeItem(key), RELOAD_KEY).catch(() => undefined);
    }
    latencyMetric(report, 'attach.latency.reload',
        'Reload the page with the sandy tab in front (the daemon session runs on): from the navigation start (the new document\'s performance.timeOrigin) to the first DOM mutation of the restored tab\'s .xterm-rows that shows a line the agent printed just before the reload. Includes loading and starting the whole Theia frontend.',
        runs, failures, {
            method: 'an init script arms a MutationObserver on the document at document start; milestones: domContentLoadedMs, shellMs = Theia\'s preload spinner removed, widgetMs = the restored .sandy-terminal-widget exists, visibleMs = it is shown, rowsTextMs = its rows show any text, value = a row equals the marker line'
        });
}

// ---- attach.latency.backend: in Node ---------------------------------------------------------------

/** A PTY whose output the bench writes itself. */
class ScriptedPty implements PtyLike {
    static nextPid = 900_000;
    readonly pid = ScriptedPty.nextPid++;
    protected readonly dataListeners = new Set<(d: string) => void>();
    protected readonly exitListeners = new Set<(e: { exitCode: number; signal?: number }) => void>();

    onData(listener: (data: string) => void) {
        this.dataListeners.add(listener);
        return { dispose: () => this.dataListeners.delete(listener) };
    }

    onExit(listener: (e: { exitCode: number; signal?: number }) => void) {
        this.exitListeners.add(listener);
        return { dispose: () => this.exitListeners.delete(listener) };
    }

    emit(data: string): void {
        for (const l of [...this.dataListeners]) {
            l(data);
        }
    }

    exit(exitCode: number): void {
        for (const l of [...this.exitListeners]) {
            l({ exitCode });
        }
    }

    write(): void { /* the agent ignores input here */ }
    resize(): void { /* fixed size */ }
    pause(): void { /* never full */ }
    resume(): void { /* never full */ }
    kill(): void {
        setImmediate(() => this.exit(0));
    }
}

/** Gives the bench the session's HostedSession (protected in the supervisor). */
class BenchSupervisor extends PtySupervisor {
    hosted(id: string): HostedSession | undefined {
        return this.sessions.get(id);
    }
}

const ESC = '\x1b';
const WORDS = ['reading', 'src/node/terminal/screen-state.ts', 'applying', 'patch', 'tests', 'passed', '✓', 'npm', 'run', 'build', 'warning:', 'unused', 'variable', 'const', 'function', '→', 'diff', '+42', '-17'];

/** An agent-transcript-like line: a few colour runs, bold, about `width` columns. */
function colourLine(k: number, width: number): string {
    let seed = k * 7919 + 13;
    let out = `${ESC}[2m${String(k).padStart(5)}${ESC}[0m `;
    let used = 6;
    while (used < width - 12) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const word = WORDS[seed % WORDS.length];
        const colour = 31 + (seed >> 8) % 7;
        out += (seed >> 4) % 5 === 0 ? `${ESC}[1;${colour}m${word}${ESC}[0m ` : (seed >> 4) % 3 === 0 ? `${ESC}[${colour}m${word}${ESC}[39m ` : `${word} `;
        used += word.length + 1;
    }
    return out;
}

interface ScriptedSession {
    supervisor: BenchSupervisor;
    info: SessionInfo;
    agent: ScriptedPty;
}

/** A daemon session through core's real code path (`--start` then `--attach`), both PTYs scripted. */
async function scriptedDaemon(cols: number, rows: number, workspace: string): Promise<ScriptedSession> {
    let agent: ScriptedPty | undefined;
    const supervisor = new BenchSupervisor((_file, args) => {
        const p = new ScriptedPty();
        if (args[0] === '--start') {
            setTimeout(() => {
                p.emit('[sandy] Daemon session ready: bench (container 0123456789ab)\r\n');
                p.exit(0);
            }, 5);
        } else {
            agent = p;
        }
        return p;
    }, { isSandy: () => false, pidAlive: () => false });
    supervisor.setSessionPort({
        commandLine: () => ({ sandyPath: 'sandy', env: {} }),
        run: async () => ({ exitCode: 0, stdout: '', stderr: '' }),
        remember: () => undefined,
        forget: () => undefined
    });
    const info = supervisor.startDaemon({ sandyPath: 'sandy', args: [], workspace, env: {}, cols, rows });
    const deadline = Date.now() + 10_000;
    while (!agent || supervisor.get(info.id)?.link !== 'attached') {
        if (Date.now() > deadline) {
            throw new Error(`the scripted daemon session did not attach: ${JSON.stringify(supervisor.get(info.id))}`);
        }
        await delay(10);
    }
    return { supervisor, info, agent };
}

async function attachTimes(sup: BenchSupervisor, id: string, samples: number): Promise<{ ms: number[]; replayChars: number }> {
    // Drain: the first attach waits for everything written so far to be parsed.
    (await sup.attach(id)).dispose();
    const ms: number[] = [];
    let replayChars = 0;
    for (let i = 0; i < samples; i++) {
        const t0 = performance.now();
        const a = await sup.attach(id);
        ms.push(performance.now() - t0);
        replayChars = a.replay.length;
        a.dispose();
        await delay(20);
    }
    return { ms, replayChars };
}

export async function benchBackendAttach(report: Report, samples: number, cols = 160, rows = 48): Promise<void> {
    const scrollback = 1000;
    // (1) The brief's case: the normal screen, full, with 1000 lines of scrollback above it.
    const full = await scriptedDaemon(cols, rows, '/bench/attach-scrollback');
    let text = '';
    for (let k = 1; k <= rows + scrollback; k++) {
        text += colourLine(k, cols) + '\r\n';
    }
    full.agent.emit(text);
    const withScrollback = await attachTimes(full.supervisor, full.info.id, samples);
    // (2) What sandy's tmux shows: the alternate screen only (no scrollback), full of the same lines.
    const alt = await scriptedDaemon(cols, rows, '/bench/attach-alt');
    let screen = `${ESC}[?1049h${ESC}[H${ESC}[2J`;
    for (let k = 1; k <= rows; k++) {
        screen += colourLine(k, cols) + (k < rows ? '\r\n' : '');
    }
    alt.agent.emit(screen);
    const screenOnly = await attachTimes(alt.supervisor, alt.info.id, samples);
    // (3) Reattaching while the agent prints: the replay waits for the backend's screen to parse its backlog.
    const busy = await scriptedDaemon(cols, rows, '/bench/attach-busy');
    const burst = text.repeat(3);
    const busyMs: number[] = [];
    for (let i = 0; i < Math.min(samples, 5); i++) {
        busy.agent.emit(burst);
        const t0 = performance.now();
        const a = await busy.supervisor.attach(busy.info.id);
        busyMs.push(performance.now() - t0);
        a.dispose();
        await delay(50);
    }
    for (const s of [full, alt, busy]) {
        await s.supervisor.dispose();
    }
    report.add({
        id: 'attach.latency.backend',
        description: `In Node (the bench process): core's PtySupervisor hosting a daemon session (scripted --start/--attach PTYs, ${cols}×${rows}) whose screen is full with ${scrollback} lines of scrollback above it (coloured agent-like lines); from supervisor.attach() to the attachment with its replay (the headless xterm's serialized screen). The backend's share of a reattach or reload.`,
        value: round(median(withScrollback.ms), 2), unit: 'ms', samples: withScrollback.ms.map(v => round(v, 2)), stats: stats(withScrollback.ms),
        details: {
            cols, rows, scrollbackLines: scrollback, replayChars: withScrollback.replayChars,
            screenOnly: { note: 'the alternate screen only, as sandy\'s tmux draws (no scrollback)', replayChars: screenOnly.replayChars, stats: stats(screenOnly.ms) },
            whileOutputPending: {
                note: `attach right after ${burst.length} chars of output reached the session: the replay waits until the headless xterm has parsed them`,
                samples: busyMs.map(v => round(v, 1)), stats: stats(busyMs, 1)
            }
        }
    });
}
