import { hostname } from 'node:os';
import type { FormatType } from '@gauntlet/domain';
import type { WebhookEnvelope } from '../envelope';
import { renderCef } from './cef';
import { renderJson } from './json';
import { renderOcsf } from './ocsf/ocsf';
import { renderSyslog, type SyslogOptions } from './syslog';

export * from './json';
export * from './cef';
export * from './syslog';
export * from './syslog-tcp';
export * from './ocsf/ocsf';
export * from './ocsf/validate';

export interface RenderOptions {
  /** Gauntlet's version, in OCSF metadata.product.version and the CEF header */
  productVersion: string;
  syslog?: SyslogOptions;
}

export interface Rendered {
  body: string;
  contentType: string;
}

export const CONTENT_TYPES: Record<FormatType, string> = {
  json: 'application/json',
  ocsf: 'application/json',
  cef: 'text/plain; charset=utf-8',
  syslog: 'text/plain; charset=utf-8',
};

/** The body a webhook of `format` receives for `envelope`. */
export function render(envelope: WebhookEnvelope, format: FormatType, options: RenderOptions): Rendered {
  const contentType = CONTENT_TYPES[format];
  switch (format) {
    case 'json':
      return { body: renderJson(envelope), contentType };
    case 'ocsf':
      return { body: renderOcsf(envelope, { name: 'Gauntlet', vendor_name: 'Gauntlet', version: options.productVersion }), contentType };
    case 'cef':
      return { body: renderCef(envelope, { vendor: 'Gauntlet', product: 'Gauntlet', version: options.productVersion }), contentType };
    case 'syslog':
      return { body: renderSyslog(envelope, { hostname: hostname(), ...options.syslog }), contentType };
  }
}
