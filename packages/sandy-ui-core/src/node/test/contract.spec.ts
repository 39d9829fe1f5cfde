import { expect } from 'chai';
import { SandyError } from '../../common/sandy/errors';
import {
    containerSandboxName, escapePrintable, isKnownConfigKeyType, isStaleLock, KNOWN_CONFIG_KEY_TYPES, lockHolderPid,
    parseDockerCreatedAt, parsePrintSchema, parsePrintState, parsePrintVersion, parseSandyJson, parseSandyLocalTimestamp,
    parseValidateConfig, parseVersionLine, Sandbox, SandyState
} from '../../common/sandy/contract';
import { fixturesWithPrefix, listFixtures, loadFixture, SandyFixture } from './sandy-fixtures';

const ESC = '\x1b';

function catchSandyError(fn: () => unknown): SandyError {
    try {
        fn();
    } catch (e) {
        expect(e).to.be.instanceOf(SandyError);
        return e as SandyError;
    }
    throw new Error('expected a SandyError');
}

function introspection(fixtures: SandyFixture[], flag: string): SandyFixture[] {
    return fixtures.filter(f => f.args[0] === flag);
}

describe('contract (unit)', () => {
    const all = listFixtures();

    describe('every captured introspection output parses', () => {
        const parsers: Record<string, (text: string) => unknown> = {
            '--print-schema': parsePrintSchema,
            '--print-state': parsePrintState,
            '--print-version': parsePrintVersion,
            '--validate-config': parseValidateConfig
        };
        // Counts from INDEX.md; a classifier that silently matched nothing would otherwise pass.
        const expectedJsonCounts: Record<string, number> = {
            '--print-schema': 2, '--print-state': 15, '--print-version': 2, '--validate-config': 26
        };
        for (const [flag, parse] of Object.entries(parsers)) {
            it(`${flag}: all stdout.json fixtures`, () => {
                const jsonFixtures = introspection(all, flag).filter(f => f.stdoutIsJson);
                expect(jsonFixtures.length, 'fixtures found').to.equal(expectedJsonCounts[flag]);
                for (const f of jsonFixtures) {
                    expect(() => parse(f.stdout), f.name).not.to.throw();
                }
            });
        }

        it('flags given as --flag=value or after another option are not introspection (fx 82-84)', () => {
            const names = all.filter(f => /^(82|83|84)-/.test(f.name));
            expect(names).to.have.length(3);
            for (const f of names) {
                expect(Object.keys(parsers)).not.to.include(f.args[0]);
            }
        });
    });

    describe('--print-version / --version', () => {
        it('parses fixture 02', () => {
            const v = parsePrintVersion(loadFixture('02-print-version').stdout);
            expect(v).to.deep.equal({ schema_version: 1, version: '1.7.1-dev', commit: '', full_version: '1.7.1-dev' });
        });

        it('reads the full_version from `sandy --version` and `sandy -v` (fx 03, 03b)', () => {
            expect(parseVersionLine(loadFixture('03-version').stdout)).to.equal('1.7.1-dev');
            expect(parseVersionLine(loadFixture('03b-version-short-v').stdout)).to.equal('1.7.1-dev');
            expect(parseVersionLine('sandy 1.7.1-dev-abc1234\r\n')).to.equal('1.7.1-dev-abc1234');
        });

        it('rejects lines that are not `sandy <version>`', () => {
            expect(parseVersionLine('')).to.equal(undefined);
            expect(parseVersionLine('sandy\n')).to.equal(undefined);
            expect(parseVersionLine('Sandy Desktop 3.0\n')).to.equal(undefined);
            expect(parseVersionLine('[sandy] Update available\nsandy 1.0.0\n')).to.equal(undefined);
        });
    });

    describe('--print-schema', () => {
        it('reads fixture 01 faithfully', () => {
            const s = parsePrintSchema(loadFixture('01-print-schema').stdout);
            expect(s.sandy).to.deep.equal({ version: '1.7.1-dev', commit: '', sandbox_min_compat: '0.7.10' });
            expect(s.config.privileged_keys).to.have.length(21);
            expect(s.config.passive_keys).to.have.length(31);
            expect(s.config.env_only_keys).to.have.length(3);
            expect(s.compatibility.supported_schema_versions).to.deep.equal([1]);
            const effort = s.config.passive_keys.find(k => k.name === 'SANDY_EFFORT')!;
            expect(effort.type).to.equal('enum');
            expect(effort.choices).to.deep.equal(['low', 'medium', 'high', 'xhigh', 'max']);
            const screenshot = s.config.privileged_keys.find(k => k.name === 'SANDY_SCREENSHOT_DIR')!;
            expect(screenshot.type).to.equal('path');
            expect(s.agents.map(a => a.name)).to.deep.equal(['claude', 'gemini', 'codex', 'opencode', 'grok']);
        });

        it('every key type in the fixtures is known (else KNOWN_CONFIG_KEY_TYPES is stale)', () => {
            const s = parsePrintSchema(loadFixture('01-print-schema').stdout);
            const types = new Set([...s.config.privileged_keys, ...s.config.passive_keys, ...s.config.env_only_keys].map(k => k.type));
            expect([...types].sort()).to.deep.equal([...KNOWN_CONFIG_KEY_TYPES].sort());
        });

        it('is env-dependent: SANDY_ALLOW_WORKFLOW_EDIT drops .github/workflows (fx 01b)', () => {
            const a = parsePrintSchema(loadFixture('01-print-schema').stdout);
            const b = parsePrintSchema(loadFixture('01b-print-schema-with-SANDY_ALLOW_WORKFLOW_EDIT-env').stdout);
            expect(a.protected_paths.dirs_always_mount).to.include('.github/workflows');
            expect(b.protected_paths.dirs_always_mount).not.to.include('.github/workflows');
        });

        it('lets unknown key types and unknown fields through', () => {
            const raw = JSON.parse(loadFixture('01-print-schema').stdout);
            raw.config.passive_keys.push({ name: 'SANDY_COLOUR', type: 'color', min: 1, sources: ['env'], stability: 'preview' });
            raw.future_section = { x: 1 };
            const s = parsePrintSchema(JSON.stringify(raw));
            const colour = s.config.passive_keys.find(k => k.name === 'SANDY_COLOUR')!;
            expect(colour.type).to.equal('color');
            expect(isKnownConfigKeyType(colour.type)).to.equal(false);
            expect(isKnownConfigKeyType('enum')).to.equal(true);
            expect((colour as unknown as { min: number }).min).to.equal(1);
            expect((s as unknown as { future_section: unknown }).future_section).to.deep.equal({ x: 1 });
        });
    });

    describe('--print-state', () => {
        it('full, populated, Docker unreachable (fx 41)', () => {
            const s = parsePrintState(loadFixture('41-print-state-full-populated').stdout);
            expect(s.docker_reachable).to.equal(false);
            expect(s.running_containers).to.equal(null);
            expect(s.sandboxes.map(b => b.name)).to.deep.equal([
                'oldproject-0badc0de', 'ws-alpha-8163f30e', 'ws-approved-5e26e387', 'ws-beta-c6f3e2ca',
                'ws-delta-d171e5a3', 'ws-dockerfile-45b35442', 'ws-gamma-3ecb710a'
            ]);
            const alpha = s.sandboxes[1];
            expect(alpha.lock_holder_pid).to.equal('27950');
            expect(lockHolderPid(alpha)).to.equal(27950);
            expect(isStaleLock(alpha)).to.equal(false);
            expect(isStaleLock(s.sandboxes[3])).to.equal(true);
        });

        it('light mode nulls sizes and counters (fx 97)', () => {
            const s = parsePrintState(loadFixture('97-stubdocker-print-state-light-daemon-running').stdout);
            expect(s.sandboxes[0].size_bytes).to.equal(null);
            expect(s.dangling_images).to.equal(null);
            expect(s.running_containers![0]).not.to.have.property('image_stale');
            expect(s.running_containers![0].attached_clients).to.equal(1);
        });

        it('edge cases of fx 55: "" / garbage pids, truncated path, header-less approval', () => {
            const s = parsePrintState(loadFixture('55-print-state-full-edge-cases').stdout);
            const byName = new Map(s.sandboxes.map(b => [b.name, b]));
            const garbage = byName.get('edge-garbage-08b4407c')!;
            expect(garbage.lock_holder_pid).to.equal('garbage');
            expect(lockHolderPid(garbage)).to.equal(undefined);
            expect(isStaleLock(garbage)).to.equal(false);
            const nopid = byName.get('edge-nopid-824ba1dd')!;
            expect(nopid.lock_holder_pid).to.equal('');
            expect(lockHolderPid(nopid)).to.equal(undefined);
            // D2: the real folder is `edge "quote" \back ünï`; sandy stopped at the quote.
            expect(byName.get('edgequotebackn-a3617a35')!.workspace_path).to.equal('<WS>/edge \\');
            expect(byName.get('edge-old-01b7edd5')!.created_version).to.equal('0.7.9');
            expect(s.approvals[0]).to.deep.equal({
                workspace_hash: 'deadbeefdeadbeef', workspace_path_hint: '',
                approved_keys_sha256: 'deadbeef00000000000000000000000000000000000000000000000000000000', approved_at: ''
            });
        });

        it('accepts the shape of sandy 1.0.0 (no fields added since)', () => {
            const raw = JSON.parse(loadFixture('96-stubdocker-print-state-full-daemon-running').stdout);
            for (const k of ['host_id', 'host_id_source', 'orphan_networks', 'dangling_images', 'orphaned_containers', 'proxy_image_created']) {
                delete raw[k];
            }
            for (const b of raw.sandboxes) {
                delete b.workspace_exists; delete b.size_bytes; delete b.handoff_enabled;
            }
            for (const c of raw.running_containers) {
                delete c.sandbox; delete c.daemon; delete c.attached_clients; delete c.updated_at; delete c.image_stale;
            }
            const s = parsePrintState(JSON.stringify(raw));
            expect(s.running_containers!.map(containerSandboxName)).to.deep.equal(['ws-daemon-3f97ac9f', 'ws-daemon-3f97ac9f']);
        });

        it('keeps unknown fields (passthrough) and does not mutate lock_holder_pid', () => {
            const raw = JSON.parse(loadFixture('41-print-state-full-populated').stdout);
            raw.sandboxes[1].agent = 'claude';
            raw.new_top_level = [1];
            const s = parsePrintState(JSON.stringify(raw)) as SandyState & { new_top_level: number[] };
            expect(s.new_top_level).to.deep.equal([1]);
            expect((s.sandboxes[1] as Sandbox & { agent: string }).agent).to.equal('claude');
            expect(s.sandboxes[1].lock_holder_pid).to.equal('27950');
        });

        it('a wrong shape is invalid-output naming the path', () => {
            const raw = JSON.parse(loadFixture('41-print-state-full-populated').stdout);
            raw.sandboxes[2].lock_held = 'yes';
            const e = catchSandyError(() => parsePrintState(JSON.stringify(raw)));
            expect(e.code).to.equal('invalid-output');
            expect(e.message).to.contain('sandboxes[2].lock_held');
            expect(e.hint).to.not.equal('');
        });

        it('a number where sandy writes a pid string is rejected, not coerced', () => {
            const raw = JSON.parse(loadFixture('41-print-state-full-populated').stdout);
            raw.sandboxes[1].lock_holder_pid = 27950;
            expect(catchSandyError(() => parsePrintState(JSON.stringify(raw))).message).to.contain('sandboxes[1].lock_holder_pid');
        });
    });

    describe('--validate-config', () => {
        it('pending approval (fx 11)', () => {
            const r = parseValidateConfig(loadFixture('11-validate-pending-privileged').stdout);
            expect(r.approval_status).to.equal('pending');
            expect(r.privileged_keys_requiring_approval).to.deep.equal(['SANDY_SSH', 'SANDY_ALLOW_HOSTS', 'SANDY_EGRESS_NO_ISOLATION', 'SANDY_ALLOW_WORKFLOW_EDIT']);
            expect(r.warnings[0].message).to.contain('\u2014');
        });

        it('missing file still prints JSON (fx 24, exit 1)', () => {
            const f = loadFixture('24-validate-missing-file');
            expect(f.exitCode).to.equal(1);
            const r = parseValidateConfig(f.stdout);
            expect(r.errors).to.deep.equal(['file does not exist: <WS>/vc-clean/.sandy/does-not-exist']);
            expect(r.approval_file_path).to.equal(null);
        });
    });

    describe('invalid JSON (CONTRACT D1)', () => {
        function withEsc(fixture: string, from: string, to: string): string {
            const text = loadFixture(fixture).stdout;
            expect(text).to.contain(from);
            return text.replace(from, to);
        }

        it('an ESC in a workspace path of --print-state → invalid-json quoting \\x1b (as fx 58)', () => {
            const text = withEsc('41-print-state-full-populated', '"<WS>/ws-alpha"', `"<WS>/ws-${ESC}[31malpha"`);
            const e = catchSandyError(() => parsePrintState(text));
            expect(e.code).to.equal('invalid-json');
            expect(e.message).to.contain('\\x1b[31malpha');
            expect(e.message).not.to.contain(ESC);
            expect(e.details.excerpt).to.contain('\\x1b');
            expect(e.details.offset).to.equal(Buffer.byteLength(text.slice(0, text.indexOf(ESC)), 'utf8'));
            expect(e.hint).to.match(/control character/);
        });

        it('an ESC in the path of --validate-config → invalid-json (as fx 23)', () => {
            const text = withEsc('10-validate-clean-passive', '<WS>/vc-clean', `<WS>/vc-${ESC}clean`);
            const e = catchSandyError(() => parseValidateConfig(text));
            expect(e.code).to.equal('invalid-json');
            expect(e.message).to.contain('--validate-config').and.to.contain('vc-\\x1bclean');
        });

        it('byte offsets count UTF-8 bytes, not UTF-16 units', () => {
            const text = `{"a":"ünï${ESC}"}`;
            const e = catchSandyError(() => parseSandyJson(text, '--print-state'));
            expect(e.details.offset).to.equal(6 + 5);
        });

        for (const prefix of ['23-', '58-']) {
            const present = fixturesWithPrefix(prefix);
            (present.length ? it : it.skip)(`captured fixture ${prefix}* is invalid-json quoting \\x1b`, () => {
                const f = loadFixture(present[0]);
                const e = catchSandyError(() => (f.args[0] === '--validate-config' ? parseValidateConfig : parsePrintState)(f.stdout));
                expect(e.code).to.equal('invalid-json');
                expect(e.message).to.contain('\\x1b');
            });
        }

        it('truncated output → invalid-json without the control-character hint', () => {
            const text = loadFixture('02-print-version').stdout.slice(0, 30);
            const e = catchSandyError(() => parsePrintVersion(text));
            expect(e.code).to.equal('invalid-json');
            expect(e.hint).not.to.match(/control character/);
            expect(e.details.offset).to.equal(30);
        });

        it('empty output and plain text are invalid-json, never a raw SyntaxError', () => {
            expect(catchSandyError(() => parseSandyJson('', '--print-state')).code).to.equal('invalid-json');
            expect(catchSandyError(() => parseSandyJson('\n', '--print-state')).code).to.equal('invalid-json');
            const e = catchSandyError(() => parseSandyJson('[sandy] Update available: v1.8.0\n{"a":1}', '--print-schema'));
            expect(e.code).to.equal('invalid-json');
            expect(e.message).to.contain('[sandy] Update');
        });

        it('escapePrintable renders C0, DEL, C1 and backslashes visibly', () => {
            expect(escapePrintable(`a${ESC}b\x00\x7f\u0085\\ ü`)).to.equal('a\\x1bb\\x00\\x7f\\x85\\\\ ü');
        });
    });

    describe('timestamps', () => {
        const savedTz = process.env.TZ;
        before(() => {
            // Not UTC, so reading the fake `Z` as UTC would be caught.
            process.env.TZ = 'America/Los_Angeles';
        });
        after(() => {
            if (savedTz === undefined) {
                delete process.env.TZ;
            } else {
                process.env.TZ = savedTz;
            }
        });

        it('created_at / last_used_at are local time despite the Z (D3), GNU nanoseconds', () => {
            const d = parseSandyLocalTimestamp('2026-11-30T09:56:53.738048364Z')!;
            expect(d.getTime()).to.equal(new Date(2026, 10, 30, 9, 56, 53, 738).getTime());
            expect(d.getTime()).to.not.equal(Date.UTC(2026, 10, 30, 9, 56, 53, 738));
        });

        it('BSD form without fraction, and every created_at in the fixtures', () => {
            expect(parseSandyLocalTimestamp('2026-11-30T09:56:53Z')!.getTime()).to.equal(new Date(2026, 10, 30, 9, 56, 53).getTime());
            for (const f of listFixtures().filter(x => x.args[0] === '--print-state' && x.stdoutIsJson)) {
                for (const b of parsePrintState(f.stdout).sandboxes) {
                    for (const t of [b.created_at, b.last_used_at]) {
                        expect(parseSandyLocalTimestamp(t) === undefined, `${f.name} ${t}`).to.equal(t === '');
                    }
                }
            }
        });

        it('"" and garbage → undefined', () => {
            expect(parseSandyLocalTimestamp('')).to.equal(undefined);
            expect(parseSandyLocalTimestamp('yesterday')).to.equal(undefined);
            expect(parseSandyLocalTimestamp('2026-13-30T09:56:53Z')).to.equal(undefined);
        });

        it('started_at is Docker text with an offset (fx 96)', () => {
            const s = parsePrintState(loadFixture('96-stubdocker-print-state-full-daemon-running').stdout);
            expect(s.running_containers![0].started_at).to.equal('2026-11-30 09:58:38 +0000 UTC');
            expect(parseDockerCreatedAt(s.running_containers![0].started_at)!.getTime()).to.equal(Date.UTC(2026, 10, 30, 9, 58, 38));
            expect(parseDockerCreatedAt('2026-11-30 01:58:38.5 -0800 PST')!.getTime()).to.equal(Date.UTC(2026, 10, 30, 9, 58, 38, 500));
            expect(parseDockerCreatedAt('2026-11-30T09:58:38Z')!.getTime()).to.equal(Date.UTC(2026, 10, 30, 9, 58, 38));
            expect(parseDockerCreatedAt('')).to.equal(undefined);
            expect(parseDockerCreatedAt('2 hours ago')).to.equal(undefined);
        });
    });
});
