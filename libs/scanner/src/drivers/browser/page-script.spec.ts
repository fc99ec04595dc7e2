import { pageScript } from './page-script';

describe('the page script', () => {
  it('is one plain script a page can run (a syntax error would leave every page without a chat input)', () => {
    expect(() => new Function(pageScript())).not.toThrow();
  });

  it('is plain ES2020 with no import left in it: one script, whatever the page', () => {
    expect(pageScript()).not.toMatch(/^\s*(?:import|export)\s/m);
    expect(pageScript()).toContain('__gauntlet');
  });
});
