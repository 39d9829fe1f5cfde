import { expect } from 'chai';
import { describeValidateResult } from './settings-results';

describe('settings-results: describeValidateResult (unit)', () => {
    it('summarises a verdict without claiming values were checked', () => {
        expect(describeValidateResult({
            path: '/w/.sandy/config', errors: [], unknown_keys: ['SANDY_TYPO'], approval_status: 'pending',
            privileged_keys_requiring_approval: ['SANDY_SSH'],
            warnings: [{ key: 'SANDY_SSH', message: 'privileged' }, { key: 'SANDY_HOST_ID', message: 'env-only key set in a config file' }]
        })).to.deep.equal([
            'Needs your approval at the next launch: SANDY_SSH.',
            'SANDY_HOST_ID: env-only key set in a config file',
            'sandy does not know (and ignores): SANDY_TYPO.'
        ]);
        expect(describeValidateResult({ path: '/h/.sandy/config', errors: [], warnings: [], unknown_keys: [] }))
            .to.deep.equal(['sandy --validate-config found nothing to report in config.']);
    });
});
