/**
 * Host-neutral events (like vscode-processutils' EventLike), so shared code needs neither Theia's
 * nor VS Code's Emitter. Both hosts' event types accept a listener and return a disposable.
 */
export interface DisposableLike {
    dispose(): void;
}

export type EventLike<T> = (listener: (e: T) => void) => DisposableLike;

export class SimpleEmitter<T> {
    protected listeners = new Set<(e: T) => void>();

    readonly event: EventLike<T> = listener => {
        this.listeners.add(listener);
        return { dispose: () => this.listeners.delete(listener) };
    };

    fire(e: T): void {
        for (const listener of [...this.listeners]) {
            try {
                listener(e);
            } catch {
                // A faulty listener must not stop the others (or the PTY pump calling us).
            }
        }
    }

    get hasListeners(): boolean {
        return this.listeners.size > 0;
    }

    dispose(): void {
        this.listeners.clear();
    }
}

/**
 * Which of a window's views show sandy state; reports only when "any visible" flips, which is all
 * the shared poller needs to know (its cadence follows whether anyone is looking).
 */
export class ViewVisibility {
    protected readonly visible = new Set<string>();

    constructor(protected readonly onDidChangeAny: (anyVisible: boolean) => void) { }

    /** Whether any of the views shows sandy state now. */
    get any(): boolean {
        return this.visible.size > 0;
    }

    set(viewId: string, visible: boolean): void {
        const before = this.visible.size > 0;
        if (visible) {
            this.visible.add(viewId);
        } else {
            this.visible.delete(viewId);
        }
        const after = this.visible.size > 0;
        if (before !== after) {
            this.onDidChangeAny(after);
        }
    }
}
