import type { TargetDoc } from '@gauntlet/read-models';
import { targetEndpoint } from '@gauntlet/scanner';
import { toolsOf, toolsView } from '@gauntlet/domain';
import type { TargetView } from './dto';

/**
 * The api's view of a target: the sealed API key becomes `has_api_key` and the sealed headers
 * their names; neither goes further. `endpoint` is what `url` means for the API format.
 */
export function targetView(doc: TargetDoc): TargetView {
  return {
    id: doc._id, name: doc.name, url: doc.url, endpoint: targetEndpoint(doc), scan_mode: doc.scan_mode, api_format: doc.api_format, has_api_key: doc.api_key_encrypted !== null,
    model: doc.model, canaries: doc.canaries, browser: doc.browser, http: doc.http, max_requests_per_second: doc.max_requests_per_second,
    header_names: doc.header_names ?? [], sensitive: doc.sensitive_labels ?? [], stream: doc.stream ?? false, tags: doc.tags ?? [], regression_threshold: doc.regression_threshold ?? null,
    tools: toolsView(toolsOf(doc)),
    created_at: doc.created_at, updated_at: doc.updated_at,
  };
}
