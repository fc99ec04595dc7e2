import { PAGE_SCRIPT } from './page-script';

describe('the page script', () => {
  it('is one plain script a page can run (a syntax error would leave every page without a chat input)', () => {
    expect(() => new Function(PAGE_SCRIPT)).not.toThrow();
  });
});
