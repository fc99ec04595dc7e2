import type { WebhookEnvelope } from '../envelope';
import { cef } from './cef';
import { json } from './json';
import { ocsf } from './ocsf/ocsf';
import type { ProductVersion, SiemFormatSpec } from './siem-format';
import { syslog, type SyslogOptions } from './syslog';

export * from './siem-format';
export * from './json';
export * from './cef';
export * from './syslog';
export * from './syslog-tcp';
export * from './ocsf/ocsf';
export * from './ocsf/validate';

/** What the service tells the formats: each reads its own part. */
export interface RenderOptions extends ProductVersion {
  syslog?: SyslogOptions;
}

/** Every SIEM format a webhook can ask for, in the order the API lists them. A new format: its file, and one line here. */
export const SIEM_FORMATS = [json, ocsf, cef, syslog] as const satisfies readonly SiemFormatSpec<string, RenderOptions>[];

/** the names `format_type` admits */
export type SiemFormat = (typeof SIEM_FORMATS)[number]['name'];
export const FORMAT_TYPES: readonly SiemFormat[] = SIEM_FORMATS.map((f) => f.name);

export interface Rendered {
  body: string;
  contentType: string;
}

const byName = new Map<string, SiemFormatSpec<string, RenderOptions>>(SIEM_FORMATS.map((f) => [f.name, f]));

/** The body a webhook of `format` receives for `envelope`. */
export function render(envelope: WebhookEnvelope, format: string, options: RenderOptions): Rendered {
  const spec = byName.get(format);
  if (!spec) throw new RangeError(`Unknown format_type: ${format}`);
  return { body: spec.render(envelope, options), contentType: spec.contentType };
}
