import { expect } from 'chai';
import { FLEET_ACTIONS, fleetAction, fleetArgs, fleetOptionsProblem, planSaysNothingToDo } from './fleet';
import { plainDetailText } from '../terminal/notification-text';

describe('fleet maintenance: sandy\'s argv and plans (unit)', () => {
    const action = (id: string) => fleetAction(id)!;

    it('plans are dry runs, runs say yes (sandy has no terminal to ask), prune-orphans and doctor take neither', () => {
        expect(fleetArgs(action('gc'), 'plan')).to.deep.equal(['--gc', '--dry-run']);
        expect(fleetArgs(action('gc'), 'run')).to.deep.equal(['--gc', '--yes']);
        expect(fleetArgs(action('stopAll'), 'run')).to.deep.equal(['--stop-all', '--yes']);
        expect(fleetArgs(action('updateSessions'), 'plan', { idleForMinutes: 30 })).to.deep.equal(['--update-sessions', '--idle-for', '30', '--dry-run']);
        expect(fleetArgs(action('removeOrphans'), 'plan')).to.deep.equal(['--remove-sandbox', '--orphans', '--dry-run']);
        expect(fleetArgs(action('pruneOrphans'), 'run')).to.deep.equal(['--prune-orphans']);
        expect(fleetArgs(action('doctor'), 'run')).to.deep.equal(['--doctor']);
        expect(FLEET_ACTIONS.every(a => a.flag.startsWith('--'))).to.equal(true);
    });

    it('Attack: options that would widen what sandy does are refused, never dropped', () => {
        for (const bad of [{ idleForMinutes: 0 }, { idleForMinutes: -5 }, { idleForMinutes: 1.5 }, { idleForMinutes: 1e21 }, { idleForMinutes: '30 --yes' },
            { targets: ['--all'] }, { targets: ['a b'] }, { targets: 'gone-1' }, { extra: 1 }, [], 'x']) {
            expect(fleetOptionsProblem(bad), JSON.stringify(bad)).to.be.a('string');
            expect(() => fleetArgs(action('updateSessions'), 'run', bad as never), JSON.stringify(bad)).to.throw();
        }
        expect(fleetOptionsProblem({ idleForMinutes: 30, targets: ['gone-1a2b3c4d'] })).to.equal(undefined);
        expect(fleetAction('__proto__')).to.equal(undefined);
    });

    it('knows sandy 1.7.1\'s words for nothing to do (real outputs: fixture 99d and a run with the stub Docker)', () => {
        expect(planSaysNothingToDo('gc', '\nsandy --gc: reclaim plan\n\n[sandy] Nothing to reclaim.\n')).to.equal(true);
        expect(planSaysNothingToDo('gc', '\nsandy --gc: reclaim plan\n  containers: 2\n')).to.equal(false);
        expect(planSaysNothingToDo('stopAll', '[sandy] No daemon sessions to stop.\n')).to.equal(true);
        expect(planSaysNothingToDo('stopAll', 'sandy --stop-all: 1 daemon session(s)\n')).to.equal(false);
        expect(planSaysNothingToDo('updateSessions', '[sandy] No daemon sessions found on this host.\n')).to.equal(true);
        expect(planSaysNothingToDo('updateSessions', '[sandy] Found 1 daemon session(s).\n')).to.equal(false);
    });

    it('a plan is shown as text with its lines: no control or reordering characters, long plans cut and said so', () => {
        const evil = 'sandy --remove-sandbox: 1 target(s)\n  - ws\u202e-evil \u001b[31mred\u0007\nWill be removed: nothing\r\n';
        expect(plainDetailText(evil)).to.equal('sandy --remove-sandbox: 1 target(s)\n  - ws-evil [31mred\nWill be removed: nothing');
        const long = plainDetailText(Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n'));
        expect(long.split('\n')).to.have.length(41);
        expect(long.endsWith('(60 more lines not shown)')).to.equal(true);
    });
});
