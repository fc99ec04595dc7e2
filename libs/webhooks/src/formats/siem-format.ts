import type { WebhookEnvelope } from '../envelope';

/**
 * One SIEM format (a webhook's `format_type`): its name, the content type it is posted with, and how
 * an event envelope becomes its body. `Options` is the part of the service's render options
 * (`RenderOptions` in ./index.ts) the format reads. A new format is a file exporting one of these and
 * its line in ./index.ts.
 */
export interface SiemFormatSpec<Name extends string = string, Options = unknown> {
  /** what `format_type` calls it */
  name: Name;
  /** what the dashboard's format select and the API document's x-enum-descriptions call it */
  label: string;
  contentType: string;
  render(envelope: WebhookEnvelope, options: Options): string;
}

/** keeps the format's name as a literal, so the registry's names make a closed type */
export const siemFormat = <const Name extends string, Options>(spec: SiemFormatSpec<Name, Options>): SiemFormatSpec<Name, Options> => spec;

/** what every format may read: the version Gauntlet reports itself as */
export interface ProductVersion {
  /** Gauntlet's version, in OCSF metadata.product.version and the CEF header */
  productVersion: string;
}
