import { inject, injectable } from '@theia/core/shared/inversify';
import { OpenerService, open } from '@theia/core/lib/browser';
import { WindowService } from '@theia/core/lib/browser/window/window-service';
import URI from '@theia/core/lib/common/uri';
import { MessageService } from '@theia/core';
import { classifyLink } from '@sandy-ui/core/lib/common/links';

/** Opens links from sandy's terminal: web links in a new browser tab, file links in an editor. */
@injectable()
export class SandyLinkOpener {
    @inject(WindowService) protected readonly windowService: WindowService;
    @inject(OpenerService) protected readonly openerService: OpenerService;
    @inject(MessageService) protected readonly messages: MessageService;

    async open(uri: string): Promise<void> {
        const action = classifyLink(uri);
        if (action.kind === 'external') {
            this.windowService.openNewWindow(action.url, { external: true });
        } else if (action.kind === 'file') {
            await open(this.openerService, new URI(action.url));
        } else {
            this.messages.warn(action.message);
        }
    }
}
