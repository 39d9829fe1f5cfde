import { Messenger, MessageSet, Protocol } from '@sandy-ui/core/common';

/** The webview side of a feature's protocol: core's messenger over the page's VS Code API. */

interface VsCodeApi {
    postMessage(message: unknown): void;
    getState(): unknown;
    setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** acquireVsCodeApi may be called once per page. */
const api: VsCodeApi = acquireVsCodeApi();

/**
 * The page's end of `protocol`: typed notifications and requests to the host, every message from it
 * parsed before a handler sees it. Refusals go to the page's console (the webview's developer tools).
 */
export function webviewMessenger<H extends MessageSet, V extends MessageSet>(protocol: Protocol<H, V>): Messenger<H, V> {
    const messenger = Messenger.forView(protocol, { post: message => api.postMessage(message) }, {
        // eslint-disable-next-line no-console
        log: text => console.warn(text)
    });
    window.addEventListener('message', event => messenger.receive(event.data));
    return messenger;
}

/** The page's saved state: it survives hiding the tab and a reload of the page. */
export const webviewState = {
    get: (): unknown => api.getState(),
    set: (state: unknown): void => api.setState(state)
};

/**
 * The page's CSP allows style elements only from the extension and with this page's nonce. Where a
 * browser lacks constructed stylesheets, xterm's DOM renderer adds `<style>` elements at run time
 * (xtermjs/xterm.js#4445); give them the nonce so the CSP needs no 'unsafe-inline' for elements.
 * The nonce is the one the host put on our own <script> tag.
 */
export function propagateStyleNonce(): void {
    const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce
        ?? document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce;
    if (!nonce) {
        return;
    }
    const create = document.createElement.bind(document) as (tag: string, options?: ElementCreationOptions) => HTMLElement;
    document.createElement = ((tag: string, options?: ElementCreationOptions) => {
        const element = create(tag, options);
        if (tag.toLowerCase() === 'style') {
            element.setAttribute('nonce', nonce);
        }
        return element;
    }) as typeof document.createElement;
}
