import { join } from 'node:path';
import { defaultDataDir } from './data-dir';

describe('the default data folder', () => {
  it('follows XDG on Linux', () => {
    expect(defaultDataDir({}, 'linux', '/home/ada')).toBe('/home/ada/.local/share/gauntlet');
    expect(defaultDataDir({ XDG_DATA_HOME: '/data/ada' }, 'linux', '/home/ada')).toBe('/data/ada/gauntlet');
  });

  it('is Application Support on macOS and LOCALAPPDATA on Windows', () => {
    expect(defaultDataDir({}, 'darwin', '/Users/ada')).toBe('/Users/ada/Library/Application Support/gauntlet');
    expect(defaultDataDir({ LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, 'win32', 'C:\\Users\\ada')).toBe(join('C:\\Users\\ada\\AppData\\Local', 'gauntlet'));
  });

  it('gives way to GAUNTLET_DATA_DIR', () => {
    expect(defaultDataDir({ GAUNTLET_DATA_DIR: '/srv/g' }, 'linux', '/home/ada')).toBe('/srv/g');
  });
});
