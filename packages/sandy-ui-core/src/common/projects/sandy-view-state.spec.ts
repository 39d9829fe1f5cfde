import { expect } from 'chai';
import { sandyViewState } from './project-labels';

describe('where the window stands with sandy (both hosts\' Projects view, the walkthrough)', () => {
    it('is still looking until a search ended: no snapshot, or not found without a reason, is no verdict', () => {
        expect(sandyViewState(undefined)).to.equal('locating');
        expect(sandyViewState({ status: { found: false }, projects: [] })).to.equal('locating');
        expect(sandyViewState({ status: { found: false, problem: { code: 'not-found', message: 'sandy was not found', hint: '' } }, projects: [] })).to.equal('notFound');
        expect(sandyViewState({ status: { found: true }, projects: [] })).to.equal('empty');
        expect(sandyViewState({ status: { found: true }, projects: [{}] })).to.equal('ready');
    });
});
