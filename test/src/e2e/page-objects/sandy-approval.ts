import type { Locator } from 'playwright-core';
import { PageContext } from './theia-widgets';

/** One privileged line as the approval view shows it. */
export interface ShownApprovalLine {
    /** `data-key` of the row. */
    key: string;
    /** `.sandy/config` or `.sandy/.secrets`, from the row's location label. */
    file: string;
    /** 1-based line number, from the row's location label. */
    line: number;
    /** textContent of the row's `.sandy-approval-pre`. */
    text: string;
    /** The row offers Reveal (a masked secret). */
    masked: boolean;
    /** The change label (`new`, `value changed`, ...). */
    change: string;
}

/** How a `.sandy-approval-pre` is laid out (read in the page). */
export interface PreLayout {
    whiteSpace: string;
    overflowX: string;
    textOverflow: string;
    scrollWidth: number;
    clientWidth: number;
    /** Width of the text itself (a Range over the pre's contents). */
    textWidth: number;
    /** Line boxes of the text: 1 when nothing wrapped. */
    lineBoxes: number;
}

export type ApprovalButton = 'approve' | 'reject' | 'open-settings' | 'rebuild' | 'launch-anyway';

/**
 * The pre-flight approval editor tab ("Approve: <project>", widget id `sandy-approval:<workspace>`),
 * hosting core's ApprovalView: one `[data-key]` row per privileged line with its `.sandy-approval-pre`,
 * refusals, and the decision buttons.
 */
export class SandyApprovalView {
    readonly widget: Locator;
    readonly tab: Locator;

    constructor(protected readonly ctx: PageContext, readonly workspace: string) {
        const id = `sandy-approval:${workspace}`;
        this.widget = ctx.page.locator(`.sandy-approval-widget[id="${id}"]`);
        this.tab = ctx.page.locator(`#theia-main-content-panel .lm-TabBar-tab[id="shell-tab-${id}"]`);
    }

    /** Waits until the view is shown (its decision buttons rendered) and returns it. */
    async waitForOpen(message = 'the approval view to open'): Promise<this> {
        await this.ctx.poll(async () => await this.widget.isVisible() && await this.widget.locator('.sandy-approval-actions button').count() > 0, message);
        return this;
    }

    async waitForClosed(): Promise<void> {
        await this.ctx.poll(async () => !await this.widget.isVisible() && !await this.tab.isVisible(), 'the approval view to close');
    }

    isOpen(): Promise<boolean> {
        return this.widget.isVisible();
    }

    /** The tab's label, e.g. `Approve: e2e-proj`. */
    async tabTitle(): Promise<string> {
        return ((await this.tab.locator('.lm-TabBar-tabLabel').textContent()) ?? '').trim();
    }

    async heading(): Promise<string> {
        return ((await this.widget.locator('.sandy-approval-title').textContent()) ?? '').trim();
    }

    /** The Dockerfile as shown (textContent of its `<pre>`), or undefined when the view shows none. */
    async dockerfileText(): Promise<string | undefined> {
        const pre = this.widget.locator('.sandy-approval-dockerfile-text');
        return await pre.count() ? (await pre.textContent()) ?? '' : undefined;
    }

    /** The "what changed" lines of the Dockerfile (`+ …` / `- …`), or [] when none is shown. */
    async dockerfileChanges(): Promise<string[]> {
        return this.widget.locator('.sandy-approval-diff-added, .sandy-approval-diff-removed').allTextContents().then(t => t.map(l => l.replace(/\n$/, '')));
    }

    /** The build-context files listed beside the Dockerfile. */
    contextFiles(): Promise<string[]> {
        return this.widget.locator('.sandy-approval-context-files li').allTextContents();
    }

    /** The escaping symlinks shown (`link -> target`), or [] when none. */
    async symlinks(): Promise<string[]> {
        const pre = this.widget.locator('.sandy-approval-symlink-list');
        return await pre.count() ? ((await pre.textContent()) ?? '').split('\n') : [];
    }

    /** The rows of privileged lines (`[data-key]`), in the order shown. */
    get rows(): Locator {
        return this.widget.locator('.sandy-approval-line[data-key]');
    }

    row(key: string): Locator {
        return this.widget.locator(`.sandy-approval-line[data-key="${key}"]`);
    }

    get pres(): Locator {
        return this.widget.locator('.sandy-approval-pre');
    }

    /** Every shown line, read from the DOM in one go. */
    async lines(): Promise<ShownApprovalLine[]> {
        return this.rows.evaluateAll(rows => rows.map(row => {
            const location = row.querySelector('.sandy-approval-location')?.textContent ?? '';
            const m = /^(.*) line (\d+)$/.exec(location);
            return {
                key: (row as HTMLElement).dataset.key ?? '',
                file: m ? m[1] : location,
                line: m ? Number(m[2]) : NaN,
                text: row.querySelector('.sandy-approval-pre')?.textContent ?? '',
                masked: !!row.querySelector('.sandy-approval-reveal'),
                change: row.querySelector('.sandy-approval-change')?.textContent ?? ''
            };
        }));
    }

    /** Computed style and geometry of every `.sandy-approval-pre`, in order. */
    async preLayouts(): Promise<PreLayout[]> {
        return this.pres.evaluateAll(pres => pres.map(pre => {
            const style = getComputedStyle(pre);
            const range = document.createRange();
            range.selectNodeContents(pre);
            // One rect per line box for a text node; an empty pre has none.
            const rects = Array.from(range.getClientRects());
            const tops = new Set(rects.map(r => Math.round(r.top)));
            return {
                whiteSpace: style.whiteSpace,
                overflowX: style.overflowX,
                textOverflow: style.textOverflow,
                scrollWidth: pre.scrollWidth,
                clientWidth: pre.clientWidth,
                textWidth: range.getBoundingClientRect().width,
                lineBoxes: tops.size
            };
        }));
    }

    /** Elements in the view whose tag is one of `tags` (markup that leaked out of file content). */
    async elementsNamed(...tags: string[]): Promise<string[]> {
        return this.widget.evaluate((node, names) => names.flatMap(t => Array.from(node.getElementsByTagName(t)).map(e => e.outerHTML)), tags);
    }

    /** Clicks Reveal / Hide on a masked row and waits for the button to flip. */
    async toggleReveal(key: string): Promise<void> {
        const button = this.row(key).locator('.sandy-approval-reveal');
        const before = await button.getAttribute('aria-pressed');
        await button.click();
        await this.ctx.poll(async () => (await button.getAttribute('aria-pressed')) !== before, `Reveal/Hide of ${key} to take effect`);
    }

    async preText(key: string): Promise<string> {
        return (await this.row(key).locator('.sandy-approval-pre').textContent()) ?? '';
    }

    button(decision: ApprovalButton): Locator {
        return this.widget.locator(`.sandy-approval-actions button.sandy-approval-${decision}`);
    }

    /** data-decision of every button in the action bar, in order. */
    async buttons(): Promise<string[]> {
        return this.widget.locator('.sandy-approval-actions button').evaluateAll(bs => bs.map(b => (b as HTMLElement).dataset.decision ?? ''));
    }

    async decide(decision: ApprovalButton): Promise<void> {
        await this.button(decision).click();
    }

    /** The refusals shown (world-open LAN and the like): message and remediation. */
    async refusals(): Promise<{ message: string; remediation: string; role: string | null }[]> {
        return this.widget.locator('.sandy-approval-refusal').evaluateAll(items => items.map(item => ({
            message: item.querySelector('.sandy-approval-refusal-message')?.textContent ?? '',
            remediation: item.querySelector('.sandy-approval-remediation')?.textContent ?? '',
            role: item.closest('.sandy-approval-refusals')?.getAttribute('role') ?? null
        })));
    }
}
