import { EventLike, SimpleEmitter } from '../base/event';
import type { TerminalSize } from './terminal-session';

/**
 * The size the sandy tabs of each area of a window last measured ("main", "bottom" in Theia; an
 * editor column in VS Code), one per window. A tab opened and covered by the next one before it was
 * laid out (ten clicks down the Projects list) cannot measure itself while hidden; it launches at the
 * size its area's tabs have (the same area, the same font: the tab's own size, never a default one),
 * and once shown it fits and resizes the PTY as any tab does. A tab whose area has measured nothing yet
 * launches as soon as one of its tabs does ({@link onDidMeasure}).
 */
export class AreaSizes {
    protected readonly sizes = new Map<string, TerminalSize>();
    protected readonly onDidMeasureEmitter = new SimpleEmitter<string>();
    /** A tab of this area measured its size. */
    readonly onDidMeasure: EventLike<string> = this.onDidMeasureEmitter.event;

    note(area: string, size: TerminalSize): void {
        const before = this.sizes.get(area);
        this.sizes.set(area, { cols: size.cols, rows: size.rows });
        if (!before) {
            this.onDidMeasureEmitter.fire(area);
        }
    }

    get(area: string): TerminalSize | undefined {
        const size = this.sizes.get(area);
        return size && { ...size };
    }

    dispose(): void {
        this.onDidMeasureEmitter.dispose();
    }
}
