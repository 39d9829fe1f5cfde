import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { WALKTHROUGH_ID, walkthroughStepsDone, WalkthroughTicks } from './walkthrough';

describe('the walkthrough ticks from real state (unit)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', 'package.json'), 'utf8'));

    it('names steps the manifest\'s walkthrough has', () => {
        const walkthrough = manifest.contributes.walkthroughs.find((w: { id: string }) => w.id === WALKTHROUGH_ID);
        const ids = walkthrough.steps.map((s: { id: string }) => s.id);
        for (const step of walkthroughStepsDone({ state: 'ready', launched: true })) {
            expect(ids).to.include(step);
        }
    });

    it('install once sandy is found, addProject once a project is listed, launch once one was launched; nothing while looking or not found', () => {
        expect(walkthroughStepsDone({ state: 'locating', launched: false })).to.deep.equal([]);
        expect(walkthroughStepsDone({ state: 'notFound', launched: false })).to.deep.equal([]);
        expect(walkthroughStepsDone({ state: 'empty', launched: false })).to.deep.equal(['install']);
        expect(walkthroughStepsDone({ state: 'ready', launched: false })).to.deep.equal(['install', 'addProject']);
        expect(walkthroughStepsDone({ state: 'ready', launched: true })).to.deep.equal(['install', 'addProject', 'launch']);
    });

    it('marks each step once with VS Code\'s welcome.markStepComplete and the full step id; stops when the editor has no such command', async () => {
        const calls: unknown[][] = [];
        const ticks = new WalkthroughTicks('rappdw.sandy-ui', async (...args) => { calls.push(args); });
        ticks.update({ state: 'empty', launched: false });
        ticks.update({ state: 'ready', launched: false });
        ticks.update({ state: 'ready', launched: false });
        expect(calls).to.deep.equal([
            ['welcome.markStepComplete', 'rappdw.sandy-ui#getStarted#install'],
            ['welcome.markStepComplete', 'rappdw.sandy-ui#getStarted#addProject']
        ]);
        let tries = 0;
        const theia = new WalkthroughTicks('rappdw.sandy-ui', () => { tries++; return Promise.reject(new Error('command \'welcome.markStepComplete\' not found')); });
        theia.update({ state: 'ready', launched: false });
        await new Promise(r => setTimeout(r, 0));
        theia.update({ state: 'ready', launched: true });
        expect(tries, 'not tried again after the first refusal').to.equal(2);
    });
});
