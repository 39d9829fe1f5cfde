import { expect } from 'chai';
import { offerWizardAtStart, parseOnboardingState } from './onboarding-state';

describe('onboarding state (~/.sandy-ui/onboarding.json)', () => {
    it('opens the wizard at the first start and whenever sandy is missing, not after it was finished or closed', () => {
        expect(offerWizardAtStart(undefined, true)).to.equal(true);
        expect(offerWizardAtStart({ version: 1, steps: {} }, true)).to.equal(true);
        expect(offerWizardAtStart({ version: 1, steps: {}, finishedAt: 1 }, true)).to.equal(false);
        expect(offerWizardAtStart({ version: 1, steps: {}, dismissedAt: 1 }, true)).to.equal(false);
        expect(offerWizardAtStart({ version: 1, steps: {}, finishedAt: 1 }, false)).to.equal(true);
        // The plugin's rule: not in every window of an editor once the user finished or dismissed it, sandy missing or not.
        expect(offerWizardAtStart({ version: 1, steps: {}, dismissedAt: 1 }, false, false)).to.equal(false);
        expect(offerWizardAtStart({ version: 1, steps: {}, finishedAt: 1 }, false, false)).to.equal(false);
        expect(offerWizardAtStart(undefined, false, false), 'the first start').to.equal(true);
        expect(offerWizardAtStart({ version: 1, steps: {} }, false, false), 'begun, neither finished nor dismissed').to.equal(true);
    });

    it('reads a damaged or hostile file as a fresh start, keeping only what it understands', () => {
        expect(parseOnboardingState('nonsense')).to.deep.equal({ version: 1, steps: {} });
        expect(parseOnboardingState([1])).to.deep.equal({ version: 1, steps: {} });
        expect(parseOnboardingState({
            current: 'build', steps: { prerequisites: 'done', agents: 'maybe', __proto__: 'done', evil: 'done' },
            agents: ['claude', '$(rm -rf ~)', 'claude', 7], finishedAt: 'soon', dismissedAt: 5, extra: { a: 1 }
        })).to.deep.equal({ version: 1, current: 'build', steps: { prerequisites: 'done' }, agents: ['claude'], dismissedAt: 5 });
    });
});
