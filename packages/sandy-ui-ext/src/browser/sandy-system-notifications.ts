import { injectable } from '@theia/core/shared/inversify';
import type { SystemNotifications } from '@sandy-ui/core/common';

/**
 * The desktop's notifications through the Web Notification API: in the Sandy IDE's desktop app
 * (Electron shows them as the operating system's own, allowed by default) and in a browser once the
 * user allowed notifications for the IDE's page. Core's TerminalTabs decides when one is shown (while
 * this window has no focus, within the user's settings) and with what text; this only shows it.
 */
@injectable()
export class SandySystemNotifications implements Pick<SystemNotifications, 'show' | 'windowFocused'> {
    protected get api(): typeof Notification | undefined {
        return typeof window !== 'undefined' && 'Notification' in window ? window.Notification : undefined;
    }

    windowFocused(): boolean {
        return document.hasFocus();
    }

    /**
     * The browser's permission question, asked once, on a user's own action (a launch or an attach):
     * never at start, and never again once answered.
     */
    askOnce(): void {
        if (this.api?.permission === 'default') {
            this.api.requestPermission().catch(() => undefined);
        }
    }

    show({ title, body, tag }: { title: string; body: string; tag: string }): Promise<boolean> {
        const api = this.api;
        if (api?.permission !== 'granted') {
            return Promise.resolve(false);
        }
        return new Promise<boolean>(resolve => {
            const notification = new api(title, { body, tag });
            notification.onclick = () => {
                resolve(true);
                window.focus();
                notification.close();
            };
            notification.onclose = () => resolve(false);
            notification.onerror = () => resolve(false);
        });
    }
}
