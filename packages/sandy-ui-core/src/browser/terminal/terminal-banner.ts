/**
 * The line above sandy's terminal that says why nothing runs (ended, not launched, refused) and
 * offers Relaunch. One implementation for the Theia tab and the VS Code webview.
 */
import { DomFactory, domBuilder } from '../dom';
import { RELAUNCH_LABEL } from '../../common/host/labels';

export class TerminalBanner {
    readonly node: HTMLElement;
    protected readonly h: DomFactory;

    constructor(protected readonly doc: Document, protected readonly onRelaunch: () => void, protected readonly buttonClass = '') {
        this.h = domBuilder(doc);
        this.node = this.h('div', { class: 'sandy-terminal-banner', hidden: true });
    }

    /** undefined hides the banner. The text is shown as text, never markup. */
    show(text: string | undefined, offerRelaunch = false): void {
        this.node.hidden = !text;
        if (!text) {
            this.node.replaceChildren();
            return;
        }
        this.node.replaceChildren(this.h('span', null, text));
        if (offerRelaunch) {
            this.node.append(this.h('button', { class: [this.buttonClass, 'sandy-relaunch'], on: { click: () => this.onRelaunch() } }, RELAUNCH_LABEL));
        }
    }
}
