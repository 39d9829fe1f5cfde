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

    it('marks each step once with VS Code\'s welcome.markStepComplete and the full step id; a refusal is tried again, a few times; none without the command', async () => {
        const calls: unknown[][] = [];
        const ticks = new WalkthroughTicks('rappdw.sandy-ui', async (...args) => { calls.push(args); }, async () => true);
        ticks.update({ state: 'empty', launched: false });
        ticks.update({ state: 'ready', launched: false });
        ticks.update({ state: 'ready', launched: false });
        expect(calls).to.deep.equal([
            ['welcome.markStepComplete', 'rappdw.sandy-ui#getStarted#install'],
            ['welcome.markStepComplete', 'rappdw.sandy-ui#getStarted#addProject']
        ]);
        const settle = () => new Promise(r => setTimeout(r, 0));

        // VS Code has the command but does not know the steps yet: tried again at the next update, at most 3 times here.
        let early = 0;
        const registering = new WalkthroughTicks('rappdw.sandy-ui', () => { early++; return Promise.reject(new Error('Attempting to access step which does not exist in registry')); }, async () => true, 3);
        for (let i = 0; i < 6; i++) {
            registering.update({ state: 'empty', launched: false });
            await settle();
        }
        expect(early, 'three tries of the one step').to.equal(3);

        // Theia's plugin host: no such command, so it stops trying.
        let tries = 0;
        const theia = new WalkthroughTicks('rappdw.sandy-ui', () => { tries++; return Promise.reject(new Error('command \'welcome.markStepComplete\' not found')); }, async () => false);
        theia.update({ state: 'ready', launched: false });
        await settle();
        await settle();
        theia.update({ state: 'ready', launched: true });
        expect(tries, 'not tried again once the command is known to be missing').to.equal(2);
    });
});
