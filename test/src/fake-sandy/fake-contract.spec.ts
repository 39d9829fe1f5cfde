/*
 * Contract test for the fake sandy: every captured fixture that can be
 * re-enacted without Docker is re-enacted against the fake, and its output is
 * held against the capture (exact text modulo our paths, or JSON by shape and
 * value). With SANDY_BIN pointing at a real sandy, the introspection scenarios
 * also run against it, and fake and real must agree byte for byte.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
    FAKE_BIN, Fixture, Probe, Proc, RunResult, assertSameShape, buildHome, deadPid, fakeEnv, parseCmd, pidAlive,
    preamble, runSync, sandboxName, sha256, waitUntil, withoutStub
} from './harness';

const REAL = process.env.SANDY_BIN;
const TARGETS: Array<{ label: string; bin: string }> = [{ label: 'fake', bin: FAKE_BIN }];
if (REAL) {
    TARGETS.push({ label: 'real', bin: REAL });
}

/** Run a fixture's own command line (cwd, env -i world, argv) in a probe. */
function runFixture(fx: Fixture, bin: string, probe: Probe, extraEnv: Record<string, string> = {}): RunResult {
    const c = parseCmd(probe.subst(fx.cmd));
    if (c.cwd.startsWith(probe.root)) {
        fs.mkdirSync(c.cwd, { recursive: true });
    }
    const env = bin === FAKE_BIN ? fakeEnv({ ...c.env, ...extraEnv }) : { ...c.env, TZ: 'UTC', ...extraEnv };
    return runSync(bin, c.args, c.cwd, env);
}

/** Learn the capture's name for a workspace's sandbox and approval files from text. */
function learn(probe: Probe, text: string, wsPath: string): string {
    const ours = sandboxName(wsPath);
    const prefix = ours.slice(0, -9).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const m of text.matchAll(new RegExp(`${prefix}-[0-9a-f]{8}`, 'g'))) {
        if (m[0] !== ours) {
            probe.names.set(m[0], ours);
        }
    }
    return ours;
}

function learnHash(probe: Probe, fixtureHash: string, wsPath: string): void {
    probe.hashes.set(fixtureHash, sha256(wsPath).slice(0, 16));
}

/** Print-state values that legitimately differ (sizes, sub-second times, host name) become markers. */
function normalizeState(doc: Record<string, unknown>, times: 'second' | 'format'): Record<string, unknown> {
    const d = JSON.parse(JSON.stringify(doc)) as Record<string, any>;
    if (d.host_id_source === 'hostname') {
        d.host_id = '<hostname>';
    }
    const ts = (v: string): string => v === '' ? '' :
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{9})?Z$/.test(v) ? (times === 'second' ? v.slice(0, 19) : '<time>') : `BAD-FORMAT:${v}`;
    for (const sb of d.sandboxes ?? []) {
        sb.size_bytes = sb.size_bytes === null ? null : typeof sb.size_bytes;
        sb.created_at = ts(sb.created_at);
        sb.last_used_at = ts(sb.last_used_at);
    }
    for (const img of d.installed_images ?? []) {
        // the stub docker's ids are neither hex nor 64 long ("sha256:baseimageid000…")
        img.id = /^sha256:\w{60,70}$/.test(img.id) ? '<id>' : `BAD:${img.id}`;
        img.created = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/.test(img.created) ? '<created>' : `BAD:${img.created}`;
    }
    for (const c of d.running_containers ?? []) {
        c.id = /^\w{12}$/.test(c.id) ? '<id12>' : `BAD:${c.id}`;
        if (!c.daemon && 'image_stale' in c) {
            // The stub docker could not resolve the proxy's image (null); a real
            // engine, and the fake, resolve it. Only the daemon row is compared.
            c.image_stale = '<proxy-row>';
        }
        c.started_at = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4} \S+$/.test(c.started_at) ? '<docker-time>' : `BAD:${c.started_at}`;
    }
    if (typeof d.proxy_image_created === 'string') {
        d.proxy_image_created = '<string>';
    }
    return d;
}

function expectStateMatches(actual: string, expectedText: string, times: 'second' | 'format' = 'second'): void {
    expect(actual.endsWith('}\n'), 'one line + \\n').to.equal(true);
    expect(actual.indexOf('\n'), 'single line').to.equal(actual.length - 1);
    const a = JSON.parse(actual);
    const e = JSON.parse(expectedText);
    assertSameShape(a, e);
    if (a.host_id_source === 'hostname') {
        expect(a.host_id).to.equal(os.hostname());
    }
    expect(normalizeState(a, times)).to.deep.equal(normalizeState(e, times));
}

describe('fake sandy contract (fixtures sandy-1.7.1)', function () {
    this.timeout(30000);
    const probes: Probe[] = [];
    const newProbe = (): Probe => {
        const p = new Probe();
        probes.push(p);
        return p;
    };
    after(() => {
        // Stop any daemon supervisor a test left behind (only ones we started:
        // their records live in our probe homes), then remove the probes.
        for (const p of probes) {
            for (const rec of findRecords(p.root)) {
                if (pidAlive(rec.ownerPid)) {
                    try {
                        process.kill(rec.ownerPid, 'SIGKILL');
                    } catch {
                        // gone
                    }
                }
            }
            p.cleanup();
        }
    });

    for (const t of TARGETS) {
        describe(`introspection scenarios against the ${t.label} sandy`, () => {
            describe('version, schema, help', () => {
                for (const id of ['01', '01b', '02', '03', '03b', '06', '06b', '07', '08', '09']) {
                    const fx = new Fixture(id);
                    it(`${fx.name}: stdout, stderr and exit code match exactly`, () => {
                        const probe = newProbe();
                        const r = runFixture(fx, t.bin, probe);
                        expect(r.code).to.equal(fx.exitcode);
                        expect(r.stderr).to.equal(probe.subst(fx.stderr));
                        expect(r.stdout).to.equal(probe.subst(fx.stdout));
                        if (fx.isJson) {
                            assertSameShape(JSON.parse(r.stdout), JSON.parse(fx.stdout));
                        }
                    });
                }
                it('every invocation creates .empty-ro-file and .empty-ro-dir (even --version)', () => {
                    const probe = newProbe();
                    const r = runFixture(new Fixture('03'), t.bin, probe);
                    expect(r.code).to.equal(0);
                    const sh = path.join(probe.home('empty-version'), '.sandy');
                    expect(fs.statSync(path.join(sh, '.empty-ro-file')).isFile()).to.equal(true);
                    expect(fs.statSync(path.join(sh, '.empty-ro-dir')).isDirectory()).to.equal(true);
                });
            });

            describe('--print-state on an empty home', () => {
                for (const id of ['04', '05']) {
                    const fx = new Fixture(id);
                    it(`${fx.name}`, () => {
                        const probe = newProbe();
                        fs.mkdirSync(probe.home(parseCmd(fx.cmd).env.HOME.replace(/^<HOME:|>$/g, '')), { recursive: true });
                        const r = runFixture(fx, t.bin, probe);
                        expect(r.code).to.equal(0);
                        expect(r.stderr).to.equal('');
                        expectStateMatches(r.stdout, probe.subst(fx.stdout));
                    });
                }
            });

            describe('--validate-config (exact, modulo paths)', () => {
                for (const id of ['10', '11', '11b', '12', '13a', '13b', '14', '15', '15b', '15c', '16', '17', '18', '19',
                    '20', '20b', '20c', '20d', '20e', '21', '24', '24b', '24c', '25', '26', '26b', '27']) {
                    const fx = new Fixture(id);
                    it(`${fx.name}`, () => {
                        const probe = newProbe();
                        const c = parseCmd(probe.subst(fx.cmd));
                        const target = c.args[1];
                        const sandyHome = c.env.SANDY_HOME || path.join(c.env.HOME, '.sandy');
                        fs.mkdirSync(c.cwd, { recursive: true });
                        fs.mkdirSync(c.env.HOME, { recursive: true });
                        if (target && path.isAbsolute(target) && target.startsWith(probe.root)) {
                            if (fx.name.includes('directory-not-file')) {
                                fs.mkdirSync(target, { recursive: true });
                            } else {
                                fs.mkdirSync(path.dirname(target), { recursive: true });
                            }
                            const input = fx.read('input.config');
                            if (input !== undefined) {
                                probe.write(target, probe.subst(input));
                            }
                        }
                        let workspace = '';
                        if (target && path.isAbsolute(target)) {
                            const parent = path.dirname(target);
                            workspace = path.basename(parent) === '.sandy' ? path.dirname(parent) : parent;
                        }
                        const m = /passive-([0-9a-f]{16})\.list/.exec(fx.stdout);
                        if (m) {
                            learnHash(probe, m[1], workspace);
                        }
                        const approval = fx.read('approval-file.list');
                        if (approval !== undefined) {
                            probe.write(path.join(sandyHome, 'approvals', `passive-${sha256(workspace).slice(0, 16)}.list`), probe.subst(approval), 0o600);
                        }
                        const r = runFixture(fx, t.bin, probe);
                        expect(r.code).to.equal(fx.exitcode);
                        expect(r.stderr).to.equal(probe.subst(fx.stderr));
                        if (fx.isJson) {
                            assertSameShape(JSON.parse(r.stdout), JSON.parse(fx.stdout));
                            expect(r.stdout).to.equal(probe.subst(fx.stdout));
                        } else {
                            expect(r.stdout).to.equal(probe.subst(fx.stdout));
                        }
                    });
                }
            });

            describe('--print-state on homes recreated from home-tree.txt', () => {
                const cases: Array<{ id: string; tree: string; home: string; missing: string[]; env?: Record<string, string>; fakeOnly?: boolean }> = [
                    { id: '41', tree: '41', home: 'populated', missing: ['ws-gamma'] },
                    { id: '41c', tree: '41', home: 'populated', missing: ['ws-gamma'] },
                    { id: '41d', tree: '41', home: 'populated', missing: ['ws-gamma'] },
                    { id: '41e', tree: '41', home: 'populated', missing: ['ws-gamma'] },
                    { id: '42', tree: '42', home: 'populated', missing: ['ws-gamma'] },
                    { id: '43', tree: '43', home: 'populated', missing: ['ws-gamma'], env: { FAKE_SANDY_DOCKER: '1' }, fakeOnly: true },
                    { id: '44', tree: '44', home: 'populated', missing: ['ws-gamma'], env: { FAKE_SANDY_DOCKER: '1' }, fakeOnly: true },
                    { id: '55', tree: '55', home: 'edge', missing: [] }
                ];
                for (const cs of cases) {
                    if (cs.fakeOnly && t.label !== 'fake') {
                        continue;
                    }
                    const fx = new Fixture(cs.id);
                    it(`${fx.name}`, () => {
                        const probe = newProbe();
                        const treeFx = new Fixture(cs.tree);
                        const expected = JSON.parse(fx.stdout);
                        const live = String(process.pid);
                        const dead = String(deadPid());
                        const pids = new Map<string, string>();
                        for (const sb of expected.sandboxes) {
                            if (sb.lock_holder_alive === true) {
                                pids.set(sb.lock_holder_pid, live);
                            } else if (sb.lock_holder_alive === false) {
                                pids.set(sb.lock_holder_pid, dead);
                            }
                        }
                        buildHome(probe, cs.home, treeFx.read('home-tree.txt') as string,
                            { pids, missingWorkspaces: cs.missing, stateSandboxes: expected.sandboxes });
                        if (cs.env?.FAKE_SANDY_DOCKER) {
                            // the stub docker of 43/44 reported a proxy image but no sandy-* images
                            probe.write(path.join(probe.home(cs.home), '.sandy', '.fake-docker', 'images.json'),
                                JSON.stringify({ 'sandy-proxy': { id: `sha256:${sha256('proxy')}`, createdMs: Date.parse('2026-01-01T00:00:00Z') } }));
                        }
                        let expText = probe.subst(fx.stdout);
                        for (const [a, b] of pids) {
                            expText = expText.split(`"lock_holder_pid":"${a}"`).join(`"lock_holder_pid":"${b}"`);
                        }
                        const r = runFixture(fx, t.bin, probe, cs.env);
                        expect(r.code).to.equal(0);
                        expect(r.stderr).to.equal('');
                        expectStateMatches(r.stdout, expText);
                        if (REAL && t.label === 'fake' && !cs.fakeOnly) {
                            // same home, same clock: the real sandy must print the very same bytes
                            const rr = runFixture(fx, REAL, probe, cs.env);
                            expect(r.stdout).to.equal(rr.stdout);
                        }
                    });
                }
            });
        });
    }

    describe('fake vs real, byte for byte, on generated inputs (needs SANDY_BIN)', function () {
        before(function () {
            if (!REAL) {
                this.skip();
            }
        });
        const both = (args: string[], cwd: string, env: Record<string, string>): [RunResult, RunResult] =>
            [runSync(FAKE_BIN, args, cwd, fakeEnv(env)), runSync(REAL as string, args, cwd, { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8', TZ: 'UTC', ...env })];
        const same = ([f, r]: [RunResult, RunResult], what: string): void => {
            expect({ code: f.code, stdout: f.stdout, stderr: f.stderr }, what).to.deep.equal({ code: r.code, stdout: r.stdout, stderr: r.stderr });
        };

        it('--validate-config on 80 generated config files (passive and privileged tier)', () => {
            const probe = newProbe();
            const home = probe.home('fuzz');
            let seed = 0x5eed;
            const rnd = (n: number): number => {
                seed = (seed * 1103515245 + 12345) & 0x7fffffff;
                return seed % n;
            };
            const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)];
            const keys = ['SANDY_SSH', 'SANDY_AGENT', 'SANDY_EGRESS_STRICT', 'SANDY_EGRESS_PROXY', 'SANDY_EGRESS_NO_ISOLATION',
                'SANDY_ALLOW_WORKFLOW_EDIT', 'ANTHROPIC_API_KEY', 'SANDY_HOST_ID', 'SANDY_DEBUG_CLEANUP', 'FOO_BAR', 'SANDY_MODLE',
                'sandy_agent', 'SANDY_GPU2', '_', 'A', 'SANDY_EXTRA_ENV', 'TELEGRAM_ALLOWED_SENDERS'];
            const values = ['0', '1', '"0"', '\'1\'', '"1\'', '\'0"', 'x=', 'x==', '=', '==1', ' 1', '1 ', 'agent # c', '"quoted"',
                '\u00fcn\u00ef', '$(id)', 'back\\slash', '1\r', '0\r', '"\r', '', 'a"b"c', '\t1'];
            for (let n = 0; n < 80; n++) {
                const lines: string[] = [];
                const count = 1 + rnd(8);
                for (let i = 0; i < count; i++) {
                    const kind = rnd(10);
                    if (kind === 0) {
                        lines.push(pick(['# comment', '', 'export SANDY_SSH=agent', '  SANDY_SSH=agent', 'SANDY_SSH = agent', 'SANDY_SSH']));
                    } else {
                        lines.push(`${pick(keys)}=${pick(values)}`);
                    }
                }
                const text = lines.join(rnd(4) === 0 ? '\r\n' : '\n') + (rnd(3) === 0 ? '' : '\n');
                const file = rnd(5) === 0 ? path.join(home, '.sandy', rnd(2) ? 'config' : '.secrets')
                    : path.join(probe.ws, `fuzz${n}`, rnd(4) ? '.sandy' : 'notsandy', rnd(3) ? 'config' : '.secrets');
                probe.write(file, text);
                same(both(['--validate-config', file], probe.ws, { HOME: home }), `file ${n}: ${JSON.stringify(text)}`);
            }
        });

        it('--validate-config path canonicalisation corner cases', () => {
            const probe = newProbe();
            const home = probe.home('paths');
            const sh = path.join(home, '.sandy');
            const quoteDir = path.join(probe.ws, 'q"uo\\te \u00fcn\u00ef');
            const escDir = path.join(probe.ws, 'e\x1bsc');
            for (const d of [path.join(quoteDir, '.sandy'), path.join(escDir, '.sandy'), path.join(probe.ws, 'a', '.sandy'), sh]) {
                probe.write(path.join(d, 'config'), 'SANDY_SSH=agent\nSANDY_EGRESS_STRICT=0\n');
            }
            fs.symlinkSync(sh, path.join(probe.root, 'shlink'));
            fs.symlinkSync(path.join(probe.ws, 'a'), path.join(probe.ws, 'alink'));
            const cases: Array<[string[], string]> = [
                [['--validate-config', path.join(quoteDir, '.sandy', 'config')], probe.ws],
                [['--validate-config', path.join(escDir, '.sandy', 'config')], probe.ws],
                [['--validate-config', 'a/.sandy/config'], probe.ws],
                [['--validate-config', 'alink/.sandy/config'], probe.ws],
                [['--validate-config', 'a/.sandy/'], probe.ws],
                [['--validate-config', '.'], probe.ws],
                [['--validate-config', ''], probe.ws],
                [['--validate-config', '/config'], probe.ws],
                [['--validate-config', path.join(sh, 'config')], probe.ws],
                [['--validate-config', path.join(probe.root, 'shlink', 'config')], probe.ws]
            ];
            for (const [args, cwd] of cases) {
                same(both(args, cwd, { HOME: home }), args.join(' '));
                same(both(args, cwd, { HOME: home, SANDY_HOME: path.join(probe.root, 'shlink') }), `SANDY_HOME=symlink ${args.join(' ')}`);
            }
            // control characters are not escaped: invalid JSON, exit 0, empty stderr (D1)
            const esc = runSync(FAKE_BIN, ['--validate-config', path.join(escDir, '.sandy', 'config')], probe.ws, fakeEnv({ HOME: home }));
            expect(esc.code).to.equal(0);
            expect(esc.stderr).to.equal('');
            expect(() => JSON.parse(esc.stdout)).to.throw();
        });

        it('--print-state on a home full of oddities (full and light)', () => {
            const probe = newProbe();
            const home = probe.home('odd');
            const sb = path.join(home, '.sandy', 'sandboxes');
            const mk = (name: string, files: Record<string, string>): void => {
                for (const [f, c] of Object.entries(files)) {
                    probe.write(path.join(sb, name, f), c);
                }
                fs.mkdirSync(path.join(sb, name), { recursive: true });
            };
            fs.mkdirSync(path.join(probe.ws, 'tabbed'), { recursive: true });
            mk('crlf-00000001', { '.sandy_created_version': '1.7.1-dev\r\n\n\n', '.sandy_last_version': '\n', 'WORKSPACE.json': '{"workspace_path":"/nope"}' });
            mk('tabbed-00000002', { 'WORKSPACE.json': `{\n\t"workspace_path"\t:\t"${path.join(probe.ws, 'tabbed')}",\n  "workspace_path": "/second"\n}\n` });
            mk('empty-00000003', { 'WORKSPACE.json': '' });
            mk('\u00fcnicode-00000004', { '.handoff-enabled/x': '' });
            mk('pids-00000005', {});
            mk('Zupper-00000006', {});
            mk('_under-00000007', {});
            fs.mkdirSync(path.join(sb, '.hidden-00000008'), { recursive: true });
            probe.write(path.join(sb, 'afile-00000009'), 'not a dir');
            fs.symlinkSync(path.join(probe.ws, 'tabbed'), path.join(sb, 'link-0000000a'));
            for (const [name, pid] of [['crlf-00000001', ' 1 '], ['tabbed-00000002', String(deadPid())], ['empty-00000003', '007x'],
                ['pids-00000005', `${process.pid}\n\n`], ['Zupper-00000006', '']] as const) {
                probe.write(path.join(sb, `.${name}.lock`, 'pid'), pid);
            }
            fs.mkdirSync(path.join(sb, '._under-00000007.lock'));
            const ap = path.join(home, '.sandy', 'approvals');
            probe.write(path.join(ap, 'passive-0000000000000001.list'), 'abc\r\n# workspace:\t/x y\r\n# approved:  \r\nK\r\n');
            probe.write(path.join(ap, 'passive-0000000000000002.list'), '');
            probe.write(path.join(ap, 'passive-0000000000000003.list'), '# workspace: first-line\n# workspace: second\n');
            probe.write(path.join(ap, 'dockerfile-0000000000000004.list'), 'h\n');
            fs.mkdirSync(path.join(ap, 'passive-dir.list'));
            for (const mode of [[], ['light'], ['LIGHT']]) {
                same(both(['--print-state', ...mode], probe.ws, { HOME: home }), `--print-state ${mode.join(' ')}`);
            }
            same(both(['--print-state'], probe.ws, { HOME: home, SANDY_HOST_ID: 'x'.repeat(128) }), 'SANDY_HOST_ID 128 chars');
            same(both(['--print-state'], probe.ws, { HOME: home, SANDY_HOST_ID: 'x'.repeat(129) }), 'SANDY_HOST_ID 129 chars');
            same(both(['--print-state'], probe.ws, { HOME: home, SANDY_HOME: path.join(home, '.sandy') + '/' }), 'SANDY_HOME with a trailing slash');
        });
    });

    it('22/23/58 (not in the fixture copy): quotes/backslashes escaped, control characters NOT (invalid JSON, exit 0)', () => {
        const probe = newProbe();
        const home = probe.home('paths');
        const quote = path.join(probe.ws, 'q"uo\\te \u00fcn\u00ef');
        const esc = path.join(probe.ws, 'e\x1bsc');
        for (const d of [quote, esc]) {
            probe.write(path.join(d, '.sandy', 'config'), 'SANDY_AGENT=claude\n');
        }
        const q = runSync(FAKE_BIN, ['--validate-config', path.join(quote, '.sandy', 'config')], probe.ws, fakeEnv({ HOME: home }));
        expect(JSON.parse(q.stdout).path).to.equal(path.join(quote, '.sandy', 'config'));
        const e = runSync(FAKE_BIN, ['--validate-config', path.join(esc, '.sandy', 'config')], probe.ws, fakeEnv({ HOME: home }));
        expect([e.code, e.stderr]).to.deep.equal([0, '']);
        expect(() => JSON.parse(e.stdout)).to.throw();
        // print-state: a sandbox whose WORKSPACE.json holds the ESC path (58)
        const name = sandboxName(esc);
        probe.write(path.join(home, '.sandy', 'sandboxes', name, 'WORKSPACE.json'), `{\n  "workspace_path": "${esc}"\n}\n`);
        const s = runSync(FAKE_BIN, ['--print-state', 'light'], probe.ws, fakeEnv({ HOME: home }));
        expect([s.code, s.stderr]).to.deep.equal([0, '']);
        expect(() => JSON.parse(s.stdout)).to.throw();
    });

    it('an empty or comment-only config: JSON is fine and exit 0, but stderr carries the ERR-trap lines (real quirk)', () => {
        const probe = newProbe();
        const file = path.join(probe.ws, 'w', '.sandy', 'config');
        probe.write(file, '# nothing here\n');
        const r = runSync(FAKE_BIN, ['--validate-config', file], probe.ws, fakeEnv({ HOME: probe.home('h') }));
        expect(r.code).to.equal(0);
        expect(JSON.parse(r.stdout).approval_status).to.equal('none_required');
        expect(r.stderr).to.equal('[sandy] ERROR: introspection handler failed (exit 1)\n' +
            '[sandy]        line 2150: grep -E \'^[A-Z_]+=.+\' "$abs_path" 2> /dev/null\n' +
            '[sandy]        Report this at https://github.com/rappdw/sandy/issues\n');
    });

    it('created_at/last_used_at are LOCAL time with a literal Z (41b: TZ=America/Los_Angeles shifts them by -8 h)', () => {
        const probe = newProbe();
        const fx = new Fixture('41');
        const expected = JSON.parse(fx.stdout);
        buildHome(probe, 'populated', fx.read('home-tree.txt') as string,
            { pids: new Map(), missingWorkspaces: ['ws-gamma'], stateSandboxes: expected.sandboxes });
        const env = (tz: string): Record<string, string> => fakeEnv({ HOME: probe.home('populated'), TZ: tz });
        const utc = JSON.parse(runSync(FAKE_BIN, ['--print-state', 'light'], probe.ws, env('UTC')).stdout);
        const la = JSON.parse(runSync(FAKE_BIN, ['--print-state', 'light'], probe.ws, env('America/Los_Angeles')).stdout);
        const alpha = (d: { sandboxes: Array<{ name: string; created_at: string }> }): string =>
            d.sandboxes.find(s => s.name === sandboxName(path.join(probe.ws, 'ws-alpha')))!.created_at;
        expect(alpha(utc).slice(0, 19)).to.equal(expected.sandboxes[1].created_at.slice(0, 19));
        expect(alpha(la)).to.match(/Z$/);
        expect(Date.parse(alpha(utc).slice(0, 19) + 'Z') - Date.parse(alpha(la).slice(0, 19) + 'Z')).to.equal(8 * 3600 * 1000);
        expect(alpha(la).slice(19)).to.equal(alpha(utc).slice(19), 'nanoseconds unchanged');
    });

    describe('first-argument rule: these are launches, not introspection (no Docker daemon)', () => {
        for (const id of ['82', '83', '84', '89', '70', '71', '72', '73', '74', '75', '76', '77', '78', '79', '80', '81', '85', '86', '87', '88']) {
            const fx = new Fixture(id);
            it(`${fx.name}`, () => {
                const probe = newProbe();
                const r = runFixture(fx, FAKE_BIN, probe, { FAKE_SANDY_NO_DOCKER: '1' });
                expect(r.code).to.equal(fx.exitcode);
                expect(r.stderr).to.equal(probe.subst(fx.stderr));
                expect(r.stdout).to.equal(probe.subst(fx.stdout));
            });
        }
        it('81b-launch-plain-docker-not-installed (FAKE_SANDY_NO_DOCKER=not-installed)', () => {
            const fx = new Fixture('81b');
            const probe = newProbe();
            const r = runFixture(fx, FAKE_BIN, probe, { FAKE_SANDY_NO_DOCKER: 'not-installed' });
            expect(r.code).to.equal(1);
            expect(r.stderr).to.equal(fx.stderr);
        });
    });

    describe('launch through child_process (non-TTY)', () => {
        const launchEnv = (probe: Probe, home: string, extra: Record<string, string> = {}): Record<string, string> =>
            fakeEnv({ HOME: probe.home(home), TMPDIR: probe.tmp, FAKE_SANDY_AGENT_SECONDS: '0', FAKE_SANDY_CLEANUP_MS: '0', ...extra });

        it('52/52b headless -p: preamble lines share stdout with the answer; second run is "up to date"', () => {
            const probe = newProbe();
            const ws = path.join(probe.ws, 'ws-headless');
            fs.mkdirSync(ws, { recursive: true });
            const env = launchEnv(probe, 'headless', { FAKE_SANDY_HEADLESS_OUTPUT: 'FAKE-AGENT-ANSWER: hello' });
            for (const id of ['52', '52b']) {
                const fx = new Fixture(id);
                learn(probe, fx.stdout, ws);
                const r = runSync(FAKE_BIN, ['-p', 'say hello'], ws, env);
                expect(r.code, fx.name).to.equal(0);
                expect(r.stdout, fx.name).to.equal(probe.subst(fx.stdout));
                expect(r.stderr, fx.name).to.equal(withoutStub(fx.stderr));
            }
        });

        it('32/33/35 approvals without a TTY: silent when approved, drop message when changed, SANDY_AUTO_APPROVE_PRIVILEGED', () => {
            const probe = newProbe();
            const ws = path.join(probe.ws, 'ws-approve');
            const home = probe.home('approve');
            const sandyHome = path.join(home, '.sandy');
            const fx30 = new Fixture('30');
            learn(probe, fx30.stdout, ws);
            learnHash(probe, '9bfc4d35bab6e7c0', ws);
            probe.write(path.join(ws, '.sandy', 'config'), fx30.read('input.config') as string);
            // the approval sandy itself wrote when 'y' was typed in fixture 30
            const approvalFile = path.join(sandyHome, 'approvals', `passive-${sha256(ws).slice(0, 16)}.list`);
            probe.write(approvalFile, probe.subst(fx30.read('approval-file.list') as string), 0o600);
            const env = launchEnv(probe, 'approve');
            const first = runSync(FAKE_BIN, [], ws, env);
            expect(first.code).to.equal(0);
            expect(first.stderr, 'an approved set launches silently').to.equal('');

            const fx32 = new Fixture('32');
            const r32 = runSync(FAKE_BIN, [], ws, env);
            expect(r32.code).to.equal(0);
            expect(preamble(r32.stdout)).to.equal(probe.subst(fx32.stdout));
            expect(r32.stderr).to.equal(withoutStub(fx32.stderr));

            const fx33 = new Fixture('33');
            probe.write(path.join(ws, '.sandy', 'config'), fx33.read('input.config') as string);
            const r33 = runSync(FAKE_BIN, [], ws, env);
            expect(r33.code).to.equal(fx33.exitcode);
            expect(preamble(r33.stdout)).to.equal(probe.subst(fx33.stdout));
            expect(r33.stderr).to.equal(probe.subst(withoutStub(fx33.stderr)));

            const before = fs.readFileSync(approvalFile, 'utf8');
            const fx35 = new Fixture('35');
            const r35 = runSync(FAKE_BIN, [], ws, { ...env, SANDY_AUTO_APPROVE_PRIVILEGED: '1' });
            expect(r35.code).to.equal(0);
            expect(preamble(r35.stdout)).to.equal(probe.subst(fx35.stdout));
            expect(r35.stderr).to.equal('');
            expect(fs.readFileSync(approvalFile, 'utf8'), 'auto-approve writes nothing').to.equal(before);
            expect(before).to.equal(probe.subst(fx35.read('approval-file-after.list') as string));
        });

        it('union/CRLF/env-set approval hashes: the launcher accepts the files sandy wrote (36, 37, 38)', () => {
            for (const [id, wsName, extra] of [['36', 'ws-union', {}], ['37', 'ws-crlf', {}], ['38', 'ws-envset', { ANTHROPIC_API_KEY: 'sk-ant-from-env' }]] as const) {
                const probe = newProbe();
                const fx = new Fixture(id);
                const ws = path.join(probe.ws, wsName);
                probe.write(path.join(ws, '.sandy', 'config'), fx.read('input.config') as string);
                if (fx.read('input.secrets') !== undefined) {
                    probe.write(path.join(ws, '.sandy', '.secrets'), fx.read('input.secrets') as string);
                }
                probe.write(path.join(probe.home('h'), '.sandy', 'approvals', `passive-${sha256(ws).slice(0, 16)}.list`),
                    probe.subst(fx.read('approval-file.list') as string), 0o600);
                const r = runSync(FAKE_BIN, [], ws, launchEnv(probe, 'h', extra));
                expect(r.code, id).to.equal(0);
                expect(r.stderr, `${id}: no approval prompt block`).to.equal('');
            }
        });

        it('the approval hash written by the fake is sandy\'s (compare fixture 30\'s approval file)', () => {
            // Without a TTY the fake cannot be approved interactively, so check the
            // hash via --validate-config's per-file hash, which equals the union hash
            // when only .sandy/config carries privileged keys and nothing is CRLF.
            const probe = newProbe();
            const fx = new Fixture('30');
            const ws = path.join(probe.ws, 'ws-approve');
            probe.write(path.join(ws, '.sandy', 'config'), fx.read('input.config') as string);
            probe.write(path.join(probe.home('h'), '.sandy', 'approvals', `passive-${sha256(ws).slice(0, 16)}.list`),
                probe.subst(fx.read('approval-file.list') as string));
            const r = runSync(FAKE_BIN, ['--validate-config', path.join(ws, '.sandy', 'config')], ws, fakeEnv({ HOME: probe.home('h') }));
            expect(JSON.parse(r.stdout).approval_status).to.equal('approved');
        });

        it('39 .sandy/Dockerfile gate: review block without a TTY, then sandy\'s own approval file is honoured', () => {
            const probe = newProbe();
            const fx = new Fixture('39');
            const ws = path.join(probe.ws, 'ws-dockerfile');
            probe.write(path.join(ws, '.sandy', 'Dockerfile'), fx.read('input.Dockerfile') as string);
            const env = launchEnv(probe, 'populated');
            const r1 = runSync(FAKE_BIN, [], ws, env);
            expect(r1.code).to.equal(0);
            // the PTY transcript holds the same block up to the prompt line
            const pty = fx.stdout.replace(/\r\n/g, '\n').replace(/\x1b\[[0-9;]*m/g, '');
            const block = pty.slice(pty.indexOf('[sandy]\n[sandy] This project'), pty.indexOf('[sandy] Build this'));
            expect(r1.stderr).to.equal(probe.subst(block) + '[sandy] Non-interactive session \u2014 NOT building the project image; using the\n' +
                '[sandy] base agent image. Launch sandy interactively once from this directory\n' +
                '[sandy] to review and approve the .sandy/Dockerfile.\n[sandy]\n');
            expect(r1.stdout).to.not.include('project image');
            learnHash(probe, '45b35442d047227b', ws);
            probe.write(path.join(probe.home('populated'), '.sandy', 'approvals', `dockerfile-${sha256(ws).slice(0, 16)}.list`),
                probe.subst(fx.read('approval-file.list') as string), 0o600);
            const r2 = runSync(FAKE_BIN, [], ws, env);
            expect(r2.stderr, 'the context hash matches sandy\'s: no prompt').to.equal('');
            expect(preamble(r2.stdout)).to.include('[sandy] Building project image from .sandy/Dockerfile...\n');
            const r3 = runSync(FAKE_BIN, [], ws, env);
            expect(preamble(r3.stdout)).to.include('[sandy] Project image up to date.\n');
        });

        it('31 an approved SANDY_EGRESS_NO_ISOLATION=1 takes the iptables path and is refused (no iptables)', () => {
            const probe = newProbe();
            const fx = new Fixture('31');
            const ws = path.join(probe.ws, 'ws-approve');
            probe.write(path.join(ws, '.sandy', 'config'), fx.read('input.config') as string);
            learn(probe, fx.stdout, ws);
            const r = runSync(FAKE_BIN, [], ws, launchEnv(probe, 'approve', { SANDY_AUTO_APPROVE_PRIVILEGED: '1' }));
            expect(r.code).to.equal(1);
            const pty = probe.subst(fx.stdout.replace(/\r\n/g, '\n').replace(/\x1b\[[0-9;]*m/g, ''));
            const after = pty.slice(pty.indexOf('\n', pty.indexOf('Revoke via')) + 1).split('\n').filter(Boolean);
            const errs = after.filter(l => l.startsWith('[sandy] Cannot apply') || l.startsWith('[sandy] Refusing'));
            expect(r.stdout.split('\n').filter(Boolean)).to.deep.equal(['[sandy] Build files updated.', ...after.filter(l => !errs.includes(l))]);
            expect(r.stderr).to.equal(errs.join('\n') + '\n');
            expect(fs.existsSync(path.join(probe.home('approve'), '.sandy', 'sandboxes', `.${sandboxName(ws)}.lock`)), 'lock released').to.equal(false);
        });

        it('--workspace PATH launches for that workspace from any cwd; a missing one is refused', () => {
            const probe = newProbe();
            const ws = path.join(probe.ws, 'elsewhere');
            fs.mkdirSync(ws, { recursive: true });
            const r = runSync(FAKE_BIN, ['--workspace', ws], probe.root, launchEnv(probe, 'h'));
            expect(r.code).to.equal(0);
            expect(preamble(r.stdout)).to.include(`[sandy]   Working directory: ${ws}\n`);
            const bad = runSync(FAKE_BIN, ['--workspace', path.join(probe.ws, 'nope')], probe.root, launchEnv(probe, 'h'));
            expect([bad.code, bad.stderr]).to.deep.equal([1, `[sandy] --workspace path does not exist or is not a directory: ${path.join(probe.ws, 'nope')}\n`]);
        });

        it('FAKE_SANDY_TMUX_FILTER=1 swallows raw OSC 9/99/777/8/title like sandy\'s tmux, keeps OSC 52 and BEL (fixture 110)', async () => {
            const probe = newProbe();
            const ws = path.join(probe.ws, 'tmux');
            fs.mkdirSync(ws, { recursive: true });
            const p = new Proc(FAKE_BIN, [], ws, fakeEnv({ HOME: probe.home('h'), FAKE_SANDY_CLEANUP_MS: '0', FAKE_SANDY_TMUX_FILTER: '1' }));
            await p.waitFor('type \'help\'');
            p.write('osc9 a\nosc99 b\nosc777 c;d\nosc8 https://x.test y\ntitle t\nosc52 e\nbell\nexit 0\n');
            await p.exited;
            expect(p.stdout).to.not.match(/\x1b\](9|99|777|8|2);/);
            expect(p.stdout).to.include(`\x1b]52;c;${Buffer.from('e').toString('base64')}\x07`);
            expect(p.stdout).to.include('\x07[bell sent]');
        });

        it('`when <file> <command>` runs the command only once the file exists (the tests\' cue), input going on meanwhile', async () => {
            const probe = newProbe();
            const ws = path.join(probe.ws, 'when');
            fs.mkdirSync(ws, { recursive: true });
            const flag = path.join(probe.ws, 'cue-7');
            const p = new Proc(FAKE_BIN, [], ws, fakeEnv({ HOME: probe.home('h'), FAKE_SANDY_CLEANUP_MS: '0' }));
            await p.waitFor('type \'help\'');
            p.write(`when ${flag} echo cued-now\n`);
            await p.waitFor('[when cue-7: echo cued-now]');
            p.write('echo still-typing\n');
            await p.waitFor('\r\nstill-typing\r\n');
            await new Promise(r => setTimeout(r, 500));
            // What it prints stands alone on its line (after a fresh prompt); the typed line ends in "echo cued-now".
            const printed = () => p.stdout.match(/(?:\r\n|\x1b\[0m )cued-now\r\n/g)?.length ?? 0;
            expect(printed(), 'nothing before the cue').to.equal(0);
            fs.writeFileSync(flag, '');
            await waitUntil(() => printed() === 1, 3000, 'the cued command');
            p.write('exit 0\n');
            await p.exited;
            expect(printed(), 'once').to.equal(1);
        });

        it('SIGWINCH redraws the screen; size follows LINES/COLUMNS when stdout is not a terminal', async () => {
            const probe = newProbe();
            const ws = path.join(probe.ws, 'winch');
            fs.mkdirSync(ws, { recursive: true });
            const p = new Proc(FAKE_BIN, [], ws, fakeEnv({ HOME: probe.home('h'), FAKE_SANDY_CLEANUP_MS: '0', LINES: '40', COLUMNS: '120' }));
            await p.waitFor('size: 40\u00d7120');
            const draws = (): number => p.stdout.split('\x1b[H\x1b[2J').length - 1;
            expect(draws()).to.equal(1);
            process.kill(p.pid, 'SIGWINCH');
            await waitUntil(() => draws() === 2, 3000, 'redraw');
            p.write('size\nexit 0\n');
            await p.exited;
            expect(p.stdout).to.include('\r\n40\u00d7120\r\n');
        });

        it('50 live lock refuses, 51 stale lock is taken over (recreated populated home)', () => {
            const probe = newProbe();
            const live = String(process.pid);
            const dead = String(deadPid());
            const tree = new Fixture('41').read('home-tree.txt') as string;
            buildHome(probe, 'populated', tree, { pids: new Map([['27950', live], ['27473', dead]]), missingWorkspaces: ['ws-gamma'] });
            const fx50 = new Fixture('50');
            const r50 = runSync(FAKE_BIN, [], path.join(probe.ws, 'ws-alpha'), launchEnv(probe, 'populated'));
            expect(r50.code).to.equal(1);
            expect(r50.stdout).to.equal(probe.subst(fx50.stdout));
            expect(r50.stderr).to.equal(probe.subst(fx50.stderr).replace('pid 27950', `pid ${live}`));
            expect(fs.readFileSync(path.join(probe.home('populated'), '.sandy', 'sandboxes', `.${sandboxName(path.join(probe.ws, 'ws-alpha'))}.lock`, 'pid'), 'utf8'))
                .to.equal(`${live}\n`, 'the refused launch must not touch the live lock');

            const fx51 = new Fixture('51');
            probe.names.set('<HOME:populated-stale>', '<HOME:populated>');
            const r51 = runSync(FAKE_BIN, [], path.join(probe.ws, 'ws-beta'), launchEnv(probe, 'populated'));
            expect(r51.code).to.equal(0);
            const exp51 = probe.subst(fx51.stdout.split('<HOME:populated-stale>').join('<HOME:populated>')).replace('pid 27473', `pid ${dead}`);
            expect(preamble(r51.stdout)).to.equal(exp51);
            expect(fs.existsSync(path.join(probe.home('populated'), '.sandy', 'sandboxes', `.${sandboxName(path.join(probe.ws, 'ws-beta'))}.lock`)))
                .to.equal(false, 'lock released on exit');
        });

        it('53 and 54a-g launch-time refusals (messages, streams, exit codes)', () => {
            const probe = newProbe();
            const fx53 = new Fixture('53');
            probe.write(path.join(probe.home('lt-worldopen'), '.sandy', 'config'), fx53.read('input.config') as string);
            fs.mkdirSync(path.join(probe.ws, 'lt-plain'), { recursive: true });
            const r53 = runSync(FAKE_BIN, [], path.join(probe.ws, 'lt-plain'), launchEnv(probe, 'lt-worldopen'));
            expect([r53.code, r53.stdout, r53.stderr]).to.deep.equal([1, fx53.stdout, fx53.stderr]);

            for (const [id, wsName] of [['54a', 'lt-effort'], ['54b', 'lt-agent'], ['54c', 'lt-strict'], ['54d', 'lt-model'], ['54e', 'lt-proxy'], ['54f', 'lt-cpus']]) {
                const fx = new Fixture(id);
                const ws = path.join(probe.ws, wsName);
                probe.write(path.join(ws, '.sandy', 'config'), fx.read('input.config') as string);
                learn(probe, fx.stdout, ws);
                const r = runSync(FAKE_BIN, [], ws, launchEnv(probe, 'lt-vals'));
                expect(r.code, id).to.equal(fx.exitcode);
                expect(preamble(r.stdout), id).to.equal(probe.subst(fx.stdout));
                expect(r.stderr, id).to.equal(withoutStub(fx.stderr));
            }
            const fx54g = new Fixture('54g');
            probe.write(path.join(probe.home('lt-llmhome'), '.sandy', 'config'), fx54g.read('input.config') as string);
            fs.mkdirSync(path.join(probe.ws, 'lt-llm'), { recursive: true });
            const rg = runSync(FAKE_BIN, [], path.join(probe.ws, 'lt-llm'), launchEnv(probe, 'lt-llmhome'));
            expect([rg.code, rg.stdout, rg.stderr]).to.deep.equal([1, fx54g.stdout, fx54g.stderr]);
        });

        it('57 compat floor, 59d echo -e in [sandy] lines, 56 orphan false positive (recreated edge home)', () => {
            const probe = newProbe();
            const tree = new Fixture('55').read('home-tree.txt') as string;
            buildHome(probe, 'edge', tree, { pids: new Map(), missingWorkspaces: [] });
            const env = launchEnv(probe, 'edge');
            const fx57 = new Fixture('57');
            const r57 = runSync(FAKE_BIN, [], path.join(probe.ws, 'edge-old'), env);
            expect([r57.code, r57.stdout, r57.stderr]).to.deep.equal([1, probe.subst(fx57.stdout), probe.subst(fx57.stderr)]);

            const fx56 = new Fixture('56');
            const r56 = runSync(FAKE_BIN, ['--remove-sandbox', '--orphans', '--dry-run'], path.join(probe.ws), env);
            expect(r56.code).to.equal(0);
            const sizeTime = (s: string): string => s.replace(/ {2}- (\S+)\s+\S+\s+workspace: /g, '  - $1 <size> workspace: ')
                .replace(/ +last used: \S+/g, ' last used: <t>');
            expect(sizeTime(r56.stdout)).to.equal(sizeTime(probe.subst(fx56.stdout)));

            const fx59d = new Fixture('59d');
            const quoteWs = path.join(probe.ws, 'edge "quote" \\back \u00fcn\u00ef');
            const r59d = runSync(FAKE_BIN, [], quoteWs, env);
            expect(r59d.code).to.equal(0);
            expect(preamble(r59d.stdout)).to.equal(probe.subst(fx59d.stdout));
            expect(preamble(r59d.stdout)).to.include('\x08ack', 'the \\b of the path is rendered as a backspace');
        });

        it('59a-c --reset-sandbox --yes, relaunch warns "version is unknown", created_version stays ""', () => {
            const probe = newProbe();
            const ws = path.join(probe.ws, 'ws-reset');
            fs.mkdirSync(ws, { recursive: true });
            const env = launchEnv(probe, 'reset');
            expect(runSync(FAKE_BIN, [], ws, env).code).to.equal(0);
            const fx59a = new Fixture('59a');
            learn(probe, fx59a.stdout, ws);
            const ra = runSync(FAKE_BIN, ['--reset-sandbox', '--yes'], ws, env);
            expect(ra.code).to.equal(0);
            const sizes = (s: string): string => s.replace(/^( {2}- \S+\s+)\S+$/gm, '$1<size>');
            expect(sizes(ra.stdout)).to.equal(sizes(probe.subst(fx59a.stdout)));
            const fx59b = new Fixture('59b');
            const rb = runSync(FAKE_BIN, [], ws, env);
            expect(preamble(rb.stdout)).to.equal(probe.subst(fx59b.stdout));
            const fx59c = new Fixture('59c');
            const rc = runSync(FAKE_BIN, ['--print-state', 'light'], probe.ws, env);
            expectStateMatches(rc.stdout, probe.subst(fx59c.stdout), 'format');
        });

        it('60-69 --reset-sandbox / --remove-sandbox refusals and plans (recreated populated home)', () => {
            const probe = newProbe();
            const live = String(process.pid);
            const dead = String(deadPid());
            const tree = new Fixture('41').read('home-tree.txt') as string;
            buildHome(probe, 'populated', tree, { pids: new Map([['27950', live], ['27473', dead]]), missingWorkspaces: ['ws-gamma'] });
            fs.mkdirSync(path.join(probe.ws, 'plain'), { recursive: true });
            learn(probe, new Fixture('68').stderr, path.join(probe.ws, 'plain'));
            const sizes = (s: string): string => s.replace(/^( {2}- \S+\s+)\S+$/gm, '$1<size>')
                .replace(/ {2}- (\S+)\s+\S+\s+workspace: /g, '  - $1 <size> workspace: ').replace(/ +last used: \S+/g, ' last used: <t>');
            for (const id of ['60', '61', '62', '63', '64', '65', '66', '67', '68', '68b']) {
                const fx = new Fixture(id);
                const r = runFixture(fx, FAKE_BIN, probe, { TZ: 'UTC' });
                expect(r.code, fx.name).to.equal(fx.exitcode);
                expect(r.stderr, fx.name).to.equal(probe.subst(fx.stderr).replace('pid 27950', `pid ${live}`));
                expect(sizes(r.stdout), fx.name).to.equal(sizes(probe.subst(fx.stdout)));
            }
            const fx69 = new Fixture('69');
            probe.names.set('<HOME:populated-copy>', '<HOME:populated>');
            const r69 = runSync(FAKE_BIN, ['--remove-sandbox', '--orphans', '--yes'], path.join(probe.ws, 'plain'), launchEnv(probe, 'populated'));
            expect(r69.code).to.equal(0);
            expect(sizes(r69.stdout)).to.equal(sizes(probe.subst(fx69.stdout.split('<HOME:populated-copy>').join('<HOME:populated>'))));
            const gamma = sandboxName(path.join(probe.ws, 'ws-gamma'));
            expect(fs.existsSync(path.join(probe.home('populated'), '.sandy', 'sandboxes', gamma))).to.equal(false);
            expect(fs.readdirSync(path.join(probe.home('populated'), '.sandy', 'approvals')).sort())
                .to.deep.equal([`dockerfile-${sha256(path.join(probe.ws, 'ws-dockerfile')).slice(0, 16)}.list`,
                    `passive-${sha256(path.join(probe.ws, 'ws-approved')).slice(0, 16)}.list`].sort());
        });

        it('preamble, markers and WORKSPACE.json of a first launch; lock held while running, removed on SIGTERM (143)', async () => {
            const probe = newProbe();
            const ws = path.join(probe.ws, 'proj');
            fs.mkdirSync(ws, { recursive: true });
            const log = path.join(probe.tmp, 'signals.log');
            const p = new Proc(FAKE_BIN, [], ws, fakeEnv({ HOME: probe.home('h'), TMPDIR: probe.tmp, FAKE_SANDY_LOG: log }));
            await p.waitFor('\x1b[?1049h');
            const name = sandboxName(ws);
            const sb = path.join(probe.home('h'), '.sandy', 'sandboxes');
            expect(preamble(p.stdout).split('\n')).to.deep.equal([
                '[sandy] Build files updated.',
                '[sandy] Building base image (language runtimes) \u2014 this may take several minutes on first run...',
                '[sandy] Building egress proxy image (sandy-proxy, ref=main)...',
                '[sandy] Building sandbox image (may take a few minutes)...',
                `[sandy] Creating new sandbox: ${sb}/${name}`,
                '[sandy] Creating egress-proxy networks (mode=permissive)...',
                `[sandy] Starting egress proxy sidecar (sandy-proxy-${name} @ 10.200.0.2)...`,
                '[sandy] No gh CLI token found. Git push/pull may not work.',
                '[sandy] Install gh (https://cli.github.com) and run \'gh auth login\', or use SANDY_SSH=agent.',
                '[sandy] Launching Claude Code sandbox...',
                `[sandy]   Working directory: ${ws}`,
                `[sandy]   Sandbox:           ${sb}/${name}`,
                '[sandy]   Resources:         4 CPUs, 7g memory',
                '[sandy]   Network:           Egress proxy (permissive): public internet allowed; LAN/host/metadata blocked',
                '', ''
            ]);
            expect(p.stderr).to.equal('');
            expect(fs.readFileSync(path.join(sb, `.${name}.lock`, 'pid'), 'utf8')).to.equal(`${p.pid}\n`);
            expect(fs.readFileSync(path.join(sb, name, '.sandy_created_version'), 'utf8')).to.equal('1.7.1-dev\n');
            const wsj = JSON.parse(fs.readFileSync(path.join(sb, name, 'WORKSPACE.json'), 'utf8'));
            expect(Object.keys(wsj)).to.deep.equal(['schema_version', 'sandbox_name', 'workspace_path', 'first_seen_at', 'last_seen_at', 'sandy_version_first', 'sandy_version_last']);
            expect(wsj.workspace_path).to.equal(ws);
            // print-state sees the live lock, pid as a STRING
            const st = JSON.parse(runSync(FAKE_BIN, ['--print-state', 'light'], ws, fakeEnv({ HOME: probe.home('h') })).stdout);
            expect(st.sandboxes[0]).to.include({ name, lock_held: true, lock_holder_pid: String(p.pid), lock_holder_alive: true });
            const t0 = Date.now();
            p.child.kill('SIGTERM');
            const ex = await p.exited;
            expect(ex.code).to.equal(143);
            expect(Date.now() - t0, 'cleanup is deliberately slow (300 ms)').to.be.greaterThan(250);
            expect(fs.existsSync(path.join(sb, `.${name}.lock`))).to.equal(false);
            expect(fs.readFileSync(log, 'utf8')).to.match(/^SIGTERM \d{13}\n$/);
            expect(fs.existsSync(path.join(sb, name, '.session-created-stubs')), 'session snapshots cleaned').to.equal(false);
        });

        for (const [sig, code, fxId] of [['SIGINT', 130, '45'], ['SIGTERM', 143, '46'], ['SIGHUP', 129, '47']] as const) {
            it(`${new Fixture(fxId).name}: ${sig} to the process group -> exit ${code}, lock removed`, async () => {
                const probe = newProbe();
                const ws = path.join(probe.ws, 'ws-signals');
                fs.mkdirSync(ws, { recursive: true });
                const p = new Proc(FAKE_BIN, [], ws, fakeEnv({ HOME: probe.home('signals'), FAKE_SANDY_CLEANUP_MS: '50', FAKE_SANDY_DEFER_TRAPS: '1' }),
                    { detached: true, stdin: 'ignore' });
                await p.waitFor('\x1b[?1049h');
                const lock = path.join(probe.home('signals'), '.sandy', 'sandboxes', `.${sandboxName(ws)}.lock`);
                expect(fs.existsSync(lock)).to.equal(true);
                const t0 = Date.now();
                process.kill(-p.pid, sig);
                const ex = await p.exited;
                expect(ex.code).to.equal(code);
                expect(Date.now() - t0, 'a group signal also kills the stand-in docker run: prompt').to.be.lessThan(2000);
                expect(fs.existsSync(lock)).to.equal(false);
                expect(p.stderr).to.equal('');
            });
        }

        it('48 SIGTERM to the sandy PID only is deferred until the foreground "docker run" returns', async () => {
            const probe = newProbe();
            const ws = path.join(probe.ws, 'ws-signals');
            fs.mkdirSync(ws, { recursive: true });
            const p = new Proc(FAKE_BIN, [], ws, fakeEnv({
                HOME: probe.home('signals'), FAKE_SANDY_CLEANUP_MS: '50', FAKE_SANDY_DEFER_TRAPS: '1', FAKE_SANDY_AGENT_SECONDS: '2'
            }), { detached: true, stdin: 'ignore' });
            await p.waitFor('\x1b[?1049h');
            const t0 = Date.now();
            process.kill(p.pid, 'SIGTERM');
            await new Promise(r => setTimeout(r, 700));
            expect(p.exitInfo, 'still running: trap deferred').to.equal(undefined);
            const ex = await p.exited;
            expect(ex.code).to.equal(143);
            expect(Date.now() - t0).to.be.greaterThan(1000);
        });

        it('40/40b SIGKILL leaves the lock (pid inside) and the plaintext secrets env file behind', async () => {
            const probe = newProbe();
            const ws = path.join(probe.ws, 'ws-sigkill');
            fs.mkdirSync(ws, { recursive: true });
            probe.write(path.join(probe.home('sigkill-secrets'), '.sandy', '.secrets'), 'ANTHROPIC_API_KEY=sk-ant-FAKE\n');
            const tmpdir = path.join(probe.tmp, 'sigkill-tmpdir');
            fs.mkdirSync(tmpdir);
            const p = new Proc(FAKE_BIN, [], ws, fakeEnv({ HOME: probe.home('sigkill-secrets'), TMPDIR: tmpdir }), { stdin: 'ignore' });
            await p.waitFor('\x1b[?1049h');
            const envFiles = fs.readdirSync(tmpdir).map(d => path.join(tmpdir, d, 'env'));
            expect(envFiles).to.have.length(1);
            expect((fs.statSync(envFiles[0]).mode & 0o777).toString(8)).to.equal('600');
            p.child.kill('SIGKILL');
            const ex = await p.exited;
            expect(ex.signal).to.equal('SIGKILL');
            const lock = path.join(probe.home('sigkill-secrets'), '.sandy', 'sandboxes', `.${sandboxName(ws)}.lock`);
            expect(fs.readFileSync(path.join(lock, 'pid'), 'utf8')).to.equal(`${p.pid}\n`);
            expect(fs.readFileSync(envFiles[0], 'utf8')).to.equal('ANTHROPIC_API_KEY=sk-ant-FAKE\n');
            const st = JSON.parse(runSync(FAKE_BIN, ['--print-state'], ws, fakeEnv({ HOME: probe.home('sigkill-secrets') })).stdout);
            expect(st.sandboxes[0]).to.include({ lock_held: true, lock_holder_pid: String(p.pid), lock_holder_alive: false });
        });

        it('agent TUI over a pipe: echo, OSC 9/777/99/52/8, size, env, flood, exit code', async () => {
            const probe = newProbe();
            const ws = path.join(probe.ws, 'tui');
            fs.mkdirSync(ws, { recursive: true });
            const p = new Proc(FAKE_BIN, [], ws, fakeEnv({
                HOME: probe.home('h'), FAKE_SANDY_CLEANUP_MS: '0', FAKE_SANDY_ON_START: 'osc9 cued;;echo after-cue', SECRET_PROBE: 'leak-me'
            }));
            await p.waitFor('after-cue\r\n');
            expect(p.stdout).to.include('\x1b]9;cued\x07');
            expect(p.stdout).to.include(`fake sandy 1.7.1-dev \u2014 ${ws}`);
            expect(p.stdout).to.match(/\x1b\[48;5;\d+m/);
            expect(p.stdout).to.match(/\x1b\[48;2;\d+;\d+;\d+m/);
            p.write('osc777 Claude Code;Permission needed\nosc99 kitty hi\nosc52 copied\nosc8 https://example.com/x docs\nsize\nenv\nflood 5000\n');
            await p.waitFor('flood done 5000\r\n');
            expect(p.stdout).to.include('\x1b]777;notify;Claude Code;Permission needed\x07');
            expect(p.stdout).to.include('\x1b]99;;kitty hi\x1b\\');
            expect(p.stdout).to.include(`\x1b]52;c;${Buffer.from('copied').toString('base64')}\x07`);
            expect(p.stdout).to.include('\x1b]8;;https://example.com/x\x1b\\docs\x1b]8;;\x1b\\');
            expect(p.stdout).to.include('\r\n24\u00d780\r\n');
            expect(p.stdout).to.include('SECRET_PROBE=leak-me\r\n');
            expect(p.stdout.match(/flood \d+\/5000 /g)).to.have.length(5000);
            p.write('exit 7\n');
            const ex = await p.exited;
            expect(ex.code).to.equal(7);
            expect(p.stdout.endsWith('\x1b[?1049l')).to.equal(true);
        });
    });

    describe('daemon mode (--start / --attach / --stop) with FAKE_SANDY_DOCKER=1', () => {
        let probe: Probe;
        let ws: string;
        let env: Record<string, string>;
        before(() => {
            probe = newProbe();
            ws = path.join(probe.ws, 'ws-daemon');
            fs.mkdirSync(ws, { recursive: true });
            env = fakeEnv({ HOME: probe.home('daemon'), TMPDIR: probe.tmp, FAKE_SANDY_DOCKER: '1', FAKE_SANDY_CLEANUP_MS: '50' });
        });
        const run = (args: string[], extra: Record<string, string> = {}, cwd?: string): RunResult => runSync(FAKE_BIN, args, cwd ?? ws, { ...env, ...extra });
        const lockPid = (): string => fs.readFileSync(path.join(probe.home('daemon'), '.sandy', 'sandboxes', `.${sandboxName(ws)}.lock`, 'pid'), 'utf8').trim();

        it('90/91 attach and stop without a session -> 4 (fresh home also says "Build files updated.")', () => {
            const fx90 = new Fixture('90');
            const r90 = run(['--attach']);
            expect([r90.code, r90.stdout, r90.stderr]).to.deep.equal([4, fx90.stdout, probe.subst(fx90.stderr)]);
            const fx91 = new Fixture('91');
            const r91 = run(['--stop']);
            expect([r91.code, r91.stdout, r91.stderr]).to.deep.equal([4, '', probe.subst(fx91.stderr)]);
        });

        it('92 --start -p is rejected', () => {
            const fx = new Fixture('92');
            const r = run(['--start', '-p', 'hello']);
            expect([r.code, r.stderr]).to.deep.equal([1, fx.stderr]);
        });

        it('93 --start streams the supervisor log (forced colours) and reports ready', () => {
            const fx = new Fixture('93');
            learn(probe, fx.stdout, ws);
            const r = run(['--start']);
            expect(r.code).to.equal(0);
            const norm = (s: string): string => s.replace(/^\w{60,70}$/m, '<cid>').replace(/\(pid \d+\)/g, '(pid <pid>)')
                .replace(/\(container \w{12}\)/g, '(container <id12>)');
            expect(norm(r.stdout)).to.equal(norm(probe.subst(fx.stdout)));
        });

        it('94 second --start is idempotent; 95 bare launch refused', () => {
            const fx94 = new Fixture('94');
            const r94 = run(['--start']);
            expect(r94.code).to.equal(0);
            expect(r94.stdout.replace(/container \w{12}/, 'container <id12>'))
                .to.equal(probe.subst(fx94.stdout).replace(/container \w{12}/, 'container <id12>'));
            const fx95 = new Fixture('95');
            const r95 = run([]);
            expect([r95.code, r95.stdout, r95.stderr]).to.deep.equal([1, fx95.stdout, fx95.stderr]);
        });

        it('96/96b/97 print-state with a live daemon session: running_containers shape and values', () => {
            for (const [id, args, extra] of [['96', ['--print-state'], {}], ['96b', ['--print-state'], { FAKE_SANDY_IMAGE_STALE: '1' }],
                ['97', ['--print-state', 'light'], {}]] as const) {
                const fx = new Fixture(id);
                const r = run([...args], extra, probe.ws);
                expect(r.code).to.equal(0);
                expect(r.stderr).to.equal('');
                let exp = probe.subst(fx.stdout).replace(/"lock_holder_pid":"\d+"/, `"lock_holder_pid":"${lockPid()}"`);
                // nobody is attached here; the stub answered 1
                exp = exp.replace('"attached_clients":1', '"attached_clients":0');
                expectStateMatches(r.stdout, exp, 'format');
            }
        });

        it('98 attach then detach -> 3; last attach wins (DEC-A)', async () => {
            const a1 = new Proc(FAKE_BIN, ['--attach'], ws, env);
            await a1.waitFor('type \'help\' for commands');
            const st = JSON.parse(run(['--print-state', 'light'], {}, probe.ws).stdout);
            expect(st.running_containers[0].attached_clients).to.equal(1);
            const a2 = new Proc(FAKE_BIN, ['--attach'], ws, env);
            await a2.waitFor('type \'help\' for commands');
            const e1 = await a1.exited;
            expect(e1.code, 'first client kicked -> detached -> 3').to.equal(3);
            expect(a1.stdout).to.include('[detached (from session sandy)]');
            a2.write('echo over-the-socket\n');
            await a2.waitFor(/over-the-socket\r\n\x1b\[1;32m>/);
            a2.write('detach\n');
            const e2 = await a2.exited;
            expect(e2.code).to.equal(3);
        });

        it('103 attach client killed by SIGHUP: no verdict, session untouched', async () => {
            const a = new Proc(FAKE_BIN, ['--attach'], ws, env, { detached: true });
            await a.waitFor('type \'help\' for commands');
            process.kill(-a.pid, 'SIGHUP');
            const ex = await a.exited;
            expect(ex.signal).to.equal('SIGHUP');
            const st = JSON.parse(run(['--print-state', 'light'], {}, probe.ws).stdout);
            expect(st.sandboxes[0].lock_holder_alive).to.equal(true);
            expect(st.running_containers.filter((c: { daemon: boolean }) => c.daemon)).to.have.length(1);
        });

        it('100/104 --stop signals the live supervisor -> 0, lock released', () => {
            const pid = lockPid();
            const fx = new Fixture('100');
            const r = run(['--stop']);
            expect(r.code).to.equal(0);
            expect(r.stdout).to.equal(fx.stdout.replace('pid 1390', `pid ${pid}`));
            expect(fs.existsSync(path.join(probe.home('daemon'), '.sandy', 'sandboxes', `.${sandboxName(ws)}.lock`))).to.equal(false);
        });

        it('101a/101b start again ("Reusing sandbox"), agent exits while attached -> attach 0', async () => {
            const fx = new Fixture('101a');
            const r = run(['--start']);
            expect(r.code).to.equal(0);
            const norm = (s: string): string => s.replace(/^\w{60,70}$/m, '<cid>').replace(/\(pid \d+\)/g, '(pid <pid>)')
                .replace(/\(container \w{12}\)/g, '(container <id12>)');
            expect(norm(r.stdout)).to.equal(norm(probe.subst(fx.stdout)));
            const a = new Proc(FAKE_BIN, ['--attach'], ws, env);
            await a.waitFor('type \'help\' for commands');
            a.write('exit 0\n');
            const ex = await a.exited;
            expect(ex.code).to.equal(0);
            await waitUntil(() => run(['--print-state', 'light'], {}, probe.ws).stdout.includes('"running_containers":[]'), 5000, 'daemon teardown');
        });

        it('102a/102b supervisor SIGKILLed: container still listed, lock holder dead; --stop tears down directly', async function () {
            this.timeout(40000);
            expect(run(['--start']).code).to.equal(0);
            const pid = Number(lockPid());
            process.kill(pid, 'SIGKILL');
            // kill -0 treats a zombie as alive (fixture 102c); wait for init to reap it
            await waitUntil(() => !pidAlive(pid), 30000, 'supervisor reaped');
            const fxa = new Fixture('102a');
            const r = run(['--print-state', 'light'], {}, probe.ws);
            const exp = probe.subst(fxa.stdout).replace(/"lock_holder_pid":"\d+"/, `"lock_holder_pid":"${pid}"`)
                .replace('"attached_clients":1', '"attached_clients":0');
            expectStateMatches(r.stdout, exp, 'format');
            const a = run(['--attach']);
            expect(a.code, 'zombie container: session gone -> 0').to.equal(0);
            expect(a.stdout).to.equal('[sandy] Session ended (agent exited); the daemon is shutting down.\n');
            const fxb = new Fixture('102b');
            const rb = run(['--stop']);
            expect([rb.code, rb.stdout]).to.deep.equal([0, fxb.stdout]);
            expect(fs.existsSync(path.join(probe.home('daemon'), '.sandy', 'sandboxes', `.${sandboxName(ws)}.lock`)), 'stale lock reaped').to.equal(false);
        });

        it('102c a supervisor that ignores SIGTERM -> --stop exits 5', () => {
            expect(run(['--start'], { FAKE_SANDY_IGNORE_SIGTERM: '1' }).code).to.equal(0);
            const pid = lockPid();
            const fx = new Fixture('102c');
            const r = run(['--stop'], { FAKE_SANDY_STOP_TIMEOUT_S: '1' });
            expect(r.code).to.equal(5);
            expect(r.stdout).to.equal(fx.stdout.replace('pid 6024', `pid ${pid}`));
            expect(r.stderr).to.equal(fx.stderr.replace('15s', '1s').replace('pid 6024', `pid ${pid}`));
            process.kill(Number(pid), 'SIGINT');
        });

        it('99/99b/99d/99e maintenance over the fake docker', async () => {
            await waitUntil(() => !run(['--print-state', 'light'], {}, probe.ws).stdout.includes('"daemon":true'), 5000, 'previous session gone');
            expect(run(['--start']).code).to.equal(0);
            for (const id of ['99', '99b', '99d', '99e']) {
                const fx = new Fixture(id);
                const r = runFixture(fx, FAKE_BIN, probe, { FAKE_SANDY_DOCKER: '1', HOME: probe.home('daemon') });
                expect(r.code, id).to.equal(fx.exitcode);
                expect(r.stdout, id).to.equal(probe.subst(fx.stdout));
                expect(r.stderr, id).to.equal(probe.subst(fx.stderr));
            }
            const all = run(['--stop-all', '--yes'], {}, probe.ws);
            expect(all.code).to.equal(0);
            expect(all.stdout).to.include('[sandy] Stopped 1 session(s), 0 failure(s).');
        });
    });
});

/** Session records the fake wrote anywhere under a probe (for teardown). */
function findRecords(root: string): Array<{ ownerPid: number }> {
    const res: Array<{ ownerPid: number }> = [];
    const homes = path.join(root, 'homes');
    let names: string[] = [];
    try {
        names = fs.readdirSync(homes);
    } catch {
        return res;
    }
    for (const h of names) {
        const dir = path.join(homes, h, '.sandy', '.fake-docker', 'sessions');
        let files: string[] = [];
        try {
            files = fs.readdirSync(dir);
        } catch {
            continue;
        }
        for (const f of files) {
            try {
                res.push(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
            } catch {
                // partial write
            }
        }
    }
    return res;
}
