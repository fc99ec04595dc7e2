import type { DocumentStore, FindOptions, TargetDoc } from '@gauntlet/read-models';
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

  /** the account's live targets, newest first */
  list(account_id: string, limit: number, after: FindOptions['after']): Promise<TargetDoc[]> {
    return this.targets.find({ account_id, deleted: false }, { sort: { field: 'created_at', direction: 'desc' }, limit, after });
  }
}
