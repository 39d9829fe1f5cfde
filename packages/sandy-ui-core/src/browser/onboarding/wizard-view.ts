import type { WizardAction, WizardModel, WizardStepModel } from '../../common/onboarding/wizard-controller';
import * as words from '../../common/onboarding/wizard-labels';
import { DomChild, DomFactory, domBuilder } from '../dom';

/** What the wizard view asks of its host: the controller (Theia) or the webview's bridge to it (VS Code). */
export interface WizardViewHost {
    act(action: WizardAction): void;
}

const MARKS = { ok: '✔', warn: '!', fail: '✘' } as const;

/**
 * The Get Started wizard, one implementation for every host: the step list, the current step, and
 * Back / Skip / Next. It shows the controller's model and sends the buttons back; it decides
 * nothing. Every path, command and message is text (the DOM helper makes no markup); a fix command
 * is shown verbatim in a `<code>` before it can be copied or run.
 */
export class WizardView {
    protected readonly h: DomFactory;

    constructor(readonly container: HTMLElement, protected readonly host: WizardViewHost) {
        this.h = domBuilder(container.ownerDocument);
        container.classList.add('sandy-wizard');
    }

    render(model: WizardModel): void {
        const h = this.h;
        const focusedAction = (this.container.ownerDocument.activeElement as HTMLElement | null)?.dataset?.action;
        // Each step is a button: any step is reachable again (the palette's "Sandy: Get Started" opens the wizard).
        const steps = h('ol', { class: 'sandy-wizard-steps', 'aria-label': 'Steps' }, model.steps.map(s => h('li', {
            class: ['sandy-wizard-step', `sandy-wizard-step-${s.state}`],
            dataset: { step: s.id, state: s.state }
        }, h('button', {
            type: 'button', class: 'sandy-wizard-step-button', dataset: { action: `goto-${s.id}` },
            ...(s.state === 'current' ? { 'aria-current': 'step' } : {}),
            on: { click: () => this.host.act({ type: 'goto', step: s.id }) }
        }, s.title, s.state === 'skipped' ? ' (skipped)' : ''))));
        const nav = h('div', { class: 'sandy-wizard-nav' },
            model.back ? this.button(words.BACK_LABEL, { type: 'back' }, 'back', 'secondary') : undefined,
            model.skip ? this.button(words.SKIP_LABEL, { type: 'skip' }, 'skip', 'secondary') : undefined,
            model.step.id === 'finished' ? undefined : this.button(model.next.label, { type: 'next' }, 'next', 'primary', !model.next.enabled),
            model.next.why && !model.next.enabled ? h('span', { class: 'sandy-wizard-why', role: 'status' }, model.next.why) : undefined);
        this.container.replaceChildren(
            h('h1', { class: 'sandy-wizard-title' }, model.title),
            steps,
            h('section', { class: 'sandy-wizard-body', dataset: { step: model.step.id } }, this.body(model.step)),
            ...(model.problem ? [h('div', { class: 'sandy-wizard-problem', role: 'alert' }, model.problem)] : []),
            nav);
        if (focusedAction) {
            this.container.querySelector<HTMLElement>(`[data-action="${CSS.escape(focusedAction)}"]:not([disabled])`)?.focus();
        }
    }

    protected body(step: WizardStepModel): DomChild {
        const h = this.h;
        switch (step.id) {
            case 'prerequisites':
                return [
                    h('p', { class: 'sandy-wizard-intro' }, step.intro),
                    h('ul', { class: 'sandy-wizard-checks' }, step.checks.map(c => h('li', { class: ['sandy-wizard-check', `sandy-wizard-check-${c.status}`], dataset: { check: c.id, status: c.status } },
                        h('span', { class: 'sandy-wizard-mark', 'aria-label': c.status }, MARKS[c.status]), ' ',
                        h('strong', {}, c.title), ' — ', h('span', { class: 'sandy-wizard-summary' }, c.summary),
                        c.status !== 'ok' && c.hint ? h('div', { class: 'sandy-wizard-hint' }, c.hint) : undefined,
                        c.status !== 'ok' && c.fix ? h('div', { class: 'sandy-wizard-fix' },
                            h('code', { title: c.fix.explains }, c.fix.command),
                            this.button(words.COPY_LABEL, { type: 'copy', check: c.id }, `copy-${c.id}`, 'secondary'),
                            this.button(words.RUN_LABEL, { type: 'run', check: c.id }, `run-${c.id}`, 'secondary')) : undefined))),
                    this.button(step.checking ? words.CHECKING_TEXT : words.CHECK_AGAIN_LABEL, { type: 'check' }, 'check', 'secondary', step.checking)
                ];
            case 'macos':
                return step.lines.map(l => h('p', {}, l));
            case 'agents':
                return [
                    h('p', { class: 'sandy-wizard-intro' }, step.intro),
                    h('ul', { class: 'sandy-wizard-agents' }, step.agents.map(a => h('li', { class: 'sandy-wizard-agent', dataset: { agent: a.name } },
                        h('label', {},
                            h('input', { type: 'checkbox', checked: a.selected, dataset: { action: `agent-${a.name}` }, on: { change: () => this.host.act({ type: 'toggle-agent', agent: a.name }) } }),
                            ' ', h('strong', {}, a.name), a.recommended ? h('span', { class: 'sandy-wizard-badge' }, 'recommended') : undefined),
                        h('div', { class: 'sandy-wizard-hint' }, a.description),
                        h('div', { class: 'sandy-wizard-credential' }, a.found.length ? words.credentialFoundText(a.found) : a.fix)))),
                    step.proposals.length ? h('ul', { class: 'sandy-wizard-proposals' }, step.proposals.map(p => h('li', {},
                        h('label', {},
                            h('input', { type: 'checkbox', checked: p.accepted, dataset: { action: `proposal-${p.key}` }, on: { change: () => this.host.act({ type: 'toggle-proposal', key: p.key }) } }),
                            ' ', `Also set ${p.key}=${p.value} (from ${p.from})`)))) : undefined,
                    step.writes ? h('p', { class: 'sandy-wizard-writes' }, step.writes) : undefined
                ];
            case 'auth':
                return [
                    h('p', { class: 'sandy-wizard-intro' }, step.intro),
                    h('ul', { class: 'sandy-wizard-auth' }, step.agents.map(a => h('li', { class: ['sandy-wizard-check', a.ready ? 'sandy-wizard-check-ok' : 'sandy-wizard-check-warn'], dataset: { agent: a.name } },
                        h('span', { class: 'sandy-wizard-mark' }, a.ready ? MARKS.ok : MARKS.warn), ' ', h('strong', {}, a.name), ' — ', a.text,
                        a.actions.length ? h('div', { class: 'sandy-wizard-fix' }, a.actions.map(x => this.button(x.label, { type: 'auth', agent: a.name, action: x.id }, `auth-${a.name}-${x.id}`, 'secondary', false, x.detail))) : undefined)))
                ];
            case 'build':
                return [
                    h('p', { class: 'sandy-wizard-intro' }, step.intro),
                    h('p', { class: 'sandy-wizard-build-state', role: 'status', dataset: { state: step.progress.state } }, step.progress.status),
                    step.progress.lines.length ? h('ul', { class: 'sandy-wizard-timeline' }, step.progress.lines.map(l => h('li', {}, l))) : undefined,
                    h('div', { class: 'sandy-wizard-fix' },
                        step.action ? this.button(step.action, { type: 'build' }, 'build', step.progress.state === 'done' ? 'secondary' : 'primary') : undefined,
                        step.progress.log || step.progress.state !== 'idle' ? this.button(step.logOpen ? words.HIDE_LOG_LABEL : words.SHOW_LOG_LABEL, { type: 'toggle-log' }, 'log', 'secondary') : undefined),
                    step.logOpen ? h('pre', { class: 'sandy-wizard-log', tabindex: 0 }, step.progress.log) : undefined
                ];
            case 'test':
                return [
                    h('p', { class: 'sandy-wizard-intro' }, step.intro),
                    h('p', { class: 'sandy-wizard-hint' }, `Workspace: ${step.workspace}`),
                    step.text ? h('p', { class: 'sandy-wizard-build-state', role: 'status', dataset: { state: step.state } }, step.text) : undefined,
                    h('div', { class: 'sandy-wizard-fix' },
                        step.state === 'idle' || step.state === 'failed' ? this.button(words.START_TEST_LABEL, { type: 'start-test' }, 'start-test', 'primary') : undefined,
                        step.state !== 'idle' ? this.button(words.SHOW_SESSION_LABEL, { type: 'show-session' }, 'show-session', 'secondary') : undefined)
                ];
            case 'finished':
                return [
                    ...step.lines.map(l => h('p', {}, l)),
                    this.button(words.ADD_PROJECT_LABEL, { type: 'add-project' }, 'add-project', 'primary')
                ];
        }
    }

    protected button(label: string, action: WizardAction, id: string, kind: 'primary' | 'secondary' | undefined = undefined, disabled = false, title?: string): HTMLButtonElement {
        return this.h('button', {
            type: 'button', class: ['sandy-wizard-button', kind && `sandy-wizard-button-${kind}`, 'theia-button', kind === 'secondary' && 'secondary'],
            disabled, dataset: { action: id }, ...(title ? { title } : {}),
            on: { click: () => this.host.act(action) }
        }, label);
    }
}
