import { E2eBrowser } from './browser';
import { SandyIde, SandyIdeOptions } from './harness';

export interface E2eSuite {
    readonly ide: SandyIde;
    readonly browser: E2eBrowser;
}

/**
 * Mocha hooks for a describe block: one backend and one chromium for its tests, a screenshot of
 * every window when a test fails, and the test's windows closed after it.
 */
export function useSandyIde(options: SandyIdeOptions): E2eSuite {
    const suite = {} as { ide: SandyIde; browser: E2eBrowser };

    before(async function () {
        this.timeout(120_000);
        suite.ide = await SandyIde.start(options);
        suite.browser = await E2eBrowser.launch();
    });

    after(async function () {
        this.timeout(60_000);
        await suite.browser?.close();
        await suite.ide?.stop();
    });

    afterEach(async function () {
        if (this.currentTest?.state === 'failed') {
            await suite.browser?.screenshotAll(this.currentTest.fullTitle());
        }
        await suite.browser?.closeContexts();
    });

    return suite;
}
