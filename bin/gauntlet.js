#!/usr/bin/env node
'use strict';
// The CLI is TypeScript compiled by `npm run build` into dist/; this shim only forwards to it.
const path = require('path');

let cli;
try {
  cli = require(path.join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js'));
} catch (e) {
  if (e && e.code === 'MODULE_NOT_FOUND' && String(e.message).includes(path.join('dist', 'apps', 'cli'))) {
    process.stderr.write('gauntlet: the CLI is not built; run `npm run build` first\n');
    process.exit(2);
  }
  throw e;
}
// output piped into something that stops reading (| head) ends the command quietly, as other tools do
process.stdout.on('error', (e) => {
  if (e && e.code === 'EPIPE') process.exit(process.exitCode === undefined ? 0 : process.exitCode);
  throw e;
});
// a failure outside any command is one line as well: the CLI never prints a stack trace
cli.exitOnStrayFailure();
cli.main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`gauntlet: error: ${String((e && e.message) || e).split('\n')[0]}\n`);
    process.exitCode = 2;
  },
);
