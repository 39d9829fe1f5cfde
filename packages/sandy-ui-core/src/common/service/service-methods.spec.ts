import { expect } from 'chai';
import { SANDY_SERVICE_METHODS } from './service-protocol';

describe('SandyService method names', () => {
    it('none is one Theia\'s RPC proxy sends as a notification (no answer): nothing starts with "on" or "notify"', () => {
        expect(SANDY_SERVICE_METHODS.filter(m => /^(on|notify)/.test(m))).to.deep.equal([]);
    });
});
