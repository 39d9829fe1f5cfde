import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { parse, ParseError, printParseErrorCode } from 'jsonc-parser';
import Ajv2019 from 'ajv/dist/2019';

/*
 * The dev-container recipe (.devcontainer/devcontainer.json).
 *
 * The dev-container spec's JSON schema is published only on GitHub
 * (devcontainers/spec, schemas/devContainer.base.schema.json) — no npm package carries it, and CI
 * reaches only the npm registry. So the schema check runs when the schema folder is available:
 * DEVCONTAINER_SCHEMA_DIR, or node_modules/.cache/devcontainer-spec/schemas (scripts/fetch-devcontainer-schema.js
 * puts it there when GitHub is reachable). The recipe's own invariants are checked always.
 */

const root = path.resolve(__dirname, '..', '..', '..');
const recipePath = path.join(root, '.devcontainer', 'devcontainer.json');

function loadRecipe(): Record<string, any> {
    const errors: ParseError[] = [];
    const recipe = parse(fs.readFileSync(recipePath, 'utf8'), errors, { allowTrailingComma: true, disallowComments: false });
    expect(errors.map(e => `${printParseErrorCode(e.error)} at ${e.offset}`)).to.deep.equal([]);
    return recipe;
}

function schemaDir(): string | undefined {
    const candidates = [process.env.DEVCONTAINER_SCHEMA_DIR, path.join(root, 'node_modules', '.cache', 'devcontainer-spec', 'schemas')];
    return candidates.find(dir => dir && fs.existsSync(path.join(dir, 'devContainer.base.schema.json')));
}

describe('dev-container recipe', () => {
    it('is valid JSONC with the invariants docker-outside-of-docker needs', () => {
        const recipe = loadRecipe();
        expect(Object.keys(recipe.features ?? {}).some(f => f.includes('docker-outside-of-docker'))).to.equal(true);
        // The host engine resolves bind mounts: the workspace must keep its host path inside the container.
        expect(recipe.workspaceFolder).to.equal('${localWorkspaceFolder}');
        expect(recipe.workspaceMount).to.contain('source=${localWorkspaceFolder},target=${localWorkspaceFolder}');
        expect(recipe.mounts.join(' ')).to.contain('source=${localEnv:HOME}/.sandy,target=${localEnv:HOME}/.sandy');
        expect(recipe.initializeCommand).to.contain('mkdir -p');
        expect(recipe.forwardPorts).to.include(3000);
        const script = path.join(root, recipe.postCreateCommand.replace(/^bash\s+/, ''));
        expect(fs.existsSync(script), script).to.equal(true);
    });

    it('validates against the dev-container spec\'s JSON schema', function () {
        const dir = schemaDir();
        if (!dir) {
            // Not a pass: reported as pending with the reason.
            this.skip();
        }
        // The spec's schema is draft 2019-09 with VS Code's editor-only keywords.
        const ajv = new Ajv2019({ allErrors: true, strict: false, logger: false });
        const schema = JSON.parse(fs.readFileSync(path.join(dir!, 'devContainer.base.schema.json'), 'utf8'));
        const validate = ajv.compile(schema);
        const ok = validate(loadRecipe());
        expect(ok, JSON.stringify(validate.errors, undefined, 2)).to.equal(true);
    });
});
