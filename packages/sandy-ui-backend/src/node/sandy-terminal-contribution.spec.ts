import { expect } from 'chai';
import { ForwardingChannel } from '@theia/core/lib/common/message-rpc/channel';
import { Uint8ArrayReadBuffer, Uint8ArrayWriteBuffer } from '@theia/core/lib/common/message-rpc/uint8-array-message-buffer';
import type { MessagingService } from '@theia/core/lib/node/messaging/messaging-service';
import { SimpleEmitter } from '@sandy-ui/core/common';
import type { SessionInfo } from '@sandy-ui/core/common';
import { TerminalFrame } from '../common/sandy-protocol';
import { SandyTerminalContribution } from './sandy-terminal-contribution';

/** Two ends of one channel, as Theia's multiplexer gives them: what one end commits, the other hears. */
function channelPair(): { view: ForwardingChannel; backend: ForwardingChannel } {
    const ends: { view?: ForwardingChannel; backend?: ForwardingChannel } = {};
    const writer = (to: () => ForwardingChannel) => () => {
        const buffer = new Uint8ArrayWriteBuffer();
        buffer.onCommit(bytes => to().onMessageEmitter.fire(() => new Uint8ArrayReadBuffer(bytes)));
        return buffer;
    };
    ends.view = new ForwardingChannel('view', () => ends.backend!.onCloseEmitter.fire({ reason: 'view closed' }), writer(() => ends.backend!));
    ends.backend = new ForwardingChannel('backend', () => ends.view!.onCloseEmitter.fire({ reason: 'backend closed' }), writer(() => ends.view!));
    return { view: ends.view, backend: ends.backend };
}

const tick = () => new Promise(resolve => setTimeout(resolve, 10));

describe('SandyTerminalContribution: a view\'s channel to its session (unit)', () => {
    let written: string[];
    let acked: number[];
    let disposed: boolean;
    let attached: () => void;
    let open: (id: string, channel: ForwardingChannel) => void;

    beforeEach(() => {
        written = [];
        acked = [];
        disposed = false;
        const serialised = new Promise<void>(resolve => attached = resolve);
        const info = { id: 's1', status: 'running' } as SessionInfo;
        const supervisor = {
            get: () => info,
            // The supervisor answers once the session's screen is serialised (its worker parsed what came).
            attach: async () => {
                await serialised;
                return {
                    replay: 'the screen', onData: new SimpleEmitter<string>().event, onExit: new SimpleEmitter<SessionInfo>().event,
                    write: (d: string) => written.push(d), acknowledge: (n: number) => acked.push(n), dispose: () => disposed = true
                };
            }
        };
        const contribution = new SandyTerminalContribution();
        Object.assign(contribution, {
            backend: { core: { whenDiscovered: async () => undefined, supervisor } },
            logger: { warn: () => undefined }
        });
        const service = {
            registerChannelHandler: (_path: string, handler: (params: Record<string, string>, channel: ForwardingChannel) => void) =>
                open = (id, channel) => handler({ id }, channel)
        } as unknown as MessagingService;
        contribution.configure(service);
    });

    function frames(channel: ForwardingChannel): Array<{ kind: number; text: string }> {
        const got: Array<{ kind: number; text: string }> = [];
        channel.onMessage(provider => {
            const buffer = provider();
            const kind = buffer.readUint8();
            got.push({ kind, text: buffer.readString() });
        });
        return got;
    }

    it('keys the view sends while it attaches reach the session once attached, in order; acknowledgements before it are dropped', async () => {
        const { view, backend } = channelPair();
        const toView = frames(view);
        open('s1', backend);
        view.getWriteBuffer().writeUint8(TerminalFrame.Data).writeString('echo after-').commit();
        view.getWriteBuffer().writeUint8(TerminalFrame.Ack).writeNumber(5).commit();
        view.getWriteBuffer().writeUint8(TerminalFrame.Data).writeString('reload\r').commit();
        await tick();
        expect(written, 'nothing before the attachment').to.deep.equal([]);
        attached();
        await tick();
        expect(toView).to.deep.equal([{ kind: TerminalFrame.Replay, text: 'the screen' }]);
        expect(written).to.deep.equal(['echo after-', 'reload\r']);
        expect(acked, 'an acknowledgement of a stream before this one').to.deep.equal([]);
        view.getWriteBuffer().writeUint8(TerminalFrame.Data).writeString('x').commit();
        view.getWriteBuffer().writeUint8(TerminalFrame.Ack).writeNumber(3).commit();
        expect(written).to.deep.equal(['echo after-', 'reload\r', 'x']);
        expect(acked).to.deep.equal([3]);
    });

    it('a view that closes while it attaches: what it typed goes nowhere, and the attachment is let go', async () => {
        const { view, backend } = channelPair();
        open('s1', backend);
        view.getWriteBuffer().writeUint8(TerminalFrame.Data).writeString('rm -rf x\r').commit();
        await tick(); // the attach is under way
        view.close();
        attached();
        await tick();
        expect(written).to.deep.equal([]);
        expect(disposed).to.equal(true);
    });
});
