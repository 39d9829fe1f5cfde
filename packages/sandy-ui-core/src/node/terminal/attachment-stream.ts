import { HeldInput } from '../../common/terminal/held-input';
import { OutputBatcher } from '../../common/terminal/output-batcher';
import type { SessionStream, SessionStreamSink } from '../../common/terminal/terminal-session';
import type { SessionInfo } from '../../common/session/session-types';
import type { SessionAttachment } from './hosted-session';

export interface AttachmentStreamOptions {
    /** Where a drop of held input is said (the host's log). */
    warn(line: string): void;
    /** The session as the supervisor has it now (one that ended before the view attached is said ended at once). */
    session(): SessionInfo | undefined;
}

/**
 * One view's stream on a session, as every host serves it (the plugin's panel in the extension host,
 * Theia's backend channel): `attach` gives the attachment (undefined: none, the stream stays empty);
 * the view gets the screen as its replay, then the live output batched, then how the session ended.
 * Keys the view sends before the attachment exists are held ({@link HeldInput}); acknowledgements before
 * it are for an earlier stream and dropped. Disposing it lets the attachment go, even one still coming.
 */
export function attachmentStream(attach: () => Promise<SessionAttachment | undefined>, sink: SessionStreamSink, options: AttachmentStreamOptions): SessionStream {
    const input = HeldInput.logging(options.warn);
    const batcher = new OutputBatcher(chunk => sink.data(chunk));
    let attachment: SessionAttachment | undefined;
    let disposed = false;
    void attach().then(a => {
        if (!a) {
            return;
        }
        if (disposed) {
            a.dispose();
            return;
        }
        attachment = a;
        sink.replay(a.replay);
        a.onData(data => batcher.push(data));
        a.onExit(info => {
            batcher.flush();
            sink.exit(info);
        });
        const now = options.session();
        if (now?.status === 'exited') {
            // What it wrote before it ended (held for this listener) goes first.
            batcher.flush();
            sink.exit(now);
        }
        input.open(data => a.write(data));
    }, () => undefined);
    return {
        write: data => input.write(data),
        acknowledge: chars => attachment?.acknowledge(chars),
        dispose: () => {
            if (!disposed) {
                disposed = true;
                input.dispose();
                batcher.dispose();
                attachment?.dispose();
            }
        }
    };
}
