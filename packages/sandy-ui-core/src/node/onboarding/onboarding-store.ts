import * as fs from 'fs';
import * as path from 'path';
import { OnboardingState, parseOnboardingState } from '../../common/onboarding/onboarding-state';
import { writeFileAtomic } from '../config/config-io';
import { readPrivateFileAsync } from '../host/private-file';

/** The folder of the IDE's per-user onboarding files (the spec's `~/.sandy-ui`), shared by every host. */
export function onboardingDir(home: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
    const override = env.SANDY_UI_ONBOARDING_DIR;
    return override && path.isAbsolute(override) ? override : path.join(home, '.sandy-ui');
}

const MAX_STATE_BYTES = 64 * 1024;

/**
 * `~/.sandy-ui/onboarding.json`: read bounded and without following a symlink (a damaged, foreign
 * or oversized file is a fresh start; its absence is `undefined`: the wizard never ran), written
 * atomically, 0600.
 */
export class OnboardingStore {
    readonly file: string;

    constructor(readonly dir: string) {
        this.file = path.join(dir, 'onboarding.json');
    }

    async read(): Promise<OnboardingState | undefined> {
        try {
            await fs.promises.lstat(this.file);
        } catch {
            return undefined;
        }
        const text = await readPrivateFileAsync(this.file, MAX_STATE_BYTES, { sameUser: true });
        if (text === undefined) {
            return parseOnboardingState(undefined);
        }
        try {
            return parseOnboardingState(JSON.parse(text));
        } catch {
            return parseOnboardingState(undefined);
        }
    }

    async write(state: OnboardingState): Promise<OnboardingState> {
        const clean = parseOnboardingState(state);
        await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
        await writeFileAtomic(this.file, JSON.stringify(clean, undefined, 2) + '\n', { mode: 0o600 });
        return clean;
    }

    /** The empty folder a fix or a login runs in (`~/.sandy-ui/terminal`): made once, a real folder, never a link. */
    terminalFolder(): Promise<string> {
        return this.privateFolder('terminal');
    }

    protected async privateFolder(name: string): Promise<string> {
        const folder = path.join(this.dir, name);
        await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
        try {
            await fs.promises.mkdir(folder, { mode: 0o700 });
        } catch (e) {
            if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
                throw e;
            }
        }
        const stat = await fs.promises.lstat(folder);
        if (!stat.isDirectory()) {
            throw new Error(`${folder} is not a folder (a symlink or a file is there); remove it and try again.`);
        }
        return folder;
    }

    /**
     * The throwaway workspace of the wizard's build and test session (`~/.sandy-ui/first-session`):
     * made once, a real folder (a symlink there is refused, never followed), with a note saying what it is.
     */
    async firstSessionWorkspace(): Promise<string> {
        const folder = await this.privateFolder('first-session');
        const note = path.join(folder, 'README.md');
        await fs.promises.writeFile(note, FIRST_SESSION_NOTE, { flag: 'wx', mode: 0o600 }).catch(() => undefined);
        return folder;
    }
}

const FIRST_SESSION_NOTE = '# Sandy: first session\n\n'
    + 'The Sandy IDE\'s Get Started wizard builds sandy\'s images and runs a test session here.\n'
    + 'Nothing of yours is in this folder; you can delete it (and its sandbox: `sandy --remove-sandbox` run here).\n';
