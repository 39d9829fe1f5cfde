import { expect } from 'chai';
import { ViewVisibility } from './event';

describe('ViewVisibility', () => {
    it('reports only when "any view visible" flips', () => {
        const changes: boolean[] = [];
        const v = new ViewVisibility(any => changes.push(any));
        v.set('a', true);
        v.set('b', true);
        v.set('a', false);
        v.set('b', false);
        v.set('b', false);
        expect(changes).to.deep.equal([true, false]);
    });
});
