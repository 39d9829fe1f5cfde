import { formatBytes, SANDY_INSTALL_COMMAND } from '../projects/project-labels';

/**
 * What a machine needs before sandy can run a first session, decided once for `sandy-ui doctor`
 * and the Get Started wizard: each check says what it found, and a failing one names its fix — a
 * command the user can copy or run in a terminal tab. The facts are gathered in
 * `node/onboarding/prerequisites.ts`; every rule and every word is here.
 */

export type PrerequisiteId = 'sandy' | 'compat' | 'docker-cli' | 'docker' | 'disk' | 'sandy-home' | 'local-bin';

export type PrerequisiteStatus = 'ok' | 'warn' | 'fail';

/** A fix the user can take: a shell command of ours (never one a workspace or an agent wrote). */
export interface PrerequisiteFix {
    /** The command, shown verbatim, copyable, and runnable in a terminal tab. */
    command: string;
    /** What running it does, for the button's tooltip. */
    explains: string;
}

/** One line of the checklist. */
export interface PrerequisiteCheck {
    id: PrerequisiteId;
    status: PrerequisiteStatus;
    summary: string;
    hint?: string;
    fix?: PrerequisiteFix;
}

export interface PrerequisiteReport {
    checks: PrerequisiteCheck[];
    /** No check failed: the wizard's Next unlocks. A warning does not hold it back. */
    ok: boolean;
    /** The host's platform (`process.platform`), for the macOS step. */
    platform: string;
}


/** sandy's images and one sandbox take a few GiB; below this a first build fails part way. */
export const DISK_FAIL_BYTES = 5 * 1024 ** 3;
/** Below this a first build fits, but not many rebuilds or projects. */
export const DISK_WARN_BYTES = 15 * 1024 ** 3;

export const PREREQUISITE_TITLES: Record<PrerequisiteId, string> = {
    'sandy': 'sandy installed',
    'compat': 'sandy version',
    'docker-cli': 'Docker installed',
    'docker': 'Docker running',
    'disk': 'Free disk space',
    'sandy-home': 'sandy\'s folder writable',
    'local-bin': '~/.local/bin on PATH'
};

export function reportOf(checks: PrerequisiteCheck[], platform: string): PrerequisiteReport {
    return { checks, ok: !checks.some(c => c.status === 'fail'), platform };
}

export function sandyInstallFix(): PrerequisiteFix {
    return { command: SANDY_INSTALL_COMMAND, explains: 'Downloads sandy\'s installer and runs it: sandy goes to ~/.local/bin.' };
}

export function dockerCliCheck(dockerPath: string | undefined, platform: string): PrerequisiteCheck {
    if (dockerPath) {
        return { id: 'docker-cli', status: 'ok', summary: `docker CLI at ${dockerPath}` };
    }
    return {
        id: 'docker-cli', status: 'fail',
        summary: 'No docker command on PATH: sandy stops with "Docker is not installed or not in PATH."',
        hint: platform === 'darwin'
            ? 'Install Docker Desktop (or colima / OrbStack) and make sure `docker` is on PATH.'
            : 'Install Docker (Docker Desktop, or docker-ce on Linux) and make sure `docker` is on PATH.',
        ...(platform === 'darwin'
            ? { fix: { command: 'brew install --cask docker', explains: 'Installs Docker Desktop with Homebrew; start it once afterwards.' } }
            : platform === 'linux'
                ? { fix: { command: 'curl -fsSL https://get.docker.com | sh', explains: 'Docker\'s own convenience installer (asks for sudo).' } }
                : {})
    };
}

export function dockerDaemonCheck(ping: { ok: true; apiVersion?: string } | { ok: false; reason: string }, platform: string): PrerequisiteCheck {
    if (ping.ok) {
        return { id: 'docker', status: 'ok', summary: `Docker daemon reachable${ping.apiVersion ? ` (API ${ping.apiVersion})` : ''}` };
    }
    return {
        id: 'docker', status: 'fail',
        summary: `Docker daemon not reachable: ${ping.reason}`,
        // sandy's own advice for the same situation (CONTRACT §6.2).
        hint: 'Start Docker (Docker Desktop, or \'sudo systemctl start docker\') and retry.',
        ...(platform === 'darwin'
            ? { fix: { command: 'open -a Docker', explains: 'Starts Docker Desktop.' } }
            : platform === 'linux'
                ? { fix: { command: 'sudo systemctl start docker', explains: 'Starts the Docker service (asks for your password).' } }
                : {})
    };
}

/** Free space where sandy keeps its sandboxes (Docker's images usually live on the same disk). */
export function diskCheck(free: { bytes: number; where: string } | undefined): PrerequisiteCheck {
    if (!free) {
        return { id: 'disk', status: 'warn', summary: 'Could not read the free disk space.', hint: 'sandy\'s first build needs about 5 GiB free.' };
    }
    const text = `${formatBytes(free.bytes)} free on ${free.where}`;
    if (free.bytes < DISK_FAIL_BYTES) {
        return {
            id: 'disk', status: 'fail', summary: `Only ${text}: sandy's first image build needs about 5 GiB.`,
            hint: 'Free some space (e.g. `docker system prune` removes unused images), then check again.'
        };
    }
    if (free.bytes < DISK_WARN_BYTES) {
        return { id: 'disk', status: 'warn', summary: `${text}: enough for a first build, tight for more projects.`, hint: 'sandy\'s images and sandboxes grow with each agent and project; 15 GiB or more is comfortable.' };
    }
    return { id: 'disk', status: 'ok', summary: text };
}

/** `~/.local/bin` on PATH: a fail only when that is where the selected sandy is (then `sandy` does not work in a shell). */
export function localBinCheck(localBin: string, onPath: boolean, sandyThere: boolean, sandyFound: boolean): PrerequisiteCheck {
    if (onPath) {
        return { id: 'local-bin', status: 'ok', summary: `${localBin} is on PATH` };
    }
    const command = 'echo \'export PATH="$HOME/.local/bin:$PATH"\' >> ~/.profile';
    const fix: PrerequisiteFix = { command, explains: 'Adds ~/.local/bin to PATH for new login shells (open a new terminal afterwards).' };
    const hint = 'Add it to your shell profile: export PATH="$HOME/.local/bin:$PATH"';
    if (sandyThere) {
        return { id: 'local-bin', status: 'fail', summary: `sandy is in ${localBin}, which is not on PATH: \`sandy\` does not work in a terminal.`, hint, fix };
    }
    return {
        id: 'local-bin', status: 'warn', summary: `${localBin} is not on PATH (install.sh installs sandy there).`,
        hint: sandyFound ? hint : `${hint}, then install sandy: ${SANDY_INSTALL_COMMAND}`, fix
    };
}

/** The checklist as the CLI prints it. */
export function prerequisiteLines(report: PrerequisiteReport): string[] {
    const mark = { ok: '✔', warn: '!', fail: '✘' } as const;
    const lines: string[] = [];
    for (const c of report.checks) {
        lines.push(`${mark[c.status]} ${c.summary}`);
        if (c.hint && c.status !== 'ok') {
            lines.push(`    → ${c.hint}`);
        }
        if (c.fix && c.status !== 'ok') {
            lines.push(`    $ ${c.fix.command}`);
        }
    }
    lines.push(report.ok ? 'All checks passed.' : 'Some checks failed; fix the items marked ✘.');
    return lines;
}
