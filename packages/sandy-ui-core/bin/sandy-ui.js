#!/usr/bin/env node
'use strict';
// Thin shim: the CLI lives in lib/node/cli/cli.js (compiled from src/node/cli/cli.ts). Process-level failures
// end here as one line on stderr and exit 2 — never a stack trace.
const fail = message => {
    try {
        process.stderr.write(`sandy-ui: ${message}\n`);
    } catch {
        // stderr is gone too
    }
    process.exit(2);
};
// `sandy-ui state | head`: the reader left; that is not an error worth a trace.
for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', e => (e && e.code === 'EPIPE' ? process.exit(process.exitCode || 0) : fail(`cannot write output (${e && e.code})`)));
}
process.on('uncaughtException', e => fail(`internal error: ${e && e.message ? e.message : e}. Please report it.`));

let cli;
try {
    cli = require('../lib/node/cli/cli.js');
} catch (e) {
    fail(`the CLI is not built (${e && e.code ? e.code : 'load error'}). Run \`npm run compile\` in the sandy-ui checkout, then retry.`);
}
// runFromProcess sets the exit status, and on Ctrl-C (SIGINT/SIGTERM/SIGHUP) ends sandy's process group first.
cli.runFromProcess(process.argv.slice(2)).catch(
    e => fail(`internal error: ${e && e.message ? e.message : e}. Please report it.`)
);
