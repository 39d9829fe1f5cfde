import { inject, injectable } from '@theia/core/shared/inversify';
import { ConfirmDialog, QuickInputService, QuickPickItem } from '@theia/core/lib/browser';
import { MessageService } from '@theia/core/lib/common/message-service';
import { ClipboardService } from '@theia/core/lib/browser/clipboard-service';
import URI from '@theia/core/lib/common/uri';
import { FileDialogService } from '@theia/filesystem/lib/browser';
import { WorkspaceService } from '@theia/workspace/lib/browser';
import type { HostUi, PickItem } from '@sandy-ui/core/common';
import { cleanNotificationText, MAX_MESSAGE_TEXT, plainDetailText, plainMessageText } from '@sandy-ui/core/common';
import { SandyMessages } from './sandy-messages';

/** Core's {@link HostUi} port in Theia: messages (as text, through SandyMessages), quick picks, dialogs, clipboard. */
@injectable()
export class SandyHostUi implements HostUi {
    @inject(SandyMessages) protected readonly messages: SandyMessages;
    @inject(QuickInputService) protected readonly quickInput: QuickInputService;
    @inject(ClipboardService) protected readonly clipboard: ClipboardService;
    @inject(FileDialogService) protected readonly fileDialogs: FileDialogService;
    @inject(WorkspaceService) protected readonly workspaces: WorkspaceService;
    @inject(MessageService) protected readonly messageService: MessageService;

    info(message: string, ...actions: string[]): Promise<string | undefined> {
        return this.messages.info(message, ...actions);
    }

    warn(message: string, ...actions: string[]): Promise<string | undefined> {
        return this.messages.warn(message, ...actions);
    }

    error(message: string, ...actions: string[]): Promise<string | undefined> {
        return this.messages.error(message, ...actions);
    }

    async confirm(options: { title: string; message: string; detail?: string; ok: string }): Promise<boolean> {
        // As text (sandy's plans name workspaces): the message, then the detail with its lines kept (a plan is a table).
        const msg = document.createElement('div');
        msg.className = 'sandy-confirm-message';
        const message = document.createElement('p');
        message.textContent = cleanNotificationText(options.message, MAX_MESSAGE_TEXT);
        msg.append(message);
        if (options.detail) {
            const detail = document.createElement('pre');
            detail.className = 'sandy-confirm-detail';
            detail.style.whiteSpace = 'pre-wrap';
            detail.textContent = plainDetailText(options.detail);
            msg.append(detail);
        }
        return !!await new ConfirmDialog({ title: options.title, msg, ok: options.ok }).open();
    }

    async input(options: { title: string; placeholder: string; validate?: (value: string) => string | undefined }): Promise<string | undefined> {
        return this.quickInput.input({
            // No `prompt`: Theia renders it with links and icons, and it would carry a project's name.
            title: options.title, placeHolder: options.placeholder,
            validateInput: async value => options.validate?.(value)
        });
    }

    async withProgress<T>(title: string, task: () => Promise<T>): Promise<T> {
        const progress = await this.messageService.showProgress({ text: plainMessageText(title, 'markdown') });
        try {
            return await task();
        } finally {
            progress.cancel();
        }
    }

    async pick<T>(items: PickItem<T>[], placeholder: string): Promise<T | undefined> {
        return (await this.quickInput.showQuickPick(items.map(i => ({ label: i.label, description: i.description, detail: i.detail, value: i.value })), { placeholder }))?.value;
    }

    pickMany<T>(items: Array<PickItem<T> & { picked?: boolean }>, placeholder: string): Promise<T[] | undefined> {
        const quickPick = this.quickInput.createQuickPick<QuickPickItem & { value: T }>();
        const rows = items.map(i => ({ label: i.label, description: i.description, detail: i.detail, value: i.value }));
        quickPick.canSelectMany = true;
        quickPick.placeholder = placeholder;
        quickPick.items = rows;
        quickPick.selectedItems = rows.filter((_, n) => items[n].picked);
        return new Promise(resolve => {
            let accepted = false;
            quickPick.onDidAccept(() => {
                accepted = true;
                resolve(quickPick.selectedItems.map(r => r.value));
                quickPick.hide();
            });
            quickPick.onDidHide(() => {
                if (!accepted) {
                    resolve(undefined);
                }
                quickPick.dispose();
            });
            quickPick.show();
        });
    }

    async writeClipboard(text: string): Promise<void> {
        await this.clipboard.writeText(text);
    }

    async pickFolder(options: { title: string; openLabel: string }): Promise<string | undefined> {
        const picked = await this.fileDialogs.showOpenDialog({ title: options.title, canSelectFolders: true, canSelectFiles: false, openLabel: options.openLabel },
            this.workspaces.tryGetRoots()[0]);
        const uri = Array.isArray(picked) ? picked[0] : picked;
        return uri?.path.fsPath();
    }

    async openFolderInNewWindow(folder: string): Promise<void> {
        this.workspaces.open(new URI().withScheme('file').withPath(folder), { preserveWindow: false });
    }
}
