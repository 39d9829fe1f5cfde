import type { ApprovalDecision, ApprovalDockerfile, ApprovalLine, ApprovalRequest } from '../../common/approvals/approval-model';
import { revealControlChars } from '../../common/approvals/launch-gates';

/** What the approval view asks of its host (the Theia widget or the VS Code webview bridge). */
export interface ApprovalViewHost {
    decide(decision: ApprovalDecision): void;
    /** The raw line of a masked secret, fetched only when the user asks. */
    reveal(line: ApprovalLine): Promise<string | undefined>;
    openFile?(filePath: string, line?: number): void;
}

function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
    const node = doc.createElement(tag);
    if (className) {
        node.className = className;
    }
    if (text !== undefined) {
        // textContent, never innerHTML: the content is user files, shown verbatim (spec, MVP pillar 3).
        node.textContent = text;
    }
    return node;
}

const CHANGE_LABELS: Record<ApprovalLine['change'], string> = {
    added: 'new',
    changed: 'value changed',
    unchanged: 'approved before',
    unverified: 'approved before (value not checked)'
};

/**
 * The pre-flight approval view, one implementation for every host. Every privileged line is shown
 * verbatim in a `<pre>` with `white-space: pre` via `textContent`: `<script>`, `&`, quotes, leading
 * spaces, tabs, unicode and long lines appear exactly as in the file, scrolled, never wrapped or cut.
 */
export class ApprovalView {
    protected request: ApprovalRequest | undefined;
    protected readonly doc: Document;

    constructor(readonly container: HTMLElement, protected readonly host: ApprovalViewHost) {
        this.doc = container.ownerDocument;
        container.classList.add('sandy-approval');
    }

    render(request: ApprovalRequest): void {
        this.request = request;
        const doc = this.doc;
        this.container.textContent = '';
        const header = el(doc, 'div', 'sandy-approval-header');
        const title = el(doc, 'h2', 'sandy-approval-title', request.kind === 'refuse'
            ? 'sandy will not launch with this configuration'
            : request.kind === 'compat' ? 'This sandbox needs attention before launch' : approvalTitle(request));
        header.appendChild(title);
        header.appendChild(el(doc, 'p', 'sandy-approval-workspace', request.workspace));
        this.container.appendChild(header);

        if (request.refusals.length) {
            const section = el(doc, 'section', 'sandy-approval-refusals');
            section.setAttribute('role', 'alert');
            for (const r of request.refusals) {
                const item = el(doc, 'div', 'sandy-approval-refusal');
                item.appendChild(el(doc, 'p', 'sandy-approval-refusal-message', r.message));
                item.appendChild(el(doc, 'p', 'sandy-approval-remediation', r.remediation));
                if (r.filePath) {
                    item.appendChild(this.fileLink(r.filePath, r.line));
                }
                section.appendChild(item);
            }
            this.container.appendChild(section);
        }

        if (request.compat) {
            const section = el(doc, 'section', 'sandy-approval-compat');
            section.appendChild(el(doc, 'p', undefined, request.compat.message));
            if (request.compat.remediation) {
                section.appendChild(el(doc, 'p', 'sandy-approval-remediation', request.compat.remediation));
            }
            this.container.appendChild(section);
        }

        if (request.lines.length) {
            const intro = el(doc, 'p', 'sandy-approval-intro',
                'The workspace configuration sets privileged keys. sandy only applies them when you approve; '
                + 'approving launches sandy once with these exact lines. Review them as they are in the files:');
            this.container.appendChild(intro);
            const byFile = new Map<string, ApprovalLine[]>();
            for (const line of request.lines) {
                byFile.set(line.filePath, [...byFile.get(line.filePath) ?? [], line]);
            }
            for (const [filePath, lines] of byFile) {
                const section = el(doc, 'section', 'sandy-approval-file');
                const heading = el(doc, 'h3', 'sandy-approval-file-name');
                heading.appendChild(this.fileLink(filePath));
                section.appendChild(heading);
                for (const line of lines) {
                    section.appendChild(this.renderLine(line));
                }
                this.container.appendChild(section);
            }
        }

        if (request.dockerfile) {
            this.container.appendChild(this.renderDockerfile(request.dockerfile));
        }

        if (request.symlinks?.length) {
            const section = el(doc, 'section', 'sandy-approval-symlinks');
            section.appendChild(el(doc, 'h3', undefined, 'Symlinks that point outside the workspace'));
            section.appendChild(el(doc, 'p', 'sandy-approval-intro',
                'sandy mounts the targets of these links into the sandbox, so the agent can read and change them. '
                + 'Once approved, sandy refuses any new such link until you clear its list.'));
            const pre = el(doc, 'pre', 'sandy-approval-pre sandy-approval-symlink-list', request.symlinks.map(revealControlChars).join('\n'));
            pre.tabIndex = 0;
            section.appendChild(pre);
            this.container.appendChild(section);
        }

        if (request.hasPreviousApproval || request.removedKeys.length) {
            const changes = el(doc, 'section', 'sandy-approval-changes');
            changes.appendChild(el(doc, 'h3', undefined, 'Since your last approval'));
            const list = el(doc, 'ul');
            const added = request.lines.filter(l => l.change === 'added').map(l => l.key);
            const changed = request.lines.filter(l => l.change === 'changed').map(l => l.key);
            if (added.length) {
                list.appendChild(el(doc, 'li', 'sandy-approval-added', `Added: ${[...new Set(added)].join(', ')}`));
            }
            if (changed.length) {
                list.appendChild(el(doc, 'li', 'sandy-approval-changed', `Value changed: ${[...new Set(changed)].join(', ')}`));
            }
            if (request.removedKeys.length) {
                list.appendChild(el(doc, 'li', 'sandy-approval-removed', `Removed: ${request.removedKeys.join(', ')}`));
            }
            if (!list.childElementCount) {
                list.appendChild(el(doc, 'li', undefined, 'The same keys as before; a value may have changed (sandy records key names only).'));
            }
            changes.appendChild(list);
            this.container.appendChild(changes);
        }

        if (request.notes.length) {
            const notes = el(doc, 'section', 'sandy-approval-notes');
            for (const note of request.notes) {
                notes.appendChild(el(doc, 'p', undefined, note));
            }
            this.container.appendChild(notes);
        }

        this.container.appendChild(this.renderButtons(request));
        (this.container.querySelector<HTMLButtonElement>('.sandy-approval-actions button.primary')
            ?? this.container.querySelector<HTMLButtonElement>('.sandy-approval-actions button'))?.focus();
    }

    protected renderDockerfile(dockerfile: ApprovalDockerfile): HTMLElement {
        const doc = this.doc;
        const section = el(doc, 'section', 'sandy-approval-dockerfile');
        const heading = el(doc, 'h3', 'sandy-approval-file-name');
        heading.appendChild(doc.createTextNode('Project image: '));
        heading.appendChild(this.fileLink(dockerfile.path));
        section.appendChild(heading);
        section.appendChild(el(doc, 'p', 'sandy-approval-intro',
            'Building it runs its RUN commands on your host\'s Docker engine with unfiltered network (builds are not behind '
            + 'sandy\'s egress proxy), with the whole .sandy/ folder as build context. Approve only a Dockerfile you have read.'));
        if (dockerfile.changedSinceApproval) {
            section.appendChild(el(doc, 'p', 'sandy-approval-changed', 'Changed since it was last approved.'));
        }
        if (dockerfile.diff?.some(d => d.op !== 'same')) {
            section.appendChild(el(doc, 'h4', undefined, 'What changed since your last approval'));
            const diff = el(doc, 'pre', 'sandy-approval-pre sandy-approval-diff');
            for (const d of dockerfile.diff) {
                const prefix = d.op === 'added' ? '+ ' : d.op === 'removed' ? '- ' : '  ';
                diff.appendChild(el(doc, 'span', `sandy-approval-diff-${d.op}`, `${prefix}${revealControlChars(d.text)}\n`));
            }
            diff.tabIndex = 0;
            section.appendChild(diff);
        }
        const pre = el(doc, 'pre', 'sandy-approval-pre sandy-approval-dockerfile-text', revealControlChars(dockerfile.text));
        pre.tabIndex = 0;
        pre.setAttribute('aria-label', `Contents of ${dockerfile.path}`);
        section.appendChild(pre);
        if (dockerfile.contextFiles.length) {
            section.appendChild(el(doc, 'p', undefined, 'Also in the build context (a change to any of them asks again):'));
            const list = el(doc, 'ul', 'sandy-approval-context-files');
            for (const f of dockerfile.contextFiles) {
                list.appendChild(el(doc, 'li', undefined, revealControlChars(f)));
            }
            section.appendChild(list);
        }
        if (dockerfile.unhashedFiles.length) {
            const warning = el(doc, 'p', 'sandy-approval-changed',
                'Also built with, but NOT covered by sandy\'s approval (sandy does not hash files named config or .secrets; '
                + 'a later change to them is never asked about):');
            section.appendChild(warning);
            const list = el(doc, 'ul', 'sandy-approval-unhashed-files');
            for (const f of dockerfile.unhashedFiles) {
                list.appendChild(el(doc, 'li', undefined, revealControlChars(f)));
            }
            section.appendChild(list);
        }
        return section;
    }

    protected renderLine(line: ApprovalLine): HTMLElement {
        const doc = this.doc;
        const row = el(doc, 'div', `sandy-approval-line sandy-approval-line-${line.change}`);
        row.dataset.key = line.key;
        const meta = el(doc, 'div', 'sandy-approval-line-meta');
        meta.appendChild(el(doc, 'span', 'sandy-approval-key', line.key));
        meta.appendChild(el(doc, 'span', 'sandy-approval-location', `${line.source === 'secrets' ? '.sandy/.secrets' : '.sandy/config'} line ${line.line}`));
        meta.appendChild(el(doc, 'span', 'sandy-approval-change', CHANGE_LABELS[line.change]));
        if (line.reason === 'weakening-value') {
            meta.appendChild(el(doc, 'span', 'sandy-approval-reason', 'weakens isolation'));
        }
        row.appendChild(meta);
        const pre = el(doc, 'pre', 'sandy-approval-pre', line.text);
        pre.tabIndex = 0;
        pre.setAttribute('aria-label', `${line.key} line from ${line.filePath}`);
        row.appendChild(pre);
        if (line.masked) {
            const reveal = el(doc, 'button', 'sandy-approval-reveal', 'Reveal');
            reveal.type = 'button';
            reveal.setAttribute('aria-pressed', 'false');
            reveal.setAttribute('aria-label', `Reveal the value of ${line.key}`);
            let shown = false;
            reveal.onclick = async () => {
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
                reveal.textContent = shown ? 'Hide' : 'Reveal';
                reveal.setAttribute('aria-pressed', String(shown));
            };
            row.appendChild(reveal);
        }
        if (line.description) {
            row.appendChild(el(doc, 'p', 'sandy-approval-description', line.description));
        }
        return row;
    }

    protected fileLink(filePath: string, line?: number): HTMLElement {
        const doc = this.doc;
        const text = line ? `${filePath}:${line}` : filePath;
        if (!this.host.openFile) {
            return el(doc, 'span', 'sandy-approval-path', text);
        }
        const a = el(doc, 'a', 'sandy-approval-path', text);
        a.href = '#';
        a.onclick = e => {
            e.preventDefault();
            this.host.openFile?.(filePath, line);
        };
        return a;
    }

    protected renderButtons(request: ApprovalRequest): HTMLElement {
        const doc = this.doc;
        const bar = el(doc, 'div', 'sandy-approval-actions');
        const button = (label: string, decision: ApprovalDecision, primary = false) => {
            const b = el(doc, 'button', `theia-button sandy-approval-${decision}${primary ? ' primary main' : ' secondary'}`, label);
            b.type = 'button';
            b.dataset.decision = decision;
            b.onclick = () => this.host.decide(decision);
            bar.appendChild(b);
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
