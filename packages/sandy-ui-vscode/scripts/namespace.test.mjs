// node --test packages/sandy-ui-vscode/scripts/namespace.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNamespaceCommand, namespaceCheckArgs, namespaceVerdict } from './namespace.mjs';

test('a namespace the token may publish to is ok', () => {
    assert.equal(namespaceVerdict(0, '🚀  PAT valid to publish at rappdw\n'), 'ok');
});

test('a missing namespace, as ovsx prints it', () => {
    // verify-pat: the registry answers 404 (with or without a status text, or a JSON body whose error ovsx prints).
    assert.equal(namespaceVerdict(1, '\n❌  The server responded with status 404: Not Found\n'), 'missing');
    assert.equal(namespaceVerdict(1, '\n❌  The server responded with status 404.\n'), 'missing');
    assert.equal(namespaceVerdict(1, '\n❌  Not Found\n'), 'missing');
    // publish: the registry's own words.
    assert.equal(namespaceVerdict(1, "❌  Unknown publisher: rappdw\nUse the 'create-namespace' command to create a namespace corresponding to your publisher name.\n"), 'missing');
});

test('other failures are not a missing namespace', () => {
    assert.equal(namespaceVerdict(1, '❌  Invalid access token.\n'), 'failed');
    assert.equal(namespaceVerdict(1, '❌  Insufficient access rights for namespace: rappdw\n'), 'failed');
    assert.equal(namespaceVerdict(1, '❌  The server responded with status 503: Service Unavailable\n'), 'failed');
    assert.equal(namespaceVerdict(1, 'Error: getaddrinfo ENOTFOUND open-vsx.org\n'), 'failed');
    assert.equal(namespaceVerdict(null, ''), 'failed');
});

test('the command to create it, and the check, with and without --registry', () => {
    assert.equal(createNamespaceCommand('rappdw'), 'npx ovsx create-namespace rappdw');
    assert.equal(createNamespaceCommand('rappdw', 'https://vsx.example.org'),
        'npx ovsx create-namespace rappdw --registryUrl https://vsx.example.org');
    assert.deepEqual(namespaceCheckArgs('rappdw'), ['verify-pat', 'rappdw']);
    assert.deepEqual(namespaceCheckArgs('rappdw', 'https://vsx.example.org'), ['verify-pat', 'rappdw', '--registryUrl', 'https://vsx.example.org']);
});
