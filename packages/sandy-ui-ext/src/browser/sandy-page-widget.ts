import { ApplicationShell, BaseWidget, Message, WidgetManager } from '@theia/core/lib/browser';
import type { DisposableLike } from '@sandy-ui/core/common';

/** What a page's core controller is told (the dashboard's, the history's): whether the user can see it. */
export interface VisibleController extends DisposableLike {
    setVisible(visible: boolean): void;
}

/** What a page's core view does for its widget. */
export interface FocusableView {
    focus(): void;
}

/**
 * A main-area page around a core view and its controller (the dashboard, the history list): the
 * controller hears whether the page can be seen — its tab shown and the browser page not hidden —
 * so it asks the backend only then; activating the tab focuses the view.
 */
export abstract class SandyPageWidget extends BaseWidget {
    protected abstract readonly pageController: VisibleController;
    protected abstract readonly pageView: FocusableView;

    /** Call once the controller exists: it is told of the browser page's visibility from now on, and disposed with the widget. */
    protected watchPage(): void {
        const onPageVisibility = (): void => this.syncVisible();
        document.addEventListener('visibilitychange', onPageVisibility);
        this.toDispose.push({ dispose: () => document.removeEventListener('visibilitychange', onPageVisibility) });
        this.toDispose.push(this.pageController);
    }

    protected syncVisible(): void {
        this.pageController.setVisible(this.isVisible && !this.isDisposed && document.visibilityState !== 'hidden');
    }

    protected override onAfterShow(msg: Message): void {
        super.onAfterShow(msg);
        this.syncVisible();
    }

    protected override onAfterHide(msg: Message): void {
        super.onAfterHide(msg);
        this.syncVisible();
    }

    protected override onAfterAttach(msg: Message): void {
        super.onAfterAttach(msg);
        this.syncVisible();
    }

    protected override onBeforeDetach(msg: Message): void {
        this.pageController.setVisible(false);
        super.onBeforeDetach(msg);
    }

    protected override onActivateRequest(msg: Message): void {
        super.onActivateRequest(msg);
        this.pageView.focus();
    }
}

/** Opens (or reveals) the window's one tab of a page widget. */
export async function openPageWidget(widgets: WidgetManager, shell: ApplicationShell, factoryId: string): Promise<void> {
    const widget = await widgets.getOrCreateWidget(factoryId);
    if (!widget.isAttached) {
        await shell.addWidget(widget, { area: 'main' });
    }
    await shell.activateWidget(widget.id);
}
