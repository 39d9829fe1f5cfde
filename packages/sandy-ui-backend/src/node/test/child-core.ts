/**
 * An IDE backend in a process of its own, for the tests that kill it (daemon-sessions.slow-spec.ts):
 * it creates a SandyServiceCore over node-pty, launches one workspace, attaches a view, and once the
 * agent's prompt is on that view prints one JSON line `{ id, pid, mode, link }` on stdout; then it
 * waits to be killed. Anything that goes wrong is one `{ error }` line and exit 1.
 *
 * argv[2]: JSON {@link ChildCoreOptions}.
 */
import { spawn } from 'child_process';
import * as pty from 'node-pty';
import { SandyServiceCore, ptySpawnFrom } from '@sandy-ui/core/node';
import type { SandyConfiguration } from '@sandy-ui/core/common';

export interface ChildCoreOptions {
    home: string;
    dataDir: string;
    env: Record<string, string>;
    workspace: string;
    config: SandyConfiguration;
    /**
     * Start a `sleep` that holds sandy's terminal (the PTY's master side) open past this process's
     * death: a stand-in for whatever keeps a sandy from being hung up when its IDE dies.
     */
    holdTerminal?: boolean;
}

const PROMPT = '\x1b[1;32m>\x1b[0m ';

function fail(error: unknown): never {
    process.stdout.write(JSON.stringify({ error: error instanceof Error ? error.message : error }) + '\n');
    process.exit(1);
}

async function main(): Promise<void> {
    const options = JSON.parse(process.argv[2]) as ChildCoreOptions;
    const spawned: pty.IPty[] = [];
    const spawnPty = ptySpawnFrom({
        spawn: (file, args, o) => {
            const p = pty.spawn(file, args, o);
            spawned.push(p);
            return p;
        }
    });
    const core = new SandyServiceCore({
        logger: { info: () => undefined, warn: m => process.stderr.write(`warn: ${m}\n`), error: m => process.stderr.write(`error: ${m}\n`) },
        spawnPty,
        env: options.env,
        home: options.home,
        dataDir: options.dataDir
    });
    core.start();
    const status = await core.configure(options.config);
    if (!status.found) {
        fail(status);
    }
    const outcome = await core.launch({ workspace: options.workspace, cols: 100, rows: 30 });
    if (outcome.kind !== 'launched') {
        fail(outcome);
    }
    const id = outcome.session.id;
    const view = await core.supervisor.attach(id);
    let text = view.replay;
    view.onData(data => {
        text += data;
        view.acknowledge(data.length);
    });
    const deadline = Date.now() + 30_000;
    const ready = (): boolean => {
        const info = core.supervisor.get(id)!;
        return text.includes(PROMPT) && (info.mode !== 'daemon' || info.link === 'attached');
    };
    while (!ready()) {
        const info = core.supervisor.get(id)!;
        if (info.status === 'exited' || Date.now() > deadline) {
            fail({ session: info, screen: text.slice(-1000) });
        }
        await new Promise(resolve => setTimeout(resolve, 20));
    }
    const info = core.supervisor.get(id)!;
    let holder: number | undefined;
    if (options.holdTerminal) {
        // node-pty's UnixTerminal exposes its master fd as `fd` (not in its typings).
        const master = (spawned[spawned.length - 1] as unknown as { fd: number }).fd;
        const child = spawn('sleep', ['1000'], { stdio: ['ignore', 'ignore', 'ignore', master], detached: true, env: { HOME: options.home, PATH: options.env.PATH } });
        child.unref();
        holder = child.pid;
    }
    process.stdout.write(JSON.stringify({ id, pid: info.pid, mode: info.mode, link: info.link, holder }) + '\n');
    // Wait to be killed.
    setInterval(() => undefined, 1 << 30);
}

main().catch(fail);
