import { Detector } from './detector';
import { ruleDetector } from './rule-detector';

/** The detector every attempt is judged by: the probe's own rules plus the target-canary rule. */
export const PRIMARY_DETECTOR = 'rules';

/** The detectors that need no configuration, by name. */
export const DETECTORS: readonly Detector[] = [ruleDetector];

/**
 * Detectors by name, as probes (probeById) and converters (converterById) are found: the built-in
 * ones and those a deployment configures (the LLM judge), which the engine is handed.
 */
export function detectorByName(name: string, configured: readonly Detector[] = []): Detector | undefined {
  return [...DETECTORS, ...configured].find((d) => d.name === name);
}
