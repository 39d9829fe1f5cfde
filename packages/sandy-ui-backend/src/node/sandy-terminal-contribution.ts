import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core';
import { MessagingService } from '@theia/core/lib/node/messaging/messaging-service';
import type { Channel } from '@theia/core/lib/common/message-rpc/channel';
import { HeldInput, OutputBatcher } from '@sandy-ui/core/common';
import type { SessionAttachment } from '@sandy-ui/core/node';
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
            void this.open(String(params.id), channel);
        });
    }

    /**
     * One view on a session. After a restart the view's channel comes back before sessions that
     * outlived the last backend are known: wait for their discovery (bounded), then attach.
     */
    protected async open(id: string, channel: Channel): Promise<void> {
        let closed = false;
        let attachment: SessionAttachment | undefined = undefined;
        // Keys the view sends while this attaches (it shows the screen already) reach the session once it has.
        const input = HeldInput.logging(line => this.logger.warn(line));
        channel.onClose(() => {
            closed = true;
            input.dispose();
        });
        channel.onMessage(provider => {
            const buffer = provider();
            const kind = buffer.readUint8();
            if (kind === TerminalFrame.Data) {
                input.write(buffer.readString());
            } else if (kind === TerminalFrame.Ack) {
                attachment?.acknowledge(buffer.readNumber());
            }
        });
        const core = this.backend.core;
        await core.whenDiscovered();
        const supervisor = core.supervisor;
        if (closed) {
            return;
        }
        if (!supervisor.get(id)) {
            this.logger.warn(`sandy: a view asked for unknown session ${id}`);
            channel.close();
            return;
        }
        const attached = await supervisor.attach(id);
        if (closed) {
            attached.dispose();
            return;
        }
        attachment = attached;
        channel.getWriteBuffer().writeUint8(TerminalFrame.Replay).writeString(attachment.replay).commit();
        const batcher = new OutputBatcher(chunk => channel.getWriteBuffer().writeUint8(TerminalFrame.Data).writeString(chunk).commit());
        attachment.onData(data => batcher.push(data));
        attachment.onExit(info => {
            batcher.flush();
            channel.getWriteBuffer().writeUint8(TerminalFrame.Exit).writeString(JSON.stringify(info)).commit();
        });
        const exited = supervisor.get(id);
        if (exited?.status === 'exited') {
            channel.getWriteBuffer().writeUint8(TerminalFrame.Exit).writeString(JSON.stringify(exited)).commit();
        }
        input.open(data => attached.write(data));
        channel.onClose(() => {
            batcher.dispose();
            attached.dispose();
        });
    }
}
