import type { Locator } from 'playwright-core';
import { PageContext } from './theia-widgets';

export type SettingsScope = 'project' | 'global';

/**
 * The settings editor tab (widget id `sandy-settings:<workspace>`, core's SandySettingsView): scope
 * tabs (`[data-scope]`), a filter, Save / Revert, a status line, and one `[data-key]` row per key of
 * the active scope.
 */
export class SandySettingsEditor {
    readonly widget: Locator;
    readonly tab: Locator;

    constructor(protected readonly ctx: PageContext, readonly workspace: string | undefined) {
        const id = `sandy-settings:${workspace ?? 'global'}`;
        this.widget = ctx.page.locator(`.sandy-settings-widget[id="${id}"]`);
        this.tab = ctx.page.locator(`#theia-main-content-panel .lm-TabBar-tab[id="shell-tab-${id}"]`);
    }

    /** Waits until the form has loaded (the scope tabs are rendered, no spinner). */
    async waitForLoaded(): Promise<this> {
        await this.ctx.poll(async () => await this.widget.isVisible()
            && await this.widget.locator('.sandy-settings-body').isVisible()
            && await this.widget.locator('.sandy-settings-panel [data-key]').count() > 0, 'the settings editor to load');
        return this;
    }

    async isCurrent(): Promise<boolean> {
        return /\blm-mod-current\b/.test((await this.tab.getAttribute('class')) ?? '');
    }

    scopeTab(scope: SettingsScope): Locator {
        return this.widget.locator(`.sandy-settings-tabs [role="tab"][data-scope="${scope}"]`);
    }

    async activeScope(): Promise<string | undefined> {
        return (await this.widget.locator('.sandy-settings-tabs [role="tab"][aria-selected="true"]').getAttribute('data-scope')) ?? undefined;
    }

    async selectScope(scope: SettingsScope): Promise<void> {
        await this.scopeTab(scope).click();
        await this.ctx.poll(async () => await this.activeScope() === scope, `the ${scope} scope tab to be selected`);
    }

    /** The scope tab shows its "unsaved changes" marker. */
    async scopeDirty(scope: SettingsScope): Promise<boolean> {
        return this.scopeTab(scope).locator('.sandy-settings-tab-dirty').isVisible();
    }

    field(key: string): Locator {
        return this.widget.locator(`.sandy-settings-panel [data-key="${key}"]`);
    }

    /** The value control of a text, number, path or secret field. */
    input(key: string): Locator {
        return this.field(key).locator('input.sandy-settings-input');
    }

    /** Types a value as a user would (select all, type), which fires the input events the form listens to. */
    async type(key: string, value: string): Promise<void> {
        const input = this.input(key);
        await input.click();
        await input.press('ControlOrMeta+a');
        if (value === '') {
            await input.press('Backspace');
        } else {
            await input.pressSequentially(value);
        }
    }

    async value(key: string): Promise<string> {
        return this.input(key).inputValue();
    }

    async isDirty(key: string): Promise<boolean> {
        return /\bsandy-settings-dirty\b/.test((await this.field(key).getAttribute('class')) ?? '');
    }

    async isInvalid(key: string): Promise<boolean> {
        return /\bsandy-settings-invalid\b/.test((await this.field(key).getAttribute('class')) ?? '');
    }

    /** The field's error text ('' when it has none). */
    async error(key: string): Promise<string> {
        const error = this.field(key).locator('.sandy-settings-error');
        return await error.isVisible() ? ((await error.textContent()) ?? '').trim() : '';
    }

    async badges(key: string): Promise<string[]> {
        return (await this.field(key).locator('.sandy-settings-badge').allTextContents()).map(t => t.trim());
    }

    get saveButton(): Locator {
        return this.widget.locator('button.sandy-settings-save');
    }

    get revertButton(): Locator {
        return this.widget.locator('button.sandy-settings-revert');
    }

    get filterInput(): Locator {
        return this.widget.locator('input.sandy-settings-filter');
    }

    /** The status line's paragraphs. */
    async status(): Promise<string[]> {
        return (await this.widget.locator('.sandy-settings-status p').allTextContents()).map(t => t.trim());
    }

    /** Clicks Save and waits for the verdict in the status line ("Saved …" or an error). */
    async save(): Promise<string[]> {
        // setStatus replaces the status paragraphs: mark the current ones to tell the new verdict from an old one.
        await this.widget.locator('.sandy-settings-status p').evaluateAll(ps => ps.forEach(p => p.setAttribute('data-e2e-old', '')));
        await this.saveButton.click();
        return this.ctx.poll(async () => {
            const fresh = this.widget.locator('.sandy-settings-status p:not([data-e2e-old])');
            const status = (await fresh.allTextContents()).map(t => t.trim());
            return status.length && status.join('\n') !== 'Saving…' ? status : undefined;
        }, 'the settings save to finish');
    }

    async revert(): Promise<void> {
        await this.revertButton.click();
    }
}
