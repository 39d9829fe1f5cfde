import { expect } from 'chai';
import { SimpleEmitter } from '../../common/base/event';
import type { SessionInfo } from '../../common/session/session-types';
import { attachmentStream } from './attachment-stream';
import type { SessionAttachment } from './hosted-session';

const tick = (ms = 0) => new Promise(resolve => setTimeout(resolve, ms));

/** An attachment the spec drives, answered when `attached()` is called. */
function world(exited?: SessionInfo, held?: string) {
    const said: string[] = [];
    const written: string[] = [];
    const acked: number[] = [];
    const data = new SimpleEmitter<string>();
    const exit = new SimpleEmitter<SessionInfo>();
    let disposed = false;
    let attached!: (a: SessionAttachment | undefined) => void;
    const attachment: SessionAttachment = {
        replay: 'SCREEN', onExit: exit.event,
        // (An attachment gives a new listener what came before it listened, at once.)
        onData: listener => {
            const subscription = data.event(listener);
            if (held) {
                listener(held);
            }
            return subscription;
        },
        write: d => written.push(d), acknowledge: n => acked.push(n), dispose: () => { disposed = true; }
    };
    const warnings: string[] = [];
    const stream = attachmentStream(() => new Promise(resolve => attached = resolve), {
        replay: d => said.push(`replay ${d}`), data: d => said.push(`data ${d}`), exit: i => said.push(`exit ${i.status}`)
    }, { warn: line => warnings.push(line), session: () => exited });
    return { stream, said, written, acked, data, exit, warnings, attach: () => attached(attachment), none: () => attached(undefined), get disposed() { return disposed; } };
}

describe('attachmentStream: a view\'s stream on a session, as both hosts serve it', () => {
    it('sends the replay first, then the output batched, then the exit after what came before it', async () => {
        const w = world();
        w.attach();
        await tick();
        w.data.fire('a');
        w.data.fire('b');
        expect(w.said).to.deep.equal(['replay SCREEN']);
        await tick(20);
        expect(w.said).to.deep.equal(['replay SCREEN', 'data ab']);
        w.data.fire('c');
        w.exit.fire({ status: 'exited' } as SessionInfo);
        expect(w.said).to.deep.equal(['replay SCREEN', 'data ab', 'data c', 'exit exited']);
    });

    it('holds keys sent before the attachment and gives them to it in order; drops acknowledgements before it', async () => {
        const w = world();
        w.stream.write('echo ');
        w.stream.acknowledge(100);
        w.stream.write('hi\r');
        await tick();
        w.attach();
        await tick();
        expect(w.written).to.deep.equal(['echo ', 'hi\r']);
        expect(w.acked).to.deep.equal([]);
        w.stream.write('x');
        w.stream.acknowledge(6);
        expect(w.written).to.deep.equal(['echo ', 'hi\r', 'x']);
        expect(w.acked).to.deep.equal([6]);
    });

    it('a stream disposed while it attaches lets the attachment go and sends nothing either way', async () => {
        const w = world();
        w.stream.write('rm -rf x\r');
        w.stream.dispose();
        w.attach();
        await tick();
        expect(w.disposed).to.equal(true);
        expect(w.written).to.deep.equal([]);
        expect(w.said).to.deep.equal([]);
    });

    it('a session that ended while the view attached: its replay, the output held for the view, then the exit', async () => {
        const w = world({ status: 'exited' } as SessionInfo, 'last lines\r\n');
        w.attach();
        await tick();
        expect(w.said).to.deep.equal(['replay SCREEN', 'data last lines\r\n', 'exit exited']);
    });

    it('no attachment (an unknown session): nothing is sent, and keys go nowhere', async () => {
        const w = world();
        w.stream.write('y\r');
        w.none();
        await tick();
        expect(w.said).to.deep.equal([]);
        expect(w.written).to.deep.equal([]);
        w.stream.dispose();
    });
});
