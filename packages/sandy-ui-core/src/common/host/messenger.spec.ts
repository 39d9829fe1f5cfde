import { expect } from 'chai';
import { z } from 'zod';
import {
    arrayField, exactObject, intField, Messenger, MessengerError, messageSchema, messageSet, optionalField, parseMessage, Protocol,
    requestSpec, textField
} from './messenger';

const toHost = messageSet({
    notifications: { ready: {}, dirty: { dirty: z.boolean() } },
    requests: {
        add: requestSpec({ a: intField(0, 100), b: intField(0, 100) }, z.number()),
        echo: requestSpec({ text: textField(16) }, z.string(), 20),
        forever: requestSpec({}, z.void(), 0)
    }
});
const toView = messageSet({
    notifications: { show: { text: z.string() } },
    requests: { ask: requestSpec({ q: z.string() }, z.boolean()) }
});
const protocol: Protocol<typeof toHost, typeof toView> = { name: 'test', toHost, toView };

/** Two messengers wired back to back (each post is delivered later, as postMessage does), with their logs. */
function pair() {
    const hostLog: string[] = [];
    const viewLog: string[] = [];
    const toHostWire: unknown[] = [];
    const toViewWire: unknown[] = [];
    const host: Messenger<typeof toView, typeof toHost> = Messenger.forHost(protocol,
        { post: m => { toViewWire.push(m); queueMicrotask(() => view.receive(m)); } }, { log: t => hostLog.push(t) });
    const view: Messenger<typeof toHost, typeof toView> = Messenger.forView(protocol,
        { post: m => { toHostWire.push(m); queueMicrotask(() => host.receive(m)); } }, { log: t => viewLog.push(t) });
    return { host, view, hostLog, viewLog, toHostWire, toViewWire };
}

const tick = () => new Promise(resolve => setTimeout(resolve, 0));

describe('messenger: typed webview request/response over zod (unit)', () => {
    it('notifications reach their handler with the parsed params, in order', async () => {
        const { host, view, toHostWire } = pair();
        const seen: unknown[] = [];
        host.onNotification('ready', p => void seen.push(['ready', p]));
        host.onNotification('dirty', p => void seen.push(['dirty', p.dirty]));
        view.notify('ready');
        view.notify('dirty', { dirty: true });
        view.notify('dirty', { dirty: false });
        await tick();
        expect(seen).to.deep.equal([['ready', {}], ['dirty', true], ['dirty', false]]);
        expect(toHostWire[1]).to.deep.equal({ type: 'dirty', dirty: true });
    });

    it('a request gets its own reply, matched by id, even when answers come back out of order', async () => {
        const { host, view, toHostWire, toViewWire } = pair();
        const gates: Array<() => void> = [];
        host.onRequest('add', ({ a, b }) => new Promise<number>(resolve => gates.push(() => resolve(a + b))));
        const first = view.request('add', { a: 1, b: 2 });
        const second = view.request('add', { a: 10, b: 20 });
        await tick();
        gates[1]();
        gates[0]();
        expect(await Promise.all([first, second])).to.deep.equal([3, 30]);
        expect(toHostWire).to.deep.equal([{ type: 'add', a: 1, b: 2, requestId: 1 }, { type: 'add', a: 10, b: 20, requestId: 2 }]);
        expect(toViewWire).to.deep.equal([{ type: 'reply', requestId: 2, result: 30 }, { type: 'reply', requestId: 1, result: 3 }]);
        expect(view.pendingCount).to.equal(0);
    });

    it('a failing handler answers with its error (the requester rejects) and is logged, never thrown', async () => {
        const { host, view, hostLog } = pair();
        host.onRequest('add', () => { throw new Error('no adding today'); });
        host.onNotification('ready', () => { throw new Error('boom'); });
        view.notify('ready');
        const error = await view.request('add', { a: 1, b: 1 }).then(() => undefined, e => e);
        expect(error).to.be.instanceOf(MessengerError);
        expect(error.message).to.equal('no adding today');
        expect(error.reason).to.equal('remote');
        expect(hostLog).to.deep.equal(['test: ready failed: boom', 'test: add failed: no adding today']);
    });

    it('a request nobody answers here is refused with an error reply', async () => {
        const { view, hostLog } = pair();
        const error = await view.request('add', { a: 1, b: 1 }).then(() => undefined, e => e);
        expect(error?.message).to.equal('add is not answered here.');
        expect(hostLog).to.deep.equal(['test: no handler for add']);
    });

    it('an unanswered request times out (its own timeout; 0 waits), and a late reply is refused as unknown', async () => {
        const { host, view, viewLog } = pair();
        let answer: ((s: string) => void) | undefined;
        host.onRequest('echo', () => new Promise<string>(resolve => answer = resolve));
        host.onRequest('forever', () => new Promise<void>(() => undefined));
        const forever = view.request('forever', {});
        const error = await view.request('echo', { text: 'hi' }).then(() => undefined, e => e);
        expect(error).to.be.instanceOf(MessengerError);
        expect(error.reason).to.equal('timeout');
        expect(error.message).to.equal('No answer to echo within 1 s; try again.');
        expect(viewLog[0]).to.match(/echo \(request 2\) was not answered within 20 ms/);
        answer!('late');
        await tick();
        expect(viewLog[1]).to.equal('test: refused a reply to no pending request (2)');
        expect(view.pendingCount).to.equal(1);
        view.dispose();
        expect((await forever.then(() => undefined, e => e))?.reason).to.equal('disposed');
    });

    it('a reply that does not match the request\'s result schema rejects the request', async () => {
        const log: string[] = [];
        const posted: unknown[] = [];
        const view = Messenger.forView(protocol, { post: m => posted.push(m) }, { log: t => log.push(t) });
        const sum = view.request('add', { a: 1, b: 2 });
        view.receive({ type: 'reply', requestId: 1, result: '3' });
        const error = await sum.then(() => undefined, e => e);
        expect(error?.reason).to.equal('invalid');
        expect(log).to.deep.equal(['test: refused a reply: add result: Expected number, received string']);
    });

    it('refuses hostile messages and logs each: unknown types, wrong types, extra and prototype keys, huge strings, forged replies', async () => {
        const { host, hostLog } = pair();
        const handled: unknown[] = [];
        host.onNotification('ready', p => void handled.push(p));
        host.onNotification('dirty', p => void handled.push(p));
        host.onRequest('echo', p => { handled.push(p); return p.text; });
        const hostile: unknown[] = [
            undefined, null, 42, 'ready', [], [{ type: 'ready' }], {}, { type: 7 }, { type: 'exec', cmd: 'rm -rf /' },
            { type: 'toString' }, { type: '__proto__' }, { type: 'constructor' }, { type: 'hasOwnProperty' },
            { type: 'dirty', dirty: 'yes' }, { type: 'dirty' }, { type: 'dirty', dirty: true, evil: 1 },
            JSON.parse('{"type":"ready","__proto__":{"polluted":true}}'),
            JSON.parse('{"type":"dirty","dirty":true,"constructor":{"prototype":{"polluted":true}}}'),
            { type: 'echo', requestId: 1, text: 'x'.repeat(17) }, { type: 'echo', requestId: -1, text: 'x' },
            { type: 'echo', requestId: 1.5, text: 'x' }, { type: 'echo', requestId: '1', text: 'x' }, { type: 'echo', text: 'no id' },
            { type: 'echo', requestId: 1, text: { toString: () => 'x' } },
            { type: 'reply', requestId: 99, result: 'forged' }, { type: 'reply', requestId: 1, result: 1, extra: true },
            { type: 'reply', requestId: 1, error: 'e'.repeat(5000) }
        ];
        for (const m of hostile) {
            host.receive(m);
        }
        await tick();
        expect(handled, 'no handler ran').to.deep.equal([]);
        expect(hostLog).to.have.length(hostile.length);
        expect(hostLog.every(l => l.startsWith('test: refused a'))).to.equal(true);
        expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
        expect(hostLog).to.include('test: refused a message: message.evil: unexpected field');
        expect(hostLog).to.include('test: refused a message: message.__proto__: unexpected field');
        expect(hostLog).to.include('test: refused a message: message.type: unknown message type');
        expect(hostLog).to.include('test: refused a reply to no pending request (99)');
    });

    it('a getter that throws while parsing is refused, not thrown', () => {
        const log: string[] = [];
        const host = Messenger.forHost(protocol, { post: () => undefined }, { log: t => log.push(t) });
        const evil = { type: 'dirty', get dirty(): boolean { throw new Error('gotcha'); } };
        expect(() => host.receive(evil)).not.to.throw();
        expect(log).to.deep.equal(['test: refused a message: message: gotcha']);
    });

    it('after dispose nothing is handled or sent', async () => {
        const { host, view, toViewWire } = pair();
        const seen: unknown[] = [];
        host.onNotification('ready', () => void seen.push(1));
        host.dispose();
        view.notify('ready');
        host.notify('show', { text: 'x' });
        await tick();
        expect(seen).to.deep.equal([]);
        expect(toViewWire).to.deep.equal([]);
    });

    it('messageSet refuses the reserved reply type and a name used for both kinds', () => {
        expect(() => messageSet({ notifications: { reply: {} } })).to.throw(/reply/);
        expect(() => messageSet({ notifications: { a: {} }, requests: { a: requestSpec({}, z.void()) } })).to.throw(/"a"/);
    });
});

describe('message schema helpers (unit)', () => {
    const schema = messageSchema(messageSet({
        notifications: {
            list: { items: arrayField(exactObject({ key: textField(8, /^[A-Z]+$/), value: optionalField(z.string()) }), 3) },
            n: { n: intField(1, 10) }
        }
    }));

    it('parses a valid message; an absent or null optional is undefined', () => {
        const r = parseMessage(schema, { type: 'list', items: [{ key: 'A', value: 'x' }, { key: 'B' }, { key: 'C', value: null }] });
        expect(r).to.deep.equal({ ok: true, message: { type: 'list', items: [{ key: 'A', value: 'x' }, { key: 'B' }, { key: 'C', value: undefined }] } });
    });

    it('says where and why a message was refused', () => {
        expect(parseMessage(schema, { type: 'list', items: [{ key: 'A' }, { key: 'a' }] }))
            .to.deep.equal({ ok: false, error: 'message.items[1].key: has an unexpected format' });
        expect(parseMessage(schema, { type: 'list', items: [{ key: 'A'.repeat(9) }] }))
            .to.deep.equal({ ok: false, error: 'message.items[0].key: longer than 8 characters' });
        expect(parseMessage(schema, { type: 'n', n: 11 })).to.deep.equal({ ok: false, error: 'message.n: out of range [1, 10]' });
        for (const n of [0.5, Number.NaN, Number.POSITIVE_INFINITY, '5']) {
            expect(parseMessage(schema, { type: 'n', n }).ok, String(n)).to.equal(false);
        }
    });

    it('refuses an oversized array before looking at its items', () => {
        let reads = 0;
        const item = { get key(): string { reads++; return 'A'; } };
        const r = parseMessage(schema, { type: 'list', items: Array.from({ length: 100_000 }, () => item) });
        expect(r).to.deep.equal({ ok: false, error: 'message.items: more than 3 items' });
        expect(reads).to.equal(0);
        expect(parseMessage(schema, { type: 'list', items: { length: 1, 0: { key: 'A' } } }))
            .to.deep.equal({ ok: false, error: 'message.items: expected an array' });
    });
});
