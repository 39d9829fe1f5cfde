/**
 * Reads the real-CLI fixtures in test/fixtures/sandy-1.7.1 (see INDEX.md there) for the unit tests.
 * Test support only: nothing in src/ imports it.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { RunResult } from '../../common/sandy/runner-types';

export interface SandyFixture {
    /** Folder name, e.g. `41-print-state-full-populated`. */
    name: string;
    dir: string;
    /** The command line from cmd.txt. */
    cmd: string;
    /** argv after `sandy`, shell-unquoted. */
    args: string[];
    stdout: string;
    /** stdout was saved as stdout.json (strictly parseable JSON) rather than stdout.txt. */
    stdoutIsJson: boolean;
    stderr: string;
    exitCode: number;
}

/** `test/fixtures/<folder>` (the one holding `marker`), found by walking up from this file (works from src/ and lib/). */
export function repoFixtureFolder(folder: string, marker: string): string {
    let dir = __dirname;
    for (;;) {
        const candidate = path.join(dir, 'test', 'fixtures', folder);
        if (fs.existsSync(path.join(candidate, marker))) {
            return candidate;
        }
        const parent = path.dirname(dir);
        if (parent === dir) {
            throw new Error(`test/fixtures/${folder} not found above ${__dirname}`);
        }
        dir = parent;
    }
}

/** test/fixtures/sandy-1.7.1. */
export function fixturesRoot(): string {
    return repoFixtureFolder('sandy-1.7.1', 'INDEX.md');
}

/** Minimal POSIX-shell word splitting: '…', "…", backslash escapes. Enough for cmd.txt. */
export function shellSplit(text: string): string[] {
    const words: string[] = [];
    let word = '';
    let inWord = false;
    for (let i = 0; i < text.length; i++) {
        const ch = text[i];
        if (ch === '\'') {
            // An unbalanced quote runs to the end of the text, as far as this reader is concerned.
            const end = text.indexOf('\'', i + 1);
            word += text.slice(i + 1, end < 0 ? undefined : end);
            i = end < 0 ? text.length : end;
            inWord = true;
        } else if (ch === '"') {
            for (i++; i < text.length && text[i] !== '"'; i++) {
                if (text[i] === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) {
                    i++;
                }
                word += text[i];
            }
            inWord = true;
        } else if (ch === '\\' && i + 1 < text.length) {
            word += text[++i];
            inWord = true;
        } else if (/\s/.test(ch)) {
            if (inWord) {
                words.push(word);
            }
            word = '';
            inWord = false;
        } else {
            word += ch;
            inWord = true;
        }
    }
    if (inWord) {
        words.push(word);
    }
    return words;
}

/**
 * argv after the `sandy` word of `cd X && env -i VAR=… sandy ARGS` (first line only); empty for the
 * few fixtures that did not run sandy (110 ran tmux).
 */
export function sandyArgs(cmd: string): string[] {
    const words = shellSplit(cmd.split('\n')[0].replace(/^.*?&&\s*/, ''));
    const at = words.indexOf('sandy');
    return at < 0 ? [] : words.slice(at + 1);
}

function readIfExists(file: string): string | undefined {
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
}

export function loadFixture(name: string): SandyFixture {
    const dir = path.join(fixturesRoot(), name);
    const cmd = fs.readFileSync(path.join(dir, 'cmd.txt'), 'utf8').trim();
    const json = readIfExists(path.join(dir, 'stdout.json'));
    return {
        name,
        dir,
        cmd,
        args: sandyArgs(cmd),
        stdout: json ?? readIfExists(path.join(dir, 'stdout.txt')) ?? '',
        stdoutIsJson: json !== undefined,
        stderr: readIfExists(path.join(dir, 'stderr.txt')) ?? '',
        exitCode: Number((readIfExists(path.join(dir, 'exitcode.txt')) ?? '0').trim())
    };
}

export function listFixtures(): SandyFixture[] {
    return fs.readdirSync(fixturesRoot(), { withFileTypes: true })
        .filter(d => d.isDirectory() && fs.existsSync(path.join(fixturesRoot(), d.name, 'cmd.txt')))
        .map(d => loadFixture(d.name));
}

/** Fixture folders whose name starts with `prefix` (e.g. `58-`); empty when the capture is absent. */
export function fixturesWithPrefix(prefix: string): string[] {
    return fs.readdirSync(fixturesRoot()).filter(n => n.startsWith(prefix));
}

/** A fixture as the runner would have returned it. */
export function runResultOf(fixture: SandyFixture, overrides: Partial<RunResult> = {}): RunResult {
    return {
        stdout: fixture.stdout,
        stderr: fixture.stderr,
        exitCode: fixture.exitCode,
        signal: undefined,
        timedOut: false,
        durationMs: 120,
        args: fixture.args,
        ...overrides
    };
}

/** The real SHA-256, to check the pure implementation against. */
export { createHash } from 'crypto';
