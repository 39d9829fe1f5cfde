import { expect } from 'chai';
import * as path from 'path';
import { probeScreenWorker } from '../support/screen-worker-probe';

describe('browser-app: the sessions\' screen worker (built bundle)', () => {
    it('is beside the backend\'s main.js and parses a screen (browser-app/esbuild.mjs adds its entry)', async () => {
        const file = path.resolve(__dirname, '..', '..', '..', 'browser-app', 'lib', 'backend', 'screen-worker.js');
        const { replay, notifications } = await probeScreenWorker(file, '\x1b]9;x\x07parsed in the browser-app\'s worker\r\n');
        expect(replay).to.contain('parsed in the browser-app\'s worker');
        expect(notifications, 'its OSC 9 parsed there').to.deep.equal(['osc9:x']);
    });
});
