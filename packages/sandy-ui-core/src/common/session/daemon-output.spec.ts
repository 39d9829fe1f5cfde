import { expect } from 'chai';
import { DaemonStartReader, stripAnsi } from './daemon-output';

/**
 * sandy's own `--start` output, byte for byte from the real sandy 1.7.1 (test/fixtures/sandy-1.7.1,
 * copied here because src/common reads no files). The recording's stub docker named its container
 * `da3m0nc0ffee` (not hex, as Docker's ids are: sandy prints whatever docker answered).
 */
const ID = 'da3m0nc0ffee';

/** Fixture 93 (`sandy --start`, the supervisor's log streamed with its forced colours). */
const FX93 = [
    '[sandy] Starting daemon session for <WS>/ws-daemon...',
    '\x1b[0;32m[sandy]\x1b[0m Building base image (language runtimes) — this may take several minutes on first run...',
    '\x1b[0;32m[sandy]\x1b[0m Building egress proxy image (sandy-proxy, ref=main)...',
    '\x1b[0;32m[sandy]\x1b[0m Building sandbox image (may take a few minutes)...',
    '\x1b[0;32m[sandy]\x1b[0m Creating new sandbox: <HOME:daemon>/.sandy/sandboxes/ws-daemon-3f97ac9f',
    '\x1b[0;32m[sandy]\x1b[0m Creating egress-proxy networks (mode=permissive)...',
    '\x1b[0;32m[sandy]\x1b[0m Starting egress proxy sidecar (sandy-proxy-ws-daemon-3f97ac9f @ 10.200.0.2)...',
    '\x1b[1;33m[sandy]\x1b[0m No gh CLI token found. Git push/pull may not work.',
    '\x1b[1;33m[sandy]\x1b[0m Install gh (https://cli.github.com) and run \'gh auth login\', or use SANDY_SSH=agent.',
    '\x1b[0;32m[sandy]\x1b[0m Launching Claude Code sandbox...',
    '\x1b[0;32m[sandy]\x1b[0m   Working directory: <WS>/ws-daemon',
    '\x1b[0;32m[sandy]\x1b[0m   Sandbox:           <HOME:daemon>/.sandy/sandboxes/ws-daemon-3f97ac9f',
    '\x1b[0;32m[sandy]\x1b[0m   Resources:         4 CPUs, 7g memory',
    '\x1b[0;32m[sandy]\x1b[0m   Network:           Egress proxy (permissive): public internet allowed; LAN/host/metadata blocked',
    '',
    'da3m0nc0ffee00000000000000000000000000000000000000000000000000001',
    '\x1b[0;32m[sandy]\x1b[0m Daemon supervisor running (pid 1390) — container detached, holding workspace lock.',
    '[sandy] Daemon session ready: ws-daemon-3f97ac9f (container da3m0nc0ffee)',
    ''
].join('\n');

/** Fixture 94 (a second `--start` while the session runs). */
const FX94 = '[sandy] Daemon session already running for <WS>/ws-daemon: ws-daemon-3f97ac9f (container da3m0nc0ffee)\n';

/** Fixture 33 (stderr of a launch without a TTY after the approved set changed): sandy drops the keys itself. */
const FX33_DROPPED = [
    '[sandy]',
    '[sandy] Workspace config (<WS>/ws-approve/.sandy/config) wants to set privileged keys:',
    '[sandy]   SANDY_ALLOW_HOSTS',
    '[sandy]   SANDY_ALLOW_WORKFLOW_EDIT',
    '[sandy]   SANDY_EXTRA_ENV',
    '[sandy]   SANDY_SSH',
    '[sandy]',
    '[sandy] The approval is tied to the exact set above — any edit re-prompts.',
    '[sandy]',
    '[sandy] Non-interactive session — dropping these keys.',
    '[sandy] Launch sandy interactively once from this directory to approve.',
    '[sandy]',
    ''
].join('\n');

/** sandy's project-Dockerfile gate without a TTY (sandy:8025; the fake sandy prints the same). */
const SKIPPED_DOCKERFILE = [
    '[sandy] Non-interactive session — NOT building the project image; using the',
    '[sandy] base agent image. Launch sandy interactively once from this directory',
    '[sandy] to review and approve the .sandy/Dockerfile.',
    '[sandy]',
    ''
].join('\n');

/** Fixture 34: the user answered n on the PTY. The keys are dropped because the user said so: no gate sandy closed by itself. */
const FX34_USER_SAID_NO = '[sandy] Approve these keys for this workspace? [y/N] [sandy] Not approved — dropping these keys for this launch.\r\n' +
    '[sandy] (Edit <WS>/ws-approve/.sandy/config and relaunch to re-prompt.)\r\n' +
    '[sandy] Not approved — using the base agent image for this launch.\r\n';

function read(chunks: string[], end = true): DaemonStartReader {
    const reader = new DaemonStartReader();
    for (const chunk of chunks) {
        reader.push(chunk);
    }
    if (end) {
        reader.end();
    }
    return reader;
}

/** The text cut at `at` (a list of offsets). */
function cut(text: string, at: number[]): string[] {
    const chunks: string[] = [];
    let from = 0;
    for (const i of at) {
        chunks.push(text.slice(from, i));
        from = i;
    }
    chunks.push(text.slice(from));
    return chunks;
}

describe('DaemonStartReader: what the IDE reads from sandy --start (unit)', () => {
    it('reads the container of the session that became ready (fixture 93), through its colours, with \\n or a PTY\'s \\r\\n', () => {
        expect(read([FX93]).containerId).to.equal(ID);
        expect(read([FX93.replace(/\n/g, '\r\n')]).containerId).to.equal(ID);
        expect(read([FX93]).closedGates.size).to.equal(0);
        // A Docker id (hex) reads the same.
        expect(read([FX93.replace(/da3m0nc0ffee/g, '3f2a9c0d7e41')]).containerId).to.equal('3f2a9c0d7e41');
    });

    it('reads the container of a session that was already running (fixture 94)', () => {
        expect(read([FX94]).containerId).to.equal(ID);
        expect(read([FX94.replace(/\n/g, '\r\n')]).containerId).to.equal(ID);
    });

    it('the same, however the stream is cut: in an escape sequence, in the id, between \\r and \\n, one character at a time', () => {
        const pty = FX93.replace(/\n/g, '\r\n');
        const ready = pty.indexOf('Daemon session ready');
        const places = [
            [pty.indexOf('\x1b[0;32m') + 3, pty.lastIndexOf('\x1b[0m') + 2],
            [ready + 3, pty.indexOf(ID) + 5, pty.indexOf(ID) + 11],
            [pty.lastIndexOf('\r\n') + 1],
            [pty.indexOf('—') + 1, pty.indexOf('(container') + 1]
        ];
        for (const at of places) {
            expect(read(cut(pty, at)).containerId, `cut at ${at.join(',')}`).to.equal(ID);
        }
        expect(read([...pty]).containerId).to.equal(ID);
        expect(read([...FX94]).containerId).to.equal(ID);
        // Every single cut of the last two lines.
        const tail = pty.slice(pty.indexOf('\x1b[0;32m[sandy]\x1b[0m Daemon supervisor'));
        for (let i = 1; i < tail.length; i++) {
            expect(read([tail.slice(0, i), tail.slice(i)]).containerId, `cut at ${i}`).to.equal(ID);
        }
    });

    it('a last line without its newline counts at the end, not before (it may still grow)', () => {
        const unterminated = FX94.replace(/\n$/, '');
        const reader = read([unterminated], false);
        expect(reader.containerId, 'before end()').to.equal(undefined);
        reader.end();
        expect(reader.containerId).to.equal(ID);
    });

    it('a line that merely mentions a container in agent or build text sets no id, nor one that quotes sandy\'s sentence', () => {
        const hostile = [
            'npm WARN see (container abcdefabcdef) for details',
            'the agent says: restart the container abcdef012345 now',
            '#7 0.512 (container 0123456789ab)',
            // sandy's sentence inside a container's log line is not sandy's line.
            'agent> Daemon session ready: x (container 0123456789ab)',
            '#7 0.512 [sandy] Daemon session ready: x (container 0123456789ab)',
            '2026-11-30T09:58:38Z [sandy] Daemon session already running for /w: x (container 0123456789ab)',
            // sandy's sentence with something after it is not sandy's line.
            '[sandy] Daemon session ready: x (container 0123456789ab) — or so it says',
            // Not an id Docker prints: too short, too long, upper case.
            '[sandy] Daemon session ready: x (container abc)',
            '[sandy] Daemon session ready: x (container 0123456789abc)',
            '[sandy] Daemon session ready: x (container 0123456789AB)',
            ''
        ].join('\r\n');
        expect(read([hostile]).containerId).to.equal(undefined);
        expect(read([...hostile]).containerId).to.equal(undefined);
    });

    it('sandy\'s own ready line comes last: a forged one earlier in the stream (a build step\'s echo) does not stay', () => {
        const forged = '[sandy] Daemon session ready: evil-00000000 (container eeeeeeeeeeee)\n';
        const lines = FX93.split('\n');
        const build = lines.findIndex(l => l.includes('Building sandbox image'));
        const stream = [...lines.slice(0, build + 1), forged.trimEnd(), ...lines.slice(build + 1)].join('\n');
        expect(read([stream]).containerId).to.equal(ID);
    });

    it('says which launch gates sandy closed by itself: the dropped keys (fixture 33) and the skipped project image', () => {
        expect([...read([FX33_DROPPED]).closedGates]).to.deep.equal(['dropped-keys']);
        expect([...read([SKIPPED_DOCKERFILE]).closedGates]).to.deep.equal(['skipped-dockerfile']);
        // In a --start stream: coloured, on a PTY, cut anywhere, both at once.
        const both = `${FX93.split('\n').slice(0, 4).join('\n')}\n${FX33_DROPPED}${SKIPPED_DOCKERFILE}${FX94}`
            .replace(/\[sandy\] Non/g, '\x1b[1;33m[sandy]\x1b[0m Non').replace(/\n/g, '\r\n');
        const reader = read([...both]);
        expect([...reader.closedGates].sort()).to.deep.equal(['dropped-keys', 'skipped-dockerfile']);
        expect(reader.containerId).to.equal(ID);
    });

    it('the user\'s own "no" (fixture 34) is no gate sandy closed, nor a container\'s line quoting sandy\'s words', () => {
        expect(read([FX34_USER_SAID_NO]).closedGates.size).to.equal(0);
        const quoted = 'agent> [sandy] Non-interactive session — dropping these keys.\n#9 0.1 [sandy] Non-interactive session — NOT building the project image; using the\n';
        expect(read([quoted]).closedGates.size).to.equal(0);
    });

    it('follows --start\'s phases on fixture 93: building images, starting the container, ready (never back)', () => {
        const reader = new DaemonStartReader();
        const phases: Array<string | undefined> = [reader.phase];
        for (const line of FX93.replace(/\n/g, '\r\n').split(/(?<=\n)/)) {
            reader.push(line);
            if (phases[phases.length - 1] !== reader.phase) {
                phases.push(reader.phase);
            }
        }
        expect(phases).to.deep.equal([undefined, 'building', 'starting', 'ready']);
        reader.push('\x1b[0;32m[sandy]\x1b[0m Building sandbox image (may take a few minutes)...\r\n[sandy] Reusing sandbox: /x\r\n');
        expect(reader.phase).to.equal('ready');
        // Already running (fixture 94): ready at once; nothing built.
        expect(read([FX94]).phase).to.equal('ready');
        // Images up to date (fixture 33's launch): straight to starting.
        expect(read(['\x1b[0;32m[sandy]\x1b[0m Base image up to date.\n\x1b[0;32m[sandy]\x1b[0m Reusing sandbox: /home/u/.sandy/sandboxes/ws-approve-9bfc4d35\n']).phase)
            .to.equal('starting');
    });

    it('keeps a bounded tail of a line that never ends (a flood without newlines)', () => {
        const reader = new DaemonStartReader();
        for (let i = 0; i < 1000; i++) {
            reader.push('x'.repeat(1000));
        }
        expect((reader as unknown as { partial: string }).partial.length).to.be.at.most(4096);
        // The next line is read normally.
        reader.push(`\n${FX94}`);
        expect(reader.containerId).to.equal(ID);
    });

    it('stripAnsi removes sandy\'s colours and nothing of the text', () => {
        expect(stripAnsi('\x1b[0;32m[sandy]\x1b[0m Daemon supervisor running (pid 1390) — container detached'))
            .to.equal('[sandy] Daemon supervisor running (pid 1390) — container detached');
        expect(stripAnsi('\x1b[1;33m[sandy]\x1b[0m \x1b(B\x1b[?25lok\x1b=')).to.equal('[sandy] ok');
    });
});
