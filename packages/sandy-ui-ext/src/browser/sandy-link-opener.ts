import { inject, injectable } from '@theia/core/shared/inversify';
import { ConfirmDialog, OpenerService, open } from '@theia/core/lib/browser';
import { WindowService } from '@theia/core/lib/browser/window/window-service';
import URI from '@theia/core/lib/common/uri';
import { ILogger } from '@theia/core';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { classifyLink, externalLinkPrompt, LINK_REFUSED_TEXT } from '@sandy-ui/core/common';
import { SandyMessages } from './sandy-messages';

/**
 * Opens the links of a sandy terminal the user clicked, by core's policy (links.ts): http(s) in a
 * browser tab after a confirmation that shows the exact URL (Theia has no "open external link?" of
 * its own, and the agent chose both the link and its text), files inside the session's workspace
 * in an editor, nothing else.
 */
@injectable()
export class SandyLinkOpener {
    @inject(WindowService) protected readonly windowService: WindowService;
    @inject(OpenerService) protected readonly openerService: OpenerService;
    @inject(SandyMessages) protected readonly messages: SandyMessages;
    @inject(FileService) protected readonly fileService: FileService;
    @inject(ILogger) protected readonly logger: ILogger;

    /** `workspace`: the canonical workspace folder of the session whose terminal showed the link. */
    async open(uri: string, workspace: string): Promise<void> {
        const action = classifyLink(uri, workspace);
        if (action.kind === 'external') {
            const prompt = externalLinkPrompt(action.url);
            // ConfirmDialog sets its message as textContent: the URL cannot be markup.
            const confirmed = await new ConfirmDialog({ title: prompt.title, msg: prompt.message, ok: prompt.ok }).open();
            if (confirmed) {
                this.windowService.openNewWindow(action.url, { external: true });
            }
        } else if (action.kind === 'file') {
            if (await this.noSymlinkBelow(workspace, action.path)) {
                await open(this.openerService, URI.fromFilePath(action.path));
            } else {
                this.refuse(LINK_REFUSED_TEXT['outside-workspace']);
            }
        } else {
            this.refuse(action.message);
        }
    }

    /**
     * The agent writes the workspace, so a path inside it may still lead out through a symlink it
     * planted: every component below the workspace must exist and be no symlink. (The frontend cannot
     * realpath; a symlink swapped in after this check and before the editor reads is not caught.)
     */
    protected async noSymlinkBelow(workspace: string, target: string): Promise<boolean> {
        const parts = target.slice(workspace.replace(/\/+$/, '').length).split('/').filter(Boolean);
        let current = workspace.replace(/\/+$/, '');
        for (const part of parts) {
            current = `${current}/${part}`;
            try {
                const stat = await this.fileService.resolve(URI.fromFilePath(current), { resolveMetadata: false });
                if (stat.isSymbolicLink) {
                    return false;
                }
            } catch {
                return false;
            }
        }
        return parts.length > 0;
    }

    protected refuse(message: string): void {
        this.logger.warn(message);
        // Fixed text from core: nothing the agent wrote reaches the (markdown) notification.
        this.messages.warn(message);
    }
}
