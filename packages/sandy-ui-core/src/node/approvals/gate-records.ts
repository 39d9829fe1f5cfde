/**
 * What sandy writes when the sandy tab answered one of its gates for the user, read back to check that
 * sandy approved what the user was shown. sandy hashes what IT read: the keys' `KEY=VALUE` set
 * (`passive-<h16>.list`, CONTRACT §4.1) and the `.sandy/` build context (`dockerfile-<h16>.list`,
 * §4.2), and shows the user only the keys' names and the Dockerfile. The tab re-checks the files at the
 * prompt, but a file changed before sandy read it and put back before that re-check passes it; sandy's
 * record is the one place that says what sandy took. (The symlink gate needs no such check: sandy
 * prints every entry, and the tab answers only a block equal to the approved one.)
 */
import { spawn } from 'child_process';
import { approvalSetLines } from '../../common/config/preflight';
import { GateKind, PendingGates } from '../../common/approvals/launch-gates';
import { readSandyRecord } from './launch-gates';
import { sha256Hex } from './preflight';

/** The gates whose record carries a hash of what sandy read. */
export type RecordedGate = Extract<GateKind, 'privileged' | 'dockerfile'>;

export function isRecordedGate(gate: GateKind): gate is RecordedGate {
    return gate === 'privileged' || gate === 'dockerfile';
}

/** How long sandy has to write its record after the answer (it writes it at once; a loaded machine is slower). */
export const GATE_RECORD_WAIT_MS = 10_000;
/** How often the record is read while waiting. */
export const GATE_RECORD_POLL_MS = 100;

/** Above this many lines, orderings are not enumerated (see {@link approvedSetHashes}). */
const MAX_PERMUTED_LINES = 7;

/** sandy's record of a gate: line 1, when it is a hash (64 hex). */
export function recordedHash(text: string | undefined): string | undefined {
    const first = text?.split('\n', 1)[0].replace(/\r$/, '');
    return first && /^[0-9a-f]{64}$/.test(first) ? first : undefined;
}

/** sandy's `sort -u` of some lines, run as sandy runs it (`sort` from its PATH, in its locale): the lines in its order. */
export type SandySort = (lines: readonly string[]) => Promise<string[] | undefined>;

/**
 * Every hash sandy can have recorded for these approval lines. sandy's set hash is over `sort -u` in
 * sandy's locale (sandy:6026), whose order a byte sort does not always give (`a` and `Z`, and glibc's
 * locales ignore punctuation at first); so each ordering of the unique lines counts (no other set of
 * lines has any of those hashes). A set too large to enumerate counts in the order `sort` gives in
 * sandy's environment, and in byte order.
 */
export async function approvedSetHashes(lines: readonly { readonly approvalLine: string }[], sandySort?: SandySort): Promise<Set<string>> {
    const unique = approvalSetLines(lines);
    const hashes = new Set<string>();
    if (unique.length <= MAX_PERMUTED_LINES) {
        const permute = (done: string[], left: string[]): void => {
            if (!left.length) {
                hashes.add(sha256Hex(done.join('\n')));
                return;
            }
            left.forEach((line, i) => permute([...done, line], [...left.slice(0, i), ...left.slice(i + 1)]));
        };
        permute([], unique);
        return hashes;
    }
    hashes.add(sha256Hex(unique.join('\n')));
    // What sandy hashes is what its `sort -u` prints for these lines: the same program in the same environment.
    const sorted = await sandySort?.(unique).catch(() => undefined);
    if (sorted) {
        hashes.add(sha256Hex(sorted.join('\n')));
    }
    return hashes;
}

/** The hashes sandy may have recorded for what the user approved at `gate` (none: nothing was approved there). */
export async function approvedRecordHashes(
    gate: RecordedGate, approved: PendingGates, approvedLines: readonly { readonly approvalLine: string }[], sandySort?: SandySort
): Promise<Set<string>> {
    if (gate === 'dockerfile') {
        // sandy lists the build context with `LC_ALL=C sort` (sandy:7973): one order, the byte order.
        return new Set(approved.dockerfile ? [approved.dockerfile.hash] : []);
    }
    return approved.privileged ? approvedSetHashes(approvedLines, sandySort) : new Set();
}

/** `sort -u` with sandy's environment, its lines on stdin (never an argument); undefined if it fails or takes over 5 s. */
export function sortAsSandy(env: Record<string, string>): SandySort {
    return lines => new Promise(resolve => {
        let child;
        try {
            child = spawn('sort', ['-u'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
        } catch {
            resolve(undefined);
            return;
        }
        let out = '';
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.stdout.setEncoding('utf8').on('data', (d: string) => out += d);
        child.on('error', () => resolve(undefined));
        child.on('close', code => {
            clearTimeout(timer);
            resolve(code === 0 ? out.replace(/\n$/, '').split('\n') : undefined);
        });
        child.stdin.on('error', () => undefined);
        child.stdin.end(`${lines.join('\n')}\n`);
    });
}

export type RecordCheck = 'approved' | 'other' | 'unwritten';

/**
 * Waits for sandy to write `file` after the answer (its line 1 differs from `before`, what the file
 * held when the tab answered) and says whether sandy recorded what the user approved. `unwritten`:
 * sandy wrote nothing new in {@link GATE_RECORD_WAIT_MS} or before its session ended (another sandy
 * that records elsewhere, or a stop first); nothing can be said then.
 */
export async function checkGateRecord(options: {
    file: string;
    sandyHome: string;
    before: string | undefined;
    matches(hash: string): boolean;
    /** The session that was answered has ended: one last read, then no more (a later launch writes its own record). */
    ended?(): boolean;
    waitMs?: number;
    pollMs?: number;
}): Promise<RecordCheck> {
    const deadline = Date.now() + (options.waitMs ?? GATE_RECORD_WAIT_MS);
    const before = recordedHash(options.before);
    for (;;) {
        const ended = options.ended?.() ?? false;
        const hash = recordedHash(await readSandyRecord(options.file, options.sandyHome));
        if (hash && hash !== before) {
            return options.matches(hash) ? 'approved' : 'other';
        }
        if (ended || Date.now() >= deadline) {
            return 'unwritten';
        }
        await new Promise(resolve => setTimeout(resolve, options.pollMs ?? GATE_RECORD_POLL_MS));
    }
}
