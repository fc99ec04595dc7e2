import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import * as fontkit from 'fontkit';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { Color, PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { ARABIC_LETTERS, shapeArabic } from './arabic';

/**
 * Unicode text in the PDF. pdf-lib's standard fonts know only WinAnsi, so a finding quoting a
 * Russian, Greek, Arabic or Chinese answer came out as "?". These are the Noto fonts npm packages
 * ship as TrueType (OFL), embedded and subset: Noto Sans (Latin, Cyrillic, Greek), Noto Sans
 * Arabic, Noto Sans SC (Chinese and Japanese kana), Noto Sans KR (Hangul), Noto Sans Mono. Each
 * character is drawn with the first font of its style that has it; a font no character needs is
 * never embedded, so a Latin-only report does not carry the 10 MB CJK font.
 * Bold Chinese, Japanese and Korean are drawn in the regular weight: their bold faces would add
 * 8 MB (brotli) to the installed package for the titles alone; Latin, Cyrillic, Greek and Arabic
 * keep their bold faces (together 0.35 MB).
 */
export type FontStyle = 'regular' | 'bold' | 'mono';

const pkg = (name: string, weight: '400Regular' | '700Bold', file: string) => `@expo-google-fonts/${name}/${weight}/${file}_${weight}.ttf`;
const SANS = pkg('noto-sans', '400Regular', 'NotoSans');
const SANS_BOLD = pkg('noto-sans', '700Bold', 'NotoSans');
const ARABIC = pkg('noto-sans-arabic', '400Regular', 'NotoSansArabic');
const ARABIC_BOLD = pkg('noto-sans-arabic', '700Bold', 'NotoSansArabic');
const SC = pkg('noto-sans-sc', '400Regular', 'NotoSansSC');
const KR = pkg('noto-sans-kr', '400Regular', 'NotoSansKR');
const MONO = pkg('noto-sans-mono', '400Regular', 'NotoSansMono');

/** every font file the renderer may embed: the packaged build copies these alone (infra/bundle.js) */
export const FONT_FILES = [SANS, SANS_BOLD, ARABIC, ARABIC_BOLD, SC, KR, MONO];

/**
 * A font's bytes: the installed package carries the fonts brotli-compressed beside the renderer
 * (dist/libs/reports/fonts, written by infra/bundle.js) instead of the font packages; a checkout
 * reads them from the packages.
 */
export function fontBytes(file: string, fontsDir = join(__dirname, '..', 'fonts')): Buffer {
  const packed = join(fontsDir, `${basename(file)}.br`);
  return existsSync(packed) ? brotliDecompressSync(readFileSync(packed)) : readFileSync(require.resolve(file));
}

/** fallback order per style: the style's own face first, then the script faces, then mono for symbols (arrows, boxes) */
const CHAINS: Record<FontStyle, string[]> = {
  regular: [SANS, ARABIC, SC, KR, MONO],
  bold: [SANS_BOLD, ARABIC_BOLD, SC, KR, MONO],
  mono: [MONO, SANS, ARABIC, SC, KR],
};

interface FontFile {
  path: string;
  bytes: Uint8Array;
  /** parsed once per process, for coverage and widths; embedding parses its own copy */
  face: fontkit.Font;
  rtl: boolean;
}

/**
 * PDF names a subset font TAG+Name, TAG six capital letters (ISO 32000-1, 9.6.4): readers tell
 * subsets by it, so each style's subset of a file gets its own tag (the styles share script fonts)
 */
function subsetName(file: FontFile, style: FontStyle): string {
  const tag = [...createHash('sha256').update(`${file.path}\n${style}`).digest()].slice(0, 6).map((b) => String.fromCharCode(65 + (b % 26))).join('');
  return `${tag}+${file.face.postscriptName}`;
}

const files = new Map<string, FontFile>();
function fontFile(path: string): FontFile {
  let f = files.get(path);
  if (!f) {
    const bytes = fontBytes(path);
    const face = fontkit.create(bytes) as fontkit.Font;
    f = { path, bytes, face, rtl: path === ARABIC || path === ARABIC_BOLD };
    files.set(path, f);
  }
  return f;
}

/**
 * The fontkit pdf-lib embeds with: upstream fontkit 2, whose TrueType subsets are sound (the
 * @pdf-lib/fontkit fork writes a short `loca` without padding, and most glyphs of a Noto subset
 * rendered blank), adapted to the `encodeStream()` pdf-lib reads subsets through; and two
 * changes to its layout:
 * - text that needs no shaping is mapped a glyph per character instead of running the font's
 *   whole OpenType layout, which took most of the time of a big report (kerning is what is lost);
 * - Arabic is shaped into presentation forms (./arabic.ts), one glyph per letter and form, each
 *   glyph carrying the letter it stands for, so the PDF's ToUnicode map gives the text back, in
 *   visual order as a viewer expects.
 * Other scripts that need shaping (Hebrew marks, Indic) still go through fontkit's shaper.
 */
const NEEDS_SHAPING = /[\p{M}\u0590-\u061f\u064b-\u08ff\u0900-\u0dff\u0f00-\u109f\u1780-\u18af\u200c\u200d]/u;
export const shapingFontkit = {
  create(buffer: Uint8Array, postscriptName?: string) {
    const font = fontkit.create(Buffer.from(buffer), postscriptName) as fontkit.Font;
    const createSubset = font.createSubset.bind(font);
    (font as { createSubset: unknown }).createSubset = () => {
      const subset = createSubset();
      return Object.assign(subset, {
        encodeStream() {
          const stream = new EventEmitter();
          setImmediate(() => {
            try {
              stream.emit('data', subset.encode());
              stream.emit('end');
            } catch (err) {
              stream.emit('error', err);
            }
          });
          return stream;
        },
      });
    };
    const layout = font.layout.bind(font);
    const byCodePoint = new Map<number, fontkit.Glyph>();
    const glyph = (cp: number) => {
      let g = byCodePoint.get(cp);
      if (!g) byCodePoint.set(cp, (g = font.glyphForCodePoint(cp)));
      return g;
    };
    // pdf-lib reads only the glyphs (their ids and advance widths)
    const fast = (text: string) => {
      const glyphs: fontkit.Glyph[] = [];
      for (let i = 0; i < text.length; i++) {
        const cp = text.codePointAt(i)!;
        if (cp > 0xffff) i++;
        glyphs.push(glyph(cp));
      }
      return { glyphs, positions: [] };
    };
    const arabic = (text: string) => ({
      glyphs: shapeArabic(text).map((c) => {
        const drawn = font.hasGlyphForCodePoint(c.glyph) ? c.glyph : c.text[0];
        // the glyph of the form, standing for the letter(s): what text extraction reads (each form's
        // glyph stands for one letter only, so setting it on fontkit's cached glyph is sound)
        const glyph = font.glyphForCodePoint(drawn);
        glyph.codePoints = c.text;
        return glyph;
      }),
      positions: [],
    });
    (font as { layout: unknown }).layout = (text: string, ...rest: unknown[]) =>
      ARABIC_LETTERS.test(text) ? arabic(text) : NEEDS_SHAPING.test(text) ? layout(text, ...(rest as [])) : fast(text);
    return font;
  },
};

const MARK = /[\p{M}\u200c\u200d]/u;
/** strong right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko, Arabic presentation forms) */
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;
const NEUTRAL = /^[\s\p{P}\p{S}\d]*$/u;

interface Run {
  face: number;
  text: string;
}

/** One style's chain of fonts in one document: which font draws each character, how wide text is, drawing it. */
export class FontStack {
  private readonly embedded: (PDFFont | null)[];
  private readonly sources: FontFile[];
  private readonly faceOf = new Map<number, number>();
  private readonly widths = new Map<string, number>();

  constructor(private readonly doc: PDFDocument, readonly style: FontStyle) {
    this.sources = CHAINS[style].map(fontFile);
    this.embedded = this.sources.map(() => null);
  }

  /**
   * Embeds the style's own font and every font one of `chars` needs (the characters of the whole
   * report, gathered once), so laying out text later never waits.
   */
  async prepare(chars: Iterable<string>): Promise<this> {
    const needed = new Set([0]);
    for (const ch of chars) {
      const i = this.face(ch.codePointAt(0)!);
      if (i >= 0) needed.add(i);
      else for (const c of this.fold(ch)) needed.add(Math.max(0, this.face(c.codePointAt(0)!)));
    }
    for (const i of [...needed].sort()) this.embedded[i] ??= await this.doc.embedFont(this.sources[i].bytes, { subset: true, customName: subsetName(this.sources[i], this.style) });
    return this;
  }

  /** index of the first font that has the character, -1 when none has it */
  private face(cp: number): number {
    let i = this.faceOf.get(cp);
    if (i === undefined) {
      i = this.sources.findIndex((s) => s.face.hasGlyphForCodePoint(cp));
      this.faceOf.set(cp, i);
    }
    return i;
  }

  /** a character no font has: its base letters when the fonts have those (NFKD, marks dropped), else "?" */
  private fold(ch: string): string {
    const folded = ch.normalize('NFKD').replace(/\p{M}/gu, '');
    return folded && folded !== ch && [...folded].every((c) => this.face(c.codePointAt(0)!) >= 0) ? folded : '?';
  }

  /** text as it can be drawn: line breaks kept, tabs as spaces, control characters dropped, the rest folded or "?" */
  clean(text: string): string {
    if (/^[\x20-\x7e\n]*$/.test(text)) return text; // the common case, and the hot path of big reports
    let out = '';
    for (const ch of text.replace(/\r\n?/g, '\n').replace(/\t/g, '    ')) {
      const cp = ch.codePointAt(0)!;
      if (ch === '\n') out += ch;
      else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) continue;
      else {
        const i = this.face(cp);
        out += i >= 0 && this.embedded[i] ? ch : this.fold(ch);
      }
    }
    return out;
  }

  /** runs of one font each, in logical order; marks and joiners stay with the character before them */
  private runs(line: string): Run[] {
    const runs: Run[] = [];
    for (const ch of line) {
      const cp = ch.codePointAt(0)!;
      const last = runs[runs.length - 1];
      const found = this.face(cp);
      const face = last && MARK.test(ch) ? last.face : found >= 0 && this.embedded[found] ? found : 0;
      if (last && last.face === face) last.text += ch;
      else runs.push({ face, text: ch });
    }
    return runs;
  }

  /** width at size 1, from a per-character cache: measuring whole strings is what makes big PDFs slow */
  width(text: string): number {
    let w = 0;
    for (const ch of text) {
      let cw = this.widths.get(ch);
      if (cw === undefined) {
        const src = this.sources[Math.max(0, this.face(ch.codePointAt(0)!))];
        const glyph = src.face.glyphForCodePoint(ch.codePointAt(0)!);
        cw = MARK.test(ch) ? 0 : (glyph?.advanceWidth ?? 0) / src.face.unitsPerEm;
        this.widths.set(ch, cw);
      }
      w += cw;
    }
    return w;
  }

  /** drawn by the style's own font alone: one text object can hold a whole paragraph */
  isSimple(line: string): boolean {
    if (/^[\x20-\x7e]*$/.test(line)) return true;
    for (const ch of line) if (this.face(ch.codePointAt(0)!) > 0) return false;
    return true;
  }

  get primary(): PDFFont {
    return this.embedded[0]!;
  }

  /**
   * One line at (x, y). Runs of right-to-left letters (and the spaces and punctuation between
   * them) are laid out right to left; fontkit shapes each Arabic run and puts its glyphs in visual
   * order, so the page reads correctly and text extraction gives the words back in order.
   */
  drawLine(page: PDFPage, line: string, x: number, y: number, size: number, color: Color): void {
    const runs = this.runs(line);
    const kind = runs.map((r) => (this.isRtl(r) ? 'rtl' : NEUTRAL.test(r.text) ? 'neutral' : 'ltr'));
    // a neutral run (spaces, digits, punctuation) between two right-to-left runs belongs to them
    const strong = (from: number, step: 1 | -1) => {
      for (let k = from; k >= 0 && k < kind.length; k += step) if (kind[k] !== 'neutral') return kind[k];
      return null;
    };
    const rtl = kind.map((k, i) => k === 'rtl' || (k === 'neutral' && strong(i - 1, -1) === 'rtl' && strong(i + 1, 1) === 'rtl'));
    const ordered: Run[] = [];
    for (let i = 0; i < runs.length; ) {
      if (!rtl[i]) {
        ordered.push(runs[i++]);
        continue;
      }
      let j = i;
      while (j < runs.length && rtl[j]) j++;
      ordered.push(...runs.slice(i, j).reverse());
      i = j;
    }
    let at = x;
    for (const run of ordered) {
      const font = this.embedded[run.face] ?? this.primary;
      page.drawText(run.text, { x: at, y, size, font, color });
      at += run.face === 0 ? this.width(run.text) * size : font.widthOfTextAtSize(run.text, size);
    }
  }

  private isRtl(run: Run): boolean {
    return this.sources[run.face].rtl || RTL.test(run.text);
  }
}
