import { OscEventParser } from './osc';

/** A notification raised by the session (OSC 9, 99 or 777). */
export interface TerminalNotification {
    title?: string;
    body: string;
    source: 'osc9' | 'osc99' | 'osc777';
}

export interface OscSinks {
    notify(n: TerminalNotification): void;
    clipboard(text: string): void;
}

/**
 * Routes the OSC payloads a terminal's parser hands us to side effects. Returns whether the
 * sequence is consumed: OSC 8 links we allow are left to xterm's own hyperlink support (it draws
 * and activates them through the view's link handler), links with other schemes are swallowed.
 */
export class OscDispatcher {
    static readonly IDENTS: readonly number[] = [8, 9, 52, 99, 777];
    protected readonly parser = new OscEventParser();

    constructor(protected readonly sinks: OscSinks) { }

    handle(ident: number, payload: string): boolean {
        const event = this.parser.parse(ident, payload);
        if (!event) {
            // Malformed: consume it (never print garbage), except OSC 8 which xterm may understand better.
            return ident !== 8;
        }
        switch (event.kind) {
            case 'notify':
                this.sinks.notify({ title: event.title, body: event.body, source: event.source });
                return true;
            case 'clipboard':
                this.sinks.clipboard(event.text);
                return true;
            case 'hyperlink':
            case 'hyperlink-end':
                return false;
            case 'ignored':
                return true;
        }
    }
}
