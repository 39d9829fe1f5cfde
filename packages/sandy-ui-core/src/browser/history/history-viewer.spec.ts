import { expect } from 'chai';
import { JSDOM } from 'jsdom';
import { Terminal as HeadlessTerminal } from '@xterm/headless';
import type { HistoryRecord } from '../../common/session/history-types';
import { displayTranscript } from '../../common/session/transcript-filter';
import { loadHistoryTranscript } from '../../common/session/history-controller';
import { HistoryListView } from './history-list';
import { DEFAULT_TERMINAL_APPEARANCE, DEFAULT_TERMINAL_FONT_FAMILY, DEFAULT_TERMINAL_FONT_SIZE, TerminalFont } from '../../common/terminal/terminal-appearance';
import { HISTORY_TERMINAL_OPTIONS, HistoryTerminal, HistoryTerminalFactory, HistoryViewer, HistoryViewerOptions } from './history-viewer';

const record = (id: string, extra: Partial<HistoryRecord> = {}): HistoryRecord => ({
    id, workspace: '/w/alpha', project: 'alpha', sandbox: 'alpha', agent: 'claude', mode: 'daemon',
    startedAt: new Date(2026, 11, 1, 9, 5).getTime(), endedAt: new Date(2026, 11, 1, 9, 8, 12).getTime(), exitCode: 0, bytes: 2048, truncated: false, ...extra
});

function page() {
    const dom = new JSDOM('<!doctype html><html><body><div id="c"></div></body></html>', { pretendToBeVisual: true });
    return { dom, root: dom.window.document.getElementById('c')! };
}

/** The viewer over a headless xterm (same parser, no renderer); what the terminal would have said back is recorded. */
function headlessViewer(root: HTMLElement, viewerOptions: HistoryViewerOptions = {}) {
    const seen = { copies: [] as string[], relaunches: 0, data: [] as string[], titles: [] as string[], bells: 0, options: undefined as unknown, fonts: [] as TerminalFont[], themes: [] as unknown[] };
    let made: HeadlessTerminal | undefined;
    const factory: HistoryTerminalFactory = (_element, options) => {
        seen.options = options;
        made = new HeadlessTerminal({ ...options, theme: undefined, cols: 80, rows: 24, allowProposedApi: true });
        made.onData(d => seen.data.push(d));
        made.onTitleChange(t => seen.titles.push(t));
        made.onBell(() => seen.bells++);
        return { terminal: made as unknown as HistoryTerminal, setFont: font => seen.fonts.push(font), setTheme: theme => seen.themes.push(theme) };
    };
    const viewer = new HistoryViewer(root, { copy: text => seen.copies.push(text), relaunch: () => seen.relaunches++ }, factory, viewerOptions);
    return { viewer, seen, terminal: () => made! };
}

describe('HistoryListView (unit, jsdom)', () => {
    it('a row per record with project, start, duration, exit and size; click opens; Relaunch and Delete (finished only) ask the host', () => {
        const { root } = page();
        const asked: string[] = [];
        const view = new HistoryListView(root, {
            search: t => asked.push(`search:${t}`), filter: p => asked.push(`filter:${p}`),
            open: id => asked.push(`open:${id}`), relaunch: id => asked.push(`relaunch:${id}`), remove: id => asked.push(`remove:${id}`)
        });
        view.render({
            records: [record('2026-12-01-alpha'), record('2026-12-01-alpha-2', { endedAt: undefined, exitCode: undefined, startedAt: 1000 }), record('2026-12-01-beta', { project: 'beta', exitCode: 3 })],
            projects: ['alpha', 'beta'], text: '', project: undefined
        }, 1000 + 65_000);
        const rows = [...root.querySelectorAll<HTMLElement>('.sandy-history-row')];
        expect(rows.map(r => r.dataset.historyId)).to.deep.equal(['2026-12-01-alpha', '2026-12-01-alpha-2', '2026-12-01-beta']);
        const first = rows[0];
        expect(first.querySelector('.sandy-history-project-name')!.textContent).to.equal('alpha');
        expect(first.querySelector('.sandy-history-started')!.textContent).to.equal('2026-12-01 09:05');
        expect(first.querySelector('.sandy-history-duration')!.textContent).to.equal('3m 12s');
        expect(first.querySelector('.sandy-history-exit')!.textContent).to.equal('exit 0');
        expect(first.querySelector('.sandy-history-size')!.textContent).to.equal('2.0 KiB');
        expect(rows[1].querySelector('.sandy-history-duration')!.textContent).to.equal('running 1m 5s');
        expect(rows[1].querySelector<HTMLButtonElement>('[data-action="remove"]')!.disabled).to.equal(true);
        expect(rows[2].querySelector('.sandy-history-exit')!.classList.contains('sandy-history-exit-failed')).to.equal(true);
        rows[0].querySelector<HTMLButtonElement>('.sandy-history-open')!.click();
        rows[2].querySelector<HTMLButtonElement>('[data-action="relaunch"]')!.click();
        rows[2].querySelector<HTMLButtonElement>('[data-action="remove"]')!.click();
        expect(asked).to.deep.equal(['open:2026-12-01-alpha', 'relaunch:2026-12-01-beta', 'remove:2026-12-01-beta']);
        expect([...root.querySelectorAll('option')].map(o => o.textContent)).to.deep.equal(['All projects', 'alpha', 'beta']);
    });

    it('the search box and the project filter tell the host; no match and no records say so', () => {
        const { dom, root } = page();
        const asked: string[] = [];
        const view = new HistoryListView(root, {
            search: t => asked.push(`search:${t}`), filter: p => asked.push(`filter:${p}`), open: () => undefined, relaunch: () => undefined, remove: () => undefined
        });
        view.render({ records: [record('2026-12-01-alpha')], projects: ['alpha'], text: '' });
        const search = root.querySelector<HTMLInputElement>('input.sandy-history-search')!;
        search.value = 'word';
        search.dispatchEvent(new dom.window.Event('input'));
        const select = root.querySelector<HTMLSelectElement>('select.sandy-history-project')!;
        select.value = 'alpha';
        select.dispatchEvent(new dom.window.Event('change'));
        select.value = '';
        select.dispatchEvent(new dom.window.Event('change'));
        expect(asked).to.deep.equal(['search:word', 'filter:alpha', 'filter:undefined']);
        // A reloaded page (the webview's) shows the controller's search text even with the box focused.
        const fresh = page();
        const again = new HistoryListView(fresh.root, { search: () => undefined, filter: () => undefined, open: () => undefined, relaunch: () => undefined, remove: () => undefined });
        again.focus();
        again.render({ records: [], projects: [], text: 'kept' });
        expect(fresh.root.querySelector<HTMLInputElement>('input.sandy-history-search')!.value).to.equal('kept');
        view.render({ records: [], projects: [], text: 'zzz' });
        expect(root.querySelector('.sandy-history-empty')!.textContent).to.equal('No recorded session matches.');
        view.render({ records: [], projects: [], text: '' });
        expect(root.querySelector('.sandy-history-empty')!.textContent).to.match(/^No recorded sessions yet/);
    });

    it('Attack: a record whose project, workspace and agent carry markup is shown as text; nothing becomes an element', () => {
        const { root } = page();
        const view = new HistoryListView(root, { search: () => undefined, filter: () => undefined, open: () => undefined, relaunch: () => undefined, remove: () => undefined });
        const evil = '<img src=x onerror=alert(1)>';
        view.render({ records: [record('2026-12-01-evil', { project: evil, workspace: '/w/<script>alert(1)</script>' })], projects: [evil], text: '' });
        expect(root.querySelectorAll('img, script').length).to.equal(0);
        expect(root.querySelector('.sandy-history-project-name')!.textContent).to.equal(evil);
        expect([...root.querySelectorAll('option')].map(o => o.textContent)).to.include(evil);
    });
});

describe('HistoryViewer (unit, jsdom + headless xterm)', () => {
    it('its terminal takes no input, reports nothing about the window and keeps a long scrollback', () => {
        const { root } = page();
        const { seen } = headlessViewer(root);
        expect(seen.options).to.include({ disableStdin: true, scrollback: 50_000 });
        expect(HISTORY_TERMINAL_OPTIONS.windowOptions).to.deep.equal({});
    });

    it('draws with the user\'s terminal font, as the sandy tab does, and follows a change of it and of the colour theme; the host\'s fallback family only if it is a family list', () => {
        const { root } = page();
        const plain = headlessViewer(root);
        expect(plain.seen.options).to.include({ fontSize: DEFAULT_TERMINAL_FONT_SIZE, fontFamily: DEFAULT_TERMINAL_FONT_FAMILY, lineHeight: 1 });

        const user = { ...DEFAULT_TERMINAL_APPEARANCE, fontSize: 20, fontFamily: '"Fira Code", monospace', lineHeight: 1.2 };
        const { viewer, seen } = headlessViewer(page().root, { fontFamily: 'Editor Mono', appearance: user });
        expect(seen.options).to.include({ fontSize: 20, fontFamily: '"Fira Code", monospace', lineHeight: 1.2 });
        viewer.setAppearance({ ...DEFAULT_TERMINAL_APPEARANCE, fontSize: 16 });
        // What the user no longer sets falls back to the viewer's defaults (the host's editor font here).
        expect(seen.fonts).to.deep.equal([{ fontSize: 16, fontFamily: 'Editor Mono', lineHeight: 1 }]);
        viewer.setAppearance({ ...DEFAULT_TERMINAL_APPEARANCE, cursorStyle: 'bar', fontSize: 16 });
        expect(seen.fonts, 'no font change, nothing redrawn').to.have.length(1);

        viewer.setTheme({ background: '#ffffff' });
        expect(seen.themes, 'a new colour theme drawn').to.deep.equal([{ background: '#ffffff' }]);
        viewer.dispose();
        viewer.setTheme({ background: '#000000' });
        viewer.setAppearance({ ...DEFAULT_TERMINAL_APPEARANCE, fontSize: 30 });
        expect([seen.themes.length, seen.fonts.length], 'a closed viewer draws nothing more').to.deep.equal([1, 1]);

        // Attack: VS Code's editor font (a workspace's to set) that closes xterm's CSS rule is never given to xterm.
        const hostile = headlessViewer(page().root, { fontFamily: 'x; } .xterm-rows { font-size: 3px } .y {' });
        expect(hostile.seen.options).to.include({ fontFamily: DEFAULT_TERMINAL_FONT_FAMILY });
        hostile.viewer.setAppearance({ ...DEFAULT_TERMINAL_APPEARANCE, fontSize: 18 });
        expect(hostile.seen.fonts).to.deep.equal([{ fontSize: 18, fontFamily: DEFAULT_TERMINAL_FONT_FAMILY, lineHeight: 1 }]);
    });

    it('the header says project · agent · started · ended · exit and what was dropped; pages are shown in order; Relaunch asks the host', async () => {
        const { root } = page();
        const { viewer, seen, terminal } = headlessViewer(root);
        viewer.setRecord(record('2026-12-01-alpha', { truncated: true, dropped: 4096 }));
        expect([...root.querySelectorAll('.sandy-history-viewer-part')].map(p => p.textContent)).to.deep.equal(
            ['alpha', 'claude', 'started 2026-12-01 09:05', 'ended 2026-12-01 09:08', 'exit 0']);
        const notes = root.querySelector<HTMLElement>('.sandy-history-viewer-notes')!;
        expect(notes.hidden).to.equal(false);
        expect(notes.textContent).to.include('most recent part').and.include('4.0 KiB of output were not recorded');
        await viewer.write('\x1b[31mfirst\x1b[0m line\r\n');
        await viewer.write('second line\r\n');
        viewer.done({ cut: 64 * 1024 * 1024 });
        expect(notes.textContent).to.include('Only the first 64 MiB are shown here.');
        const line = (y: number) => terminal().buffer.active.getLine(y)!.translateToString(true);
        expect([line(0), line(1)]).to.deep.equal(['first line', 'second line']);
        root.querySelector<HTMLButtonElement>('.sandy-history-relaunch')!.click();
        expect(seen.relaunches).to.equal(1);
        root.querySelector<HTMLButtonElement>('.sandy-history-copy-all')!.click();
        expect(seen.copies).to.deep.equal(['first line\nsecond line']);
    });

    it('Attack: a recorded session with OSC 52, OSC 9/777/99, OSC 8 links, a title, DSR/DA queries and a bell, opened in the viewer, writes no clipboard, notifies nothing, sets no title and sends nothing anywhere', async () => {
        const hostile = [
            'before\r\n',
            '\x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\x07',
            '\x1b]9;You have been pwned\x07',
            '\x1b]777;notify;pwned;body\x1b\\',
            '\x1b]99;;pwned\x1b\\',
            '\x1b]8;;javascript:alert(1)\x07click me\x1b]8;;\x07',
            '\x1b]0;evil title\x07\x1b]2;evil title 2\x07',
            '\x1b[6n\x1b[c\x1b[>c\x1b[5n\x1b]10;?\x07\x1b]11;?\x07\x1b]4;1;?\x07\x1b[14t\x1b[18t',
            '\x07\x9d52;c;ZXZpbA==\x9c',
            'after\r\n'
        ].join('');
        // As the backend sends it (displayTranscript) and, as the second guard's proof, raw.
        for (const text of [displayTranscript(hostile), hostile]) {
            const { root } = page();
            const { viewer, seen, terminal } = headlessViewer(root);
            const rec = record('2026-12-01-evil', { project: '<img src=x onerror=alert(1)>' });
            await loadHistoryTranscript({ readHistory: async () => ({ record: rec, text, offset: 0, size: text.length }) }, rec.id, {
                record: r => viewer.setRecord(r), write: t => viewer.write(t), done: r => viewer.done(r)
            });
            expect(seen.copies, 'no clipboard write').to.deep.equal([]);
            expect(seen.titles, 'no title').to.deep.equal([]);
            expect(seen.data, 'no reply to any query, nothing typed').to.deep.equal([]);
            expect(seen.relaunches).to.equal(0);
            const all = Array.from({ length: terminal().buffer.active.length }, (_, y) => terminal().buffer.active.getLine(y)!.translateToString(true)).join('\n');
            expect(all).to.include('before').and.include('after');
            expect(all).to.not.include('pwned').and.not.include('evil');
            expect(root.querySelectorAll('img, script, a').length).to.equal(0);
            expect(root.querySelector('.sandy-history-viewer-part-0')!.textContent).to.equal('<img src=x onerror=alert(1)>');
            viewer.dispose();
        }
    });

    it('a TUI on the alternate screen is kept on the normal one: leaving it wipes nothing, and what scrolled is in the scrollback', async () => {
        const { root } = page();
        const { viewer, terminal } = headlessViewer(root);
        await viewer.write('shell line\r\n\x1b[?1049h\x1b[H\x1b[2Jtui-screen-word\r\n');
        for (let i = 0; i < 40; i++) {
            await viewer.write(`tui ${i}\r\n`);
        }
        await viewer.write('\x1b[?1049l\x1b[?25;1049hstill\r\n');
        expect(terminal().buffer.active.type).to.equal('normal');
        const all = Array.from({ length: terminal().buffer.active.length }, (_, y) => terminal().buffer.active.getLine(y)!.translateToString(true));
        expect(all).to.include('tui-screen-word').and.include('tui 39').and.include('still');
    });

    it('Ctrl+C copies the selection through the host (only with a selection); Copy with nothing selected copies nothing', () => {
        const { root } = page();
        let handler: ((e: KeyboardEvent) => boolean) | undefined;
        let selection = '';
        const copies: string[] = [];
        const fake = {
            parser: { registerOscHandler: () => ({ dispose: () => undefined }), registerCsiHandler: () => ({ dispose: () => undefined }) },
            buffer: { active: { length: 0, getLine: () => undefined } },
            write: (_d: string, cb?: () => void) => cb?.(),
            getSelection: () => selection,
            hasSelection: () => selection !== '',
            attachCustomKeyEventHandler: (h: (e: KeyboardEvent) => boolean) => { handler = h; },
            reset: () => undefined,
            dispose: () => undefined
        };
        const viewer = new HistoryViewer(root, { copy: t => copies.push(t), relaunch: () => undefined }, () => ({ terminal: fake }));
        const key = (init: Partial<KeyboardEvent>) => ({ type: 'keydown', key: 'c', ctrlKey: false, metaKey: false, altKey: false, ...init }) as KeyboardEvent;
        expect(handler!(key({ ctrlKey: true }))).to.equal(true);
        viewer.copySelection();
        expect(copies).to.deep.equal([]);
        selection = 'picked text';
        expect(handler!(key({ ctrlKey: true }))).to.equal(false);
        expect(handler!(key({ metaKey: true }))).to.equal(false);
        expect(handler!(key({}))).to.equal(true);
        root.querySelector<HTMLButtonElement>('.sandy-history-copy')!.click();
        expect(copies).to.deep.equal(['picked text', 'picked text', 'picked text']);
    });
});
