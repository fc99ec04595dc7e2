/**
 * Arabic letters in their joined forms, as the presentation-form code points Unicode gives them
 * (U+FE70..U+FEFC): isolated, final, initial, medial. Fonts like Noto Sans Arabic draw shaped
 * letters as a dotless base plus separate dots, which a PDF's ToUnicode map cannot tell apart
 * (text extraction read "مرحبا" back as "مرحنا"); each presentation form is one glyph of its own.
 */

/** letter -> [isolated, final, initial, medial]; right-joining letters have no initial or medial form */
const FORMS: Record<number, readonly number[]> = {
  0x0621: [0xfe80],
  0x0622: [0xfe81, 0xfe82], 0x0623: [0xfe83, 0xfe84], 0x0624: [0xfe85, 0xfe86], 0x0625: [0xfe87, 0xfe88],
  0x0626: [0xfe89, 0xfe8a, 0xfe8b, 0xfe8c], 0x0627: [0xfe8d, 0xfe8e], 0x0628: [0xfe8f, 0xfe90, 0xfe91, 0xfe92],
  0x0629: [0xfe93, 0xfe94], 0x062a: [0xfe95, 0xfe96, 0xfe97, 0xfe98], 0x062b: [0xfe99, 0xfe9a, 0xfe9b, 0xfe9c],
  0x062c: [0xfe9d, 0xfe9e, 0xfe9f, 0xfea0], 0x062d: [0xfea1, 0xfea2, 0xfea3, 0xfea4], 0x062e: [0xfea5, 0xfea6, 0xfea7, 0xfea8],
  0x062f: [0xfea9, 0xfeaa], 0x0630: [0xfeab, 0xfeac], 0x0631: [0xfead, 0xfeae], 0x0632: [0xfeaf, 0xfeb0],
  0x0633: [0xfeb1, 0xfeb2, 0xfeb3, 0xfeb4], 0x0634: [0xfeb5, 0xfeb6, 0xfeb7, 0xfeb8], 0x0635: [0xfeb9, 0xfeba, 0xfebb, 0xfebc],
  0x0636: [0xfebd, 0xfebe, 0xfebf, 0xfec0], 0x0637: [0xfec1, 0xfec2, 0xfec3, 0xfec4], 0x0638: [0xfec5, 0xfec6, 0xfec7, 0xfec8],
  0x0639: [0xfec9, 0xfeca, 0xfecb, 0xfecc], 0x063a: [0xfecd, 0xfece, 0xfecf, 0xfed0], 0x0641: [0xfed1, 0xfed2, 0xfed3, 0xfed4],
  0x0642: [0xfed5, 0xfed6, 0xfed7, 0xfed8], 0x0643: [0xfed9, 0xfeda, 0xfedb, 0xfedc], 0x0644: [0xfedd, 0xfede, 0xfedf, 0xfee0],
  0x0645: [0xfee1, 0xfee2, 0xfee3, 0xfee4], 0x0646: [0xfee5, 0xfee6, 0xfee7, 0xfee8], 0x0647: [0xfee9, 0xfeea, 0xfeeb, 0xfeec],
  0x0648: [0xfeed, 0xfeee], 0x0649: [0xfeef, 0xfef0], 0x064a: [0xfef1, 0xfef2, 0xfef3, 0xfef4],
};
// lam + alef is drawn as two joined letters, not the lam-alef ligature: a ligature glyph standing
// for two letters comes back reversed from extractors that reorder right-to-left text
const TATWEEL = 0x0640;
/** harakat and other marks: they do not break joining */
const isTransparent = (cp: number) => (cp >= 0x064b && cp <= 0x065f) || cp === 0x0670;
const joinsBothWays = (cp: number) => cp === TATWEEL || FORMS[cp]?.length === 4;
const joinsToPrevious = (cp: number) => cp === TATWEEL || (FORMS[cp]?.length ?? 0) >= 2;

export const ARABIC_LETTERS = /[\u0621-\u064a]/;

/** one glyph to draw: the code point the font draws it with, and the text it stands for */
export interface ShapedChar {
  glyph: number;
  text: number[];
}

/** Arabic text in logical order -> its shaped characters in visual (left to right) order. */
export function shapeArabic(text: string): ShapedChar[] {
  const cps = [...text].map((c) => c.codePointAt(0)!);
  const neighbour = (i: number, step: 1 | -1) => {
    for (let k = i + step; k >= 0 && k < cps.length; k += step) if (!isTransparent(cps[k])) return cps[k];
    return undefined;
  };
  const out: ShapedChar[] = [];
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i];
    const prev = neighbour(i, -1);
    const joinsPrev = prev !== undefined && joinsBothWays(prev) && joinsToPrevious(cp);
    const forms = FORMS[cp];
    if (!forms) {
      out.push({ glyph: cp, text: [cp] });
      continue;
    }
    const next = neighbour(i, 1);
    const joinsNext = joinsBothWays(cp) && next !== undefined && joinsToPrevious(next);
    const form = joinsPrev && joinsNext ? 3 : joinsNext ? 2 : joinsPrev ? 1 : 0;
    out.push({ glyph: forms[Math.min(form, forms.length - 1)] ?? forms[0], text: [cp] });
  }
  // visual order: right to left, except runs of digits, which read left to right
  const segments: ShapedChar[][] = [];
  for (const c of out) {
    const digit = c.glyph >= 0x0660 && c.glyph <= 0x0669;
    const last = segments[segments.length - 1];
    if (digit && last && last.length && last[0].glyph >= 0x0660 && last[0].glyph <= 0x0669) last.push(c);
    else segments.push([c]);
  }
  return segments.reverse().flat();
}
