/**
 * Cross-checks the config-file model against the real thing: sandy's loader loop (copied verbatim from
 * sandy:5892-5927, minus the env-skip and tier logic) run by bash + GNU grep under C.UTF-8, as the
 * fixtures were captured. Skipped where bash or grep is missing.
 */
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseConfigFile } from '../../common/config/config-file';
import { fixturesRoot } from './sandy-fixtures';

/** One bash for many files (spawning bash per file is slow): each file's pairs end with a \x01 field. */
const LOADER = `
for file in "$@"; do
    while IFS='=' read -r key value; do
        value="\${value%$'\\r'}"
        value="\${value#\\"}" ; value="\${value%\\"}"
        value="\${value#\\'}" ; value="\${value%\\'}"
        printf '%s\\0%s\\0' "$key" "$value"
    done < <(grep -E '^[A-Z_]+=.+' "$file" 2>/dev/null)
    printf '\\001\\0'
done
`;

function bashAvailable(): boolean {
    const r = spawnSync('bash', ['-c', 'grep --version'], { encoding: 'utf8' });
    return r.status === 0 && /GNU grep/.test(r.stdout);
}

function sandyReads(...files: string[]): [string, string][][] {
    const r = spawnSync('bash', ['-c', LOADER, 'loader', ...files], { env: { PATH: process.env.PATH, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' } });
    expect(r.status).to.equal(0);
    const parts = r.stdout.toString('utf8').split('\0');
    parts.pop();
    const perFile: [string, string][][] = [[]];
    for (let i = 0; i < parts.length;) {
        if (parts[i] === '\x01') {
            perFile.push([]);
            i++;
        } else {
            perFile[perFile.length - 1].push([parts[i], parts[i + 1]]);
            i += 2;
        }
    }
    perFile.pop();
    return perFile;
}

function weRead(text: string): [string, string][] {
    return parseConfigFile(text).lines.flatMap(l => l.kind === 'entry' ? [[l.key, l.value] as [string, string]] : []);
}


describe('config-file vs bash (unit)', function () {
    let tmp: string;

    before(function () {
        if (!bashAvailable()) {
            this.skip();
        }
        tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-ui-cfg-bash-'));
    });

    after(() => {
        if (tmp) {
            fs.rmSync(tmp, { recursive: true, force: true });
        }
    });

    function check(text: string): void {
        const file = path.join(tmp, 'config');
        fs.writeFileSync(file, text, 'utf8');
        expect(weRead(text), JSON.stringify(text)).to.deep.equal(sandyReads(file)[0]);
    }

    it('reads every fixture input exactly as the loader does', () => {
        const root = fixturesRoot();
        const files: string[] = [];
        for (const dir of fs.readdirSync(root)) {
            for (const name of ['input.config', 'input.secrets', 'input.approved.config']) {
                if (fs.existsSync(path.join(root, dir, name))) {
                    files.push(path.join(root, dir, name));
                }
            }
        }
        const theirs = sandyReads(...files);
        files.forEach((file, i) => expect(weRead(fs.readFileSync(file, 'utf8')), file).to.deep.equal(theirs[i]));
        const count = files.length;
        expect(count).to.be.greaterThan(35);
    });

    it('agrees on edge cases', () => {
        check('K=abc=\nL=abc==\nM==\nN==v\nO=a=b=\nP=abc=\r\nQ="abc="\n');
        check('A=\r\nB=\nC=""\nD=\'\'\nE="\nF=\'"\n');
        check('\uFEFFA=1\nB=2');
        check('A=1\rB=2\nC=x\r\r\nD=y\r');
        check('A= spaced \nB=\ttab\nC=ünï🚀\nD=a # b\n');
        check('SANDY_X=1\nsandy_y=2\nX2=3\n_=4\n__=5\n');
    });

    it('agrees on random files', () => {
        const pieces = ['A', 'B_C', 'x', '2', '=', '==', '"', '\'', ' ', '\t', '\r', '#', 'é', '🚀', '\\', 'export '];
        let seed = 7;
        const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
        let text = '';
        for (let line = 0; line < 400; line++) {
            let l = rnd(3) === 0 ? '' : ['A', 'B_C', 'SANDY_SSH'][rnd(3)] + '=';
            for (let j = rnd(6); j > 0; j--) {
                l += pieces[rnd(pieces.length)];
            }
            text += l + (rnd(4) === 0 ? '\r\n' : '\n');
        }
        check(text);
        check(text.slice(0, -1));
    });

    it('agrees that a NUL byte hides the whole file', () => {
        check('A=1\nB=2\0\nC=3\n');
    });
});
