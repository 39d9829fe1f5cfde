import * as React from '@theia/core/shared/react';
import { injectable, interfaces, inject } from '@theia/core/shared/inversify';
import { codicon } from '@theia/core/lib/browser';
import { AboutDialog, AboutDialogProps } from '@theia/core/lib/browser/about-dialog';
import { CommandService } from '@theia/core';
import { GettingStartedWidget } from '@theia/getting-started/lib/browser/getting-started-widget';
import { SandyCommands } from '../sandy-commands';
import { SandyStateService } from '../sandy-state-service';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundler turns the asset into its URL
const SANDY_LOGO: string = require('../../../src/browser/branding/sandy-logo.svg');

/** The Sandy IDE's welcome page: leads to the Sandy view, then the usual Start/Recent sections. */
@injectable()
export class SandyWelcomeWidget extends GettingStartedWidget {
    @inject(CommandService) protected readonly commands: CommandService;
    @inject(SandyStateService) protected readonly sandyState: SandyStateService;

    protected override render(): React.ReactNode {
        // Theia AI ships (disabled) with the plugin host; its advertising has no place on Sandy's welcome page.
        this.aiIsIncluded = false;
        return super.render();
    }

    protected override renderHeader(): React.ReactNode {
        return <div className='gs-header sandy-welcome-header'>
            <img src={SANDY_LOGO} alt='' className='sandy-welcome-logo' />
            <div><h1>Sandy IDE</h1><p className='sandy-welcome-tagline'>Run and supervise coding agents in sandy&apos;s sandboxes.</p></div>
        </div>;
    }

    protected override renderStart(): React.ReactNode {
        const status = this.sandyState.snapshot?.status;
        const action = (label: string, run: () => unknown, id: string) =>
            <div className='gs-action-container'>
                <a role='button' tabIndex={0} id={id} onClick={() => run()} onKeyDown={e => e.key === 'Enter' && run()}>{label}</a>
            </div>;
        return <div className='gs-section sandy-welcome-start'>
            <h3 className='gs-section-header'><i className={codicon('server-environment')}></i>Sandy</h3>
            {action('Open the Sandy view', () => this.commands.executeCommand(SandyCommands.SHOW_VIEW.id), 'sandy-welcome-open-view')}
            {action('Add a project…', () => this.commands.executeCommand(SandyCommands.ADD_PROJECT.id), 'sandy-welcome-add-project')}
            {action('Launch sandy for a project…', () => this.commands.executeCommand(SandyCommands.LAUNCH.id), 'sandy-welcome-launch')}
            {status && !status.found && <p className='sandy-welcome-warning'>sandy was not found on this machine — the Sandy view says how to install it.</p>}
            {super.renderStart()}
        </div>;
    }
}

/** About: Sandy IDE first, then Theia's details. */
@injectable()
export class SandyAboutDialog extends AboutDialog {
    @inject(SandyStateService) protected readonly sandyState: SandyStateService;

    protected override renderHeader(): React.ReactNode {
        const status = this.sandyState.snapshot?.status;
        return <>
            <div className='sandy-about'>
                <img src={SANDY_LOGO} alt='' className='sandy-about-logo' />
                <div>
                    <h2>Sandy IDE</h2>
                    <p>Run and supervise coding agents in sandy&apos;s hardened Docker sandboxes.</p>
                    <p>sandy: {status?.found ? `${status.fullVersion ?? 'unknown version'} at ${status.path}` : 'not found'}</p>
                    {status?.compat && status.compat.severity !== 'none' && <p>{status.compat.message}</p>}
                </div>
            </div>
            {super.renderHeader()}
        </>;
    }
}

export function bindSandyBranding(bind: interfaces.Bind, rebind: interfaces.Rebind): void {
    bind(SandyWelcomeWidget).toSelf();
    rebind(GettingStartedWidget).toService(SandyWelcomeWidget);
    bind(SandyAboutDialog).toSelf().inSingletonScope();
    rebind(AboutDialog).toService(SandyAboutDialog);
    rebind(AboutDialogProps).toConstantValue({ title: 'Sandy IDE' });
}
