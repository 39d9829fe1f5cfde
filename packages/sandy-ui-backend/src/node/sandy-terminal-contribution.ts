import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core';
import { MessagingService } from '@theia/core/lib/node/messaging/messaging-service';
import type { Channel } from '@theia/core/lib/common/message-rpc/channel';
import { attachmentStream } from '@sandy-ui/core/node';
import { SANDY_TERMINAL_PATH, TerminalFrame } from '../common/sandy-protocol';
import { SandyBackend } from './sandy-backend';

/**
 * The raw channel of one session: output batched into frames, input and acknowledgements back.
 * Terminal bytes never travel as JSON-RPC messages (as Theia's own terminal channel).
 */
@injectable()
export class SandyTerminalContribution implements MessagingService.Contribution {
    @inject(SandyBackend) protected readonly backend: SandyBackend;
    @inject(ILogger) @named('sandy') protected readonly logger: ILogger;

    configure(service: MessagingService): void {
        service.registerChannelHandler(`${SANDY_TERMINAL_PATH}/:id`, (params, channel) => {
            this.open(String(params.id), channel);
        });
    }

    /**
     * One view on a session (core's attachmentStream over the channel). After a restart the view's channel
     * comes back before sessions that outlived the last backend are known: wait for their discovery
     * (bounded), then attach. The channel is listened to at once: keys sent meanwhile are held.
     */
    protected open(id: string, channel: Channel): void {
        let closed = false;
        const core = this.backend.core;
        const frame = (kind: TerminalFrame, text: string) => channel.getWriteBuffer().writeUint8(kind).writeString(text).commit();
        const stream = attachmentStream(async () => {
            await core.whenDiscovered();
            if (closed) {
                return undefined;
            }
            if (!core.supervisor.get(id)) {
                this.logger.warn(`sandy: a view asked for unknown session ${id}`);
                channel.close();
                return undefined;
            }
            return core.supervisor.attach(id);
        }, {
            replay: data => frame(TerminalFrame.Replay, data),
            data: chunk => frame(TerminalFrame.Data, chunk),
            exit: info => frame(TerminalFrame.Exit, JSON.stringify(info))
        }, {
            warn: line => this.logger.warn(line),
            session: () => core.supervisor.get(id)
        });
        channel.onMessage(provider => {
            const buffer = provider();
            const kind = buffer.readUint8();
            if (kind === TerminalFrame.Data) {
                stream.write(buffer.readString());
            } else if (kind === TerminalFrame.Ack) {
                stream.acknowledge(buffer.readNumber());
            }
        });
        channel.onClose(() => {
            closed = true;
            stream.dispose();
        });
    }
}
