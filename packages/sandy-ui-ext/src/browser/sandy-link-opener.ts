import { inject, injectable } from '@theia/core/shared/inversify';
import { OpenerService, open } from '@theia/core/lib/browser';
import { WindowService } from '@theia/core/lib/browser/window/window-service';
import URI from '@theia/core/lib/common/uri';
import { MessageService } from '@theia/core';

/** Opens links from sandy's terminal: web links in a new browser tab, file links in an editor. */
@injectable()
export class SandyLinkOpener {
    @inject(WindowService) protected readonly windowService: WindowService;
    @inject(OpenerService) protected readonly openerService: OpenerService;
    @inject(MessageService) protected readonly messages: MessageService;

    async open(uri: string): Promise<void> {
        let parsed: URL;
        try {
            parsed = new URL(uri);
        } catch {
            this.messages.warn(`Sandy: not a valid link: ${uri.slice(0, 200)}`);
            return;
        }
        if (parsed.protocol === 'http:' || parsed.protocol === 'https:' || parsed.protocol === 'mailto:') {
            this.windowService.openNewWindow(parsed.toString(), { external: true });
        } else if (parsed.protocol === 'file:') {
            await open(this.openerService, new URI(parsed.toString()));
        } else {
            this.messages.warn(`Sandy: links with ${parsed.protocol} are not opened.`);
        }
    }
}
