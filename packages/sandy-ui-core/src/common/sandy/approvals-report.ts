/**
 * `sandy --approvals --workspace PATH` (sandy 2.x, offered when `--print-schema`'s `cli_flags` lists it):
 * what each launch approval gate — the workspace's privileged config keys, symlinks escaping the
 * workspace, the `.sandy/Dockerfile` build — would decide, judged by sandy's own launch path.
 *
 * VERIFIED AGAINST DOCUMENTS ONLY. What sandy documents (the flag's description in the real 2.7.1
 * `--print-schema`, test/fixtures/sandy-2.7.1/) is: one JSON document; decisions `approved`, `pending`,
 * `changed`, `refused`, `not_applicable`; key names, never values; exit 0 when nothing is unresolved,
 * 2 when a gate would be withheld or refused, 1 when no report could be produced. The document's
 * field layout is not published anywhere this project can read, so the verdict comes from the exit
 * status alone, and the gates are read from the JSON tolerantly (any object that carries one of those
 * decisions, named by its key or its `gate`/`name` field) — for the words shown, never for the verdict.
 */
import { SandyError } from './errors';
import { RunResult, SandyCommand } from './runner-types';

/** The decisions sandy's `--approvals` reports for a gate. */
export const GATE_DECISIONS = ['approved', 'pending', 'changed', 'refused', 'not_applicable'] as const;
export type GateDecision = typeof GATE_DECISIONS[number];

/** Decisions that stop a gate from passing silently at the next launch. */
const UNRESOLVED: ReadonlySet<GateDecision> = new Set(['pending', 'changed', 'refused']);

export interface SandyGateEntry {
    /** The gate's name as sandy's document gives it (its key or its `gate`/`name` field), plain text. */
    readonly gate: string;
    readonly decision: GateDecision;
    /** Key names (or link names) the gate lists, if any: never values. */
    readonly names: readonly string[];
}

export interface SandyGateReport {
    /** `clear`: sandy will ask nothing at the next launch (exit 0); `unresolved`: some gate would be withheld or refused (exit 2). */
    readonly verdict: 'clear' | 'unresolved';
    /** The gates read from the document (may be empty when its layout is not one this reader finds). */
    readonly gates: readonly SandyGateEntry[];
}

export const APPROVALS_TIMEOUT_MS = 15_000;

/** Plain, short, one line: a name from sandy's document goes into a dialog as text only. */
function plainName(value: string): string {
    return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').trim().slice(0, 120);
}

function isDecision(value: unknown): value is GateDecision {
    return typeof value === 'string' && (GATE_DECISIONS as readonly string[]).includes(value);
}

/** The gates found in sandy's document: every object with a known `decision` (or `status`), at most 3 levels down. */
export function gatesInApprovalsDocument(json: unknown): SandyGateEntry[] {
    const found: SandyGateEntry[] = [];
    const visit = (value: unknown, key: string, depth: number): void => {
        if (depth > 3 || found.length >= 16 || value === null || typeof value !== 'object') {
            return;
        }
        if (Array.isArray(value)) {
            value.slice(0, 32).forEach(v => visit(v, key, depth + 1));
            return;
        }
        const o = value as Record<string, unknown>;
        const decision = isDecision(o.decision) ? o.decision : isDecision(o.status) ? o.status : undefined;
        if (decision) {
            const named = typeof o.gate === 'string' ? o.gate : typeof o.name === 'string' ? o.name : key;
            const names = Object.values(o)
                .filter((v): v is unknown[] => Array.isArray(v))
                .flat()
                .filter((v): v is string => typeof v === 'string')
                .slice(0, 32)
                .map(plainName)
                .filter(Boolean);
            found.push({ gate: plainName(named) || 'gate', decision, names });
            return;
        }
        for (const [k, v] of Object.entries(o).slice(0, 64)) {
            visit(v, k, depth + 1);
        }
    };
    visit(json, '', 0);
    return found;
}

/** The gates that would not pass silently. */
export function unresolvedGates(report: SandyGateReport): SandyGateEntry[] {
    return report.gates.filter(g => UNRESOLVED.has(g.decision));
}

/** `sandy --approvals --workspace PATH`: flag first (CONTRACT §0.1), the workspace as its own argument. */
export function approvalsCommand(workspace: string): SandyCommand<SandyGateReport> {
    if (!workspace.startsWith('/')) {
        throw new SandyError('usage', 'sandy --approvals needs the workspace as an absolute path.', '', { args: ['--approvals'] });
    }
    return {
        args: ['--approvals', '--workspace', workspace],
        timeoutMs: APPROVALS_TIMEOUT_MS,
        parse: (result: RunResult) => parseApprovalsResult(result)
    };
}

/** The report, or a SandyError when sandy produced none (exit 1, a timeout, a signal, anything else). */
export function parseApprovalsResult(result: RunResult): SandyGateReport {
    const details = { args: result.args, exitCode: result.exitCode, stderr: result.stderr };
    if (result.timedOut || result.exitCode === undefined || (result.exitCode !== 0 && result.exitCode !== 2)) {
        throw new SandyError('failed',
            `sandy --approvals produced no report${result.timedOut ? ' (timed out)' : result.exitCode === undefined ? '' : ` (exit ${result.exitCode})`}.`,
            'The IDE judges the gates from the files instead.', details);
    }
    let json: unknown;
    try {
        json = JSON.parse(result.stdout);
    } catch {
        json = undefined;
    }
    return { verdict: result.exitCode === 0 ? 'clear' : 'unresolved', gates: gatesInApprovalsDocument(json) };
}

/** One line for the launch's warnings when sandy reports a gate the IDE's own reading did not find. */
export function unresolvedByRunningSandyText(report: SandyGateReport): string {
    const gates = unresolvedGates(report);
    const what = gates.length
        ? gates.map(g => `${g.gate.replace(/_/g, ' ')}: ${g.decision.replace(/_/g, ' ')}${g.names.length ? ` (${g.names.join(', ')})` : ''}`).join('; ')
        : 'a gate it did not name';
    return `sandy reports a launch gate the IDE could not preview — ${what}. sandy asks about it in the session's terminal; answer there.`;
}
