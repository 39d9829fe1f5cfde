import type { ApprovalDecision, ApprovalDockerfile, ApprovalLine, ApprovalRequest } from '../../common/approvals/approval-model';
import { revealControlChars } from '../../common/approvals/launch-gates';
import { DomFactory, domBuilder } from '../dom';

/** What the approval view asks of its host (the Theia widget or the VS Code webview bridge). */
export interface ApprovalViewHost {
    decide(decision: ApprovalDecision): void;
    /** The raw line of a masked secret, fetched only when the user asks. */
    reveal(line: ApprovalLine): Promise<string | undefined>;
    openFile?(filePath: string, line?: number): void;
}

const CHANGE_LABELS: Record<ApprovalLine['change'], string> = {
    added: 'new',
    changed: 'value changed',
    unchanged: 'approved before',
    unverified: 'approved before (value not checked)'
};

/**
 * The pre-flight approval view, one implementation for every host. Every privileged line is shown
 * verbatim in a `<pre>` with `white-space: pre`, as text (the DOM helper makes no markup): `<script>`,
 * `&`, quotes, leading spaces, tabs, unicode and long lines appear exactly as in the file, scrolled,
 * never wrapped or cut (spec, MVP pillar 3).
 */
export class ApprovalView {
    protected request: ApprovalRequest | undefined;
    protected readonly doc: Document;
    protected readonly h: DomFactory;

    constructor(readonly container: HTMLElement, protected readonly host: ApprovalViewHost) {
        this.doc = container.ownerDocument;
        this.h = domBuilder(this.doc);
        container.classList.add('sandy-approval');
    }

    render(request: ApprovalRequest): void {
        this.request = request;
        const h = this.h;
        const container = this.container;
        container.replaceChildren();
        const title = request.kind === 'refuse'
            ? 'sandy will not launch with this configuration'
            : request.kind === 'compat' ? 'This sandbox needs attention before launch' : approvalTitle(request);
        container.append(h('div', { class: 'sandy-approval-header' },
            h('h2', { class: 'sandy-approval-title' }, title),
            h('p', { class: 'sandy-approval-workspace' }, request.workspace)));

        if (request.refusals.length) {
            container.append(h('section', { class: 'sandy-approval-refusals', role: 'alert' }, request.refusals.map(r => h('div', { class: 'sandy-approval-refusal' },
                h('p', { class: 'sandy-approval-refusal-message' }, r.message),
                h('p', { class: 'sandy-approval-remediation' }, r.remediation),
                r.filePath ? this.fileLink(r.filePath, r.line) : undefined))));
        }

        if (request.compat) {
            container.append(h('section', { class: 'sandy-approval-compat' },
                h('p', null, request.compat.message),
                request.compat.remediation ? h('p', { class: 'sandy-approval-remediation' }, request.compat.remediation) : undefined));
        }

        if (request.lines.length) {
            container.append(h('p', { class: 'sandy-approval-intro' },
                'The workspace configuration sets privileged keys. sandy only applies them when you approve; '
                + 'approving launches sandy once with these exact lines. Review them as they are in the files:'));
            const byFile = new Map<string, ApprovalLine[]>();
            for (const line of request.lines) {
                byFile.set(line.filePath, [...byFile.get(line.filePath) ?? [], line]);
            }
            for (const [filePath, lines] of byFile) {
                container.append(h('section', { class: 'sandy-approval-file' },
                    h('h3', { class: 'sandy-approval-file-name' }, this.fileLink(filePath)),
                    lines.map(line => this.renderLine(line))));
            }
        }

        if (request.dockerfile) {
            container.append(this.renderDockerfile(request.dockerfile));
        }

        if (request.symlinks?.length) {
            container.append(h('section', { class: 'sandy-approval-symlinks' },
                h('h3', null, 'Symlinks that point outside the workspace'),
                h('p', { class: 'sandy-approval-intro' },
                    'sandy mounts the targets of these links into the sandbox, so the agent can read and change them. '
                    + 'Once approved, sandy refuses any new such link until you clear its list.'),
                h('pre', { class: 'sandy-approval-pre sandy-approval-symlink-list', tabindex: 0 }, request.symlinks.map(revealControlChars).join('\n'))));
        }

        if (request.hasPreviousApproval || request.removedKeys.length) {
            const added = [...new Set(request.lines.filter(l => l.change === 'added').map(l => l.key))];
            const changed = [...new Set(request.lines.filter(l => l.change === 'changed').map(l => l.key))];
            const items = [
                added.length ? h('li', { class: 'sandy-approval-added' }, `Added: ${added.join(', ')}`) : undefined,
                changed.length ? h('li', { class: 'sandy-approval-changed' }, `Value changed: ${changed.join(', ')}`) : undefined,
                request.removedKeys.length ? h('li', { class: 'sandy-approval-removed' }, `Removed: ${request.removedKeys.join(', ')}`) : undefined
            ].filter((item): item is HTMLLIElement => !!item);
            if (!items.length) {
                items.push(h('li', null, 'The same keys as before; a value may have changed (sandy records key names only).'));
            }
            container.append(h('section', { class: 'sandy-approval-changes' }, h('h3', null, 'Since your last approval'), h('ul', null, items)));
        }

        if (request.notes.length) {
            container.append(h('section', { class: 'sandy-approval-notes' }, request.notes.map(note => h('p', null, note))));
        }

        container.append(this.renderButtons(request));
        (container.querySelector<HTMLButtonElement>('.sandy-approval-actions button.primary')
            ?? container.querySelector<HTMLButtonElement>('.sandy-approval-actions button'))?.focus();
    }

    protected renderDockerfile(dockerfile: ApprovalDockerfile): HTMLElement {
        const h = this.h;
        const changedDiff = dockerfile.diff?.some(d => d.op !== 'same') ? dockerfile.diff : undefined;
        return h('section', { class: 'sandy-approval-dockerfile' },
            h('h3', { class: 'sandy-approval-file-name' }, 'Project image: ', this.fileLink(dockerfile.path)),
            h('p', { class: 'sandy-approval-intro' },
                'Building it runs its RUN commands on your host\'s Docker engine with unfiltered network (builds are not behind '
                + 'sandy\'s egress proxy), with the whole .sandy/ folder as build context. Approve only a Dockerfile you have read.'),
            dockerfile.changedSinceApproval ? h('p', { class: 'sandy-approval-changed' }, 'Changed since it was last approved.') : undefined,
            changedDiff ? [
                h('h4', null, 'What changed since your last approval'),
                h('pre', { class: 'sandy-approval-pre sandy-approval-diff', tabindex: 0 }, changedDiff.map(d => {
                    const prefix = d.op === 'added' ? '+ ' : d.op === 'removed' ? '- ' : '  ';
                    return h('span', { class: `sandy-approval-diff-${d.op}` }, `${prefix}${revealControlChars(d.text)}\n`);
                }))
            ] : undefined,
            h('pre', { class: 'sandy-approval-pre sandy-approval-dockerfile-text', tabindex: 0, 'aria-label': `Contents of ${dockerfile.path}` },
                revealControlChars(dockerfile.text)),
            dockerfile.contextFiles.length ? [
                h('p', null, 'Also in the build context (a change to any of them asks again):'),
                h('ul', { class: 'sandy-approval-context-files' }, dockerfile.contextFiles.map(f => h('li', null, revealControlChars(f))))
            ] : undefined,
            dockerfile.unhashedFiles.length ? [
                h('p', { class: 'sandy-approval-changed' },
                    'Also built with, but NOT covered by sandy\'s approval (sandy does not hash files named config or .secrets; '
                    + 'a later change to them is never asked about):'),
                h('ul', { class: 'sandy-approval-unhashed-files' }, dockerfile.unhashedFiles.map(f => h('li', null, revealControlChars(f))))
            ] : undefined);
    }

    protected renderLine(line: ApprovalLine): HTMLElement {
        const h = this.h;
        const pre = h('pre', { class: 'sandy-approval-pre', tabindex: 0, 'aria-label': `${line.key} line from ${line.filePath}` }, line.text);
        let reveal: HTMLButtonElement | undefined;
        if (line.masked) {
            let shown = false;
            const button = h('button', {
                class: 'sandy-approval-reveal', type: 'button', 'aria-pressed': 'false', 'aria-label': `Reveal the value of ${line.key}`,
                on: {
                    click: async () => {
                        if (shown) {
                            pre.textContent = line.text;
                            shown = false;
                        } else {
                            const raw = await this.host.reveal(line);
                            if (raw === undefined) {
                                return;
                            }
                            pre.textContent = raw;
                            shown = true;
                        }
                        button.textContent = shown ? 'Hide' : 'Reveal';
                        button.setAttribute('aria-pressed', String(shown));
                    }
                }
            }, 'Reveal');
            reveal = button;
        }
        return h('div', { class: ['sandy-approval-line', `sandy-approval-line-${line.change}`], dataset: { key: line.key } },
            h('div', { class: 'sandy-approval-line-meta' },
                h('span', { class: 'sandy-approval-key' }, line.key),
                h('span', { class: 'sandy-approval-location' }, `${line.source === 'secrets' ? '.sandy/.secrets' : '.sandy/config'} line ${line.line}`),
                h('span', { class: 'sandy-approval-change' }, CHANGE_LABELS[line.change]),
                line.reason === 'weakening-value' ? h('span', { class: 'sandy-approval-reason' }, 'weakens isolation') : undefined),
            pre,
            reveal,
            line.description ? h('p', { class: 'sandy-approval-description' }, line.description) : undefined);
    }

    protected fileLink(filePath: string, line?: number): HTMLElement {
        const text = line ? `${filePath}:${line}` : filePath;
        if (!this.host.openFile) {
            return this.h('span', { class: 'sandy-approval-path' }, text);
        }
        return this.h('a', {
            class: 'sandy-approval-path', href: '#',
            on: {
                click: e => {
                    e.preventDefault();
                    this.host.openFile?.(filePath, line);
                }
            }
        }, text);
    }

    protected renderButtons(request: ApprovalRequest): HTMLElement {
        const h = this.h;
        const bar = h('div', { class: 'sandy-approval-actions' });
        const button = (label: string, decision: ApprovalDecision, primary = false) => {
            bar.append(h('button', {
                class: ['theia-button', `sandy-approval-${decision}`, primary ? 'primary main' : 'secondary'], type: 'button', dataset: { decision },
                on: { click: () => this.host.decide(decision) }
            }, label));
        };
        if (request.kind === 'refuse') {
            if (request.refusals.some(r => r.key)) {
                button('Open Settings', 'open-settings', true);
            }
            button('Close', 'reject');
        } else if (request.kind === 'approve') {
            button('Approve', 'approve', true);
            button('Reject', 'reject');
            if (request.compat) {
                button('Rebuild sandbox', 'rebuild');
            }
        } else {
            button('Rebuild sandbox', 'rebuild', true);
            if (!request.compat?.refuses) {
                button('Launch anyway', 'launch-anyway');
            }
            button('Cancel', 'reject');
        }
        return bar;
    }
}

/** The view's question, naming every gate sandy will ask about. */
function approvalTitle(request: ApprovalRequest): string {
    const parts = [
        request.lines.length ? 'privileged settings' : undefined,
        request.dockerfile ? 'the project Dockerfile' : undefined,
        request.symlinks?.length ? 'symlinks out of the workspace' : undefined
    ].filter((p): p is string => !!p);
    const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0] ?? 'this launch';
    return `Approve ${list} for this workspace?`;
}
