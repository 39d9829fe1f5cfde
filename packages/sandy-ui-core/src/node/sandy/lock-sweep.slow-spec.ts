import { expect } from 'chai';
import { execFileSync } from 'child_process';
import { sandboxNameForWorkspace } from '../../common/projects/project-state';

describe('sandboxNameForWorkspace against sandy\'s shell pipeline (slow)', () => {
    // The exact lines of sandy:308 and sandy:6468-6474, run by bash with the locale the fixtures used.
    const SANDY_NAMING = `
sha256() { shasum -a 256 2>/dev/null || sha256sum; }
WORK_DIR="$1"
SHORT_HASH="$(printf '%s' "$WORK_DIR" | sha256)"
SHORT_HASH="\${SHORT_HASH%% *}"
SHORT_HASH="\${SHORT_HASH:0:8}"
DIR_BASE="$(basename "$WORK_DIR" | tr -cd 'a-zA-Z0-9._-')"
DIR_BASE="\${DIR_BASE:-project}"
printf '%s' "\${DIR_BASE}-\${SHORT_HASH}"
`;
    const paths = [
        '/home/u/proj',
        '/home/u/my project',
        '/home/u/edge "quote" \\back ünï',
        '/tmp/ws/ws-alpha',
        '/x/日本語',
        '/x/a.b_c-d',
        '/x/$(rm -rf)',
        '/'
    ];
    for (const p of paths) {
        it(`agrees for ${JSON.stringify(p)}`, () => {
            const expected = execFileSync('bash', ['--norc', '--noprofile', '-c', SANDY_NAMING, 'sandy', p], { env: { PATH: process.env.PATH, LANG: 'C.UTF-8' } }).toString();
            expect(sandboxNameForWorkspace(p)).to.equal(expected);
        });
    }
});
