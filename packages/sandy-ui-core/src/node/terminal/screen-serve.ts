import { ScreenEngine } from './screen-engine';
import type { ScreenEvent, ScreenPort, ScreenRequest } from './screen-protocol';

interface Served {
    engine: ScreenEngine;
    /** The last chunk parsed, and the characters parsed since the owner was last told. */
    seq: number;
    chars: number;
}

/**
 * Runs the screens a {@link ScreenThread} opens: each an engine (screen-engine.ts) fed in the order its
 * requests came. What was parsed is told at most once per turn of this thread's loop (xterm parses many
 * chunks per turn), and always before an answer.
 */
export function serveScreens(port: ScreenPort<ScreenRequest, ScreenEvent>): void {
    const screens = new Map<number, Served>();
    const due = new Set<number>();
    let flushQueued = false;
    const tell = (id: number) => {
        const s = screens.get(id);
        if (s && due.delete(id)) {
            port.postMessage({ op: 'parsed', id, seq: s.seq, chars: s.chars, alternate: s.engine.alternate });
            s.chars = 0;
        }
    };
    const flush = () => {
        flushQueued = false;
        for (const id of [...due]) {
            tell(id);
        }
    };
    const answer = (m: { id: number; req: number }, value: Promise<unknown>) => {
        void value.then(v => v, () => undefined).then(v => {
            tell(m.id);
            port.postMessage({ op: 'reply', id: m.id, req: m.req, value: v });
        });
    };
    /**
     * One screen's engine failed (xterm throws on some input, e.g. more than 50 MB waiting to be parsed):
     * that screen is dropped and its owner told; every other screen, and the worker, go on.
     */
    const fail = (id: number, e: unknown) => {
        const s = screens.get(id);
        screens.delete(id);
        due.delete(id);
        try {
            s?.engine.dispose();
        } catch {
            // It is gone either way.
        }
        port.postMessage({ op: 'lost', id, reason: e instanceof Error ? e.message : String(e) });
    };
    port.on('message', (m: ScreenRequest) => {
        try {
            handle(m);
        } catch (e) {
            fail(m.id, e);
        }
    });
    const handle = (m: ScreenRequest) => {
        const s = screens.get(m.id);
        switch (m.op) {
            case 'open': {
                if (s) {
                    return;
                }
                const served: Served = { seq: 0, chars: 0, engine: undefined! };
                served.engine = new ScreenEngine(m.cols, m.rows, {
                    notify: notification => port.postMessage({ op: 'notify', id: m.id, notification }),
                    parsed: (seq, chars) => {
                        served.seq = seq;
                        served.chars += chars;
                        due.add(m.id);
                        if (!flushQueued) {
                            flushQueued = true;
                            setImmediate(flush);
                        }
                    }
                }, m.seq);
                screens.set(m.id, served);
                return;
            }
            case 'write':
                s?.engine.write(m.seq, m.data);
                return;
            case 'resize':
                s?.engine.resize(m.cols, m.rows);
                return;
            case 'reset':
                s?.engine.reset();
                return;
            case 'close':
                s?.engine.dispose();
                screens.delete(m.id);
                due.delete(m.id);
                return;
            case 'frame':
                answer(m, s ? s.engine.frame(m.notBefore, m.carriedFrom) : Promise.resolve(undefined));
                return;
            case 'serialize':
                answer(m, s ? s.engine.serialize() : Promise.resolve(''));
                return;
            case 'text':
                answer(m, s ? s.engine.visibleText(m.maxRows) : Promise.resolve(undefined));
                return;
            case 'panes':
                answer(m, s ? s.engine.panes(m.agents) : Promise.resolve(undefined));
                return;
        }
    };
}
