import { knownFrom, ProbeSelection, Profile } from '@gauntlet/domain';
import type { DocumentStore, ScanDoc } from '@gauntlet/read-models';

/**
 * What a target's previous completed scan of the same profile and selection tells the plan of its
 * next one: what it spent and the pace it kept (null: none yet). The scanner making a scan's plan
 * and the API's plan_only both ask here, so they plan alike.
 */
export async function knownOfTarget(docs: DocumentStore, target_id: string, profile: Profile, selection: ProbeSelection | undefined, except?: string) {
  const earlier = await docs.collection<ScanDoc>('scans').find({ target_id, status: 'completed' }, { sort: { field: 'created_at', direction: 'desc' }, limit: 20 });
  const same = earlier.find((d) => d._id !== except && d.profile === profile && JSON.stringify(d.selection ?? null) === JSON.stringify(selection ?? null) && d.spending);
  return knownFrom(same);
}
