import { reportFormat } from './report-format';

/** The report model itself, indented: what the other formats are read from. */
export const json = reportFormat({
  name: 'json',
  contentType: 'application/json',
  extensions: ['json'],
  render: (report) => Buffer.from(JSON.stringify(report, null, 2) + '\n', 'utf8'),
});
