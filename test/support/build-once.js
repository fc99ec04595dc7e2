// jest globalSetup: compile dist/ once per run, before any test file starts. Tests that run the
// built service as users do (child processes) use it; no test file may rebuild it, since that
// would delete the files other files' child processes are loading.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = async () => {
  execFileSync(process.execPath, [join(__dirname, '../../infra/build.js')], { stdio: 'inherit' });
};
