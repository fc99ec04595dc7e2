import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { checkSettings, DomainError, TargetSettings } from '@gauntlet/domain';
import { pairsFirst } from '../http/validation';
import { RegisterTargetBody } from '../targets/dto';

/** A target as embedded use gives it: the service's registration body, secrets in clear (they are sealed on the way in). */
export type TargetBody = Omit<RegisterTargetBody, 'check'>;

/** one thing the service would refuse in a target body; `named`: the message names its field already */
export interface TargetBodyProblem {
  field: string;
  message: string;
  named: boolean;
}

/** a target body the service's request rules refuse: one line, each rule's message after its field's path */
export class TargetBodyInvalid extends Error {}

/** the body as the request pipe reads it (header maps become [name, value] pairs first), and what its rules refuse */
async function read<T extends object>(type: new () => T, body: Record<string, unknown>): Promise<{ instance: T; errors: ValidationError[] }> {
  const instance = plainToInstance(type, pairsFirst(type, body));
  return { instance, errors: await validate(instance, { whitelist: true, forbidNonWhitelisted: true }) };
}

/** each refused rule with the path of its field (`http.body_template`) */
function refused(errors: ValidationError[], path = ''): { field: string; property: string; message: string }[] {
  return errors.flatMap((e) => [
    ...Object.values(e.constraints ?? {}).map((message) => ({ field: `${path}${e.property}`, property: e.property, message })),
    ...refused(e.children ?? [], `${path}${e.property}.`),
  ]);
}

/** the body as a command takes it, after the request rules a request to the API meets; TargetBodyInvalid otherwise */
export async function validTargetBody<T extends object>(type: new () => T, body: Record<string, unknown>): Promise<T> {
  const { instance, errors } = await read(type, body);
  if (errors.length) throw new TargetBodyInvalid(refused(errors).map((r) => `${r.field}: ${r.message}`).join('; '));
  return instance;
}

/**
 * What the service would refuse in a target, found before anything is sent: the request body's
 * rules (the DTO's) and the domain's rules for settings together (http's body template, a
 * format's model...). Each problem names the field in the service's words (url, api_format,
 * scan_mode, http.body_template); the caller says it in its own.
 */
export async function targetBodyProblems(target: TargetBody): Promise<TargetBodyProblem[]> {
  const { errors } = await read(RegisterTargetBody, { ...target });
  // the DTO's messages start with the field's name ("url must be a URL address"): the field is said apart
  if (errors.length) return refused(errors).map((r) => ({ field: r.field, message: r.message.startsWith(`${r.property} `) ? r.message.slice(r.property.length + 1) : r.message, named: false }));
  try {
    // the settings as the service would keep them: which fields are set is what the rules read
    checkSettings({ ...target, headers_encrypted: target.headers && Object.keys(target.headers).length ? 'set' : undefined } as unknown as TargetSettings);
  } catch (e) {
    if (e instanceof DomainError) return [{ field: String(e.details.field ?? 'target'), message: e.message.replace(/\.$/, ''), named: true }];
    throw e;
  }
  return [];
}
