import type { TargetDoc } from '@gauntlet/read-models';
import type { TargetView } from './dto';

/** The api's view of a target: the sealed API key becomes `has_api_key` and goes no further. */
export function targetView(doc: TargetDoc): TargetView {
  return {
    id: doc._id, name: doc.name, url: doc.url, scan_mode: doc.scan_mode, api_format: doc.api_format, has_api_key: doc.api_key_encrypted !== null,
    model: doc.model, canaries: doc.canaries, browser: doc.browser, http: doc.http, max_requests_per_second: doc.max_requests_per_second,
    created_at: doc.created_at, updated_at: doc.updated_at,
  };
}
