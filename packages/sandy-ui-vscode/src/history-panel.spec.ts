import { changeColorTheme, changeSettings, FakeUri, recorded, resetFakeVscode } from './testing/fake-vscode';
import { expect } from 'chai';
import type { HistoryRecord, SessionInfo } from '@sandy-ui/core/common';
import { SimpleEmitter } from '@sandy-ui/core/common';
import { HistoryPanelDeps, HistoryPanels } from './history-panel';

const RECORD: HistoryRecord = {
    id: '2026-12-06-alpha-0001', workspace: '/w/alpha', project: 'alpha', sandbox: 'alpha', agent: 'claude', mode: 'daemon',
    startedAt: 0, endedAt: 1000, exitCode: 0, bytes: 5, truncated: false
};

function deps(): HistoryPanelDeps {
    return {
        service: {
            listHistory: async () => [RECORD],
            readHistory: async () => undefined,
            removeHistory: async () => undefined
        } as unknown as HistoryPanelDeps['service'],
        ui: { confirm: async () => false, error: () => undefined, writeClipboard: async () => undefined } as unknown as HistoryPanelDeps['ui'],
        projects: () => [],
        launch: async () => undefined,
        onDidChangeSession: new SimpleEmitter<SessionInfo>().event,
        log: { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as HistoryPanelDeps['log'],
        extensionUri: FakeUri.file('/ext') as unknown as HistoryPanelDeps['extensionUri']
    };
}

describe('VS Code plugin: the history viewer draws with the user\'s terminal font (unit)', () => {
    beforeEach(() => resetFakeVscode());

    it('its page is sent VS Code\'s terminal settings when it is ready and at each change, and each colour theme change; a font family that is not a list is not', () => {
        changeSettings({ 'terminal.integrated.fontSize': 18 });
        const panels = new HistoryPanels(deps());
        panels.openViewer(RECORD);
        const panel = recorded.panels[0];
        const appearances = () => panel.posted.filter(m => (m as { type: string }).type === 'appearance');
        expect(appearances(), 'nothing before the page is ready').to.deep.equal([]);
        panel.fromPage.fire({ type: 'ready' });
        expect(appearances()).to.deep.equal([{ type: 'appearance', cursorBlink: false, cursorStyle: 'block', fontSize: 18, gpuAcceleration: 'auto' }]);

        changeSettings({ 'terminal.integrated.fontSize': 22, 'terminal.integrated.fontFamily': 'evil; } .xterm-rows { font-size: 3px } .x {' });
        expect(appearances().slice(1)).to.deep.equal([{ type: 'appearance', cursorBlink: false, cursorStyle: 'block', fontSize: 22, gpuAcceleration: 'auto' }]);
        changeSettings({ 'editor.fontSize': 30 });
        expect(appearances(), 'another setting: nothing sent').to.have.length(2);
        changeSettings({ 'terminal.integrated.fontFamily': 'evil; } .x { color: red' });
        expect(appearances(), 'a terminal setting whose value is dropped changes nothing: nothing sent').to.have.length(2);
        panel.fromPage.fire({ type: 'ready' });
        expect(appearances(), 'a reloaded page is sent it again').to.have.length(3);
        const themes = () => panel.posted.filter(m => (m as { type: string }).type === 'theme');
        changeColorTheme();
        expect(themes(), 'the page reads the new colours').to.deep.equal([{ type: 'theme' }]);

        panel.dispose();
        changeSettings({ 'terminal.integrated.fontSize': 12 });
        changeColorTheme();
        expect(appearances(), 'a closed viewer listens no more').to.have.length(3);
        expect(themes()).to.have.length(1);
        panels.dispose();
    });
});
