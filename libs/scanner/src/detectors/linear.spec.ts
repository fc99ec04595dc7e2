import { charClass } from './linear';

describe('a class of characters as a test on a char code', () => {
  it('answers as its expression does for every UTF-16 unit, asked once and again', () => {
    for (const re of [/\s/, /[\p{L}\p{N}]/u, /[a-z]/i, /[A-Za-z0-9._%+-]/]) {
      const inClass = charClass(re);
      const codes = Array.from({ length: 65536 }, (_, c) => c);
      for (let round = 0; round < 2; round++) expect([re.source, codes.filter((c) => inClass(c) !== re.test(String.fromCharCode(c)))]).toEqual([re.source, []]);
    }
  });
});
