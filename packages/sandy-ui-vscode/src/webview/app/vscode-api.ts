/** The webview side of a feature's protocol: typed posting and request/answer correlation. */

interface VsCodeApi {
    postMessage(message: unknown): void;
    getState(): unknown;
    setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** acquireVsCodeApi may be called once per page. */
const api: VsCodeApi = acquireVsCodeApi();

export interface WebviewChannel<ToHost, ToWebview> {
    post(message: ToHost): void;
    onMessage(handler: (message: ToWebview) => void): void;
    getState(): unknown;
    setState(state: unknown): void;
}

export function webviewChannel<ToHost, ToWebview>(): WebviewChannel<ToHost, ToWebview> {
    return {
        post: message => api.postMessage(message),
        onMessage: handler => window.addEventListener('message', event => {
            // Only the host posts to a webview; anything without our shape is ignored.
            const data = event.data as { type?: unknown } | undefined;
            if (data && typeof data.type === 'string') {
                handler(data as ToWebview);
            }
        }),
        getState: () => api.getState(),
        setState: state => api.setState(state)
    };
}

/** Calls that expect an answer carry a request id; the answer settles the matching promise. */
export class PendingRequests<T = unknown> {
    protected next = 1;
    protected readonly pending = new Map<number, (value: T) => void>();

    start(send: (requestId: number) => void): Promise<T> {
        const id = this.next++;
        return new Promise<T>(resolve => {
            this.pending.set(id, resolve);
            send(id);
        });
    }

    settle(requestId: number, value: T): void {
        const resolve = this.pending.get(requestId);
        this.pending.delete(requestId);
        resolve?.(value);
    }
}

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
