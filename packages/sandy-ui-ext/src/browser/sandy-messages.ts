import { inject, injectable } from '@theia/core/shared/inversify';
import { MessageService } from '@theia/core';
import { plainMessageText } from '@sandy-ui/core/common';

/**
 * Every Sandy toast in the Theia IDE goes through here. Theia renders a message as inline markdown
 * (a `[label](command:…)` becomes a command link), and project names, paths, warnings and sandy's own
 * output come from the workspace; core's neutraliser shows them exactly as they are, as text. (An
 * agent's OSC notifications are neutralised upstream, with their coalescing, and use MessageService.)
 */
@injectable()
export class SandyMessages {
    @inject(MessageService) protected readonly messages: MessageService;

    info<T extends string>(text: string, ...actions: T[]): Promise<T | undefined> {
        return this.messages.info(plainMessageText(text, 'markdown'), ...actions);
    }

    warn<T extends string>(text: string, ...actions: T[]): Promise<T | undefined> {
        return this.messages.warn(plainMessageText(text, 'markdown'), ...actions);
    }

    error<T extends string>(text: string, ...actions: T[]): Promise<T | undefined> {
        return this.messages.error(plainMessageText(text, 'markdown'), ...actions);
    }
}
