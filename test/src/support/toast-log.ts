/**
 * Every notification toast a workbench showed, counted in the test so that a page reload (the page's
 * own DOM forgets its toasts) does not reset the count: a MutationObserver, in each page of the
 * browser context (this page now, every page loaded later), reports each new toast once its message
 * is rendered. The Theia e2e page objects and the plugin's VS Code workbench each name their toasts'
 * selectors ({@link ToastSelectors}).
 */
import type { Page } from 'playwright-core';

/** Where a workbench renders its toasts. */
export interface ToastSelectors {
    /** One element per toast shown (the toasts only: a notification centre lists every notification again). */
    readonly toast: string;
    /** The message inside a toast. */
    readonly message: string;
}

/** The binding the pages report through (one ToastLog per browser context). */
const BINDING = '__sandyTestToast';

export class ToastLog {
    protected readonly messages: string[] = [];

    protected constructor() { }

    /** Starts recording in the page's context (this page now, every page loaded later). */
    static async install(page: Page, selectors: ToastSelectors): Promise<ToastLog> {
        const log = new ToastLog();
        const context = page.context();
        await context.exposeBinding(BINDING, (_source, message: string) => {
            log.messages.push(message);
        });
        // Runs in the page: everything it uses comes in as its argument.
        const observe = ({ binding, toast, message }: ToastSelectors & { binding: string }): void => {
            const w = window as unknown as Record<string, unknown>;
            const report = w[binding] as ((text: string) => Promise<void>) | undefined;
            if (w[`${binding}Observer`] || !report) {
                return; // observed already, or a frame the binding does not reach
            }
            w[`${binding}Observer`] = true;
            const seen = new WeakSet<Element>();
            const scan = (): void => {
                document.querySelectorAll(toast).forEach(item => {
                    const text = item.querySelector(message)?.textContent ?? '';
                    // Recorded once its message is rendered; a re-render of the same toast is not a new one.
                    if (!seen.has(item) && text) {
                        seen.add(item);
                        void report(text);
                    }
                });
            };
            // The document, not its root element: an init script runs before the root exists.
            new MutationObserver(scan).observe(document, { childList: true, subtree: true, characterData: true });
            scan();
        };
        const arg = { binding: BINDING, toast: selectors.toast, message: selectors.message };
        await context.addInitScript(observe, arg);
        await page.evaluate(observe, arg);
        return log;
    }

    /** The toasts shown so far whose message contains `text`. */
    count(text: string): number {
        return this.messages.filter(m => m.includes(text)).length;
    }

    get all(): readonly string[] {
        return this.messages;
    }
}
