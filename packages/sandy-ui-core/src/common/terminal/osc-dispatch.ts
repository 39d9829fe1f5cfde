import { HANDLED_OSC_IDENTS, OscEventParser, SWALLOWED_OSC_IDENTS } from './osc';

/** A notification raised by the session (OSC 9, 99 or 777, or a bell). */
export interface TerminalNotification {
    title?: string;
    body: string;
    source: 'osc9' | 'osc99' | 'osc777' | 'bell';
    /** Notifications the backend folded into this one (a flood crosses to the windows at most once a second). */
    folded?: number;
}

export interface OscSinks {
    notify(n: TerminalNotification): void;
    clipboard(text: string): void;
    /**
     * Whether an OSC 8 link with an allowed scheme (http, https, file) is offered as a link at all
     * (links.ts `isOfferedLink` with the session's workspace). Absent: every allowed scheme is.
     */
    acceptsLink?(uri: string): boolean;
}

/**
 * Routes the OSC payloads a terminal's parser hands us to side effects. Returns whether the
 * sequence is consumed: OSC 8 links we allow are left to xterm's own hyperlink support (it draws
 * and activates them through the view's link handler), links with other schemes are swallowed, and
 * so are the sequences the stream may not act on (titles, cwd, iTerm2's 1337).
 *
 * While {@link muted} (the replay of earlier output to a window that attaches), notifications and
 * clipboard writes are dropped: they happened already, in the windows that were there.
 */
export class OscDispatcher {
    static readonly IDENTS: readonly number[] = [...HANDLED_OSC_IDENTS, ...SWALLOWED_OSC_IDENTS];
    protected readonly parser = new OscEventParser();
    muted = false;

    constructor(protected readonly sinks: OscSinks) { }

    handle(ident: number, payload: string): boolean {
        if (SWALLOWED_OSC_IDENTS.includes(ident)) {
            return true;
        }
        const event = this.parser.parse(ident, payload);
        if (!event) {
            // Malformed: consume it (never print garbage). For OSC 8 that also means no link: xterm would
            // otherwise start one with whatever URI it found (a space or a control in it, say).
            return true;
        }
        switch (event.kind) {
            case 'notify':
                if (!this.muted) {
                    this.sinks.notify({ title: event.title, body: event.body, source: event.source });
                }
                return true;
            case 'clipboard':
                if (!this.muted) {
                    this.sinks.clipboard(event.text);
                }
                return true;
            case 'hyperlink':
                // Not offered (e.g. a file outside the workspace): swallowed, so the text is no link.
                return this.sinks.acceptsLink ? !this.acceptsLink(event.uri) : false;
            case 'hyperlink-end':
                return false;
            case 'ignored':
                return true;
        }
    }

    protected acceptsLink(uri: string): boolean {
        try {
            return this.sinks.acceptsLink!(uri);
        } catch {
            return false;
        }
    }
}
