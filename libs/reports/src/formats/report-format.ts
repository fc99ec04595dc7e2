import type { ScanReport } from '@gauntlet/assessment';

/**
 * One report format: everything the service, the CLI and the OpenAPI document need to know about it.
 * A new format is a file exporting one of these and its line in `./index.ts`.
 */
export interface ReportFormatSpec<Name extends string = string> {
  /** what `?format=` and the CLI's `--format` call it */
  name: Name;
  /** what the dashboard's download button and the API document's x-enum-descriptions call it */
  label: string;
  contentType: string;
  /** the file extensions (without the dot) that ask for it in the CLI's `-o` / `--report`; the first one names the downloaded file */
  extensions: readonly [string, ...string[]];
  /** the report's bytes, from the report model */
  render(report: ScanReport): Buffer | Promise<Buffer>;
}

/** keeps the format's name as a literal, so the registry's names make a closed type */
export const reportFormat = <const Name extends string>(spec: ReportFormatSpec<Name>): ReportFormatSpec<Name> => spec;
