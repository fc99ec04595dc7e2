import Ajv, { type ValidateFunction } from 'ajv';
import objects from './schema/objects.json';
import scanActivity from './schema/scan_activity.json';
import vulnerabilityFinding from './schema/vulnerability_finding.json';
import detectionFinding from './schema/detection_finding.json';
import baseEvent from './schema/base_event.json';

let validators: Map<number, ValidateFunction> | null = null;

function load(): Map<number, ValidateFunction> {
  // strictRequired off: the schema's anyOf/oneOf branches name required fields declared one level up (OCSF's at_least_one / just_one)
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
  ajv.addSchema(objects);
  return new Map([
    [6007, ajv.compile(scanActivity)],
    [2002, ajv.compile(vulnerabilityFinding)],
    [2004, ajv.compile(detectionFinding)],
    [0, ajv.compile(baseEvent)],
  ]);
}

/** Checks an OCSF event against the JSON Schema derived from ocsf-schema 1.8.0; [] when valid. */
export function ocsfErrors(event: { class_uid?: unknown } & Record<string, unknown>): string[] {
  validators ??= load();
  const validate = validators.get(Number(event.class_uid));
  if (!validate) return [`class_uid ${String(event.class_uid)} has no schema here`];
  if (validate(event)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params ? ' ' + JSON.stringify(e.params) : ''}`);
}
