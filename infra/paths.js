// Reads the path aliases from tsconfig.json once, for jest (moduleNameMapper) and the build (import rewriting).
const path = require('path');
const ts = require(path.join(__dirname, '..', 'tsconfig.json'));

function aliases() {
  const out = {};
  for (const [alias, [target]] of Object.entries(ts.compilerOptions.paths)) out[alias] = target;
  return out;
}

function pathsToModuleNameMapper() {
  const map = {};
  for (const [alias, target] of Object.entries(aliases())) {
    map[`^${alias.replace('/', '\\/')}$`] = `<rootDir>/${target}`;
  }
  return map;
}

module.exports = { aliases, pathsToModuleNameMapper };
