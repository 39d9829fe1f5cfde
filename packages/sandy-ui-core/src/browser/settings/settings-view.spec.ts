import { expect } from 'chai';
import { JSDOM } from 'jsdom';
import { ConfigKey, SandySchema } from '../../common/sandy/contract';
import { BUNDLED_FALLBACK_SCHEMA } from '../../common/sandy/schema-cache';
import type { SettingsEdits, SettingsSaveResult, SettingsScope, SettingsScopeData, SettingsSnapshot } from '../../common/settings/settings-dto';
import type { SettingsField } from '../../common/settings/settings-fields';
import type { ScopeFormState } from '../../common/settings/scope-form-state';
import type { SerializedSettingsState } from '../../common/settings/settings-form-state';
import { SandySettingsView, SettingsViewHost } from './settings-view';

const ALL_KEYS = [
    ...BUNDLED_FALLBACK_SCHEMA.config.privileged_keys, ...BUNDLED_FALLBACK_SCHEMA.config.passive_keys, ...BUNDLED_FALLBACK_SCHEMA.config.env_only_keys
].map(k => k.name);

function scopeData(base: string, partial: Partial<SettingsScopeData> = {}): SettingsScopeData {
    return {
        values: {}, secretsSet: {}, unknownKeys: [], misplaced: [],
        filePaths: { config: `${base}/config`, secrets: `${base}/.secrets` },
        ...partial
    };
}

/** `project: null` = no workspace open. */
function snapshot(project: Partial<SettingsScopeData> | null = {}, global: Partial<SettingsScopeData> = {}, extra: Partial<SettingsSnapshot> = {}): SettingsSnapshot {
    return {
        schema: BUNDLED_FALLBACK_SCHEMA,
        schemaSource: 'sandy',
        scopes: { project: project ? scopeData('/w/.sandy', project) : undefined, global: scopeData('/home/u/.sandy', global) },
        workspace: '/w',
        ...extra
    };
}

class FakeHost implements SettingsViewHost {
    saves: { scope: SettingsScope; edits: SettingsEdits }[] = [];
    opened: string[] = [];
    gitignoreCalls = 0;
    states: SerializedSettingsState[] = [];
    saveResult: SettingsSaveResult | Error = { ok: true, validateVerdict: ['sandy --validate-config found nothing to report in config.'] };
    picked: string | undefined = '/picked/dir';

    async save(scope: SettingsScope, edits: SettingsEdits): Promise<SettingsSaveResult> {
        this.saves.push({ scope, edits: JSON.parse(JSON.stringify(edits, (_k, v) => v === undefined ? null : v)) });
        if (this.saveResult instanceof Error) {
            throw this.saveResult;
        }
        return this.saveResult;
    }
    openFile(path: string): void {
        this.opened.push(path);
    }
    async pickPath(): Promise<string | undefined> {
        return this.picked;
    }
    async addToGitignore(): Promise<void> {
        this.gitignoreCalls++;
    }
    onStateChange(state: SerializedSettingsState): void {
        this.states.push(state);
    }
}

const tick = () => new Promise<void>(resolve => setTimeout(resolve, 0));

describe('settings-view (DOM)', () => {
    let dom: JSDOM;
    let container: HTMLElement;
    let host: FakeHost;
    let view: SandySettingsView;
    const g = globalThis as Record<string, unknown>;

    beforeEach(() => {
        dom = new JSDOM('<!doctype html><html><body><div id="c"></div></body></html>', { pretendToBeVisual: true });
        g.window = dom.window;
        g.document = dom.window.document;
        container = dom.window.document.getElementById('c')!;
        host = new FakeHost();
    });

    afterEach(() => {
        view?.dispose();
        dom.window.close();
        delete g.window;
        delete g.document;
    });

    const $ = <T extends Element = HTMLElement>(selector: string): T => {
        const found = container.querySelector<T>(selector);
        expect(found, selector).to.not.equal(null);
        return found!;
    };
    const $$ = <T extends Element = HTMLElement>(selector: string): T[] => Array.from(container.querySelectorAll<T>(selector));
    const row = (key: string) => $(`.sandy-settings-field[data-key="${key}"]`);
    const control = <T extends HTMLElement = HTMLInputElement>(key: string) => row(key).querySelector<T>('input, select')!;
    const type = (input: HTMLInputElement, value: string) => {
        input.value = value;
        input.dispatchEvent(new dom.window.Event('input', { bubbles: true }));
    };
    const key = (target: Element, k: string, init: KeyboardEventInit = {}) =>
        target.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
    const tab = (scope: SettingsScope) => $<HTMLButtonElement>(`[role="tab"][data-scope="${scope}"]`);
    const click = (el: HTMLElement) => el.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    const saveButton = () => $<HTMLButtonElement>('.sandy-settings-save');
    const visible = (el: Element): boolean => {
        for (let e: Element | null = el; e && e !== container; e = e.parentElement) {
            if ((e as HTMLElement).hidden) {
                return false;
            }
        }
        return true;
    };

    it('shows a loading state until the first snapshot', () => {
        view = new SandySettingsView(container, host);
        expect($('.sandy-settings').getAttribute('aria-busy')).to.equal('true');
        expect(visible($('.sandy-settings-loading'))).to.equal(true);
        expect($('.sandy-settings-loading').textContent).to.match(/Loading/);
        expect(visible($('.sandy-settings-body'))).to.equal(false);
        view.showProblem({ message: 'The backend is gone.', hint: 'Reload the window.' });
        expect($('.sandy-settings-loading').textContent).to.contain('Reload the window.');
        view.update(snapshot());
        expect($('.sandy-settings').getAttribute('aria-busy')).to.equal('false');
        expect(visible($('.sandy-settings-loading'))).to.equal(false);
    });

    it('renders every key of the schema, grouped by tier with headings', () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot());
        expect($$('.sandy-settings-field').map(e => e.dataset.key)).to.deep.equal(ALL_KEYS);
        expect($$('.sandy-settings-group-title').map(h => h.textContent)).to.deep.equal(['Privileged', 'Passive', 'Environment only (read-only)']);
        expect($$('.sandy-settings-field-broken')).to.deep.equal([]);
        const skip = row('SANDY_SKIP_PERMISSIONS');
        expect(skip.querySelector('.sandy-settings-description')!.textContent).to.match(/permission prompts/);
        expect(skip.querySelector('.sandy-settings-meta')!.textContent).to.contain('Default: true')
            .and.to.contain('Since sandy 0.1.0').and.to.contain('Stability: stable').and.to.contain('Written as true / false');
        expect(row('SANDY_HANDOFF_DIRS').querySelector('.sandy-settings-badges')!.textContent).to.contain('experimental');
        expect(control('SANDY_EFFORT').tagName).to.equal('SELECT');
        expect(control('SANDY_SKIP_PERMISSIONS').getAttribute('role')).to.equal('switch');
        expect(control('ANTHROPIC_API_KEY').type).to.equal('password');
        expect(control('SANDY_CPUS').getAttribute('role')).to.equal('spinbutton');
        expect(row('SANDY_AGENT').querySelectorAll('input[type="checkbox"]').length).to.equal(5);
        expect(row('SANDY_SCREENSHOT_DIR').querySelector('.sandy-settings-browse')).to.not.equal(null);
        expect(control('SANDY_HOST_ID').readOnly).to.equal(true);
    });

    it('renders an unknown type as text with a hint, and a broken field as an error row without blanking the rest', () => {
        const evil = { name: 'EVIL_KEY', get type(): string { throw new Error('getter exploded'); } };
        const schema: SandySchema = {
            ...BUNDLED_FALLBACK_SCHEMA,
            config: {
                ...BUNDLED_FALLBACK_SCHEMA.config,
                passive_keys: [...BUNDLED_FALLBACK_SCHEMA.config.passive_keys, { name: 'SANDY_FUTURE', type: 'duration' }, evil as unknown as ConfigKey]
            }
        };
        class FragileView extends SandySettingsView {
            protected override renderField(field: SettingsField, scopeState: ScopeFormState) {
                if (field.key === 'SANDY_MODEL') {
                    throw new Error('renderer exploded');
                }
                return super.renderField(field, scopeState);
            }
        }
        view = new FragileView(container, host);
        view.update({ ...snapshot(), schema });
        expect($$('.sandy-settings-field').length).to.equal(ALL_KEYS.length + 2);
        expect(row('SANDY_MODEL').classList.contains('sandy-settings-field-broken')).to.equal(true);
        expect(row('SANDY_MODEL').textContent).to.contain('renderer exploded');
        expect(row('EVIL_KEY').textContent).to.contain('getter exploded');
        expect(control('SANDY_FUTURE').type).to.equal('text');
        expect(row('SANDY_FUTURE').textContent).to.contain('"duration" is not recognised');
        expect(control('SANDY_EFFORT')).to.not.equal(null);
    });

    it('labels every control with its key, in both scopes', () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot());
        for (const scope of ['project', 'global'] as const) {
            click(tab(scope));
            const controls = $$<HTMLInputElement>('.sandy-settings-field input, .sandy-settings-field select');
            expect(controls.length).to.be.greaterThan(ALL_KEYS.length);
            for (const c of controls) {
                const fieldKey = c.closest<HTMLElement>('.sandy-settings-field')!.dataset.key!;
                const label = container.querySelector(`label[for="${c.id}"]`);
                expect(label, `${scope} ${fieldKey} #${c.id}`).to.not.equal(null);
                expect(label!.textContent, c.id).to.contain(fieldKey);
            }
            for (const b of $$<HTMLButtonElement>('.sandy-settings-field button')) {
                const name = b.getAttribute('aria-label') ?? b.textContent!;
                expect(name, b.className).to.contain(b.closest<HTMLElement>('.sandy-settings-field')!.dataset.key!);
            }
        }
        expect(container.querySelector(`label[for="${$('.sandy-settings-filter').id}"]`)).to.not.equal(null);
        expect(row('SANDY_AGENT').querySelector('legend')!.textContent).to.equal('SANDY_AGENT');
    });

    it('switches scope tabs from the keyboard', () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot());
        expect($('[role="tablist"]')).to.not.equal(null);
        expect(tab('project').getAttribute('aria-selected')).to.equal('true');
        expect(tab('project').tabIndex).to.equal(0);
        expect(tab('global').tabIndex).to.equal(-1);
        expect($('[role="tabpanel"]').getAttribute('aria-labelledby')).to.equal(tab('project').id);
        tab('project').focus();
        key(tab('project'), 'ArrowRight');
        expect(tab('global').getAttribute('aria-selected')).to.equal('true');
        expect(dom.window.document.activeElement).to.equal(tab('global'));
        expect($('[role="tabpanel"]').getAttribute('aria-labelledby')).to.equal(tab('global').id);
        key(tab('global'), 'ArrowRight');
        expect(dom.window.document.activeElement).to.equal(tab('project'));
        key(tab('project'), 'End');
        expect(tab('global').getAttribute('aria-selected')).to.equal('true');
        key(tab('global'), 'Home');
        expect(tab('project').getAttribute('aria-selected')).to.equal('true');
        expect(host.states[host.states.length - 1].activeScope).to.equal('project');
    });

    it('offers only Global without a workspace', () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot(null));
        expect(tab('project').getAttribute('aria-disabled')).to.equal('true');
        expect(tab('global').getAttribute('aria-selected')).to.equal('true');
        click(tab('project'));
        key(tab('global'), 'ArrowLeft');
        expect(tab('global').getAttribute('aria-selected')).to.equal('true');
    });

    it('filters fields by name and description', () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot());
        const filter = $<HTMLInputElement>('.sandy-settings-filter');
        type(filter, 'egress strict');
        const shown = $$('.sandy-settings-field').filter(visible).map(e => e.dataset.key);
        expect(shown).to.include('SANDY_EGRESS_STRICT');
        expect(shown).to.not.include('SANDY_MODEL');
        expect(visible($('.sandy-settings-group-env-only'))).to.equal(false);
        expect(visible($('.sandy-settings-empty'))).to.equal(false);
        type(filter, 'no-such-setting-anywhere');
        expect($$('.sandy-settings-field').filter(visible)).to.deep.equal([]);
        expect(visible($('.sandy-settings-empty'))).to.equal(true);
        key(filter, 'Escape');
        expect(filter.value).to.equal('');
        expect($$('.sandy-settings-field').filter(visible).length).to.equal(ALL_KEYS.length);
    });

    it('shows secrets as set / not set, never with a value, and keeps typed secrets out of saved state', () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot({ secretsSet: { ANTHROPIC_API_KEY: true } }, { secretsSet: { OPENAI_API_KEY: true } }));
        const anthropic = control('ANTHROPIC_API_KEY');
        expect(anthropic.type).to.equal('password');
        expect(anthropic.value).to.equal('');
        expect(row('ANTHROPIC_API_KEY').querySelector('.sandy-settings-secret-badge')!.textContent).to.equal('✓ set');
        expect(row('GEMINI_API_KEY').querySelector('.sandy-settings-secret-badge')!.textContent).to.equal('not set');
        expect(row('OPENAI_API_KEY').textContent).to.contain('Global: ✓ set');
        expect($$('.sandy-settings-field input').every(i => (i as HTMLInputElement).value === '' || (i as HTMLInputElement).type === 'checkbox')).to.equal(true);

        type(control('GEMINI_API_KEY'), 'sk-TYPED-SECRET');
        const reveal = row('GEMINI_API_KEY').querySelector<HTMLButtonElement>('.sandy-settings-reveal')!;
        click(reveal);
        expect(control('GEMINI_API_KEY').type).to.equal('text');
        expect(reveal.getAttribute('aria-pressed')).to.equal('true');
        click(reveal);
        expect(control('GEMINI_API_KEY').type).to.equal('password');
        expect(row('GEMINI_API_KEY').querySelector('.sandy-settings-secret-badge')!.textContent).to.equal('✓ set on save');
        click(row('ANTHROPIC_API_KEY').querySelector<HTMLButtonElement>('.sandy-settings-clear')!);
        expect(row('ANTHROPIC_API_KEY').querySelector('.sandy-settings-secret-badge')!.textContent).to.equal('cleared on save');
        expect(JSON.stringify(host.states)).to.not.contain('sk-TYPED-SECRET');
        expect(JSON.stringify(view.serialize())).to.not.contain('sk-TYPED-SECRET');
    });

    it('keeps edits per scope across tab switches and snapshot updates, and keeps focus', () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot({ values: { SANDY_MODEL: 'proj-model' } }, { values: { SANDY_MODEL: 'global-model' } }));
        expect(control('SANDY_MODEL').value).to.equal('proj-model');
        type(control('SANDY_MODEL'), 'edited-model');
        expect(row('SANDY_MODEL').classList.contains('sandy-settings-dirty')).to.equal(true);
        expect(tab('project').classList.contains('sandy-settings-tab-has-changes')).to.equal(true);
        click(tab('global'));
        expect(control('SANDY_MODEL').value).to.equal('global-model');
        expect(row('SANDY_MODEL').classList.contains('sandy-settings-dirty')).to.equal(false);
        click(tab('project'));
        expect(control('SANDY_MODEL').value).to.equal('edited-model');

        const input = control('SANDY_MODEL');
        input.focus();
        input.setSelectionRange(2, 4);
        view.update(snapshot({ values: { SANDY_MODEL: 'proj-model', SANDY_CPUS: '3' } }, { values: { SANDY_MODEL: 'global-model' } }));
        const after = control('SANDY_MODEL');
        expect(after.value).to.equal('edited-model');
        expect(dom.window.document.activeElement).to.equal(after);
        expect([after.selectionStart, after.selectionEnd]).to.deep.equal([2, 4]);
        expect(control('SANDY_CPUS').value).to.equal('3');

        // A new view restored from the state the host kept (the view was hidden and recreated).
        const state = host.states[host.states.length - 1];
        view.dispose();
        view = new SandySettingsView(container, host, { state });
        view.update(snapshot({ values: { SANDY_MODEL: 'proj-model' } }));
        expect(control('SANDY_MODEL').value).to.equal('edited-model');
    });

    it('shows inherited and default values as placeholders in the Project tab', () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot({}, { values: { SANDY_MEM: '8g' } }));
        expect(control('SANDY_MEM').placeholder).to.equal('Not set here (Global: 8g)');
        expect(control('CLAUDE_CODE_MAX_OUTPUT_TOKENS').placeholder).to.equal('Not set (default: 128000)');
    });

    it('saves only the changed keys of the active scope, routed per file, and shows the verdict', async () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot({ values: { SANDY_MODEL: 'm1', SANDY_VERBOSE: '1' } }));
        expect(saveButton().disabled).to.equal(true);
        type(control('SANDY_MODEL'), 'm2');
        const skip = control('SANDY_SKIP_PERMISSIONS');
        expect(skip.checked, 'shows the default').to.equal(true);
        skip.checked = false;
        skip.dispatchEvent(new dom.window.Event('change', { bubbles: true }));
        type(control('ANTHROPIC_API_KEY'), 'sk-new');
        const effort = control<HTMLSelectElement>('SANDY_EFFORT');
        effort.value = 'high';
        effort.dispatchEvent(new dom.window.Event('change', { bubbles: true }));
        type(control('SANDY_VERBOSE'), '1'); // unchanged
        click(tab('global'));
        type(control('SANDY_MEM'), '4g'); // other scope: not part of this save
        click(tab('project'));
        expect(saveButton().disabled).to.equal(false);
        host.saveResult = { ok: true, validateVerdict: ['Needs your approval at the next launch: SANDY_SKIP_PERMISSIONS.'] };
        click(saveButton());
        await tick();
        expect(host.saves).to.deep.equal([{
            scope: 'project',
            edits: {
                config: [
                    { key: 'SANDY_MODEL', value: 'm2' }, { key: 'SANDY_SKIP_PERMISSIONS', value: 'false' }, { key: 'SANDY_EFFORT', value: 'high' }
                ],
                secrets: [{ key: 'ANTHROPIC_API_KEY', value: 'sk-new' }]
            }
        }]);
        expect($('.sandy-settings-status').textContent).to.contain('Saved 4 settings to Project.')
            .and.to.contain('Needs your approval at the next launch: SANDY_SKIP_PERMISSIONS.');
        expect(row('SANDY_MODEL').classList.contains('sandy-settings-dirty')).to.equal(false);
        expect(control('ANTHROPIC_API_KEY').value).to.equal('');
        expect(row('ANTHROPIC_API_KEY').querySelector('.sandy-settings-secret-badge')!.textContent).to.equal('✓ set');
        expect(saveButton().disabled).to.equal(true);
        expect(tab('global').classList.contains('sandy-settings-tab-has-changes')).to.equal(true);
        expect(view.dirty, 'Global still has an edit').to.equal(true);
    });

    it('saves the valid fields and holds back only the invalid one', async () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot());
        type(control('SANDY_MODEL'), 'not valid');
        type(control('SANDY_CPUS'), '4');
        expect(row('SANDY_MODEL').querySelector('.sandy-settings-error')!.textContent).to.match(/pattern/);
        expect(control('SANDY_MODEL').getAttribute('aria-invalid')).to.equal('true');
        expect(control('SANDY_CPUS').hasAttribute('aria-invalid')).to.equal(false);
        key(container.querySelector('.sandy-settings')!, 's', { ctrlKey: true });
        await tick();
        expect(host.saves[0].edits).to.deep.equal({ config: [{ key: 'SANDY_CPUS', value: '4' }], secrets: [] });
        expect($('.sandy-settings-status').textContent).to.contain('SANDY_MODEL was not saved');
        expect(row('SANDY_MODEL').classList.contains('sandy-settings-dirty')).to.equal(true);
    });

    it('keeps the edits and says why when saving fails', async () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot());
        type(control('SANDY_MEM'), '8g');
        host.saveResult = { ok: false, error: { message: 'Could not write /w/.sandy/config: EACCES.', hint: 'Check that the folder is writable.' } };
        click(saveButton());
        await tick();
        expect($('.sandy-settings-status').className).to.contain('error');
        expect($('.sandy-settings-status').textContent).to.contain('EACCES').and.to.contain('Check that the folder is writable.');
        expect(control('SANDY_MEM').value).to.equal('8g');
        expect(saveButton().disabled).to.equal(false);
        host.saveResult = new Error('connection lost');
        click(saveButton());
        await tick();
        expect($('.sandy-settings-status').textContent).to.contain('connection lost');
    });

    it('reverts all edits of the scope and per field', () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot({ values: { SANDY_MEM: '2g' } }));
        type(control('SANDY_MEM'), '8g');
        type(control('SANDY_GPU'), 'all');
        click(row('SANDY_GPU').querySelector<HTMLButtonElement>('.sandy-settings-field-revert')!);
        expect(control('SANDY_GPU').value).to.equal('');
        click($('.sandy-settings-revert'));
        expect(control('SANDY_MEM').value).to.equal('2g');
        expect(saveButton().disabled).to.equal(true);
    });

    it('edits agents as a checkbox group, ints with arrow keys, paths with a picker', async () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot({ values: { SANDY_AGENT: 'all' } }));
        const boxes = () => Array.from(row('SANDY_AGENT').querySelectorAll<HTMLInputElement>('input[type="checkbox"]'));
        expect(boxes().filter(b => b.checked).map(b => b.value)).to.deep.equal(['claude', 'gemini', 'codex', 'opencode']);
        const gemini = boxes().find(b => b.value === 'gemini')!;
        gemini.checked = false;
        gemini.dispatchEvent(new dom.window.Event('change', { bubbles: true }));
        const grok = boxes().find(b => b.value === 'grok')!;
        grok.checked = true;
        grok.dispatchEvent(new dom.window.Event('change', { bubbles: true }));
        expect(view.state.scope('project').value('SANDY_AGENT')).to.equal('claude,codex,opencode,grok');

        const cpus = control('SANDY_CPUS');
        key(cpus, 'ArrowUp');
        key(cpus, 'ArrowUp');
        expect(cpus.value).to.equal('2');
        expect(cpus.getAttribute('aria-valuenow')).to.equal('2');

        click(row('SANDY_SCREENSHOT_DIR').querySelector<HTMLButtonElement>('.sandy-settings-browse')!);
        await tick();
        expect(control('SANDY_SCREENSHOT_DIR').value).to.equal('/picked/dir');
    });

    it('shows Project banners: approval, .gitignore with its action, unknown keys', async () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot(
            { values: { SANDY_SSH: 'agent' }, secretsSet: { ANTHROPIC_API_KEY: true }, unknownKeys: ['SANDY_TYPO', 'HA_TOKEN'] },
            { values: { SANDY_EXTRA_ENV: 'HA_TOKEN' } },
            { gitignoreWarning: { path: '/w/.sandy/.secrets', exists: true, tracked: false } }
        ));
        expect($('.sandy-settings-banner-approval').textContent).to.contain('Needing approval: SANDY_SSH, ANTHROPIC_API_KEY.');
        expect(row('SANDY_SSH').textContent).to.contain('needs approval');
        expect($('.sandy-settings-banner-gitignore').textContent).to.contain('/w/.sandy/.secrets is not ignored by git');
        click($('.sandy-settings-gitignore'));
        await tick();
        expect(host.gitignoreCalls).to.equal(1);
        expect($('.sandy-settings-banner-unknown').textContent).to.contain('SANDY_TYPO').and.not.to.contain('HA_TOKEN');
        expect($('.sandy-settings-banner-forwarded').textContent).to.contain('HA_TOKEN');
        click(tab('global'));
        expect(container.querySelector('.sandy-settings-banner-approval')).to.equal(null);
        expect(container.querySelector('.sandy-settings-banner-gitignore')).to.equal(null);
    });

    it('warns when the bundled schema is in use or sandy is missing', () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot({}, {}, { schemaSource: 'missing', sandyProblem: { message: 'sandy was not found on PATH.', hint: 'Install sandy.' } }));
        expect($('.sandy-settings-banners').textContent).to.contain('sandy was not found, so these settings come from the schema bundled with sandy-ui (sandy 1.7.1-dev)')
            .and.to.contain('Install sandy.');
        view.update(snapshot({}, {}, { schemaSource: 'fallback', sandyProblem: { message: 'sandy 1.6 has no --print-schema.' } }));
        expect($('.sandy-settings-banners').textContent).to.contain('sandy\'s own schema could not be used').and.to.contain('sandy 1.6');
        view.update(snapshot());
        expect($('.sandy-settings-banners').textContent).to.equal('');
    });

    it('reveals a key (the approval view\'s Open Settings): its control gets focus and a passing highlight', () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot());
        // jsdom has no layout: scrolling is a no-op there.
        (dom.window.HTMLElement.prototype as unknown as { scrollIntoView(): void }).scrollIntoView = () => undefined;
        view.revealKey('SANDY_ALLOW_LAN_HOSTS');
        expect(row('SANDY_ALLOW_LAN_HOSTS').classList.contains('sandy-settings-highlight')).to.equal(true);
        expect(row('SANDY_ALLOW_LAN_HOSTS').contains(dom.window.document.activeElement)).to.equal(true);
        view.revealKey('NO_SUCH_KEY');
        // A refusal found in ~/.sandy/config opens the Global tab at the key.
        expect(tab('project').getAttribute('aria-selected')).to.equal('true');
        view.revealKey('SANDY_ALLOW_LAN_HOSTS', 'global');
        expect(tab('global').getAttribute('aria-selected')).to.equal('true');
        expect(row('SANDY_ALLOW_LAN_HOSTS').contains(dom.window.document.activeElement)).to.equal(true);
    });

    it('opens the raw files', async () => {
        view = new SandySettingsView(container, host);
        view.update(snapshot());
        click($('.sandy-settings-open-config'));
        click(tab('global'));
        click($('.sandy-settings-open-secrets'));
        await tick();
        expect(host.opened).to.deep.equal(['/w/.sandy/config', '/home/u/.sandy/.secrets']);
    });

    it('puts data on the page as text, never as markup', () => {
        const schema: SandySchema = {
            ...BUNDLED_FALLBACK_SCHEMA,
            config: {
                ...BUNDLED_FALLBACK_SCHEMA.config,
                passive_keys: [{ name: 'SANDY_X', type: 'enum', choices: ['<b>bold</b>'], description: '<img src=x onerror="alert(1)">' }]
            }
        };
        view = new SandySettingsView(container, host);
        view.update({ ...snapshot({ values: { SANDY_X: '<script>alert(1)</script>' }, unknownKeys: ['<i>K</i>'] }), schema });
        expect(container.querySelector('img, script, b, i')).to.equal(null);
        expect(row('SANDY_X').querySelector('.sandy-settings-description')!.textContent).to.equal('<img src=x onerror="alert(1)">');
        expect(Array.from(control<HTMLSelectElement>('SANDY_X').options).map(o => o.textContent)).to.include('<script>alert(1)</script> (not a valid choice)');
    });

    it('keeps hostile text from every other channel as text: problems, banners, paths, verdicts, errors', async () => {
        const attack = '<img src=x onerror=alert(1)>';
        const noMarkup = () => expect(container.querySelector('img, script'), 'an element made from text').to.equal(null);
        view = new SandySettingsView(container, host);
        view.showProblem({ message: attack, hint: attack });
        noMarkup();
        expect($('.sandy-settings-loading').textContent).to.equal(`${attack}${attack}`);
        view.update(snapshot({ problems: [{ message: attack }], misplaced: [{ key: 'SANDY_MODEL', file: 'secrets' }] }, {}, {
            schemaSource: 'fallback', sandyProblem: { message: attack },
            gitignoreWarning: { path: `/w/${attack}/.secrets`, exists: true, tracked: true }
        }));
        noMarkup();
        expect($('.sandy-settings-banners').textContent).to.contain(attack);
        expect($('.sandy-settings-banner-gitignore').textContent).to.contain(`/w/${attack}/.secrets is tracked by git`);
        host.saveResult = { ok: true, validateVerdict: [attack], mismatches: [attack] };
        type(control('SANDY_MODEL'), 'claude-x');
        await view.save();
        noMarkup();
        expect($('.sandy-settings-status').textContent).to.contain(attack);
        host.saveResult = Object.assign(new Error(attack), { hint: attack });
        type(control('SANDY_MODEL'), 'claude-y');
        await view.save();
        noMarkup();
        expect($('.sandy-settings-status').textContent).to.equal(`${attack} ${attack}`);
        expect($$('[onerror], [onload], [onclick]')).to.deep.equal([]);
    });
});
