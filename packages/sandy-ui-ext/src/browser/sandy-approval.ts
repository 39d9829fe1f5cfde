import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { ApplicationShell, BaseWidget, codicon, Message, open, OpenerService, WidgetManager } from '@theia/core/lib/browser';
import { Deferred } from '@theia/core/lib/common/promise-util';
import URI from '@theia/core/lib/common/uri';
import { ApprovalView } from '@sandy-ui/core/browser/approvals';
import type { ApprovalDecision, ApprovalRequest } from '@sandy-ui/core/common';
import { approvalCaption, approvalTitle } from '@sandy-ui/core/common';
import type { LaunchClearance } from '@sandy-ui/core/common';
import { SandyService } from '@sandy-ui/backend/lib/common';
import { SandyProjectCommands } from './sandy-project-commands';

export const SANDY_APPROVAL_WIDGET_FACTORY_ID = 'sandy-approval';

/** The pre-flight approval view in an editor tab, hosting core's ApprovalView. */
@injectable()
export class SandyApprovalWidget extends BaseWidget {
    @inject(SandyService) protected readonly service: SandyService;
    @inject(OpenerService) protected readonly openerService: OpenerService;

    protected view: ApprovalView;
    protected request: ApprovalRequest | undefined;
    protected pending: Deferred<ApprovalDecision> | undefined;

    @postConstruct()
    protected init(): void {
        this.addClass('sandy-approval-widget');
        this.title.closable = true;
        this.title.iconClass = codicon('shield');
        this.node.tabIndex = -1;
        this.view = new ApprovalView(this.node, {
            decide: decision => this.settle(decision),
            reveal: line => this.request ? this.service.revealApprovalLine(this.request.workspace, this.request.token, line.key, line.line) : Promise.resolve(undefined),
            openFile: (filePath, line) => void open(this.openerService, new URI().withScheme('file').withPath(filePath),
                line ? { selection: { start: { line: line - 1, character: 0 } } } : undefined)
        });
    }

    /** Show a request and wait for the user's decision; closing the tab counts as Reject. */
    setWorkspace(workspace: string): void {
        this.id = `${SANDY_APPROVAL_WIDGET_FACTORY_ID}:${workspace}`;
    }

    ask(request: ApprovalRequest): Promise<ApprovalDecision> {
        this.pending?.resolve('reject');
        this.request = request;
        this.title.label = approvalTitle(request.workspace, request.kind);
        this.title.caption = approvalCaption(request.workspace);
        this.view.render(request);
        this.pending = new Deferred<ApprovalDecision>();
        return this.pending.promise;
    }

    protected settle(decision: ApprovalDecision): void {
        const pending = this.pending;
        this.pending = undefined;
        pending?.resolve(decision);
        this.close();
    }

    protected override onActivateRequest(msg: Message): void {
        super.onActivateRequest(msg);
        (this.node.querySelector<HTMLElement>('.sandy-approval-actions button') ?? this.node).focus();
    }

    override dispose(): void {
        this.pending?.resolve('reject');
        this.pending = undefined;
        super.dispose();
    }
}

export type { LaunchClearance } from '@sandy-ui/core/common';

/** The approval view in Theia (core's ApprovalPort); pre-flight itself is the project commands' (core). */
@injectable()
export class SandyApprovalService {
    @inject(WidgetManager) protected readonly widgetManager: WidgetManager;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;
    @inject(SandyProjectCommands) protected readonly projectCommands: SandyProjectCommands;

    /**
     * Walk the user through pre-flight until the launch may go ahead. Returns what the launch must
     * carry, or undefined when the user rejected (then nothing is started).
     */
    clearForLaunch(workspace: string, first?: ApprovalRequest): Promise<LaunchClearance | undefined> {
        return this.projectCommands.clearForLaunch(workspace, first);
    }

    /** Show the request in the workspace's approval tab and resolve with the user's decision. */
    async ask(request: ApprovalRequest): Promise<ApprovalDecision> {
        const widget = await this.widgetManager.getOrCreateWidget<SandyApprovalWidget>(SANDY_APPROVAL_WIDGET_FACTORY_ID, { workspace: request.workspace });
        const decision = widget.ask(request);
        if (!widget.isAttached) {
            await this.shell.addWidget(widget, { area: 'main' });
        }
        await this.shell.activateWidget(widget.id);
        return decision;
    }
}
