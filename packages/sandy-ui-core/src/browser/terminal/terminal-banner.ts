/**
 * The line above sandy's terminal that says why nothing runs (ended, not launched, refused) or
 * how a daemon session is shown (starting, attached in another terminal), with its one button
 * (Relaunch, Take Back, Attach, Stop: the label comes from the controller). One implementation for
 * the Theia tab and the VS Code webview.
 */
import { DomFactory, domBuilder } from '../dom';

export class TerminalBanner {
    readonly node: HTMLElement;
    protected readonly h: DomFactory;

    constructor(protected readonly doc: Document, protected readonly onAction: () => void, protected readonly buttonClass = '') {
        this.h = domBuilder(doc);
        this.node = this.h('div', { class: 'sandy-terminal-banner', hidden: true });
    }

    /** undefined hides the banner. The text is shown as text, never markup; `action` labels its button. */
    show(text: string | undefined, action?: string): void {
        this.node.hidden = !text;
        if (!text) {
            this.node.replaceChildren();
            return;
        }
        this.node.replaceChildren(this.h('span', null, text));
        if (action) {
            // `sandy-relaunch` names the button for tests and styles whatever its label.
            this.node.append(this.h('button', { class: [this.buttonClass, 'sandy-relaunch'], on: { click: () => this.onAction() } }, action));
        }
    }
}
