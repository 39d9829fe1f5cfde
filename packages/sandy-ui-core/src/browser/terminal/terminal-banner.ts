/**
 * The line above sandy's terminal that says why nothing runs (ended, not launched, refused) and
 * offers Relaunch. One implementation for the Theia tab and the VS Code webview.
 */
export class TerminalBanner {
    readonly node: HTMLElement;

    constructor(protected readonly doc: Document, protected readonly onRelaunch: () => void, protected readonly buttonClass = '') {
        this.node = doc.createElement('div');
        this.node.className = 'sandy-terminal-banner';
        this.node.hidden = true;
    }

    /** undefined hides the banner. The text is shown as text, never markup. */
    show(text: string | undefined, offerRelaunch = false): void {
        this.node.textContent = '';
        this.node.hidden = !text;
        if (!text) {
            return;
        }
        const span = this.doc.createElement('span');
        span.textContent = text;
        this.node.appendChild(span);
        if (offerRelaunch) {
            const button = this.doc.createElement('button');
            button.className = `${this.buttonClass} sandy-relaunch`.trim();
            button.textContent = 'Relaunch';
            button.onclick = () => this.onRelaunch();
            this.node.appendChild(button);
        }
    }
}
