import { REPORT_FORMAT_SPECS, REPORT_FORMATS, REPORT_EXTENSIONS, reportFormatByExtension } from '.';

/** What everything else reads from the registry: the names the API admits and the extensions the CLI reads. */
describe('the report format registry', () => {
  it('lists the formats in the order the API has always listed them', () => {
    expect(REPORT_FORMATS).toEqual(['pdf', 'json', 'csv', 'markdown', 'html']);
    expect(REPORT_EXTENSIONS).toEqual(['.pdf', '.json', '.csv', '.md', '.html']);
  });

  it('gives every name and every extension to one format only', () => {
    expect(new Set(REPORT_FORMATS).size).toBe(REPORT_FORMAT_SPECS.length);
    const extensions = REPORT_FORMAT_SPECS.flatMap((f) => f.extensions);
    expect(new Set(extensions).size).toBe(extensions.length);
  });

  it('given a file extension in any case, when the CLI asks which format it means, then it names the format or nothing', () => {
    expect(reportFormatByExtension('MD')).toBe('markdown');
    expect(reportFormatByExtension('markdown')).toBe('markdown');
    expect(reportFormatByExtension('htm')).toBe('html');
    expect(reportFormatByExtension('pdf')).toBe('pdf');
    expect(reportFormatByExtension('sarif')).toBeUndefined();
    expect(reportFormatByExtension('constructor')).toBeUndefined();
  });
});
