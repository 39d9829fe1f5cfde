import { injectable, postConstruct } from '@theia/core/shared/inversify';
import type { SystemNotifications } from '@sandy-ui/core/common';

interface Shown {
    notification: Notification;
    settle(clicked: boolean): void;
}

/**
 * The desktop's notifications through the Web Notification API: in the Sandy IDE's desktop app
 * (Electron shows them as the operating system's own, allowed by default) and in a browser once the
 * user allowed notifications for the IDE's page. Core's TerminalTabs decides when one is shown (while
 * this window has no focus, once per session until it has it again, within the user's settings) and
 * with what text; this only shows it. At most one is kept per tag (the session's), and the window's
 * focus coming back takes them all off the desktop: the user is back where the toasts are.
 */
@injectable()
export class SandySystemNotifications implements Pick<SystemNotifications, 'show' | 'windowFocused'> {
    protected readonly shown = new Map<string, Shown>();

    @postConstruct()
    protected init(): void {
        window.addEventListener('focus', () => {
            for (const tag of [...this.shown.keys()]) {
                this.settle(tag, false);
            }
        });
    }

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
        this.settle(tag, false);
        return new Promise<boolean>(resolve => {
            const notification = new api(title, { body, tag });
            const entry: Shown = {
                notification,
                settle: clicked => {
                    if (this.shown.get(tag) === entry) {
                        this.shown.delete(tag);
                    }
                    notification.onclick = notification.onclose = notification.onerror = null;
                    resolve(clicked);
                }
            };
            this.shown.set(tag, entry);
            notification.onclick = () => {
                entry.settle(true);
                window.focus();
                notification.close();
            };
            notification.onclose = () => entry.settle(false);
            notification.onerror = () => entry.settle(false);
        });
    }

    /** Takes the tag's notification off the desktop (it resolves as not clicked). */
    protected settle(tag: string, clicked: boolean): void {
        const entry = this.shown.get(tag);
        if (entry) {
            entry.settle(clicked);
            entry.notification.close();
        }
    }
}
