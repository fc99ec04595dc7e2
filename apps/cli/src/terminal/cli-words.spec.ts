import { configField, flagOf, inCliWords } from './cli-words';

describe('the service\'s words said as the CLI says them', () => {
  it('names flags, not API fields, and no server', () => {
    expect(inCliWords('api_format is required when scan_mode is api.')).toBe('--format is required without --browser.');
    expect(inCliWords('http {body_template, response_path} is required when api_format is http.')).toBe('--body-template and --response-path (http: in gauntlet.yaml) is required when --format is http.');
    expect(inCliWords('Check that it is up and reachable from the Gauntlet server.')).toBe('Check that it is up and reachable from this machine.');
    expect(inCliWords('If this address is a chat page, register it with scan_mode browser.')).toBe('If this address is a chat page, scan it with --browser (browser: true in gauntlet.yaml).');
  });

  it('says a gauntlet.yaml target\'s problem in its keys', () => {
    expect(inCliWords('api_format is required when scan_mode is api.', 'config')).toBe('format is required unless browser is set.');
    expect(inCliWords('http {body_template, response_path} is required when api_format is http.', 'config')).toBe('http: {body_template, response_path} is required when format is http.');
  });

  it('maps fields to gauntlet.yaml keys and to flags', () => {
    expect(configField('api_format')).toBe('format');
    expect(configField('http.body_template')).toBe('http.body_template');
    expect(flagOf('http.response_path')).toBe('--response-path');
    expect(flagOf('scan_mode')).toBe('--browser');
  });
});
