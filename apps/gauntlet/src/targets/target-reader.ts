import type { DocumentStore, FindOptions, TargetDoc } from '@gauntlet/read-models';
import { normalizeTag } from '@gauntlet/domain';
import { ProblemException } from '../http/problem';

/** Targets as the read model has them (the api's reads; never a decision's facts). */
export class TargetReader {
  constructor(private readonly docs: DocumentStore) {}

  private get targets() {
    return this.docs.collection<TargetDoc>('targets');
  }

  get(id: string): Promise<TargetDoc | null> {
    return this.targets.get(id);
  }

  /** the caller's live target; absent, deleted and other accounts' targets all answer 404 */
  async owned(account_id: string, id: string): Promise<TargetDoc> {
    const doc = await this.targets.get(id);
    if (!doc || doc.deleted || doc.account_id !== account_id) throw new ProblemException(404, 'Target not found.');
    return doc;
  }

  /** the account's live targets, newest first; with a tag, only those carrying it */
  async list(account_id: string, limit: number, after: FindOptions['after'], tag?: string): Promise<TargetDoc[]> {
    const sort = { field: 'created_at', direction: 'desc' } as const;
    if (tag === undefined) return this.targets.find({ account_id, deleted: false }, { sort, limit, after });
    // the document store filters on equality of top-level fields only: tags (a list) are matched
    // here, walking the account's targets in pages until the page is full
    const wanted = normalizeTag(tag);
    if (!wanted) return [];
    const found: TargetDoc[] = [];
    for (let cursor = after; found.length < limit; ) {
      const batch = await this.targets.find({ account_id, deleted: false }, { sort, limit: 200, after: cursor });
      found.push(...batch.filter((d) => (d.tags ?? []).includes(wanted)));
      if (batch.length < 200) break;
      const last = batch[batch.length - 1];
      cursor = { value: last.created_at, id: last._id };
    }
    return found.slice(0, limit);
  }

  /** every live target of the account carrying `tag` (a schedule by tag scans them all) */
  tagged(account_id: string, tag: string): Promise<TargetDoc[]> {
    return this.list(account_id, 10_000, undefined, tag);
  }
}
