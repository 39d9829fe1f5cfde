import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { ApplicationShell, codicon, Message, WidgetManager } from '@theia/core/lib/browser';
import { TerminalService } from '@theia/terminal/lib/browser/base/terminal-service';
import { WizardView } from '@sandy-ui/core/browser/onboarding';
import { WIZARD_CAPTION, WIZARD_TITLE, WizardController } from '@sandy-ui/core/common';
import { SandyService } from '@sandy-ui/backend/lib/common';
import { openPageWidget, SandyPageWidget } from './sandy-page-widget';
import { SandyStateService } from './sandy-state-service';
import { SandyTerminalManager } from './sandy-terminal-manager';
import { SandyHostUi } from './sandy-host-ui';
import { SandyProjectCommands } from './sandy-project-commands';
import { openSettingsEditor } from './sandy-view-contribution';

export const SANDY_WIZARD_WIDGET_ID = 'sandy-get-started';

/**
 * "Sandy: Get Started" in an editor tab: core's WizardView driven by core's WizardController. The
 * ports are Theia's: the clipboard and notifications (SandyHostUi), a terminal tab for a fix command
 * (always one of core's), the settings editor, the project commands' launch and Add Project.
 */
@injectable()
export class SandyWizardWidget extends SandyPageWidget {
    @inject(SandyService) protected readonly service: SandyService;
    @inject(SandyStateService) protected readonly state: SandyStateService;
    @inject(SandyTerminalManager) protected readonly terminals: SandyTerminalManager;
    @inject(SandyHostUi) protected readonly ui: SandyHostUi;
    @inject(SandyProjectCommands) protected readonly projects: SandyProjectCommands;
    @inject(TerminalService) protected readonly terminalService: TerminalService;
    @inject(WidgetManager) protected readonly widgets: WidgetManager;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;

    protected view: WizardView;
    protected controller: WizardController;

    protected get pageController() {
        return this.controller;
    }

    protected get pageView() {
        return { focus: () => (this.node.querySelector<HTMLElement>('.sandy-wizard-button-primary:not([disabled])') ?? this.node).focus() };
    }

    @postConstruct()
    protected init(): void {
        this.id = SANDY_WIZARD_WIDGET_ID;
        this.addClass('sandy-wizard-widget');
        this.title.label = WIZARD_TITLE;
        this.title.caption = WIZARD_CAPTION;
        this.title.closable = true;
        this.title.iconClass = codicon('rocket');
        this.node.tabIndex = -1;
        this.view = new WizardView(this.node, { act: action => void this.controller.act(action) });
        const window = this.state.window;
        this.controller = new WizardController({
            service: this.service,
            view: { render: model => this.view.render(model) },
            host: {
                writeClipboard: text => this.ui.writeClipboard(text),
                info: message => void this.ui.info(message),
                error: message => void this.ui.error(message),
                runInTerminal: async (title, command, cwd) => {
                    const terminal = await this.terminalService.newTerminal({ title, cwd, useServerTitle: false });
                    await terminal.start();
                    this.terminalService.open(terminal, { mode: 'activate' });
                    terminal.sendText(`${command}\r`);
                },
                openSettings: key => openSettingsEditor(this.widgets, this.shell, undefined, key, 'global'),
                launch: workspace => this.projects.launchFolder(workspace),
                showSession: session => this.terminals.tabs.attach(session),
                addProject: () => this.projects.addProject(),
                sessions: () => window.liveSessions,
                onDidChangeSession: listener => window.onDidChangeSession(listener)
            }
        });
        this.watchPage();
        void this.controller.start();
    }

    protected override onCloseRequest(msg: Message): void {
        void this.controller.dismiss();
        super.onCloseRequest(msg);
    }
}

/** Opens (or reveals) the window's one Get Started tab. */
export function openSandyWizard(widgets: WidgetManager, shell: ApplicationShell): Promise<void> {
    return openPageWidget(widgets, shell, SANDY_WIZARD_WIDGET_ID);
}
