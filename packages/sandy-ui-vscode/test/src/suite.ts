/**
 * One code-server with the plugin for a describe block: the world made and seeded, the .vsix installed, the server
 * and a browser window up in `before`; a failed test's screenshot and logs saved; everything gone in `after`.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { CodeServer, CodeServerOptions, saveFailureEvidence } from './code-server';
import { platformVsix, requireCompiledFake, World } from './world';
import { openWorkbench, Workbench } from './workbench';

export interface CodeServerSuite {
    world: World;
    server: CodeServer;
    browser: Browser;
    page: Page;
    bench: Workbench;
}

export interface CodeServerSuiteOptions {
    label: string;
    /** Whether ~/.sandy-ui says Get Started was finished (World's default: yes). */
    onboarded?: boolean;
    /** Prepares the world before the server starts; returns the folder the window opens and its server's options. */
    seed: (world: World) => Omit<CodeServerOptions, 'label' | 'vsix'> & { vsix?: string };
}

/** Call inside a `describe`: the returned object is filled in by its `before`. */
export function useCodeServer(options: CodeServerSuiteOptions): CodeServerSuite {
    const suite = {} as CodeServerSuite;
    before(async function (): Promise<void> {
        requireCompiledFake();
        CodeServer.requireInstalled();
        suite.world = new World(options.label, options.onboarded ?? true);
        const { vsix, ...rest } = options.seed(suite.world);
        suite.server = new CodeServer(suite.world, { label: options.label, vsix: vsix ?? platformVsix(), ...rest });
        expect(suite.server.installExtension()).to.contain('was successfully installed');
        await suite.server.start();
        Object.assign(suite, await openWorkbench(suite.server));
    });
    afterEach(async function (): Promise<void> {
        if (this.currentTest?.state === 'failed' && suite.page) {
            await saveFailureEvidence(options.label, this.currentTest.title, suite.page, suite.server);
        }
    });
    after(async () => {
        await suite.browser?.close().catch(() => undefined);
        await suite.world?.dispose(!!process.env.SANDY_E2E_KEEP);
    });
    return suite;
}
