import { recorded, resetFakeVscode } from './testing/fake-vscode';
import { expect } from 'chai';
import { showError, showInfo, showWarning } from './messages';

/** VS Code's message link grammar: `[label](target)`, which it renders as a clickable link. */
const VSCODE_LINK = /\[[^\]]*\]\((?:command:|https?:|file:)[^)]*\)/;

describe('VS Code plugin: every message is text (unit)', () => {
    beforeEach(resetFakeVscode);

    it('a project folder named as a command link reaches showInformationMessage as no link', async () => {
        const name = '[Open](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22id%5Cn%22%7D)';
        await showInfo(`Sandy: ${name} has no running session.`, 'Reattach');
        await showWarning(`Sandy (${name}): warning`);
        await showError(`Sandy: could not start in /home/u/${name}`);
        const messages = [...recorded.infos.map(m => m.message), ...recorded.warnings, ...recorded.errors];
        expect(messages).to.have.length(3);
        for (const m of messages) {
            expect(m).to.not.match(VSCODE_LINK);
            // What the user reads is the name as it is (the joiners are invisible).
            expect(m.replace(/\u2060/g, '')).to.include(name);
        }
        expect(recorded.infos[0].items).to.deep.equal(['Reattach']);
    });
});
